"""FD-SYNTAX is reported exactly when the text is not JSON.

The oracle, `is_json(text)`, is the standard library made as strict as the FlowDrop runtime
(PHP's json_decode):

- `json.loads(text, parse_constant=reject)`: NaN, Infinity and -Infinity are refused (json.loads
  takes them by default; json_decode does not);
- with Python's int-from-string digit limit lifted (`sys.set_int_max_str_digits(0)` for the
  duration of the call): a 5,000-digit integer is JSON;
- a text that json.loads refuses only for nesting (RecursionError) is outside the property:
  the parser reports nesting deeper than MAX_DEPTH (200) as a documented FD-SYNTAX finding, and
  the generated texts never nest that deep (`nesting` filters them out); nor as deep as
  STORE-1's door (64 levels), which refuses the text before any parse (tests/core/
  test_store_door.py);
- a leading byte order mark needs no exception: json.loads refuses a str starting with U+FEFF
  and so does json_decode, and the parser reports it (FD-SYNTAX, test_tolerance.py).

Everything else follows from the oracle: lone surrogate escapes (`"\\ud800"`) are JSON,
duplicate keys are JSON (FD-DUPLICATE-KEY, never FD-SYNTAX), top-level scalars are JSON (they
get FD-NOT-WORKFLOW, never FD-SYNTAX). JSONC (`allow_comments`) is outside the property.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.syntax.door import REFUSED_DEPTH
from flowdrop_lsp.core.syntax.json.parser import MAX_DEPTH, parse_json
from flowdrop_lsp.core.syntax.json.shapes import FULL
from flowdrop_lsp.core.syntax.tree import to_python
from flowdrop_lsp.entry import main
from tests.support.builders import node, workflow

SYNTAX = "FD-SYNTAX"


@contextmanager
def unlimited_int_digits() -> Iterator[None]:
    previous = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(previous)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def is_json(text: str) -> bool:
    """The oracle (see the module docstring)."""
    with unlimited_int_digits():
        try:
            json.loads(text, parse_constant=_reject_constant)
        except ValueError:  # json.JSONDecodeError is a ValueError
            return False
    return True


def nesting(text: str) -> int:
    """An upper bound of the bracket nesting of `text` (brackets in strings count too)."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def syntax_findings(text: str) -> list[Any]:
    return [f for f in analyze(text).findings if f.code == SYNTAX]


def has_syntax_finding(text: str) -> bool:
    return bool(syntax_findings(text))


# ----- the property -------------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)
# A workflow-shaped value, so that the fast path and the shape-directed reads are exercised.
workflows = st.fixed_dictionaries(
    {
        "nodes": st.lists(
            st.fixed_dictionaries(
                {"id": st.text(max_size=4), "data": st.fixed_dictionaries({"label": json_values})},
                optional={"type": st.sampled_from(["toolbox", "agent"]), "position": json_values},
            ),
            max_size=3,
        ),
        "edges": st.lists(
            st.fixed_dictionaries(
                {"source": st.text(max_size=3), "target": st.text(max_size=3)},
                optional={"data": json_values},
            ),
            max_size=2,
        ),
    },
    optional={"name": json_values},
)
ALPHABET = (
    [chr(code) for code in range(0x20)]  # control characters
    + list('"\\/{}[]:,0123456789eE.+- ')
    + ["\u00a0", "\u2028", "\ufeff", "\x7f", "u", "a", "ud800", "tru", "null", "NaN", "Infinity"]
    + ["01", "-0", "1.", ".5", "1e", "\\u12", "\\x", "\\u00e9", "//", "/*", "*/"]
)


@st.composite
def near_json(draw: st.DrawFn) -> tuple[str, str]:
    """(a valid JSON text, that text after a few character-level mutations)."""
    value = draw(workflows | json_values)
    original = json.dumps(
        value, indent=draw(st.sampled_from([None, 1])), ensure_ascii=draw(st.booleans())
    )
    text = original
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        if action == "delete":
            text = text[:at] + text[at + 1 :]
        else:
            part = draw(st.sampled_from(ALPHABET))
            text = text[:at] + part + text[at + (action == "replace") :]
    return original, text


def _common_affixes(old: str, new: str) -> tuple[int, int]:
    """The edit turning `old` into `new`: the replaced range [start, end) of `old`."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    return start, end_old


@given(near_json())
@example(("[1]", "[1\t]"))
@example(('["a"]', '["a\tb"]'))
@example(('{"nodes": []}', '{"nodes": [1e]}'))
def test_fd_syntax_exactly_when_json_loads_refuses(texts: tuple[str, str]) -> None:
    original, text = texts
    if nesting(text) >= min(MAX_DEPTH, REFUSED_DEPTH):
        return
    expected_error = not is_json(text)
    assert has_syntax_finding(text) == expected_error, (text, syntax_findings(text))
    # The incremental engine, driven from the valid original by one edit, agrees with a
    # fresh analysis about FD-SYNTAX.
    document = WorkflowDocument(original)
    start, end = _common_affixes(original, text)
    new_end = len(text) - (len(original) - end)
    document.apply_edit(start, end, text[start:new_end])
    assert document.text == text
    incremental = any(f.code == SYNTAX for f in document.findings())
    assert incremental == expected_error, (text, document.findings())
    assert document.incremental_failures == []


# ----- examples -----------------------------------------------------------------------------

# A workflow with a slot for a value inside a node's data (read by the C scanner's fast path,
# then by the shape-directed parser when that fails) and one at the root.
IN_NODE = '{"nodes": [{"id": "a", "type": "x", "data": {"label": "A", "v": %s}}], "edges": []}'
AT_ROOT = '{"nodes": [], "edges": [], "v": %s}'
BIG_INT = "1" + "0" * 4999

VALUES = [
    # (a value, whether it is JSON)
    ("0", True),
    ("-0", True),
    ("0e5", True),
    ("1E-2", True),
    ("-1.5e+3", True),
    (BIG_INT, True),
    ("-" + BIG_INT, True),
    ("01", False),
    ("-01", False),
    ("-", False),
    ("1.", False),
    (".5", False),
    ("+1", False),
    ("1e", False),
    ("1e+", False),
    ("0x10", False),
    ("NaN", False),
    ("Infinity", False),
    ("-Infinity", False),
    ("[NaN]", False),
    ('{"k": Infinity}', False),
    ('"\\u00e9 \\n \\/"', True),
    ('"\\ud800"', True),  # a lone surrogate escape: json.loads takes it, so do we
    ('"\\x41"', False),
    ('"\\u12"', False),
    ('"\\u12G4"', False),
    ('"\\', False),
    ('"a\tb"', False),
    ('"a\x00b"', False),
    ('"a\x1fb"', False),
    ('"a\\\tb"', False),  # an escaped tab is no escape
    ('"a\x7fb"', True),  # DEL is not a control character for JSON
    ('"a\u2028b"', True),
    ("[1,]", False),
    ('{"k": 1,}', False),
    ("[1 2]", False),
    ("tru", False),
    ("True", False),
    ("nulls", False),
    ("'a'", False),
    ("/* c */ 1", False),
    ("1 // c", False),
    ("\u00a01", False),
    ("[1\u00a0]", False),
    ("[1\f]", False),
    ("[1\v]", False),
    ("[\t1\r\n]", True),
]


@pytest.mark.parametrize("template", [IN_NODE, AT_ROOT, "%s"], ids=["in-node", "at-root", "bare"])
@pytest.mark.parametrize(("value", "valid"), VALUES, ids=[repr(v[:12]) for v, _ in VALUES])
def test_values(template: str, value: str, valid: bool) -> None:
    text = template % value
    assert is_json(text) == valid  # the oracle says what the table says…
    assert has_syntax_finding(text) != valid, syntax_findings(text)  # …and so do we


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("", False),
        ("  \n", False),
        ("{}", True),
        ("{} x", False),
        ("{}}", False),
        ("[] []", False),
        ("{}\u00a0", False),
        ("\u00a0{}", False),
        ("{}\n\t\r ", True),
        ("\ufeff{}", False),  # a BOM: json.loads and json_decode refuse it, and we name it
        ('{"a": 1, "a": 2}', True),
        ('{"nodes": [], "nodes": []}', True),
        ("1", True),
        ('"text"', True),
        ("true", True),
        ("null", True),
    ],
)
def test_documents(text: str, valid: bool) -> None:
    assert is_json(text) == valid
    assert has_syntax_finding(text) != valid, syntax_findings(text)


def test_duplicate_keys_are_not_a_syntax_error() -> None:
    text = workflow([node("a", label="A")], []).replace('"id": "a"', '"id": "a", "id": "a"')
    codes = [f.code for f in analyze(text).findings]
    assert "FD-DUPLICATE-KEY" in codes and SYNTAX not in codes


@pytest.mark.parametrize("text", ["1", '"s"', "true", "null", "[]"])
def test_top_level_scalars_are_json_but_not_workflows(text: str) -> None:
    assert [f.code for f in analyze(text).findings] == ["FD-NOT-WORKFLOW"]


def test_nesting_beyond_the_depth_limit_is_a_documented_finding() -> None:
    shallow = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert is_json(shallow) and is_json(deep)  # json.loads goes to ≈1000 levels
    # The parser itself (the door refuses both texts before any parse: STORE-1).
    assert not parse_json(shallow).problems
    (problem,) = parse_json(deep).problems
    assert f"nesting deeper than {MAX_DEPTH} levels" in problem.message


# ----- control characters in strings ------------------------------------------------------

LABELLED = workflow([node("a", label="Search"), node("b", label="search")], [])


@pytest.mark.parametrize("code", [c for c in range(0x20) if c not in (0x0A, 0x0D)])
def test_a_control_character_is_reported_where_it_is_and_the_string_still_read(code: int) -> None:
    char = chr(code)
    text = LABELLED.replace('"Search"', f'"Sea{char}rch"')
    at = text.index(char)
    result = analyze(text)
    (finding,) = [f for f in result.findings if f.code == SYNTAX]
    assert (finding.span.start, finding.span.end) == (at, at + 1)
    escape = json.dumps(char)[1:-1]
    assert finding.message.startswith(f"control character U+{code:04X}")
    assert finding.message.endswith(f"must be escaped as {escape}")
    assert [n.label for n in result.workflow.nodes] == [f"Sea{char}rch", "search"]


def test_tab_message() -> None:
    text = LABELLED.replace('"Search"', '"Sea\trch"')
    (finding,) = syntax_findings(text)
    assert finding.message == "control character U+0009 (tab) in a string must be escaped as \\t"


def test_control_characters_in_keys_and_escaped_strings_each_reported() -> None:
    text = LABELLED.replace('"label": "Search"', '"la\tbel": "Se\\u0061\x01rch\x02"')
    starts = [f.span.start for f in syntax_findings(text)]
    assert starts == [text.index("\t"), text.index("\x01"), text.index("\x02")]


def test_the_rest_of_the_document_is_still_analysed() -> None:
    text = workflow(
        [node("a", label="Se\tarch"), node("x", label="Search"), node("y", label="search")],
        [],
    ).replace("\\t", "\t")
    result = analyze(text)
    assert [n.label for n in result.workflow.nodes] == ["Se\tarch", "Search", "search"]


@pytest.mark.parametrize("line_break", ["\n", "\r"])
def test_a_raw_line_break_in_a_string_is_an_unterminated_string(line_break: str) -> None:
    text = LABELLED.replace('"Search"', f'"Sea{line_break}rch"')
    messages = [f.message for f in syntax_findings(text)]
    assert "unterminated string: a line break in a string must be escaped as \\n" in messages


@pytest.mark.parametrize("char", ["\t", "\x00", "\x1b"])
def test_an_edit_that_types_a_control_character_is_reported_incrementally(char: str) -> None:
    document = WorkflowDocument(LABELLED)
    at = LABELLED.index("Search") + 3
    document.apply_edit(at, at, char)
    (finding,) = [f for f in document.findings() if f.code == SYNTAX]
    assert (finding.span.start, finding.span.end) == (at, at + 1)
    assert document.findings() == analyze(document.text).findings
    # …and removing it is incremental again once the text is whole.
    document.apply_edit(at, at + 1, "")
    assert not any(f.code == SYNTAX for f in document.findings())
    document.apply_edit(at, at, "x")
    assert not document.stats.full_reread


# ----- big integers -------------------------------------------------------------------------


def test_a_huge_integer_is_json_and_read_as_json_decode_reads_it() -> None:
    text = IN_NODE % BIG_INT
    result = analyze(text)
    assert [f.code for f in result.findings] == []
    # A float, as PHP's json_decode makes of an integer too big for an int (here: ±inf).
    value = to_python(parse_json(text, shape=FULL).root)
    assert value["nodes"][0]["data"]["v"] == float("inf")
    negative = to_python(parse_json(text.replace(BIG_INT, "-" + BIG_INT), shape=FULL).root)
    assert negative["nodes"][0]["data"]["v"] == float("-inf")


def test_a_huge_integer_where_the_schema_wants_a_string_is_a_schema_finding() -> None:
    text = workflow([node("a", label="A")], []).replace('"id": "a"', f'"id": {BIG_INT}')
    codes = [f.code for f in analyze(text).findings]
    assert SYNTAX not in codes and "FD-SCHEMA" in codes


def test_an_edit_that_makes_an_integer_huge() -> None:
    text = IN_NODE % "1"
    document = WorkflowDocument(text)
    at = text.index(": 1}") + 3
    document.apply_edit(at, at, "0" * 5000)
    assert [f.code for f in document.findings()] == []
    assert document.findings() == analyze(document.text).findings


def test_check_a_file_with_a_huge_integer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "big.flowdrop.json"
    path.write_text(IN_NODE % BIG_INT, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "no problems in 1 file\n"
    assert "Traceback" not in captured.err
    broken = tmp_path / "broken.flowdrop.json"
    broken.write_text((IN_NODE % BIG_INT).replace('"A"', '"A\t"'), encoding="utf-8")
    assert main(["check", str(broken)]) == 1
    assert "FD-SYNTAX" in capsys.readouterr().out
