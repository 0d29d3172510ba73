"""R12: an edge may not connect a node to itself.

Found from the graph's index of self-edges (`ToolGraph.self_edges`) after every change, not
when an edge is read: the finding names the edge by its position in `edges` (`edge.3`), which
an edge inserted before it changes without re-reading it."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Edge
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import (
    FINDINGS_PER_GROUP,
    Rule,
    RuleContext,
    edge_identity,
    first_with_summary,
)

RULE = Rule(
    "R12",
    "Self-edge",
    Severity.ERROR,
    "An edge's source and target are the same node.",
    spec_ids=("R12",),
)
LOCATOR_CODE = "R12_EDGE_SELF"  # the spec's name for it


def check(ctx: RuleContext) -> Iterator[Finding]:
    found = ctx.graph.self_edges  # in document order
    # A million self-edges are counted, not each made into a finding on every change.
    yield from first_with_summary(found[: FINDINGS_PER_GROUP + 1], _finding, total=len(found))


def _finding(edge: Edge) -> Finding:
    return RULE.finding(
        edge.anchor,
        f"edge connects '{edge.source}' to itself",
        node=edge.source,
        locator_code=LOCATOR_CODE,
        edge=edge,
        identity=edge_identity(edge),
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
    {"id": "e1", "source": "a", "target": "a"}
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
    {"id": "e1", "source": "a", "target": "b"}
  ]
}
""",
)
