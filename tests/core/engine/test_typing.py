"""Typing while the JSON is broken: a syntax error inside `nodes`/`edges` stays local.

A half-typed element is read as the tolerant parser recovers it (what it already says counts:
a node with an id and a type is a node) and ends at the next element instead of swallowing it;
it carries ONE FD-SYNTAX finding; the elements around it keep their findings; every keystroke
re-reads only the stretch it touched. A whole read of the same text gives the same result, and
stays incremental. Only a broken structure above the elements (an array's `]` lost or moved)
re-reads the whole document.
"""

from __future__ import annotations

import json

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.engine import comparable, graph_of

TOOL = {"edgeType": "tool_availability"}
NODES = [
    {"id": "agent", "type": "agent", "data": {"label": "Agent 🤖"}},
    {"id": "a", "type": "http_request", "data": {"label": "Web Search"}},
    {"id": "b", "type": "http_request", "data": {"label": "web-search"}},
    {"id": "c", "type": "calculator", "data": {"label": "数据 Calc"}},
]
EDGES = [
    {"source": "a", "target": "agent", "data": TOOL},
    {"source": "b", "target": "agent", "data": TOOL},
    {"source": "c", "target": "agent", "data": TOOL},
]
DOC = json.dumps({"id": "w", "nodes": NODES, "edges": EDGES}, indent=2, ensure_ascii=False)
TYPED = '{"id": "t", "type": "calculator", "data": {"label": "🚀 数据"}},'


def syntax(document: WorkflowDocument) -> list[tuple[str, int, int]]:
    return [
        (f.message, f.span.start, f.span.end) for f in document.findings() if f.code == "FD-SYNTAX"
    ]


def node_ids(document: WorkflowDocument) -> list[str | None]:
    return [e.model.id for e in document.lists["nodes"].elements if isinstance(e.model, Node)]


def assert_same_as_a_whole_read(document: WorkflowDocument) -> None:
    scratch = WorkflowDocument(document.text)
    assert comparable(document) == comparable(scratch)
    assert graph_of(document) == graph_of(scratch)
    assert scratch.incremental  # a whole read of the broken text stays incremental too
    assert document.incremental_failures == []


def open_line_before(document: WorkflowDocument, node_id: str) -> int:
    """A new line before the node `node_id` (where typing starts)."""
    at = document.text.index('{\n      "id": "' + node_id + '"')
    document.apply_edit(at, at, "\n    ")
    return at


def test_typing_a_node_keystroke_by_keystroke_stays_local() -> None:
    document = WorkflowDocument(DOC)
    collisions = [f.node for f in document.findings() if f.code == "CMP-9"]  # type: ignore[attr-defined]
    assert sorted(collisions) == ["a", "b"]
    at = open_line_before(document, "b")
    for count, char in enumerate(TYPED, 1):
        document.apply_edit(at, at, char)
        at += 1
        assert not document.stats.full_reread, (count, document.text[at - count : at])
        assert document.stats.elements_reread <= 2
        found = syntax(document)
        if count < len(TYPED):
            # Half-typed: one finding, inside what was typed (a missing ',' at the next node).
            assert len(found) == 1, (document.text[at - count : at], found)
            assert at - count <= found[0][1] <= at + len("\n    "), found
        else:
            assert found == []
        # The collision after the node being typed is still found, but right after `"id": `
        # (and `"type": `…), where JSON reads the next node as the missing value.
        cmp9 = {f.node for f in document.findings() if f.code == "CMP-9"}  # type: ignore[attr-defined]
        swallowed = document.text[:at].rstrip().endswith(":")
        assert swallowed or {"a", "b"} <= cmp9, document.text[at - count : at]
        assert swallowed or "b" in node_ids(document)
        assert "c" in node_ids(document)
        assert_same_as_a_whole_read(document)
    assert node_ids(document) == ["agent", "a", "t", "b", "c"]


def test_a_half_typed_node_counts_for_what_it_already_says() -> None:
    document = WorkflowDocument(DOC)
    at = open_line_before(document, "c")
    document.apply_edit(at, at, '{"id": "t", "type": "calcu')
    assert node_ids(document) == ["agent", "a", "b", "t", "c"]
    typed = document.lists["nodes"].elements[3]
    assert typed.broken and isinstance(typed.model, Node) and typed.model.type_id == "calcu"
    ((message, start, end),) = syntax(document)
    assert message == "unterminated string: a line break in a string must be escaped as \\n"
    assert document.text[start:end] == '"calcu'
    assert_same_as_a_whole_read(document)


def test_only_an_open_brace_reports_the_unterminated_object() -> None:
    document = WorkflowDocument(DOC)
    at = open_line_before(document, "c")
    document.apply_edit(at, at, "{")
    assert syntax(document) == [("unterminated object: expected '}'", at, at + 1)]
    document.apply_edit(at + 1, at + 1, '"id": "t"')
    assert syntax(document) == [("unterminated object: expected '}'", at, at + 1)]
    assert node_ids(document) == ["agent", "a", "b", "t", "c"]
    assert_same_as_a_whole_read(document)


def test_a_brace_cut_short_by_the_arrays_bracket_is_half_typed() -> None:
    """`{` typed right before the array's `]`: its problem ("expected '}' before ']'") lies
    just past its end, yet it is half-typed, so typing after it re-reads it (found by the state
    machine in CI: the `,` typed next was read as a trailing comma after a finished element)."""
    document = WorkflowDocument(DOC)
    nodes_end = document.text.index("\n  ],")
    # `{` typed with no line break before the `]`: `…},\n    {],`
    document.apply_edit(nodes_end, nodes_end + len("\n  "), ",\n    {")
    brace = nodes_end + len(",\n    ")
    assert document.text[brace : brace + 3] == "{],"
    assert document.lists["nodes"].elements[-1].broken
    assert_same_as_a_whole_read(document)
    document.apply_edit(brace + 1, brace + 1, ",\n    ")
    # One finding for the half-typed element: the ']' cutting it short is not said again.
    assert syntax(document) == [("unexpected ','", brace + 1, brace + 2)]
    assert_same_as_a_whole_read(document)


def test_a_missing_value_does_not_swallow_the_next_element() -> None:
    # After `"id": ` the next element, starting a line no deeper than the half-typed one, is
    # not read as the value (issue 18 §3): the half-typed element ends before it.
    document = WorkflowDocument(DOC)
    at = open_line_before(document, "c")
    document.apply_edit(at, at, '{"id": ')
    assert node_ids(document)[-1] == "c"
    assert len(syntax(document)) == 1
    assert_same_as_a_whole_read(document)
    document.apply_edit(at + 7, at + 7, '"')
    assert not document.stats.full_reread
    assert node_ids(document)[-1] == "c"
    assert_same_as_a_whole_read(document)


def test_a_deleted_closing_brace_and_its_repair() -> None:
    document = WorkflowDocument(DOC)
    element = document.lists["nodes"].elements[1]  # node "a"
    close = document.lists["nodes"].end(1) - 1
    assert document.text[close] == "}"
    document.apply_edit(close, close + 1, "")
    assert not document.stats.full_reread
    start = document.lists["nodes"].start(1)
    assert syntax(document) == [("unterminated object: expected '}'", start, start + 1)]
    assert element not in document.lists["nodes"].elements  # re-read
    assert node_ids(document) == ["agent", "a", "b", "c"]
    assert_same_as_a_whole_read(document)
    document.apply_edit(close, close, "}")
    assert not document.stats.full_reread
    assert syntax(document) == []
    assert comparable(document) == comparable(WorkflowDocument(DOC))


def test_a_stray_comma_between_nodes_moves_with_edits_before_it() -> None:
    document = WorkflowDocument(DOC)
    after_b = document.lists["nodes"].end(2) + 1
    document.apply_edit(after_b, after_b, ",")
    assert not document.stats.full_reread
    assert syntax(document) == [("unexpected ','", after_b, after_b + 1)]
    (before,) = syntax(document)
    label = document.text.index("Web Search")
    document.apply_edit(label, label, "数🚀")  # two code points before it
    assert not document.stats.full_reread
    assert syntax(document) == [(before[0], before[1] + 2, before[2] + 2)]
    assert_same_as_a_whole_read(document)


def test_an_unterminated_string_in_an_edge() -> None:
    document = WorkflowDocument(DOC)
    at = document.text.index('"target": "agent"', document.text.index('"edges"')) + 16
    document.apply_edit(at, at + 1, "")  # `"agent` to the end of its line
    assert not document.stats.full_reread
    # The edge is read on after the string (its recovery goes on inside it): two findings.
    assert [message for message, _, _ in syntax(document)] == [
        "unterminated string: a line break in a string must be escaped as \\n",
        "expected ',' between properties",
    ]
    assert_same_as_a_whole_read(document)


def test_a_broken_structure_is_read_whole_and_equal() -> None:
    document = WorkflowDocument(DOC)
    at = document.text.index('"Web Search"')
    document.apply_edit(at, at, "]")  # closes `nodes` early
    assert document.stats.full_reread
    assert comparable(document) == comparable(WorkflowDocument(document.text))


def test_a_quote_that_turns_the_rest_of_the_line_inside_out_is_read_whole() -> None:
    # A one-line document: a stray quote changes what is a string up to the end of the line,
    # past the arrays' `]`: the structure above the elements is broken.
    text = json.dumps({"nodes": NODES, "edges": EDGES}, ensure_ascii=False)
    document = WorkflowDocument(text)
    at = text.index('{"id": "b"')
    document.apply_edit(at, at, '"')
    assert document.stats.full_reread
    assert comparable(document) == comparable(WorkflowDocument(document.text))


def test_a_whole_read_of_a_broken_text_is_local_and_stays_incremental() -> None:
    document = WorkflowDocument(DOC)
    at = open_line_before(document, "c")
    document.apply_edit(at, at, '{"id": "t", "ty')
    broken = WorkflowDocument(document.text)
    assert broken.incremental
    assert node_ids(broken) == ["agent", "a", "b", "t", "c"]
    broken.apply_edit(at + 15, at + 15, "pe")
    assert not broken.stats.full_reread
    assert len(syntax(broken)) == 1
    assert_same_as_a_whole_read(broken)


def test_yaml_syntax_errors_in_an_item_stay_local() -> None:
    # (Issue 18 §2: a broken YAML item is re-read with the items around it, not the whole.)
    text = (
        "id: w\nnodes:\n  - id: a\n    type: http_request\n    data:\n      label: 'Web'\n"
        "edges: []\n"
    )
    document = WorkflowDocument(text, syntax="yaml")
    at = text.index("'Web'") + 4
    document.apply_edit(at, at + 1, "")  # an unterminated quote
    assert not document.stats.full_reread
    assert any(f.code == "FD-SYNTAX" for f in document.findings())
    assert document.incremental
    broken = text[:at] + text[at + 1 :]
    assert document.findings() == WorkflowDocument(broken, syntax="yaml").findings()
