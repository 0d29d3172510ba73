"""SG-18: a loopback edge that closes no cycle, and loops tangled without one containing the
other. Planted in a copy of the real operator agent loop (Drupal YAML, and the same data as
JSON), whose one loop runs from its conversation buffer (`aincient_flows_aincient_conversation_read.2`,
the head) through assemble, normalize, reason and invoke to `boolean_gateway.2` (the tail); the
real site, ten loopback edges, reports nothing; incremental equals fresh."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import as_json, at, findings, node, plant, workflow
from tests.support.launch import corpus_workflows, corpus_yaml, edit_replacing, same_as_fresh

LOOP = corpus_yaml("aincient_operator_agent_loop")
SYNTAXES = ("yaml", "json")
HEAD = "aincient_flows_aincient_conversation_read.2"
LOOPBACK_HANDLE = f"{HEAD}-input-loop_back"
NO_CYCLE = 'the loopback edge from "Chat Input" (chat_input.1) to '
QUOTES = "'\""
PLANTED_HANDLE = "conversation_normalize.1-input-loop_back"


def _loop(syntax: str) -> str:
    return LOOP if syntax == "yaml" else as_json(LOOP)


def _ends(syntax: str, source: str) -> str:
    """The loopback edge's source and target as the document writes them."""
    if syntax == "yaml":
        return f"source: {source}\n    target: {HEAD}"
    return f'"source": "{source}",\n      "target": "{HEAD}"'


def _with_no_cycle(syntax: str) -> str:
    """The loopback edge's source moved upstream: the chat input is not downstream of the
    head."""
    return plant(_loop(syntax), _ends(syntax, "boolean_gateway.2"), _ends(syntax, "chat_input.1"))


def _first_edge(syntax: str, source: str, target: str) -> str:
    """A loopback edge from `source` into `target`, written before the document's first edge."""
    handle = f"{target}-input-loop_back"
    if syntax == "yaml":
        return (
            f"edges:\n  -\n    id: planted\n    source: {source}\n    target: {target}\n"
            f"    targetHandle: {handle}\n"
        )
    return (
        f'"edges": [\n    {{"id": "planted", "source": "{source}", "target": "{target}", '
        f'"targetHandle": "{handle}"}},'
    )


def _with_edge(text: str, syntax: str, source: str, target: str) -> str:
    old = "edges:\n" if syntax == "yaml" else '"edges": ['
    return plant(text, old, _first_edge(syntax, source, target))


def _display(text: str, syntax: str, node_id: str) -> str:
    data = json.loads(text) if syntax == "json" else __import__("yaml").safe_load(text)
    [label] = [n["data"]["label"] for n in data["nodes"] if n["id"] == node_id]
    return f'"{label}" ({node_id})'


def test_the_real_site_reports_nothing() -> None:
    loopbacks = 0
    for workflow_id, text in corpus_workflows():
        loopbacks += text.count("-input-loop_back\n")
        assert findings(text, "SG-18", syntax="yaml") == [], workflow_id
        assert findings(as_json(text), "SG-18") == [], workflow_id
    assert loopbacks >= 10  # the site's agent loops are all there


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_loopback_from_upstream_closes_no_cycle(syntax: str) -> None:
    assert findings(_loop(syntax), "SG-18", syntax=syntax) == []
    text = _with_no_cycle(syntax)
    [finding] = findings(text, "SG-18", syntax=syntax)
    head = _display(text, syntax, HEAD)
    assert finding.severity.value == "warning"
    assert finding.message == (
        f'the loopback edge from "Chat Input" (chat_input.1) to {head} closes no cycle: '
        f'"Chat Input" (chat_input.1) is not downstream of {head} over the execution edges, '
        f"so the loop it draws repeats {head} alone"
    )
    assert (finding.locator_code, finding.locator, finding.node) == (None, "edge.21", HEAD)
    assert at(text, finding.span).strip('"') == LOOPBACK_HANDLE
    assert [r.message for r in finding.related] == [
        f"the loop's head: {head}",
        'the loopback\'s source: "Chat Input" (chat_input.1)',
    ]
    # A node's place is its label, as every rule's.
    assert at(text, finding.related[1].span).strip("'\"") == "Chat Input"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_two_tangled_loops_are_found_on_the_smaller(syntax: str) -> None:
    # chat_output.1 → conversation_normalize.1: a loop over normalize, reason, the first
    # gateway and the chat output, sharing three nodes with the agent loop, which holds the
    # head and the invoke the new one lacks; the agent loop's body is larger and keeps the key.
    text = _with_edge(_loop(syntax), syntax, "chat_output.1", "conversation_normalize.1")
    [finding] = findings(text, "SG-18", syntax=syntax)
    name = lambda node_id: _display(text, syntax, node_id)  # noqa: E731
    assert finding.severity.value == "warning"
    assert finding.message == (
        f"the loops headed by {name('conversation_normalize.1')} and {name(HEAD)} share "
        f"{name('aincient_reason.2')}, {name('boolean_gateway.1')}, "
        f"{name('conversation_normalize.1')} without either containing the other: they are "
        "merged into one loop over both bodies, with one round counter"
    )
    assert (finding.locator_code, finding.locator, finding.node) == (
        None,
        "edge.0",
        "conversation_normalize.1",
    )
    assert at(text, finding.span).strip('"') == PLANTED_HANDLE
    other = finding.related[0]
    assert at(text, other.span).strip('"') == LOOPBACK_HANDLE
    assert other.message == f"the other loop's loopback edge, into {name(HEAD)}"
    assert [f'"{at(text, r.span).strip(QUOTES)}"' for r in finding.related[1:]] == [
        name("conversation_normalize.1").split(" (")[0],
        name(HEAD).split(" (")[0],
    ]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_nested_loop_keeps_its_own_round(syntax: str) -> None:
    # boolean_gateway.1 → conversation_normalize.1: a body strictly inside the agent loop's.
    text = _with_edge(_loop(syntax), syntax, "boolean_gateway.1", "conversation_normalize.1")
    assert findings(text, "SG-18", syntax=syntax) == []


def test_loops_sharing_a_head_are_one_loop() -> None:
    edges = [
        {"source": "h", "target": "g"},
        {"source": "g", "target": "a"},
        {"source": "g", "target": "b"},
        {"source": "a", "target": "h", "targetHandle": "h-input-loop_back"},
        {"source": "b", "target": "h", "targetHandle": "h-input-loop_back"},
    ]
    assert findings(workflow([node(n) for n in "hgab"], edges), "SG-18") == []


def test_the_narratives_two_loops_sharing_one_node() -> None:
    # SG-18's narrative: two loops of equal size sharing `shared`, neither containing the other.
    edges = [
        {"source": "head_a", "target": "shared"},
        {"source": "head_b", "target": "shared"},
        {"source": "shared", "target": "tail_a"},
        {"source": "shared", "target": "tail_b"},
        {"source": "tail_a", "target": "head_a", "targetHandle": "head_a-input-loop_back"},
        {"source": "tail_b", "target": "head_b", "targetHandle": "head_b-input-loop_back"},
    ]
    names = ["head_a", "head_b", "shared", "tail_a", "tail_b"]
    [finding] = findings(workflow([node(n) for n in names], edges), "SG-18")
    # Equal sizes: head_a sorts first and keeps the key; the finding is on head_b's loopback.
    assert (finding.locator, finding.node) == ("edge.5", "head_b")
    assert "share shared (type http_request) without" in finding.message


def test_a_self_loopback_and_an_undefined_end_are_other_rules() -> None:
    self_loop = [{"source": "a", "target": "a", "targetHandle": "a-input-loop_back"}]
    assert findings(workflow([node("a")], self_loop), "SG-18") == []
    dangling = [{"source": "ghost", "target": "a", "targetHandle": "a-input-loop_back"}]
    assert findings(workflow([node("a")], dangling), "SG-18") == []
    # EDGE-4: `-input-loopback` is an ordinary edge, no loop at all.
    ordinary = [{"source": "b", "target": "a", "targetHandle": "a-input-loopback"}]
    assert findings(workflow([node("a"), node("b")], ordinary), "SG-18") == []


def test_tool_and_agent_result_edges_do_not_close_the_body() -> None:
    # The tail is downstream of the head only through a tool edge and an agent-result edge:
    # neither is an execution edge, so the loopback closes no cycle.
    for kind in (
        {"data": {"edgeType": "tool_availability"}},
        {"data": {"edgeType": "agent_result"}},
    ):
        edges = [
            {"source": "h", "target": "t", **kind},
            {"source": "t", "target": "h", "targetHandle": "h-input-loop_back"},
        ]
        [finding] = findings(workflow([node("h"), node("t")], edges), "SG-18")
        assert "closes no cycle" in finding.message


def test_wrong_type_values_never_crash() -> None:
    wrong: list[object] = [None, 7, True, [], {}, "", "x-input-loop_back"]
    for value in wrong:
        for member in ("source", "target", "targetHandle", "data"):
            edge = {"source": "a", "target": "b", "targetHandle": "b-input-loop_back"}
            edge[member] = value
            text = workflow([node("a"), node("b")], [{"source": "b", "target": "a"}, edge])
            findings(text, "SG-18")
            findings(text, "SG-18", syntax="yaml")  # JSON is YAML


def test_many_loopbacks_stay_cheap() -> None:
    count = 2_000
    nodes = [node(f"n{i}") for i in range(count)]
    edges = [{"source": f"n{i}", "target": f"n{i + 1}"} for i in range(count - 1)]
    edges += [
        {"source": f"n{i + 1}", "target": f"n{i}", "targetHandle": f"n{i}-input-loop_back"}
        for i in range(0, count - 1, 2)
    ]
    assert findings(json.dumps({"nodes": nodes, "edges": edges}), "SG-18") == []


def test_a_thousand_nested_loops_are_not_compared_pairwise() -> None:
    count = 1_000
    nodes = [node(f"n{i}") for i in range(count)]
    edges = [{"source": f"n{i}", "target": f"n{i + 1}"} for i in range(count - 1)]
    last = f"n{count - 1}"
    edges += [
        {"source": last, "target": f"n{i}", "targetHandle": f"n{i}-input-loop_back"}
        for i in range(count - 1)
    ]
    text = json.dumps({"nodes": nodes, "edges": edges})
    assert findings(text, "SG-18") == []
    # Overlapping chains are not nested: {a, b, c} and {b, c, d}, equal in size.
    text = workflow(
        [node(n) for n in ("a", "b", "c", "d")],
        [
            {"source": "a", "target": "b"},
            {"source": "b", "target": "c"},
            {"source": "c", "target": "d"},
            {"source": "c", "target": "a", "targetHandle": "a-input-loop_back"},
            {"source": "d", "target": "b", "targetHandle": "b-input-loop_back"},
        ],
    )
    [finding] = findings(text, "SG-18")
    assert (finding.locator, finding.node) == ("edge.4", "b")  # a sorts first and keeps the key


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_edits_equal_a_fresh_analysis(syntax: str) -> None:
    document = WorkflowDocument(_loop(syntax), syntax=syntax)
    assert [row for row in same_as_fresh(document, syntax) if row[0] == "SG-18"] == []
    edit_replacing(document, _ends(syntax, "boolean_gateway.2"), _ends(syntax, "chat_input.1"))
    [row] = [row for row in same_as_fresh(document, syntax) if row[0] == "SG-18"]
    assert row[2].startswith(NO_CYCLE)
    kept = document.context.memo["SG-18"]
    edit_replacing(
        document,
        "'Chat Input'" if syntax == "yaml" else '"Chat Input"',
        "'Chat 🤖 入力'" if syntax == "yaml" else '"Chat 🤖 入力"',
    )
    [row] = [row for row in same_as_fresh(document, syntax) if row[0] == "SG-18"]
    assert document.context.memo["SG-18"] is kept  # a label edit touched no edge
    assert row[2].startswith('the loopback edge from "Chat 🤖 入力" (chat_input.1) to ')
    edit_replacing(document, _ends(syntax, "chat_input.1"), _ends(syntax, "boolean_gateway.2"))
    assert [row for row in same_as_fresh(document, syntax) if row[0] == "SG-18"] == []
    old = "edges:\n" if syntax == "yaml" else '"edges": ['
    edit_replacing(document, old, _first_edge(syntax, "chat_output.1", "conversation_normalize.1"))
    [row] = [row for row in same_as_fresh(document, syntax) if row[0] == "SG-18"]
    assert row[2].startswith('the loops headed by "Normalize conversation"')


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_positions_after_emoji_and_cjk_labels(syntax: str) -> None:
    text = plant(_with_no_cycle(syntax), "Reason (agent step)", "Reason 🤖 推論 (agent step) 😀")
    [finding] = findings(text, "SG-18", syntax=syntax)
    assert at(text, finding.span).strip('"') == LOOPBACK_HANDLE
