"""EDGE-5: a declared `data.edgeType` must be a recognised value; an unrecognised one is refused
at save, and until then the edge is classified by its target handle."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext

RULE = Rule("EDGE-5", "Unrecognised edge type", Severity.WARNING,
            "A declared `data.edgeType` is not a recognised value; the target handle decides instead.")


def check(ctx: RuleContext) -> Iterator[Finding]:
    known = ", ".join(sorted(ctx.settings.edge_types))
    for edge in ctx.workflow.edges:
        if edge.declared_type and edge.declared_type_span and edge.declared_type not in ctx.settings.edge_types:
            verdict = "a tool edge" if edge.is_tool else "not a tool edge"
            yield Finding(
                RULE.code,
                RULE.default_severity,
                f"edgeType '{edge.declared_type}' is not recognised (known: {known}); "
                f"FlowDrop refuses it at save; by its target handle this edge is {verdict}",
                edge.declared_type_span,
                node=edge.target,
            )
