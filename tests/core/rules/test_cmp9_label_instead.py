"""CMP-9's "rename instead" label found at once (`RenamePlan.label_instead`) is the label the
numbers tried one by one give (`LabelNumbers.label` with `FindingBuilder.taken_instead`), for
every kept leaf of workflows where the numbers the plan and the neighbours take form long runs:
a chain of toolboxes (the 5,000-leaf case `check --fix` took 20 s on), leaves already numbered,
a toolbox cycle, several agents, names that only differ by their number."""

from __future__ import annotations

import json
from typing import Any

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.rules.cmp9 import FindingBuilder, References, plan_renames
from tests.support.builders import node, tool_edge

AGENT = "flowdrop_node_processor_reason"
TOOLBOX = "flowdrop_node_processor_toolbox"


def _chain(pairs: int, label: Any, cycle: bool, agents: int) -> str:
    nodes = [node(f"agent{a}", AGENT, label=f"Agent {a}") for a in range(agents)]
    edges = []
    for k in range(pairs):
        nodes += [node(f"b{k}", TOOLBOX, label=f"Box {k}"), node(f"l{k}", label=label(k))]
        edges.append(tool_edge(f"l{k}", f"b{k}"))
        edges.append(tool_edge(f"b{k}", f"b{k + 1}" if k + 1 < pairs else "agent0"))
        if k % 7 == 0 and agents > 1:
            edges.append(tool_edge(f"b{k}", f"agent{1 + k % (agents - 1)}"))
    if cycle:
        edges.append(tool_edge(f"b{pairs - 1}", "b0"))
    return json.dumps({"nodes": nodes, "edges": edges})


@pytest.mark.parametrize(
    "label",
    [
        lambda k: f"Search {k // 2}",  # pairs colliding, numbered: the plan's names run on
        lambda k: "Search",
        lambda k: f"Search {k % 5 + 2}",
        lambda k: ["Search", "search", "Search 2", "Search 3"][k % 4],
    ],
)
@pytest.mark.parametrize("cycle", [False, True])
@pytest.mark.parametrize("agents", [1, 3])
def test_the_label_found_at_once_is_the_label_tried_one_by_one(
    label: Any, cycle: bool, agents: int
) -> None:
    ctx = analyze(_chain(60, label, cycle, agents)).context
    leaves = [f"l{k}" for k in range(60)]
    plan = plan_renames(ctx, leaves)
    builder = FindingBuilder(ctx, plan, References(ctx, frozenset()), {})
    nodes = ctx.graph.nodes_by_id
    compared = 0
    for leaf in leaves:
        if leaf in plan.renames:
            continue
        others = [o for o in leaves if o != leaf and nodes[o].tool_name == nodes[leaf].tool_name]
        one_by_one = plan.numbers.label(
            nodes[leaf], builder.taken_instead(leaf, others), reserve=False
        )
        assert plan.label_instead(nodes[leaf], leaf, builder.replaced(others)) == one_by_one
        compared += 1
    assert compared
