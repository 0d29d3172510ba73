"""Toolboxes that forward tools to each other in a cycle: spec rule DATA-10, which refuses the
workflow. (The compile-time cycle check, CMP-5, ignores tool edges; DATA-10 is the rule that
catches this. The code was FD-TOOLBOX-CYCLE until issue 26, and that code still works in
settings and baselines: core/config/renamed_codes.py.) The flattening terminates on its own, so
collisions inside the cycle are still found."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext

RULE = Rule(
    "DATA-10",
    "Toolbox cycle",
    Severity.ERROR,
    "Toolboxes forward tools to each other in a cycle: FlowDrop refuses the workflow.",
    spec_ids=("DATA-10",),
)


# As CMP-5's: a cycle of thousands of toolboxes (a long chain closed) is named by its ends, not
# box by box (the message was every box, 3,333 of them, and as many related locations).
NAMED_IN_MESSAGE = 6  # toolboxes of a cycle a message names; a longer one is cut in the middle
RELATED_BOXES = 20  # toolboxes of a cycle shown as related locations


def check(ctx: RuleContext) -> Iterator[Finding]:
    for cycle in ctx.graph.toolbox_cycles():
        first = ctx.graph.nodes_by_id[cycle[0]]
        if len(cycle) > NAMED_IN_MESSAGE:
            head = NAMED_IN_MESSAGE - 2
            names = [ctx.describe(box) for box in cycle[:head]]
            names += [f"… {len(cycle) - head - 1} more …", ctx.describe(cycle[-1])]
        else:
            names = [ctx.describe(box) for box in cycle]
        loop = " → ".join([*names, names[0]])
        yield RULE.finding(
            first.anchor,
            f"toolboxes forward tools in a cycle: {loop}",
            node=first.id,
            related=tuple(
                RelatedLocation(
                    ctx.graph.nodes_by_id[box].anchor, f"in the cycle: {ctx.describe(box)}"
                )
                for box in cycle[1 : RELATED_BOXES + 1]
            ),
        )


EXPLANATION = RULE.explained(
    "Toolbox forwarding must not form a cycle: FlowDrop refuses a workflow in which it does "
    "(spec rule DATA-10; the compile-time cycle check, CMP-5, ignores tool edges, DATA-10 is "
    "the rule that sees this). Such toolboxes offer no consumer anything new. Collisions inside "
    "the cycle are still found. The rule's code was FD-TOOLBOX-CYCLE: settings and baselines "
    "that name it keep working.",
    failing="""\
{
  "nodes": [
    {"id": "box_a", "type": "toolbox", "data": {"label": "Box A"}},
    {"id": "box_b", "type": "toolbox", "data": {"label": "Box B"}}
  ],
  "edges": [
    {"id": "e1", "source": "box_a", "target": "box_b", "data": {"edgeType": "tool_availability"}},
    {"id": "e2", "source": "box_b", "target": "box_a", "data": {"edgeType": "tool_availability"}}
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
    {"id": "e1", "source": "box_a", "target": "box_b", "data": {"edgeType": "tool_availability"}},
    {"id": "e2", "source": "box_b", "target": "agent_1", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
)
