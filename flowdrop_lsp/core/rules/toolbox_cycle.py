"""Toolboxes that forward tools to each other in a cycle.

The compile-time cycle check ignores tool edges (CMP-5), so the spec does not catch this; the
flattening terminates on its own, and the cycle is reported because it is almost surely a
wiring mistake."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext

RULE = Rule(
    "FD-TOOLBOX-CYCLE",
    "Toolbox cycle",
    Severity.WARNING,
    "Toolboxes forward tools to each other in a cycle (CMP-5's cycle check does not see it).",
    spec_ids=("DATA-10",),
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for cycle in ctx.graph.toolbox_cycles():
        first = ctx.graph.nodes_by_id[cycle[0]]
        loop = " → ".join(ctx.describe(box) for box in [*cycle, cycle[0]])
        yield Finding(
            RULE.code,
            RULE.default_severity,
            f"toolboxes forward tools in a cycle: {loop}",
            first.anchor,
            node=first.id,
            related=tuple(
                RelatedLocation(
                    ctx.graph.nodes_by_id[box].anchor, f"in the cycle: {ctx.describe(box)}"
                )
                for box in cycle[1:]
            ),
        )


EXPLANATION = RULE.explained(
    "Toolboxes that forward tools to each other in a cycle offer no consumer anything new and "
    "make the wiring hard to follow; the spec's cycle check (CMP-5) ignores tool edges, so it "
    "does not see this. Collisions inside the cycle are still found.",
    failing="""\
{
  "nodes": [
    {"id": "box_a", "type": "toolbox", "data": {"label": "Box A"}},
    {"id": "box_b", "type": "toolbox", "data": {"label": "Box B"}}
  ],
  "edges": [
    {"source": "box_a", "target": "box_b", "data": {"edgeType": "tool_availability"}},
    {"source": "box_b", "target": "box_a", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "box_a", "type": "toolbox", "data": {"label": "Box A"}},
    {"id": "box_b", "type": "toolbox", "data": {"label": "Box B"}},
    {"id": "agent_1", "type": "agent", "data": {"label": "Research Agent"}}
  ],
  "edges": [
    {"source": "box_a", "target": "box_b", "data": {"edgeType": "tool_availability"}},
    {"source": "box_b", "target": "agent_1", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
)
