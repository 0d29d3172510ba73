"""R12: an edge may not connect a node to itself. (Checked per edge, when the edge is read.)"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.model import Edge
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule

RULE = Rule("R12", "Self-edge", Severity.WARNING, "An edge's source and target are the same node.")


def check_edge(edge: Edge, settings: Settings) -> Iterator[Finding]:
    if edge.source is not None and edge.source == edge.target:
        yield Finding(
            RULE.code,
            RULE.default_severity,
            f"edge connects '{edge.source}' to itself",
            edge.anchor,
            node=edge.source,
        )


EXPLANATION = RULE.explained(
    "An edge from a node to itself is almost always a slip of the mouse in the editor; loops "
    "in FlowDrop go through a loopback edge between two nodes.",
    failing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}}
  ],
  "edges": [
    {"source": "a", "target": "a"}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "html_to_markdown", "data": {"label": "To Markdown"}}
  ],
  "edges": [
    {"source": "a", "target": "b"}
  ]
}
""",
)
