"""Issue 18 §3: a node half-typed right after `"key": ` (its value not typed yet).

The spec's refused CMP-9 example with `    {"id": "s", "data": {"label": "x", "metadata":
{"node_type_id": ` inserted as a new line: the half-typed node must not swallow the node after
it as the missing value (a '{' starting a line where the value belongs is the next element when
the element turns out broken), so it gets ONE FD-SYNTAX finding and nothing else is said about
it or about the elements that follow; no finding twice; values spelled as JSON (`null`, `"x"`,
`{…}`), never as Python (`None`, `'x'`, `{'id': …}`). Checked through a whole read (what
`flowdrop-lsp check` does) and typed keystroke by keystroke into the incremental engine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.syntax.json.parser import parse_json
from flowdrop_lsp.core.syntax.json.regions import parse_array_region
from flowdrop_lsp.core.syntax.json.shapes import NODE_SHAPE
from flowdrop_lsp.core.syntax.tree import JArray, JObject
from tests.support.engine import comparable

SPEC = Path(__file__).parents[2] / "fixtures" / "spec" / "cmp9-refused-two-tools-through-a-box.json"
PRETTY = SPEC.read_text(encoding="utf-8")
MINIFIED = json.dumps(json.loads(PRETTY), separators=(",", ":"))
LINE = '    {"id": "s", "data": {"label": "x", "metadata": {"node_type_id": '


# None/True/False as words, a dict's or a list's repr (`{'id': …`, `['a', …`).
PYTHON_REPR = re.compile(r"\b(None|True|False)\b|\{'[^']*': |\['[^']*'[,\]]")


def _baseline(text: str) -> list[tuple[str, str]]:
    return [(f.code, f.message) for f in analyze(text).findings]


def _python_spelled(message: str) -> bool:
    """A value spelled as Python would: None/True/False, a quoted string, a dict or a list."""
    if PYTHON_REPR.search(message):
        return True
    # Apart from jsonschema's type names (`of type 'string'`), no single-quoted value.
    return "'" in re.sub(r"of type '\w+'", "", message)


def check_findings(findings: tuple[Finding, ...]) -> None:
    keys = [(f.code, f.message, f.span.start, f.span.end) for f in findings]
    assert len(keys) == len(set(keys)), f"duplicate findings: {keys}"
    for f in findings:
        if f.code == "FD-SCHEMA":
            assert not _python_spelled(f.message), f.message
        if f.code == "FD-SYNTAX":
            assert not PYTHON_REPR.search(f.message), f.message


def _inserted(text: str, before: str, line: str = LINE) -> str:
    """`line` inserted as a new line just before the first occurrence of `before`."""
    at = text.index(before)
    return (
        text[:at] + line.strip() + "\n" + text[at:]
        if text is MINIFIED
        else (
            text[: text.rindex("\n", 0, at) + 1]
            + line
            + "\n"
            + text[text.rindex("\n", 0, at) + 1 :]
        )
    )


CASES = {
    "first node": (PRETTY, '{ "id": "tool_a"'),
    "middle node": (PRETTY, '{ "id": "tool_b"'),
    "last node": (PRETTY, '{ "id": "box_1"'),
    "first edge": (PRETTY, '{ "source": "tool_a"'),
    "minified, first node": (MINIFIED, '{"id":"tool_a"'),
    "minified, last node": (MINIFIED, '{"id":"box_1"'),
}


@pytest.mark.parametrize("case", CASES)
def test_one_syntax_finding_and_nothing_about_what_follows(case: str) -> None:
    text, before = CASES[case]
    broken = _inserted(text, before)
    findings = analyze(broken).findings
    check_findings(findings)
    syntax = [f for f in findings if f.code == "FD-SYNTAX"]
    assert len(syntax) == 1, [f.message for f in findings]
    # Everything else is what the document said without the half-typed node.
    others = [(f.code, f.message) for f in findings if f.code != "FD-SYNTAX"]
    assert others == _baseline(text)
    assert not any("box_1" in f.message and f.code == "R8" for f in findings)


def test_after_the_last_node_without_a_comma() -> None:
    """The missing ',' is the user's second error (between elements); the node is one."""
    at = PRETTY.index("\n  ],")
    broken = PRETTY[:at] + "\n" + LINE + PRETTY[at:]
    findings = analyze(broken).findings
    check_findings(findings)
    messages = sorted(f.message for f in findings if f.code == "FD-SYNTAX")
    assert len(messages) == 2, messages
    assert [(f.code, f.message) for f in findings if f.code != "FD-SYNTAX"] == _baseline(PRETTY)


def test_a_missing_value_is_no_null() -> None:
    """`"node_type_id": ` with nothing after it is a syntax error, not a null to validate."""
    at = PRETTY.index("\n  ],")
    broken = PRETTY[:at] + ",\n" + LINE + PRETTY[at:]
    findings = analyze(broken).findings
    check_findings(findings)
    assert [f.code for f in findings if f.code in ("FD-SYNTAX", "FD-SCHEMA")] == ["FD-SYNTAX"]


def _type_in(text: str, at: int, typed: str) -> None:
    document = WorkflowDocument(text)
    document.findings()
    for i, character in enumerate(typed):
        document.apply_edit(at + i, at + i, character)
        current = document.findings()
        check_findings(current)
        scratch = WorkflowDocument(document.text)
        assert comparable(document) == comparable(scratch), document.text
        assert not any(f.code == "R8" and "box_1" in f.message for f in current), document.text
    assert document.incremental_failures == []


@pytest.mark.parametrize("case", CASES)
def test_typed_keystroke_by_keystroke(case: str) -> None:
    text, before = CASES[case]
    # A new empty line first (Enter), then the node typed on it.
    if text is MINIFIED:
        at = text.index(before)
        start = text[:at] + "\n" + text[at:]
    else:
        line_start = text.rindex("\n", 0, text.index(before)) + 1
        at = line_start
        start = text[:at] + "\n" + text[at:]
    _type_in(start, at, LINE.strip() if text is MINIFIED else LINE)


def test_schema_messages_spell_values_as_json() -> None:
    text = json.dumps(
        {
            "nodes": [
                {"id": "a", "type": None, "data": {"label": True}},
                {"id": "b", "type": "t", "data": {"label": {"x": 1}}},
                {"id": "", "data": {"label": "x", "metadata": {"node_type_id": ["a"]}}},
                {"type": "t"},
                "plain",
            ],
            "edges": [],
        }
    )
    messages = [f.message for f in analyze(text).findings if f.code == "FD-SCHEMA"]
    # A node with an id is named as every rule names it; one without, by its index.
    assert messages == [
        "type of a (type unknown): null is not of type 'string'",
        "data.label of a (type unknown): true is not of type 'string'",
        "data.label of b (type t): {…} is not of type 'string'",
        'nodes[2].id: "" should be non-empty',
        "nodes[2].data.metadata.node_type_id: […] is not of type 'string'",
        'nodes[3]: "id" is a required property',
        "nodes[4]: \"plain\" is not of type 'object'",
    ], messages


def test_schema_messages_spell_values_as_yaml() -> None:
    text = (
        "id: w\nnodes:\n  - id: a\n    type: ~\n    data:\n      label: true\n"
        "  - type: t\n  - 'it''s'\nedges: []\n"
    )
    messages = [f.message for f in analyze(text, syntax="yaml").findings if f.code == "FD-SCHEMA"]
    assert messages == [
        "type of a (type unknown): null is not of type 'string'",
        "data.label of a (type unknown): true is not of type 'string'",
        "nodes[1]: 'id' is a required property",
        "nodes[2]: 'it''s' is not of type 'object'",
    ], messages


NODE_LINE = (
    '{"id": "s", "type": "http_request", "data": {"label": "x", "metadata": '
    '{"node_type_id": "t", "flags": [true, null, 1]}}},'
)
EDGE_LINE = '{"source": "tool_a", "target": "box_1", "data": {"edgeType": "tool_availability"}},'


@pytest.mark.parametrize(
    ("text", "before", "line"),
    [
        (PRETTY, '{ "id": "tool_a"', NODE_LINE),
        (PRETTY, '{ "id": "box_1"', NODE_LINE),
        (PRETTY, "\n  ],\n", NODE_LINE),
        (PRETTY, '{ "source": "tool_a"', EDGE_LINE),
        (PRETTY, '{ "source": "tool_b"', NODE_LINE),
        (PRETTY, "\n  ]\n}", EDGE_LINE),
        (MINIFIED, '{"id":"tool_b"', NODE_LINE),
        (MINIFIED, '{"source":"tool_a"', EDGE_LINE),
    ],
)
def test_no_duplicate_and_no_python_spelling_for_any_half_typed_line(
    text: str, before: str, line: str
) -> None:
    """The general guard: every prefix of an element's line, inserted as a new line at several
    places, never gives two identical findings nor a value spelled as Python."""
    at = text.index(before)
    if before.startswith("\n"):
        at += 1
    else:
        at = text.rindex("\n", 0, at) + 1 if text is PRETTY else at
    for length in range(1, len(line) + 1):
        broken = text[:at] + "    " + line[:length] + "\n" + text[at:]
        check_findings(analyze(broken).findings)


@pytest.mark.parametrize("opener", ["[", "{", "[[", '"', "x"])
@pytest.mark.parametrize("text", [PRETTY, MINIFIED], ids=["pretty", "minified"])
def test_an_opener_typed_before_any_element_reads_as_a_whole_read_does(
    text: str, opener: str
) -> None:
    """A '[' typed before a node wraps every node up to `nodes`' own ']' in a whole read: the
    element is closed there, not half-typed. A stretch re-read sees only up to the next element
    and must not cut it as half-typed (it did: 'unterminated array' and R8s where a whole read
    reports the cascade); it re-reads a longer stretch instead."""
    starts = [m.start() for m in re.finditer(r'\{ ?"(?:id|source)"', text)]
    assert len(starts) == 6
    for at in starts:
        document = WorkflowDocument(text)
        document.findings()
        for i, character in enumerate(opener):
            document.apply_edit(at + i, at + i, character)
            document.findings()
            scratch = WorkflowDocument(document.text)
            assert comparable(document) == comparable(scratch), document.text


# Edit histories (start, end, replacement) on the spec's example found by a fuzz: each ends with
# `"nodes": [[` (a '[' typed right after `nodes`' own) before a broken node. The whole read cuts
# that '[' element at the next line's '{' (no deeper than the '[': 'unterminated array'); the
# stretch re-read after the last edit starts AT the '[' (its text has no line before it) and
# took the '[' for an element at column 0, deeper than every '{': not cut, no 'unterminated'.
HISTORIES = [
    [
        (278, 278, "]"),
        (221, 221, "{"),
        (163, 175, ""),
        (343, 350, ":"),
        (99, 132, ""),
        (30, 37, '"'),
        (251, 286, ""),
        (460, 465, "&"),
        (75, 113, ""),
        (258, 263, ">"),
        (67, 67, "\n  "),
        (389, 420, ""),
        (135, 135, '"'),
        (250, 256, ""),
        (14, 14, "["),
    ],
    [
        (13, 13, "["),
        (545, 545, "'"),
        (68, 68, '"'),
        (290, 293, "漢"),
        (72, 72, "  -\n"),
        (313, 313, "\n"),
        (76, 76, "'"),
        (39, 42, "y"),
        (95, 98, ""),
        (250, 255, "#"),
    ],
]


@pytest.mark.parametrize("history", range(len(HISTORIES)))
def test_a_stretch_starting_mid_line_cuts_as_a_whole_read_does(history: int) -> None:
    document = WorkflowDocument(PRETTY)
    document.findings()
    for start, end, replacement in HISTORIES[history]:
        document.apply_edit(start, end, replacement)
        document.findings()
        scratch = WorkflowDocument(document.text)
        assert comparable(document) == comparable(scratch), document.text


def test_a_stretch_re_read_knows_the_column_it_starts_at() -> None:
    """The stretch of `nodes` from a '[' typed after `nodes`' own, to box_1: read with the
    column it starts at, it reads the elements a whole read reads (the '[' cut at the next '{')."""
    text = PRETTY.replace('"nodes": [', '"nodes": [[', 1).replace('"web-search"', '"web-search', 1)
    whole = parse_json(text).root
    assert isinstance(whole, JObject)
    nodes = whole.get("nodes")
    assert isinstance(nodes, JArray)
    start = nodes.start + 1
    end = nodes.items[-1].start  # the stretch up to box_1, untouched
    column = start - text.rindex("\n", 0, start) - 1
    region = parse_array_region(text[start:], end - start, NODE_SHAPE, False, column)
    assert isinstance(region, tuple)
    spans = [(value.start + start, value.end + start) for value in region[0]]
    assert spans == [(item.start, item.end) for item in nodes.items[:-1]]
    assert [p.message for p in region[1]] == [p.message for p in parse_json(text).problems]
    assert spans[0] == (start, start + 1)  # the '[', cut: 'unterminated array'
