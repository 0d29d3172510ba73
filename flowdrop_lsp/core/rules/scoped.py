"""The rules kept per node and per edge, asked together: a whole read walks the nodes and edges
once for all of them, not once per rule.

A rule made of a check per node and one per edge (`base.scoped_findings`: the launch checks,
the expressions, the dynamic ports…) declares them as its module's `SCOPED` and asks through it.
On a from-scratch analysis every such rule must check every node and edge: asked rule by rule,
a 10,000-node document is walked twenty times, and each walk reads every node from memory
again (the larger part of the cost, not the checks). `check_scoped_together` walks it once,
each node checked by every rule in turn, and leaves each rule's answer in
`RuleContext.walked`; the rule then takes it when it asks, as long as the graph has not
changed since and it asks with the same checks (else it walks alone, as before). Each rule's
findings are the same, in the same order: every node, then every edge, in `ToolGraph.every`'s
order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.base import (
    EdgeScopedCheck,
    NodeCheck,
    RuleContext,
    ScopedMemo,
    scoped_findings,
    scoped_with_node_types,
)


@dataclass(frozen=True)
class Scoped:
    """A rule kept per node (with an id) and per edge: its code and checks, and whether it
    compares elements with the site's node types (`node_types`: nothing without them,
    `base.scoped_with_node_types`)."""

    code: str
    node_check: NodeCheck | None = None
    edge_check: EdgeScopedCheck | None = None
    node_types: bool = False

    def findings(self, ctx: RuleContext) -> list[Finding]:
        """The rule's findings now (`base.scoped_findings`)."""
        ask = scoped_with_node_types if self.node_types else scoped_findings
        return ask(ctx, self.code, node_check=self.node_check, edge_check=self.edge_check)

    def asks_first(self, ctx: RuleContext) -> bool:
        """Whether its next question is its first (it must then check every node and edge)."""
        if self.node_types and ctx.settings.node_type_catalog is None:
            return False  # it asks nothing at all
        walked = ctx.walked.get(self.code)
        return not ctx.graph.subscribed(self.code) and (
            walked is None or walked[0] != ctx.graph.version
        )


def check_scoped_together(ctx: RuleContext, rules: Iterable[Scoped]) -> None:
    """The first answer of each of `rules` whose next question is its first, found in one walk
    over the nodes and edges and left in `ctx.walked` for the rule to take (see the module)."""
    pending = [rule for rule in rules if rule.asks_first(ctx)]
    if not pending:
        return
    memos: dict[str, ScopedMemo] = {rule.code: {} for rule in pending}
    node_rules = [(r.node_check, memos[r.code]) for r in pending if r.node_check is not None]
    edge_rules = [(r.edge_check, memos[r.code]) for r in pending if r.edge_check is not None]
    nodes, edges = ctx.graph.every()
    if node_rules:
        for node in nodes:
            if not node.id:
                continue
            editor = node.editor
            if editor is not None and editor.broken:
                continue  # half-typed: its syntax finding says all there is to say
            for check, memo in node_rules:
                found = [*check(ctx, node)]
                if found:
                    memo[id(node)] = (node, found)
    if edge_rules:
        for edge in edges:
            editor = edge.editor
            if editor is not None and editor.broken:
                continue
            for edge_check, memo in edge_rules:
                found = [*edge_check(ctx, edge)]
                if found:
                    memo[id(edge)] = (edge, found)
    version = ctx.graph.version
    for rule in pending:
        ctx.walked[rule.code] = (version, rule.node_check, rule.edge_check, memos[rule.code])
