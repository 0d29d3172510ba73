"""EDGE-9: execution-record keys planted on an edge of a copy of the real weather workflow
(Drupal YAML, and the same data as JSON): one error per key, on the key; `source_handle` renamed
back to `sourceHandle` (safe), a key with no transport name, or one whose transport key is there,
removed (unsafe); kept per edge and equal to a fresh analysis after edits."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Applicability
from tests.support.builders import at, node
from tests.support.launch import (
    as_json,
    corpus_yaml,
    edit_replacing,
    fix_removes_only,
    found,
    loads,
    planted,
    same_as_fresh,
)

WEATHER = corpus_yaml("aincient_weather")
SYNTAXES = ("yaml", "json")
HANDLE = "data_mapper.1-output-url"


def _weather(syntax: str) -> str:
    return WEATHER if syntax == "yaml" else as_json(WEATHER)


def _member(syntax: str, key: str, value: str) -> str:
    return f"{key}: {value}" if syntax == "yaml" else f'"{key}": "{value}"'


def _key(syntax: str, key: str) -> str:
    return key if syntax == "yaml" else f'"{key}"'


def _ends(key: str) -> str:
    return (
        f"'{key}' on the edge from 'data_mapper.1' to 'http_request.1' belongs to the runtime's "
        "execution record, not to a stored edge: "
    )


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_source_handle_is_renamed_back_to_source_handle(syntax: str) -> None:
    original = _weather(syntax)
    text = planted(
        original, _member(syntax, "sourceHandle", HANDLE), _member(syntax, "source_handle", HANDLE)
    )
    [finding] = found(text, "EDGE-9", syntax)
    assert finding.severity.value == "error"
    assert finding.message == _ends("source_handle") + (
        "a stored edge says 'sourceHandle'; as written, nothing reads it"
    )
    assert (finding.locator_code, finding.locator) == (None, "edge.1")
    assert finding.span.start == text.index(_key(syntax, "source_handle"))
    assert at(text, finding.span) == _key(syntax, "source_handle")
    [fix] = finding.fixes
    assert (fix.title, fix.preferred, fix.applicability) == (
        "Rename 'source_handle' to 'sourceHandle'",
        True,
        Applicability.SAFE,
    )
    assert fix_removes_only(text, finding, fix, syntax) == original


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_keys_without_a_usable_transport_name_are_removed_by_unsafe_fixes(syntax: str) -> None:
    original = _weather(syntax)
    # `is_tool` has no transport name; `edge_id` has one, but the edge has an `id` already.
    extra = (
        "    is_tool: false\n    edge_id: e1\n"
        if syntax == "yaml"
        else '      "is_tool": false,\n      "edge_id": "e1",\n'
    )
    anchor = (
        "    source: data_mapper.1\n" if syntax == "yaml" else '      "source": "data_mapper.1",\n'
    )
    text = planted(original, anchor, extra + anchor)
    findings = found(text, "EDGE-9", syntax)
    assert [(f.message, at(text, f.span), f.locator) for f in findings] == [
        (
            _ends("is_tool")
            + "it is derived from the edge's handles and type, and nothing reads it here",
            _key(syntax, "is_tool"),
            "edge.1",
        ),
        (
            _ends("edge_id") + "the edge's 'id' is read instead",
            _key(syntax, "edge_id"),
            "edge.1",
        ),
    ]
    for finding in findings:
        [fix] = finding.fixes
        assert (fix.preferred, fix.applicability) == (False, Applicability.UNSAFE)
        assert fix.title == f"Remove '{at(text, finding.span).strip(chr(34))}'"
    fixed = fix_removes_only(text, findings[0], findings[0].fixes[0], syntax)
    [left] = found(fixed, "EDGE-9", syntax)
    fixed = fix_removes_only(fixed, left, left.fixes[0], syntax)
    assert loads(fixed, syntax) == loads(original, syntax)


def test_edge_id_becomes_the_id_when_the_edge_has_none() -> None:
    text = json.dumps(
        {
            "nodes": [node("a"), node("b")],
            "edges": [{"edge_id": "e1", "source": "a", "target": "b"}],
        }
    )
    [finding] = found(text, "EDGE-9")
    [fix] = finding.fixes
    assert fix.preferred and [e.new_text for e in fix.edits] == ['"id"']
    fixed = fix_removes_only(text, finding, fix, "json")
    assert json.loads(fixed)["edges"] == [{"id": "e1", "source": "a", "target": "b"}]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_edits_equal_a_fresh_analysis(syntax: str) -> None:
    document = WorkflowDocument(_weather(syntax), syntax=syntax)
    document.findings()
    edit_replacing(
        document, _member(syntax, "sourceHandle", HANDLE), _member(syntax, "source_handle", HANDLE)
    )
    rows = [row for row in same_as_fresh(document, syntax) if row[0] == "EDGE-9"]
    assert [row[-1] for row in rows] == ["edge.1"]
    edit_replacing(document, "Chat Input", "Chat 🌦 天気 Input 😀")  # a label edit above
    rows = [row for row in same_as_fresh(document, syntax) if row[0] == "EDGE-9"]
    assert document.text[rows[0][3] : rows[0][4]] == _key(syntax, "source_handle")
    edit_replacing(document, _key(syntax, "source_handle"), _key(syntax, "sourceHandle"))
    assert [row for row in same_as_fresh(document, syntax) if row[0] == "EDGE-9"] == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_positions_after_emoji_and_cjk_labels(syntax: str) -> None:
    original = planted(_weather(syntax), "Chat Input", "Chat 🌦 天気 Input 😀")
    text = planted(
        original, _member(syntax, "sourceHandle", HANDLE), _member(syntax, "source_handle", HANDLE)
    )
    [finding] = found(text, "EDGE-9", syntax)
    assert finding.span.start == text.index(_key(syntax, "source_handle"))
    assert fix_removes_only(text, finding, finding.fixes[0], syntax) == original
