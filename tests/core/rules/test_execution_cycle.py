"""CMP-5: a cycle of execution edges. Planted in a copy of the real operator agent loop (Drupal
YAML, and the same data as JSON) by writing its loopback handle as `-input-loopback`, which
EDGE-4 says is an ordinary edge; tool, loopback and agent-result edges close cycles legally, a
self-edge is R12's; one finding per strongly connected group, found again only when edges change,
and equal to a fresh analysis after edits; ten thousand nodes in a ring need no recursion."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import as_json, at, findings, node, plant, workflow
from tests.support.launch import corpus_workflows, corpus_yaml, edit_replacing, same_as_fresh

LOOP = corpus_yaml("aincient_operator_agent_loop")
SYNTAXES = ("yaml", "json")
LOOPBACK_HANDLE = "aincient_flows_aincient_conversation_read.2-input-loop_back"
ORDINARY_HANDLE = "aincient_flows_aincient_conversation_read.2-input-loopback"
MESSAGE = (
    'execution cycle: "Reason (agent step)" (aincient_reason.2) → "Boolean Gateway" '
    '(boolean_gateway.1) → "Invoke tool" (aincient_flows_aincient_invoke.2) → "Loop while '
    'appending" (boolean_gateway.2) → … 2 more … → "Normalize conversation" '
    '(conversation_normalize.1) → "Reason (agent step)" (aincient_reason.2); only tool, loopback '
    "and agent-result edges may close a cycle, and compilation refuses this one"
)


def _loop(syntax: str) -> str:
    return LOOP if syntax == "yaml" else as_json(LOOP)


def _handle(syntax: str, handle: str) -> str:
    return f"targetHandle: {handle}" if syntax == "yaml" else f'"targetHandle": "{handle}"'


def _first_target(text: str, syntax: str) -> int:
    """Where the first edge's target value starts (the cycle's first edge in the document)."""
    edges = text.index("\nedges:" if syntax == "yaml" else '"edges": [')
    member = "target: " if syntax == "yaml" else '"target": '
    return text.index(member, edges) + len(member)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_loopback_handle_misspelt_closes_an_illegal_cycle(syntax: str) -> None:
    original = _loop(syntax)
    assert findings(original, "CMP-5", syntax=syntax) == []
    text = plant(original, _handle(syntax, LOOPBACK_HANDLE), _handle(syntax, ORDINARY_HANDLE))
    [finding] = findings(text, "CMP-5", syntax=syntax)
    assert finding.severity.value == "error"
    assert finding.message == MESSAGE
    assert (finding.locator_code, finding.locator, finding.node) == (
        None,
        "edge.0",
        "boolean_gateway.1",
    )
    start = _first_target(text, syntax)
    assert finding.span.start == start
    assert at(text, finding.span) == (
        "boolean_gateway.1" if syntax == "yaml" else '"boolean_gateway.1"'
    )
    # The cycle's other edges, in cycle order, the misspelt loopback edge among them.
    assert len(finding.related) == 6
    assert [r.message for r in finding.related][-1] == (
        'in the cycle: to "Reason (agent step)" (aincient_reason.2)'
    )
    assert any(
        at(text, r.span).strip('"') == "aincient_flows_aincient_conversation_read.2"
        for r in finding.related
    )


def test_the_real_site_has_no_illegal_cycle() -> None:
    for workflow_id, text in corpus_workflows():
        assert findings(text, "CMP-5", syntax="yaml") == [], workflow_id
        assert findings(as_json(text), "CMP-5") == [], workflow_id


def _ring(kinds: list[dict[str, object]]) -> str:
    """Three nodes in a ring a → b → c → a, the closing edge `c → a` with `kinds`' members."""
    edges = [{"source": "a", "target": "b"}, {"source": "b", "target": "c"}]
    edges += [{"source": "c", "target": "a", **kind} for kind in kinds]
    return workflow([node("a"), node("b"), node("c")], edges)


def test_tool_loopback_and_agent_result_edges_close_cycles_legally() -> None:
    assert findings(_ring([{"data": {"edgeType": "tool_availability"}}]), "CMP-5") == []
    assert findings(_ring([{"targetHandle": "a-input-tool"}]), "CMP-5") == []
    assert findings(_ring([{"targetHandle": "a-input-loop_back"}]), "CMP-5") == []
    assert findings(_ring([{"data": {"edgeType": "agent_result"}}]), "CMP-5") == []
    # EDGE-4: only `loop_back` is the reserved port; `loopback` is an ordinary input.
    assert len(findings(_ring([{"targetHandle": "a-input-loopback"}]), "CMP-5")) == 1
    assert len(findings(_ring([{"data": {"edgeType": "data"}}]), "CMP-5")) == 1


def test_a_self_edge_is_r12s_alone() -> None:
    text = workflow([node("a")], [{"source": "a", "target": "a"}])
    assert findings(text, "CMP-5") == [] and len(findings(text, "R12")) == 1


def test_one_finding_per_group_in_document_order() -> None:
    edges = [
        {"source": "x", "target": "y"},
        {"source": "a", "target": "b"},
        {"source": "b", "target": "a"},
        {"source": "y", "target": "x"},
        {"source": "b", "target": "c"},
        {"source": "c", "target": "a"},
    ]
    text = workflow([node(n) for n in "abcxy"], edges)
    reported = findings(text, "CMP-5")
    assert [(f.locator, f.node) for f in reported] == [("edge.0", "y"), ("edge.1", "b")]
    # The shortest way back through the group's first edge: a → b → a, not via c.
    assert reported[1].message.startswith("execution cycle: a (type http_request) → b ")


def test_ten_thousand_nodes_in_a_ring() -> None:
    count = 10_000
    nodes = [node(f"n{i}") for i in range(count)]
    edges = [{"source": f"n{i}", "target": f"n{(i + 1) % count}"} for i in range(count)]
    text = json.dumps({"nodes": nodes, "edges": edges})
    [finding] = findings(text, "CMP-5")
    assert finding.message.startswith(
        "execution cycle: n0 (type http_request) → n1 (type http_request) → n2 (type "
        "http_request) → n3 (type http_request) → … 9995 more … → n9999 (type http_request) → "
        "n0 (type http_request);"
    )
    assert len(finding.related) == 20


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_edits_equal_a_fresh_analysis_and_labels_do_not_recompute(
    syntax: str,
) -> None:
    document = WorkflowDocument(_loop(syntax), syntax=syntax)
    assert [row for row in same_as_fresh(document, syntax) if row[0] == "CMP-5"] == []
    edit_replacing(document, _handle(syntax, LOOPBACK_HANDLE), _handle(syntax, ORDINARY_HANDLE))
    [row] = [row for row in same_as_fresh(document, syntax) if row[0] == "CMP-5"]
    assert row[2] == MESSAGE
    kept = document.context.memo["CMP-5"]
    edit_replacing(document, "Reason (agent step)", "Reason 🤖 推論 (agent step)")
    [row] = [row for row in same_as_fresh(document, syntax) if row[0] == "CMP-5"]
    assert document.context.memo["CMP-5"] is kept  # a label edit touched no edge
    assert '"Reason 🤖 推論 (agent step)" (aincient_reason.2)' in row[2]
    start = _first_target(document.text, syntax)
    assert row[3] == start
    edit_replacing(document, _handle(syntax, ORDINARY_HANDLE), _handle(syntax, LOOPBACK_HANDLE))
    assert [row for row in same_as_fresh(document, syntax) if row[0] == "CMP-5"] == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_positions_after_emoji_and_cjk_labels(syntax: str) -> None:
    text = plant(_loop(syntax), "Reason (agent step)", "Reason 🤖 推論 (agent step) 😀")
    text = plant(text, _handle(syntax, LOOPBACK_HANDLE), _handle(syntax, ORDINARY_HANDLE))
    [finding] = findings(text, "CMP-5", syntax=syntax)
    assert finding.span.start == _first_target(text, syntax)
    assert at(text, finding.span).strip('"') == "boolean_gateway.1"
