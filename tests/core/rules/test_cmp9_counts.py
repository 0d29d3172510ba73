"""CMP-9 from reachability bit sets (graph.ReachMasks) equals CMP-9 by flattening every consumer.

The oracle here is the rule's definition written plainly: flatten each consumer backwards
through toolboxes, group its leaves by tool name; plan renames from those flattened sets. The
rule must find the same collisions (counted whole, listed whole unless the consumer is crowded)
and give the same findings whichever way it found them. No timing here: bench/pathological.py.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flowdrop_lsp.core.analysis import Analysis, analyze
from flowdrop_lsp.core.domain.names import sanitize_tool_name
from flowdrop_lsp.core.domain.renames import LabelNumbers, rename_blocker
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.rules import cmp9
from flowdrop_lsp.core.rules.cmp9 import bounds
from tests.support.builders import node, tool_edge, workflow

AGENT = "flowdrop_node_processor_reason"
TOOLBOX = "flowdrop_node_processor_toolbox"


@contextmanager
def path(kind: str, pairs: int | None = None) -> Iterator[None]:
    """Force how collisions are found: "masks", "flatten" or "reach" (few candidates)."""
    with pytest.MonkeyPatch.context() as patch:
        if kind == "masks":
            patch.setattr(bounds, "MAX_CANDIDATES_FOR_REACH", -1)
        elif kind == "flatten":
            patch.setattr(bounds, "MAX_CANDIDATES_FOR_REACH", -1)
            patch.setattr(bounds, "MAX_MASK_BITS", -1)
        else:
            patch.setattr(bounds, "MAX_CANDIDATES_FOR_REACH", 10**9)
        if pairs is not None:
            patch.setattr(bounds, "MAX_COLLIDING_PAIRS", pairs)
        yield


# ----- the oracle ---------------------------------------------------------------------------
def oracle_flat(analysis: Analysis, consumer: str) -> list[str]:
    """The leaves of `consumer`, breadth first backwards through toolboxes (visited once)."""
    graph = analysis.graph
    boxes = graph.passthroughs
    leaves: list[str] = []
    seen = {consumer}
    queue = deque([consumer])
    while queue:
        current = queue.popleft()
        for edge in graph.incoming.get(current, ()):
            source = edge.source
            assert source is not None
            if source in boxes:
                if source not in seen:
                    seen.add(source)
                    queue.append(source)
            elif source not in leaves:
                leaves.append(source)
    return leaves


def oracle_collisions(analysis: Analysis) -> dict[str, dict[str, list[str]]]:
    """consumer → tool name → its leaves of that name in document order, where ≥ 2."""
    graph = analysis.graph
    nodes = graph.nodes_by_id
    found: dict[str, dict[str, list[str]]] = {}
    for consumer in graph.consumers:
        by_name: dict[str, list[str]] = {}
        for leaf in oracle_flat(analysis, consumer):
            if leaf in nodes:
                by_name.setdefault(nodes[leaf].tool_name, []).append(leaf)
        groups = {
            name: sorted(leaves, key=lambda leaf: nodes[leaf].span.start)
            for name, leaves in by_name.items()
            if len(leaves) > 1
        }
        if groups:
            found[consumer] = groups
    return found


def oracle_renames(analysis: Analysis, leaves: list[str]) -> dict[str, str]:
    """The rename plan of the module docstring, from flattened sets."""
    graph = analysis.graph
    nodes = graph.nodes_by_id
    flats = {c: set(oracle_flat(analysis, c)) for c in graph.consumers}
    reached = {leaf: {c for c, flat in flats.items() if leaf in flat} - {leaf} for leaf in leaves}
    blocked = {leaf for leaf in leaves if rename_blocker(nodes[leaf]) is not None}
    order = sorted(leaves, key=lambda leaf: (leaf not in blocked, nodes[leaf].span.start))
    numbers, planned, renames = LabelNumbers(), set(), {}
    claimed: dict[str, set[str]] = {}
    for leaf in order:
        name = nodes[leaf].tool_name
        if any(name in claimed.get(c, ()) for c in reached[leaf]) and leaf not in blocked:
            around = {
                nodes[other].tool_name
                for c in reached[leaf]
                for other in flats[c]
                if other != leaf and other in nodes
            }
            label = numbers.label(nodes[leaf], lambda n, around=around: n in around or n in planned)
            planned.add(sanitize_tool_name(label))
            renames[leaf] = label
        else:
            for c in reached[leaf]:
                claimed.setdefault(c, set()).add(name)
    return renames


# ----- random graphs: many same-named tools, chains, cycles, diamonds -----------------------
@st.composite
def same_named_graphs(draw: st.DrawFn) -> str:
    rng = random.Random(draw(st.integers(0, 2**32)))
    leaves = [f"leaf{i}" for i in range(draw(st.integers(2, 14)))]
    boxes = [f"box{i}" for i in range(draw(st.integers(0, 7)))]
    agents = [f"agent{i}" for i in range(draw(st.integers(1, 5)))]
    labels = ["Search", "Search", "Search", "search", "web-search", "Web Search", "Fetch 😀"]
    nodes = [node(leaf, label=rng.choice(labels)) for leaf in leaves]
    nodes += [node(box, TOOLBOX, rng.choice(["Box", "Search"])) for box in boxes]
    nodes += [node(agent, AGENT, rng.choice(["Agent", "Search", "数据"])) for agent in agents]
    if rng.random() < 0.2:  # a second definition of an id: only the first one counts
        nodes.append(node(rng.choice(leaves), label="Other"))
    edges = []
    if boxes and rng.random() < 0.6:  # a chain of toolboxes, each wired to an agent
        for index, box in enumerate(boxes):
            edges.append(tool_edge(box, rng.choice(agents)))
            if index:
                edges.append(tool_edge(boxes[index - 1], box))
    for _ in range(draw(st.integers(0, 35))):
        # Diamonds and cycles among toolboxes, agents as tools, self-edges, an undefined id.
        source = rng.choice(leaves + boxes + boxes + agents + ["ghost"])
        edges.append(tool_edge(source, rng.choice(boxes + boxes + agents + leaves[:1])))
    return workflow(nodes, edges, indent=rng.choice([None, 2]))


def assert_results_match_the_oracle(analysis: Analysis) -> None:
    expected = oracle_collisions(analysis)
    results = analysis.context.results_of("CMP-9")
    assert set(results) == set(expected)
    for consumer, collisions in results.items():
        groups = expected[consumer]
        assert {c.tool_name: c.size for c in collisions} == {n: len(g) for n, g in groups.items()}
        crowded = cmp9.colliding_pairs(collisions) > bounds.MAX_COLLIDING_PAIRS
        for collision in collisions:
            whole = tuple(groups[collision.tool_name])
            if crowded:  # listed only as far as its summary names them
                assert whole[: len(collision.leaves)] == collision.leaves
                assert len(collision.leaves) >= min(len(whole), bounds.KEPT_OF_CROWDED)
            else:
                assert collision.leaves == whole


@given(same_named_graphs(), st.sampled_from([None, 3, 0]))
def test_collisions_from_bit_sets_equal_the_flattening_oracle(text: str, pairs: int | None) -> None:
    with path("masks", pairs):
        assert_results_match_the_oracle(analyze(text))


@given(same_named_graphs(), st.sampled_from([None, 3, 0]))
def test_findings_are_the_same_whichever_way_collisions_are_found(
    text: str, pairs: int | None
) -> None:
    with path("flatten", pairs):
        flattened = analyze(text).findings
    with path("masks", pairs):
        masked = analyze(text).findings
    with path("reach", pairs):
        reached = analyze(text).findings
    assert masked == flattened
    assert reached == flattened


@given(same_named_graphs())
def test_the_rename_plan_equals_the_flattening_oracle(text: str) -> None:
    analysis = analyze(text)
    colliding = sorted(
        {
            leaf
            for c in analysis.context.results_of("CMP-9").values()
            for x in c
            for leaf in x.leaves
        }
    )
    plan = cmp9.plan_renames(analysis.context, colliding)
    assert plan.renames == oracle_renames(analysis, colliding)


# ----- the same-named toolbox chain (bench/pathological.py, smaller) ------------------------
def chain(count: int, label: Any = "Search") -> str:
    nodes, edges = [], []
    for k in range(count):
        nodes += [
            node(f"box{k}", TOOLBOX, f"Box {k}"),
            node(f"agent{k}", AGENT, f"Agent {k}"),
            node(f"leaf{k}", label=label),
        ]
        edges += [tool_edge(f"leaf{k}", f"box{k}"), tool_edge(f"box{k}", f"agent{k}")]
        if k:
            edges.append(tool_edge(f"box{k - 1}", f"box{k}"))
    return workflow(nodes, edges, indent=None)


def test_a_same_named_chain_counts_every_agent_and_summarises_the_crowded_ones() -> None:
    text = chain(120)
    with path("masks", pairs=45):  # agent k sees k + 1 tools: agents 10.. have > 45 pairs
        analysis = analyze(text)
        assert_results_match_the_oracle(analysis)
        found = [f for f in analysis.findings if f.code == "CMP-9"]
    summaries = [f for f in found if f.node is not None and f.node.startswith("agent")]
    assert [f.node for f in summaries] == [f"agent{k}" for k in range(10, 110)]
    assert summaries[-1].message.startswith(
        '110 tools at "Agent 109" share 1 tool name (5995 colliding pairs'
    )
    # Past 100 crowded agents, one finding counts the rest, on the first one left out.
    (rest,) = [f for f in found if f.node is None]
    assert rest.message.startswith("… and 10 more CMP-9 findings from here on")
    assert text[rest.span.start : rest.span.end] == '"Agent 110"'
    per_tool = {f.node for f in found} - {f.node for f in summaries} - {None}
    assert per_tool == {f"leaf{k}" for k in range(10)}
    with path("flatten", pairs=45):
        assert analyze(text).findings == analysis.findings


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            '"leaf0", "type": "http_request", "data": {"label": "Search"',
            '"leaf0", "data": {"label": "X"',
        ),
        (
            '"leaf5", "type": "http_request", "data": {"label": "Search"',
            '"leaf5", "data": {"label": "X"',
        ),
        ('"source": "box3", "target": "box4"', '"source": "box3", "target": "agent0"'),
        ('"source": "box7", "target": "box8"', '"source": "box7", "target": "box2"'),  # a cycle
        ('{"id": "box6", "type": "' + TOOLBOX, '{"id": "box6", "type": "http_request'),
    ],
)
def test_an_edit_of_the_chain_gives_the_from_scratch_findings(old: str, new: str) -> None:
    text = chain(40)
    with path("masks", pairs=45), pytest.MonkeyPatch.context() as patch:
        patch.setattr(bounds, "MAX_CROWDED_SUMMARIES", 5)  # 30 crowded agents: the cap moves
        document = WorkflowDocument(text)
        document.findings()
        start = text.index(old)
        document.apply_edit(start, start + len(old), new)
        edited = text[:start] + new + text[start + len(old) :]
        assert document.findings() == analyze(edited).findings
        assert_results_match_the_oracle(analyze(edited))
