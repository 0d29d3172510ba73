"""R12: an edge may not connect a node to itself. (Checked per edge, when the edge is read.)"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.model import Edge
from flowdrop_lsp.core.rules.base import Rule
from flowdrop_lsp.core.settings import Settings

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
