"""R2: node ids are unique. A later definition is reported, pointing at the first one."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext

RULE = Rule("R2", "Duplicate node id", Severity.ERROR,
            "Two nodes share an id; edges cannot tell them apart (the first definition is used).")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for node in ctx.workflow.nodes:
        if node.id is None or node.id_span is None:
            continue
        first = ctx.graph.nodes_by_id.get(node.id)
        if first is not None and first is not node and first.id_span is not None:
            yield Finding(
                RULE.code,
                RULE.default_severity,
                f"duplicate node id '{node.id}': already defined by the node at {first.display}",
                node.id_span,
                node=node.id,
                related=(RelatedLocation(first.id_span, f"'{node.id}' first defined here"),),
            )
