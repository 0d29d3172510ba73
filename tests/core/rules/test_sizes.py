"""Pathological sizes (issue 10 §5): CMP-9's caps give a readable, bounded output, and on
inputs below the caps exactly the uncapped findings. (No timing here: bench/pathological.py.)"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.cmp9 import bounds as cmp9
from tests.support.builders import node, tool_edge, workflow

AGENT = "flowdrop_node_processor_reason"
TOOLBOX = "flowdrop_node_processor_toolbox"


@contextmanager
def caps(pairs: int, entries: int, listed: int = 100, per_finding: int = 1000) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cmp9, "MAX_COLLIDING_PER_FINDING", per_finding)
        patch.setattr(cmp9, "MAX_COLLIDING_PAIRS", pairs)
        patch.setattr(cmp9, "MAX_CONSUMER_ENTRIES", entries)
        patch.setattr(cmp9, "MAX_COLLIDING_LISTED", listed)
        yield


def cmp9_findings(text: str) -> list[Finding]:
    return [f for f in analyze(text).findings if f.code == "CMP-9"]


def same_named(count: int, consumer: str = "agent") -> tuple[list[dict[str, Any]], list[Any]]:
    nodes = [node(f"s{i}", label="Search") for i in range(count)]
    return nodes, [tool_edge(f"s{i}", consumer) for i in range(count)]


def test_a_crowded_consumer_gets_one_summary_finding() -> None:
    nodes, edges = same_named(4)  # 6 colliding pairs
    nodes += [node("agent", AGENT, "Agent"), node("x1", label="X"), node("x2", label="X")]
    edges += [tool_edge("x1", "agent"), tool_edge("x2", "agent")]  # 1 more pair
    text = workflow(nodes, edges)
    with caps(pairs=7, entries=50):
        assert {f.node for f in cmp9_findings(text)} == {"s0", "s1", "s2", "s3", "x1", "x2"}
    with caps(pairs=6, entries=50):
        (summary,) = cmp9_findings(text)
    assert summary.node == "agent"
    assert summary.message.startswith('6 tools at "Agent" share 2 tool names (7 colliding pairs')
    assert '"search" ×4 and "x" ×2' in summary.message
    assert summary.extra_dict()["colliding_pairs"] == 7
    assert summary.extra_dict()["tool_names"] == ("search", "x")
    assert summary.fixes == ()  # no rename plan over thousands of tools
    assert text[summary.span.start : summary.span.end] == '"Agent"'
    assert [r.message for r in summary.related] == [
        *(f'"search": "Search" (s{i})' for i in range(4)),
        '"x": "X" (x1)',
        '"x": "X" (x2)',
    ]


def test_a_leaf_crowded_at_one_consumer_keeps_its_finding_at_another() -> None:
    nodes, edges = same_named(4)
    nodes += [node("agent", AGENT, "Agent"), node("small", AGENT, "Small")]
    edges += [tool_edge("s0", "small"), tool_edge("s1", "small")]
    with caps(pairs=5, entries=50):
        found = cmp9_findings(workflow(nodes, edges))
    summaries = [f for f in found if f.node == "agent"]
    assert len(summaries) == 1
    per_tool = {f.node: f for f in found if f.node != "agent"}
    assert set(per_tool) == {"s0", "s1"}
    assert [c["consumer"] for c in per_tool["s0"].extra_dict()["consumers"]] == ["small"]


def test_the_consumers_list_is_capped_and_the_message_counts_them_all() -> None:
    nodes = [node("a", label="Search"), node("b", label="Search")]
    edges = []
    for k in range(5):
        nodes.append(node(f"agent{k}", AGENT, f"Agent {k}"))
        edges += [tool_edge("a", f"agent{k}"), tool_edge("b", f"agent{k}")]
    text = workflow(nodes, edges)
    uncapped = {f.node: f for f in cmp9_findings(text)}
    with caps(pairs=5000, entries=2):
        capped = {f.node: f for f in cmp9_findings(text)}
    for leaf in ("a", "b"):
        assert [c["consumer"] for c in capped[leaf].extra_dict()["consumers"]] == [
            "agent0",
            "agent1",
        ]
        assert len(uncapped[leaf].extra_dict()["consumers"]) == 5
        assert "(5 consumers)" in uncapped[leaf].message
        assert capped[leaf].message == uncapped[leaf].message.replace(
            "(5 consumers)", "(5 consumers; tools counted at the first 2)"
        )
        assert capped[leaf].fixes == uncapped[leaf].fixes


def test_each_consumers_list_of_colliding_tools_is_capped_and_counted() -> None:
    nodes, edges = same_named(5)
    nodes.append(node("agent", AGENT, "Agent"))
    text = workflow(nodes, edges)
    uncapped = {f.node: f for f in cmp9_findings(text)}
    with caps(pairs=5000, entries=50, listed=2):
        capped = {f.node: f for f in cmp9_findings(text)}
    (entry,) = capped["s0"].extra_dict()["consumers"]
    assert dict(entry) == {
        "consumer": "agent",
        "colliding_with": ("s1", "s2"),
        "route": (),
        "colliding_count": 4,
    }
    (full,) = uncapped["s0"].extra_dict()["consumers"]
    assert dict(full) == {
        "consumer": "agent",
        "colliding_with": ("s1", "s2", "s3", "s4"),
        "route": (),
    }
    assert capped["s0"].message == uncapped["s0"].message
    assert capped["s0"].fixes == uncapped["s0"].fixes


# ----- below the caps, nothing changes ------------------------------------------------------
@st.composite
def small_tool_graphs(draw: st.DrawFn) -> str:
    """Random leaves (few distinct names), toolboxes and agents, randomly wired with tools."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    leaves = [f"leaf{i}" for i in range(draw(st.integers(1, 10)))]
    boxes = [f"box{i}" for i in range(draw(st.integers(0, 4)))]
    agents = [f"agent{i}" for i in range(draw(st.integers(1, 4)))]
    nodes = [
        node(leaf, label=rng.choice(["Search", "search", "Fetch", "Lookup 😀"])) for leaf in leaves
    ]
    names = ["Search", "Fetch", "Box", "Agent"]  # toolboxes and agents share names sometimes
    nodes += [node(box, TOOLBOX, rng.choice(names)) for box in boxes]
    nodes += [node(agent, AGENT, rng.choice(names)) for agent in agents]
    edges = []
    for _ in range(draw(st.integers(0, 30))):
        # Agents as tools of agents, self-edges, cycles, and an endpoint no node defines.
        source = rng.choice(leaves + boxes + agents + ["ghost"])
        edges.append(tool_edge(source, rng.choice(boxes + agents + leaves[:1])))
    return workflow(nodes, edges, indent=rng.choice([None, 2]))


@given(small_tool_graphs())
def test_below_the_caps_findings_equal_the_uncapped_ones(text: str) -> None:
    with caps(pairs=10**9, entries=10**9):
        uncapped = analyze(text).findings
    assert analyze(text).findings == uncapped


@given(small_tool_graphs())
def test_crowded_consumers_replace_exactly_their_per_tool_findings(text: str) -> None:
    """With the pair cap at 0, every consumer with a collision is summarised, and no per-tool
    CMP-9 finding remains; the other rules' findings are untouched."""
    everything = analyze(text).findings
    with caps(pairs=0, entries=50):
        summarised = analyze(text).findings
    assert [f for f in summarised if f.code != "CMP-9"] == [
        f for f in everything if f.code != "CMP-9"
    ]
    consumers = {
        c["consumer"] for f in everything if f.code == "CMP-9" for c in f.extra_dict()["consumers"]
    }
    assert {f.node for f in summarised if f.code == "CMP-9"} == consumers


@given(small_tool_graphs())
def test_collisions_by_reach_equal_collisions_by_flattening(text: str) -> None:
    """CMP-9 finds a consumer's collisions either by flattening it or, when few nodes share a
    name, by checking which of those reach it: both give the same findings."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cmp9, "MAX_CANDIDATES_FOR_REACH", -1)
        flattened = analyze(text).findings
        patch.setattr(cmp9, "MAX_CANDIDATES_FOR_REACH", 10**9)
        reached = analyze(text).findings
    assert reached == flattened


def test_all_the_consumers_lists_of_one_finding_share_a_budget() -> None:
    nodes, edges = same_named(4, consumer="agent0")
    for k in range(3):
        nodes.append(node(f"agent{k}", AGENT, f"Agent {k}"))
        edges += [tool_edge(f"s{i}", f"agent{k}") for i in range(4)] if k else []
    with caps(pairs=5000, entries=50, listed=100, per_finding=5):
        found = {f.node: f for f in cmp9_findings(workflow(nodes, edges))}
    entries = [dict(e) for e in found["s0"].extra_dict()["consumers"]]
    assert [e["colliding_with"] for e in entries] == [("s1", "s2", "s3"), ("s1", "s2"), ()]
    assert [e.get("colliding_count") for e in entries] == [None, 3, 3]
