"""EDGE-8: a condition planted on an edge of a copy of the real weather workflow (Drupal YAML, and
the same data as JSON): a warning on the condition's value, the unsafe fix that removes it, kept
per edge and equal to a fresh analysis after edits, and silent for an empty condition."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Applicability
from tests.support.builders import as_json, at, findings, node, plant, token
from tests.support.launch import corpus_yaml, edit_replacing, fix_removes_only, loads, same_as_fresh

WEATHER = corpus_yaml("aincient_weather")
SYNTAXES = ("yaml", "json")
CONDITION = "status == 200 && 天気"
MESSAGE = (
    f"the condition \"{CONDITION}\" on the edge from 'data_mapper.1' to 'http_request.1' is "
    "ignored: edge conditions were removed, the edge always routes (branch with a gateway node "
    "instead)"
)


def _weather(syntax: str) -> str:
    return WEATHER if syntax == "yaml" else as_json(WEATHER)


def _category(syntax: str) -> str:
    """The first edge member this test plants the condition after (edge 1's data)."""
    return "      targetCategory: tools\n" if syntax == "yaml" else '"targetCategory": "tools",\n'


def _with_condition(text: str, syntax: str, condition: str = CONDITION, of: int = 5) -> str:
    """`text` with a condition after its first edge category (`of`: the categories it has, the
    weather workflow's five edges)."""
    member = (
        f"      condition: '{condition}'\n"
        if syntax == "yaml"
        else f'        "condition": "{condition}",\n'
    )
    return plant(text, _category(syntax), _category(syntax) + member, of=of)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_condition_is_warned_about_on_its_value_and_removed_by_an_unsafe_fix(
    syntax: str,
) -> None:
    original = _weather(syntax)
    text = _with_condition(original, syntax)
    [finding] = findings(text, "EDGE-8", syntax=syntax)
    assert finding.severity.value == "warning"
    assert finding.message == MESSAGE
    assert (finding.locator_code, finding.locator) == (None, "edge.1")
    assert finding.span.start == text.index(token(syntax, CONDITION, "'"))
    assert at(text, finding.span) == token(syntax, CONDITION, "'")
    [fix] = finding.fixes
    assert (fix.title, fix.preferred, fix.applicability) == (
        "Remove the condition",
        False,
        Applicability.UNSAFE,
    )
    assert [e.new_text for e in fix.edits] == [""]
    fixed = fix_removes_only(text, finding, fix, syntax)
    assert loads(fixed, syntax) == loads(original, syntax)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_empty_condition_is_silent(syntax: str) -> None:
    assert findings(_with_condition(_weather(syntax), syntax, ""), "EDGE-8", syntax=syntax) == []


def test_a_condition_that_is_no_string_is_silent() -> None:
    text = json.dumps(
        {
            "nodes": [node("a"), node("b")],
            "edges": [{"source": "a", "target": "b", "data": {"condition": True}}],
        }
    )
    assert findings(text, "EDGE-8") == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_edits_equal_a_fresh_analysis(syntax: str) -> None:
    document = WorkflowDocument(_weather(syntax), syntax=syntax)
    document.findings()
    category = _category(syntax)
    edit_replacing(document, category, _with_condition(category, syntax, of=1))
    rows = [row for row in same_as_fresh(document, syntax) if row[0] == "EDGE-8"]
    assert [(row[2], row[-1]) for row in rows] == [(MESSAGE, "edge.1")]
    edit_replacing(document, "Chat Input", "Chat 🌦 天気 Input 😀")  # a label edit above
    rows = [row for row in same_as_fresh(document, syntax) if row[0] == "EDGE-8"]
    assert [(row[2], row[-1]) for row in rows] == [(MESSAGE, "edge.1")]
    assert document.text[rows[0][3] : rows[0][4]] == token(syntax, CONDITION, "'")
    edit_replacing(document, CONDITION, "")  # emptied: silent again
    assert [row for row in same_as_fresh(document, syntax) if row[0] == "EDGE-8"] == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_positions_after_emoji_and_cjk_labels(syntax: str) -> None:
    text = plant(_weather(syntax), "Chat Input", "Chat 🌦 天気 Input 😀", of=2)
    text = _with_condition(text, syntax)
    [finding] = findings(text, "EDGE-8", syntax=syntax)
    assert finding.span.start == text.index(token(syntax, CONDITION, "'"))
    assert at(text, finding.span) == token(syntax, CONDITION, "'")
    fixed = fix_removes_only(text, finding, finding.fixes[0], syntax)
    assert CONDITION not in fixed


def test_a_half_typed_edge_says_nothing_about_its_condition() -> None:
    text = json.dumps(
        {"nodes": [node("a"), node("b")], "edges": [{"id": "e1", "source": "a", "target": "b"}]},
        indent=2,
    )
    half = text.replace(
        '"target": "b"\n',
        '"target": "b"\n    },\n    {"source": "a", "data": {"condition": "x", \n',
    )
    assert [f.code for f in analyze(half).findings] == ["FD-SYNTAX"]
