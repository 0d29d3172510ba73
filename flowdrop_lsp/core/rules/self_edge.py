"""R12: an edge may not connect a node to itself."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext

RULE = Rule("R12", "Self-edge", Severity.WARNING, "An edge's source and target are the same node.")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for edge in ctx.workflow.edges:
        if edge.source is not None and edge.source == edge.target:
            yield Finding(RULE.code, RULE.default_severity, f"edge connects '{edge.source}' to itself",
                          edge.anchor, node=edge.source)
