"""Broken, odd and hostile input: always findings, never an exception; collisions in the part
of a document that a problem does not touch are still found."""

from __future__ import annotations

import json
import time

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.findings import Severity
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

# Two colliding tools at the top, then a third node that the tests break while "typing".
BASE_NODES = [
    node("a", label="Search"),
    node("b", label="search"),
    node("agent", "agent", "Agent"),
    node("z", label="Being typed"),
]
BASE_EDGES = [tool_edge("a", "agent"), tool_edge("b", "agent")]
BASE = workflow(BASE_NODES, BASE_EDGES)
# The same document with its edges first, so that everything a collision needs precedes the node
# being typed.
EDGES_FIRST = json.dumps({"edges": BASE_EDGES, "nodes": BASE_NODES}, indent=2)

# Breakages that leave the brackets balanced: everything else in the document survives.
LOCAL_BREAKAGES = [
    ("unterminated string", '"label": "Being typed"', '"label": "Being typ'),
    ("unterminated string at end of line", '"label": "Being typed"\n', '"label": "Being typed\n'),
    ("missing comma between members", '"id": "z",', '"id": "z"'),
    ("missing value", '"label": "Being typed"', '"label": '),
    ("missing colon", '"label": "Being typed"', '"label" "Being typed"'),
    ("unquoted word", '"label": "Being typed"', '"label": Being'),
    ("trailing comma", '"label": "Being typed"', '"label": "Being typed",'),
    ("single quotes", '"label": "Being typed"', "\"label\": 'Being typed'"),
    ("comment", '"id": "z",', '"id": "z", // typing'),
    ("invalid escape", '"label": "Being typed"', '"label": "Being \\q typed"'),
    ("a second value", '"label": "Being typed"', '"label": "Being" "typed"'),
]
# Breakages that unbalance the brackets: a stray closer ends its enclosing container early, so
# what follows is lost; what precedes them survives.
BRACKET_BREAKAGES = [
    ("stray bracket", '"label": "Being typed"', '"label": ]"Being typed"'),
    ("extra closing brace", '"label": "Being typed"', '"label": "Being typed"}'),
    ("unclosed object", '"label": "Being typed"', '"label": {"Being typed"'),
    ("unclosed array", '"label": "Being typed"', '"label": ["Being typed"'),
]


def _assert_collision_survives(text: str) -> None:
    found = cmp9_by_node(text)
    assert set(found) >= {"a", "b"}, codes(text)
    assert found["a"][0].span == token_span(text, '"Search"')
    assert found["b"][0].span == token_span(text, '"search"')
    assert "FD-SYNTAX" in codes(text)


def _break(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.mark.parametrize(
    ("name", "old", "new"), LOCAL_BREAKAGES, ids=[b[0] for b in LOCAL_BREAKAGES]
)
@pytest.mark.parametrize("base", [BASE, EDGES_FIRST], ids=["nodes-first", "edges-first"])
def test_broken_json_mid_typing_keeps_untouched_collisions(
    base: str, name: str, old: str, new: str
) -> None:
    _assert_collision_survives(_break(base, old, new))


@pytest.mark.parametrize(
    ("name", "old", "new"), BRACKET_BREAKAGES, ids=[b[0] for b in BRACKET_BREAKAGES]
)
def test_unbalanced_brackets_keep_what_precedes_them(name: str, old: str, new: str) -> None:
    _assert_collision_survives(_break(EDGES_FIRST, old, new))


def test_missing_comma_between_nodes() -> None:
    text = _break(BASE, '},\n    {\n      "id": "z"', '}\n    {\n      "id": "z"')
    _assert_collision_survives(text)
    assert "z" in {n.id for n in analyze(text).workflow.nodes}


def test_content_after_the_document() -> None:
    _assert_collision_survives(BASE + "\n{}")


def test_truncated_file_keeps_collisions_before_the_cut() -> None:
    edges_start = BASE.index('"edges"')
    # Cut inside the node being typed, after the edges were moved before it.
    document = json.loads(BASE)
    reordered = json.dumps({"edges": document["edges"], "nodes": document["nodes"]}, indent=2)
    cut = reordered[: reordered.index('"Being typed"') + 5]
    _assert_collision_survives(cut)
    assert edges_start > 0


@pytest.mark.parametrize("cut", [1, 10, 50, 100, 200, 400, 800])
def test_every_truncation_is_analysed(cut: int) -> None:
    text = BASE[:cut]
    result = analyze(text)
    assert any(f.severity is Severity.ERROR for f in result.findings)


def test_wrong_types_are_schema_findings() -> None:
    text = json.dumps(
        {
            "nodes": [
                {"id": "a", "type": "http_request", "data": {"label": 5}},
                {"id": 7, "type": "http_request"},
                "not a node",
                None,
                [],
            ],
            "edges": [{}, {"source": 1, "target": ["x"]}, "edge", {"source": "a"}],
        }
    )
    found = analyze(text).findings
    assert "FD-SCHEMA" in {f.code for f in found}
    # (and R3 for the edge objects without an id: FlowDrop refuses those too)
    assert all(f.code in {"FD-SCHEMA", "R3"} for f in found), [(f.code, f.message) for f in found]


@pytest.mark.parametrize(
    "document",
    [
        {"nodes": 5, "edges": {}},
        {"nodes": "x", "edges": None},
        {"nodes": {"a": 1}},
        {"edges": []},
        {"nodes": []},
        {"nodes": [], "edges": []},
    ],
)
def test_nodes_and_edges_of_the_wrong_shape(document: object) -> None:
    text = json.dumps(document)
    result = analyze(text)
    assert result.is_workflow
    # An empty `nodes` array is well-formed, and a workflow with nothing to compile (CMP-3).
    empty_nodes = isinstance(document, dict) and document.get("nodes") == []
    assert {f.code for f in result.findings} <= {"FD-SCHEMA"} | (
        {"CMP-3"} if empty_nodes else set()
    )


def test_edge_without_endpoints() -> None:
    text = json.dumps(
        {
            "nodes": [node("a", label="A")],
            "edges": [{"id": "e1"}, {"id": "e2", "data": {"edgeType": "tool_availability"}}],
        }
    )
    found = findings(text)
    assert {f.code for f in found} == {"FD-SCHEMA"}
    assert analyze(text).graph.consumers == ()


def test_duplicate_keys_warn_and_the_last_one_wins() -> None:
    text = (
        '{"nodes": [{"id": "a", "type": "http_request", "data": {"label": "Other", "label": "Search"}},'
        ' {"id": "b", "type": "http_request", "data": {"label": "search"}}],'
        ' "edges": [], "edges": [{"source": "a", "target": "x", "data": {"edgeType": "tool_availability"}},'
        ' {"source": "b", "target": "x", "data": {"edgeType": "tool_availability"}}]}'
    )
    duplicates = findings(text, "FD-DUPLICATE-KEY")
    assert len(duplicates) == 2
    assert all(f.severity is Severity.WARNING for f in duplicates)
    assert [at(text, f.span) for f in duplicates] == ['"label"', '"edges"']
    assert [at(text, f.related[0].span) for f in duplicates] == ['"label"', '"edges"']
    found = cmp9_by_node(text)
    assert at(text, found["a"][0].span) == '"Search"'


@pytest.mark.parametrize("opener", ["[", "{", '{"a":', '{"nodes":[', "[{"])
def test_deep_nesting_is_refused_at_the_door_not_recursed(opener: str) -> None:
    # FlowDrop refuses a body nested 64 levels or deeper (STORE-1): one finding, no parse.
    # (The parser's own guard, for the texts it is given directly: tests/core/syntax.)
    [finding] = analyze(opener * 100_000).findings
    assert finding.code == "STORE-1" and "levels deep" in finding.message


def test_deep_nesting_inside_a_node_refuses_the_whole_workflow() -> None:
    deep = "[" * 5000 + "]" * 5000
    text = BASE.replace('"Being typed"', deep)
    assert cmp9_by_node(text) == {}
    assert [f.code for f in analyze(text).findings] == ["STORE-1"]


def test_megabyte_labels() -> None:
    # Two labels of 3.5 MB: as large as a workflow gets under STORE-1's 8 MiB.
    big = "Search " + "x" * 3_500_000
    text = workflow(
        [node("a", label=big), node("b", label=big.upper()), node("agent", "agent")],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
        indent=None,
    )
    started = time.perf_counter()
    found = analyze(text).findings
    assert time.perf_counter() - started < 30
    cmp9 = [f for f in found if f.code == "CMP-9"]
    assert len(cmp9) == 2
    assert cmp9[0].span == token_span(text, json.dumps(big))
    # Messages and fix titles do not carry the 3.5 MB label.
    assert all(len(f.message) < 2000 for f in found)
    assert all(len(fix.title) < 500 for f in cmp9 for fix in f.fixes)


def test_megabyte_unterminated_string() -> None:
    text = '{"nodes": [{"id": "a", "data": {"label": "' + "x" * 7_000_000
    result = analyze(text)
    assert "FD-SYNTAX" in {f.code for f in result.findings}


@pytest.mark.parametrize(
    "text",
    [
        "[]",
        "[1, 2, 3]",
        '"just a string"',
        "42",
        "null",
        "true",
        '{"name": "package", "version": "1.0.0", "dependencies": {}}',
        '{"$schema": "x", "properties": {}}',
    ],
)
def test_json_that_is_not_a_workflow(text: str) -> None:
    result = analyze(text)
    assert not result.is_workflow
    assert [f.code for f in result.findings] == ["FD-NOT-WORKFLOW"]


@pytest.mark.parametrize("text", ["", "   ", "\n\n", "\ufeff", "// only a comment"])
def test_empty_text(text: str) -> None:
    result = analyze(text)
    assert result.findings
    assert all(0 <= f.span.start <= f.span.end <= len(text) for f in result.findings)
    assert result.workflow.nodes == ()


def test_bom_is_named_and_the_rest_still_analysed() -> None:
    text = "\ufeff" + BASE
    result = analyze(text)
    syntax = [f for f in result.findings if f.code == "FD-SYNTAX"]
    assert len(syntax) == 1 and syntax[0].span.start == 0 and syntax[0].span.end == 1
    assert "byte order mark" in syntax[0].message
    found = cmp9_by_node(text)
    assert found["a"][0].span == token_span(text, '"Search"')


def test_crlf_line_endings() -> None:
    text = BASE.replace("\n", "\r\n")
    result = analyze(text)
    assert [f.code for f in result.findings] == ["CMP-9", "CMP-9"]
    assert [at(text, f.span) for f in result.findings] == ['"Search"', '"search"']


def test_comments_are_allowed_in_jsonc() -> None:
    text = BASE.replace('"id": "z",', '"id": "z", /* typing */')
    assert "FD-SYNTAX" in codes(text)
    assert "FD-SYNTAX" not in {f.code for f in analyze(text, allow_comments=True).findings}


@pytest.mark.parametrize(
    "text",
    [
        '{"nodes": [{"id": "a", "data": {"label": "\\',
        '{"nodes": [{"id": "a", "data": {"label": "\\u12',
        '{"nodes": [{"id": "a", "data": {"label": "\\ud83d"}}], "edges": []}',
        '{"nodes": [{"\\ud83dtype": "x", "id": "a"}], "edges": []}',
        '{"nodes": [{"id": "\\udce6", "data": {"\\ud83d": 1}}], "edges": [{"source": "\\ud83d", "target": "x"}]}',
        '{"nodes": [{"id": "\\',
        '{"nodes": [{"id": "a"}]]]]}}}}',
        '}}}]]]{"nodes": []}',
        '{"nodes": [1e999, -0, 1.5e-10, 01]}',
        '{"nodes": [NaN, Infinity, -Infinity]}',
        '{"nodes": [\x00\x01\x1f]}',
        '{"nodes":[{"id":"a","type":"t","data":{"label":"x"}}],"edges":[{"source":"a","target":"a","data":{"edgeType":"tool_availability"}}]}',
    ],
)
def test_odd_fragments_never_raise(text: str) -> None:
    result = analyze(text)
    for finding in result.findings:
        assert 0 <= finding.span.start <= finding.span.end <= len(text)
        finding.message.encode("utf-8", "surrogatepass")
