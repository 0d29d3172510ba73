"""R13: no two edges with the same source, target and handles."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.model import Edge
from flowdrop_lsp.core.rules.base import Rule, RuleContext

RULE = Rule("R13", "Duplicate edge", Severity.WARNING,
            "Two edges have the same source, target and handles.")


def check(ctx: RuleContext) -> Iterator[Finding]:
    seen: dict[tuple[str | None, ...], Edge] = {}
    for edge in ctx.workflow.edges:
        if edge.source is None or edge.target is None:
            continue
        key = (edge.source, edge.target, edge.source_handle, edge.target_handle)
        first = seen.setdefault(key, edge)
        if first is not edge:
            yield Finding(
                RULE.code,
                RULE.default_severity,
                f"duplicate edge from '{edge.source}' to '{edge.target}' (same handles as an earlier edge)",
                edge.anchor,
                node=edge.target,
                related=(RelatedLocation(first.anchor, "the same edge, first here"),),
            )
