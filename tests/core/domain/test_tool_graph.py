"""Roles, flattening through toolboxes, and the graph rules around CMP-9 (docs/domain.md §3)."""

from __future__ import annotations

import json
import time

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.core.rules.cmp9 import bounds
from tests.support.builders import (
    at,
    cmp9_by_node,
    codes,
    findings,
    node,
    token_span,
    tool_edge,
    workflow,
)


def _consumers(text: str) -> dict[str, set[str]]:
    analysis = analyze(text)
    return {c: set(analysis.context.flat(c).leaves) for c in analysis.graph.consumers}


def test_three_hop_toolbox_chain_collision_is_found() -> None:
    text = workflow(
        [
            node("far", label="Lookup Page"),
            node("near", label="lookup-page"),
            node("box1", "toolbox", "Inner"),
            node("box2", "toolbox", "Middle"),
            node("box3", "toolbox", "Outer"),
            node("agent", "agent", "Agent"),
        ],
        [
            tool_edge("far", "box1"),
            tool_edge("box1", "box2"),
            tool_edge("box2", "box3"),
            tool_edge("box3", "agent"),
            tool_edge("near", "agent"),
        ],
    )
    found = cmp9_by_node(text)
    assert set(found) == {"far", "near"}
    assert dict(found["far"][0].extra)["consumers"][0]["route"] == ("box1", "box2", "box3")
    assert dict(found["near"][0].extra)["consumers"][0]["route"] == ()
    # The route is told in related information, at the consumer.
    assert any(
        'through toolboxes "Inner" → "Middle" → "Outer"' in r.message
        for r in found["far"][0].related
    )
    # Nothing is ever reported on a toolbox's label.
    for box_label in ('"Inner"', '"Middle"', '"Outer"'):
        assert not [f for f in analyze(text).findings if f.span == token_span(text, box_label)]
    assert _consumers(text) == {"agent": {"far", "near"}}


def test_diamond_one_leaf_through_two_routes_is_one_tool() -> None:
    text = workflow(
        [
            node("t", label="Search"),
            node("left", "toolbox"),
            node("right", "toolbox"),
            node("agent", "agent"),
        ],
        [
            tool_edge("t", "left"),
            tool_edge("t", "right"),
            tool_edge("left", "agent"),
            tool_edge("right", "agent"),
        ],
    )
    assert cmp9_by_node(text) == {}
    assert _consumers(text) == {"agent": {"t"}}


def test_toolbox_cycle_terminates_is_refused_and_still_finds_collisions_inside() -> None:
    text = workflow(
        [
            node("a", label="Search"),
            node("b", label="SEARCH"),
            node("box1", "toolbox", "Box One"),
            node("box2", "toolbox", "Box Two"),
            node("box3", "toolbox", "Box Three"),
            node("agent", "agent"),
        ],
        [
            tool_edge("a", "box1"),
            tool_edge("b", "box2"),
            tool_edge("box1", "box2"),
            tool_edge("box2", "box3"),
            tool_edge("box3", "box1"),
            tool_edge("box1", "agent"),
        ],
    )
    analysis = analyze(text)
    cycles = [f for f in analysis.findings if f.code == "DATA-10"]
    assert len(cycles) == 1
    assert cycles[0].severity is Severity.ERROR
    assert cycles[0].span == token_span(text, '"Box One"')
    assert sorted(at(text, r.span) for r in cycles[0].related) == ['"Box Three"', '"Box Two"']
    assert set(cmp9_by_node(text)) == {"a", "b"}


def test_toolbox_wired_into_itself_is_a_cycle() -> None:
    text = workflow(
        [node("t", label="T"), node("box", "toolbox", "Loop"), node("agent", "agent")],
        [tool_edge("t", "box"), tool_edge("box", "box"), tool_edge("box", "agent")],
    )
    assert codes(text).count("DATA-10") == 1
    assert _consumers(text) == {"agent": {"t"}}


def test_closed_toolbox_cycle_without_consumer_has_no_consumer() -> None:
    text = workflow(
        [node("t", label="T"), node("box1", "toolbox"), node("box2", "toolbox")],
        [tool_edge("t", "box1"), tool_edge("box1", "box2"), tool_edge("box2", "box1")],
    )
    assert _consumers(text) == {}
    assert codes(text) == ["DATA-10"]


def test_shared_toolbox_feeding_two_consumers_reports_once_per_label() -> None:
    text = workflow(
        [
            node("a", label="Fetch"),
            node("b", label="fetch"),
            node("box", "flowdrop_node_processor_toolbox", "Shared Tools"),
            node("reason", "aincient_reason", "Reason"),
            node("invoke", "aincient_flows_aincient_invoke", "Invoke"),
        ],
        [
            tool_edge("a", "box"),
            tool_edge("b", "box"),
            tool_edge("box", "reason"),
            tool_edge("box", "invoke"),
        ],
    )
    found = cmp9_by_node(text)
    assert set(found) == {"a", "b"}
    for leaf, other in (("a", "b"), ("b", "a")):
        assert len(found[leaf]) == 1  # one finding per label, naming both consumers
        finding = found[leaf][0]
        assert dict(finding.extra)["consumers"] == (
            {"consumer": "reason", "colliding_with": (other,), "route": ("box",)},
            {"consumer": "invoke", "colliding_with": (other,), "route": ("box",)},
        )
        assert finding.message.startswith('tool name "fetch" also used by ')
        assert finding.message.endswith(
            'at "Reason" and "Invoke" (2 consumers); the runtime would call only one of them'
        )
        assert len(finding.message) < 200
        related = [at(text, r.span) for r in finding.related]
        assert '"Reason"' in related and '"Invoke"' in related


def test_same_name_at_two_consumers_is_not_a_collision() -> None:
    text = workflow(
        [
            node("a", label="Search"),
            node("b", label="search"),
            node("agent1", "agent"),
            node("agent2", "agent"),
        ],
        [tool_edge("a", "agent1"), tool_edge("b", "agent2")],
    )
    assert cmp9_by_node(text) == {}


def test_per_consumer_scoping_through_separate_toolboxes() -> None:
    text = workflow(
        [
            node("a", label="Search"),
            node("b", label="search"),
            node("box1", "toolbox"),
            node("box2", "toolbox"),
            node("agent1", "agent"),
            node("agent2", "agent"),
        ],
        [
            tool_edge("a", "box1"),
            tool_edge("b", "box2"),
            tool_edge("box1", "agent1"),
            tool_edge("box2", "agent2"),
        ],
    )
    assert cmp9_by_node(text) == {}
    assert _consumers(text) == {"agent1": {"a"}, "agent2": {"b"}}


def test_collision_between_a_direct_tool_and_a_toolbox_tool() -> None:
    text = workflow(
        [
            node("direct", label="Weather API"),
            node("boxed", label="weather api"),
            node("box", "toolbox", "Kit"),
            node("agent", "agent", "Planner"),
        ],
        [tool_edge("direct", "agent"), tool_edge("boxed", "box"), tool_edge("box", "agent")],
    )
    found = cmp9_by_node(text)
    assert set(found) == {"direct", "boxed"}
    related = [r.message for r in found["direct"][0].related]
    assert 'consumer "Planner" (agent): wired directly' in related
    assert (
        'also "weather_api": "weather api" (boxed), through toolbox "Kit" to "Planner"' in related
    )
    # The consumer is a related location of each finding.
    planner = token_span(text, '"Planner"')
    assert all(planner in [r.span for r in fs[0].related] for fs in found.values())


def test_undefined_consumer_is_refused() -> None:
    text = workflow([node("a", label="Search")], [tool_edge("a", "ghost_agent")])
    found = findings(text)
    assert [(f.code, f.severity, at(text, f.span)) for f in found] == [
        ("R8", Severity.ERROR, '"ghost_agent"')
    ]


def test_undefined_consumer_still_gets_cmp9() -> None:
    text = workflow(
        [node("a", label="Search"), node("b", label="search")],
        [tool_edge("a", "ghost"), tool_edge("b", "ghost")],
    )
    assert set(cmp9_by_node(text)) == {"a", "b"}
    assert [f.severity for f in findings(text, "R8")] == [Severity.ERROR, Severity.ERROR]


def test_undefined_source_is_refused_and_no_tool() -> None:
    text = workflow(
        [node("a", label="Search"), node("agent", "agent")],
        [tool_edge("ghost", "agent"), tool_edge("a", "agent")],
    )
    assert [(f.code, f.severity) for f in findings(text)] == [("R8", Severity.ERROR)]


def _lattice(layers: int) -> str:
    """`layers` layers of two toolboxes, each box wired to both boxes of the next layer: 2**layers
    routes from the first layer to the agent. Two colliding leaves enter at the bottom, one of
    them into both bottom boxes."""
    nodes = [node(f"b{layer}_{k}", "toolbox") for layer in range(layers) for k in range(2)]
    nodes += [
        node("t1", label="Search"),
        node("t2", label="search"),
        node("t3", label="Other"),
        node("agent", "agent"),
    ]
    edges = [
        tool_edge(f"b{layer}_{k}", f"b{layer + 1}_{j}")
        for layer in range(layers - 1)
        for k in range(2)
        for j in range(2)
    ]
    edges += [tool_edge(f"b{layers - 1}_{k}", "agent") for k in range(2)]
    edges += [
        tool_edge("t1", "b0_0"),
        tool_edge("t1", "b0_1"),
        tool_edge("t2", "b0_1"),
        tool_edge("t3", f"b{layers // 2}_0"),
    ]
    return workflow(nodes, edges, indent=None)


def test_forty_layer_diamond_lattice_is_fast_and_counts_each_leaf_once() -> None:
    text = _lattice(40)
    started = time.perf_counter()
    analysis = analyze(text)
    elapsed = time.perf_counter() - started
    assert elapsed < 10
    assert set(analysis.context.flat("agent").leaves) == {"t1", "t2", "t3"}
    cmp9 = [f for f in analysis.findings if f.code == "CMP-9"]
    assert sorted(f.node for f in cmp9) == ["t1", "t2"]
    assert all(len(dict(f.extra)["consumers"][0]["route"]) == 40 for f in cmp9)


def test_chain_of_5000_toolboxes_completes() -> None:
    count = 5000
    nodes = [node(f"box{i}", "toolbox", f"Box {i}") for i in range(count)]
    nodes += [
        node("t1", label="Search"),
        node("t2", label="search"),
        node("agent", "agent", "Agent"),
    ]
    edges = [tool_edge(f"box{i}", f"box{i + 1}") for i in range(count - 1)]
    edges += [
        tool_edge(f"box{count - 1}", "agent"),
        tool_edge("t1", "box0"),
        tool_edge("t2", "box0"),
    ]
    text = workflow(nodes, edges, indent=None)
    started = time.perf_counter()
    analysis = analyze(text)
    assert time.perf_counter() - started < 10
    cmp9 = [f for f in analysis.findings if f.code == "CMP-9"]
    assert sorted(f.node for f in cmp9) == ["t1", "t2"]
    # The data lists the route's first toolboxes and says how long it is.
    entries = [dict(f.extra)["consumers"][0] for f in cmp9]
    assert all(len(e["route"]) == bounds.MAX_ROUTE_LISTED for e in entries)
    assert all(e["route_length"] == count for e in entries)
    # The route names the ends of the chain, not all 5000 boxes.
    routes = [r.message for f in cmp9 for r in f.related if r.message.startswith("consumer")]
    assert len(routes) == 2
    assert all(len(r) < 1000 and '"Box 0"' in r and '"Box 4999"' in r for r in routes)
    assert "DATA-10" not in {f.code for f in analysis.findings}


def test_many_same_named_tools_stay_linear() -> None:
    """300 same-named tools in a toolbox shared by 10 agents: 300 findings, each message short."""
    nodes = [node(f"t{i}", label="Search") for i in range(300)] + [node("box", "toolbox")]
    nodes += [node(f"agent{j}", "agent") for j in range(10)]
    edges = [tool_edge(f"t{i}", "box") for i in range(300)] + [
        tool_edge("box", f"agent{j}") for j in range(10)
    ]
    text = workflow(nodes, edges, indent=None)
    started = time.perf_counter()
    cmp9 = findings(text, "CMP-9")
    assert time.perf_counter() - started < 10
    assert len(cmp9) == 300
    assert max(len(f.message) for f in cmp9) < 200
    assert "and 297 other tools at " in cmp9[0].message
    assert "(10 consumers)" in cmp9[0].message
    assert max(len(f.related) for f in cmp9) <= 20 + 20  # consumers and other tools, capped


def test_cmp10_only_for_types_known_not_to_accept_tools() -> None:
    text = workflow(
        [
            node("t1", label="One"),
            node("t2", label="Two"),
            node("t3", label="Three"),
            node("http", "http_request", "Fetcher"),
            node("custom", "my_site_custom_node", "Custom"),
            node("agent", "agent", "Agent"),
        ],
        [tool_edge("t1", "http"), tool_edge("t2", "custom"), tool_edge("t3", "agent")],
    )
    cmp10 = findings(text, "CMP-10")
    assert [(f.node, f.severity, at(text, f.span)) for f in cmp10] == [
        ("http", Severity.ERROR, '"Fetcher"')
    ]
    assert "http_request" in cmp10[0].message


def test_cmp10_is_silent_for_an_untyped_or_undefined_consumer() -> None:
    text = workflow(
        [node("t1", label="One"), node("untyped", None, "X")],
        [tool_edge("t1", "untyped"), tool_edge("t1", "ghost")],
    )
    assert findings(text, "CMP-10") == []


def test_duplicate_node_ids_r2() -> None:
    text = workflow(
        [node("dup", label="First"), node("dup", label="Second"), node("other", label="Other")],
        [],
    )
    r2 = findings(text, "R2")
    assert len(r2) == 1
    assert r2[0].severity is Severity.ERROR
    assert r2[0].span == token_span(text, '"dup"', occurrence=1)
    assert [r.span for r in r2[0].related] == [token_span(text, '"dup"', occurrence=0)]


def test_duplicate_node_id_uses_the_first_definition_for_tools() -> None:
    text = workflow(
        [
            node("dup", label="Search"),
            node("dup", label="Other"),
            node("b", label="search"),
            node("agent", "agent"),
        ],
        [tool_edge("dup", "agent"), tool_edge("b", "agent")],
    )
    found = cmp9_by_node(text)
    assert set(found) == {"dup", "b"}
    assert at(text, found["dup"][0].span) == '"Search"'


def test_llm_name_advisory_for_long_and_digit_leading_names() -> None:
    long_label = "Very " * 14  # 70 characters → a 69-character name
    text = workflow(
        [
            node("long", label=long_label),
            node("digit", label="2FA Check"),
            node("ok", label="Fine"),
            node("agent", "agent"),
        ],
        [tool_edge("long", "agent"), tool_edge("digit", "agent"), tool_edge("ok", "agent")],
    )
    llm = findings(text, "FD-LLM-NAME")
    assert sorted(f.node for f in llm) == ["digit", "long"]
    assert all(f.severity is Severity.WARNING for f in llm)
    by_node = {f.node: f for f in llm}
    assert at(text, by_node["digit"].span) == '"2FA Check"'
    assert "69 characters" in by_node["long"].message


def test_llm_name_advisory_only_for_tools() -> None:
    text = workflow(
        [
            node("digit", label="2FA Check"),
            node("box", "toolbox", "9 Box"),
            node("agent", "agent", "1 Agent"),
        ],
        [tool_edge("digit", "box"), tool_edge("box", "agent")],
    )
    assert [f.node for f in findings(text, "FD-LLM-NAME")] == ["digit"]


def test_self_edge_and_duplicate_edge_are_refused() -> None:
    text = workflow(
        [node("a", label="A"), node("agent", "agent")],
        [tool_edge("a", "agent"), tool_edge("a", "agent"), {"source": "agent", "target": "agent"}],
    )
    got = sorted((f.code, f.severity) for f in findings(text))
    assert got == [("R12", Severity.ERROR), ("R13", Severity.ERROR)]


def test_consumer_that_is_also_a_tool_of_another_consumer() -> None:
    """A sub-agent offered as a tool: it is a consumer of its own tools and a leaf of the parent."""
    text = workflow(
        [
            node("sub", "agent", "Helper"),
            node("x", label="Search"),
            node("y", label="search"),
            node("main", "agent"),
        ],
        [tool_edge("x", "sub"), tool_edge("y", "main"), tool_edge("sub", "main")],
    )
    assert _consumers(text) == {"sub": {"x"}, "main": {"y", "sub"}}
    assert cmp9_by_node(text) == {}


def test_no_tool_edges_no_graph_findings() -> None:
    text = json.dumps(
        {
            "nodes": [node("a", label="A"), node("b", label="A")],
            "edges": [{"id": "e1", "source": "a", "target": "b"}],
        }
    )
    assert codes(text) == []
