"""R3: a duplicate or missing edge id, planted in a copy of the real weather workflow (Drupal YAML,
and the same data as JSON): exact spans, the spec's locator codes, the fresh-id fixes (which give
back the id the editor minted), incremental edits, and no flood on documents without edge ids."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Applicability
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from tests.support.builders import at, node, workflow
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

E0 = "xy-edge__chat_input.1chat_input.1-output-message-data_mapper.1data_mapper.1-input-q"
E1 = "xy-edge__data_mapper.1data_mapper.1-output-url-http_request.1http_request.1-input-url"
WEATHER = corpus_yaml("aincient_weather")
SYNTAXES = ("yaml", "json")


def _weather(syntax: str) -> str:
    return WEATHER if syntax == "yaml" else as_json(WEATHER)


def _id_member(syntax: str, edge_id: str) -> str:
    return f"id: {edge_id}" if syntax == "yaml" else f'"id": "{edge_id}"'


def _id_line(syntax: str, edge_id: str) -> str:
    return f"    id: {edge_id}\n" if syntax == "yaml" else f'      "id": "{edge_id}",\n'


def _token(syntax: str, value: str) -> str:
    return value if syntax == "yaml" else f'"{value}"'


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_repeated_id_is_reported_on_the_later_edge_and_its_fix_gives_back_the_minted_id(
    syntax: str,
) -> None:
    original = _weather(syntax)
    text = planted(original, _id_member(syntax, E1), _id_member(syntax, E0))
    [finding] = found(text, "R3", syntax)
    assert finding.severity.value == "error"
    assert (finding.locator_code, finding.locator) == ("R3_EDGE_DUPLICATE_ID", "edge.1")
    assert finding.message == (
        f"duplicate edge id '{E0}' on the edge from 'data_mapper.1' to 'http_request.1': "
        "the edge from 'chat_input.1' to 'data_mapper.1' has it already"
    )
    second = text.index(E0, text.index(E0) + 1)
    assert (finding.span.start, at(text, finding.span)) == (
        second - (syntax == "json"),
        _token(syntax, E0),
    )
    [related] = finding.related
    assert related.span.start == text.index(E0) - (syntax == "json")
    assert at(text, related.span) == _token(syntax, E0)
    [fix] = finding.fixes
    assert (fix.title, fix.preferred, fix.applicability, bool(fix.operations)) == (
        "Give the edge a fresh id",
        True,
        Applicability.SAFE,
        True,
    )
    # xyflow's id for the edge is the one the editor wrote: the fix restores the file.
    assert fix_removes_only(text, finding, fix, syntax) == original


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_missing_id_in_a_stored_workflow_and_its_inserted_id(syntax: str) -> None:
    original = _weather(syntax)
    text = planted(original, _id_line(syntax, E1), "")
    [finding] = found(text, "R3", syntax)
    assert (finding.locator_code, finding.locator) == ("R3_EDGE_MISSING_ID", "edge.1")
    assert finding.message == (
        "edge from 'data_mapper.1' to 'http_request.1' has no id: FlowDrop refuses to save "
        "the workflow"
    )
    member = "target: http_request.1" if syntax == "yaml" else '"target": "http_request.1"'
    target = text.index(member) + member.index("http_request.1") - (syntax == "json")
    assert finding.span.start == target
    assert at(text, finding.span) == _token(syntax, "http_request.1")
    [fix] = finding.fixes
    assert (fix.preferred, fix.applicability, bool(fix.operations)) == (
        True,
        Applicability.SAFE,
        True,
    )
    fixed = fix_removes_only(text, finding, fix, syntax)
    assert loads(fixed, syntax) == loads(original, syntax)


def test_a_fresh_id_already_taken_gets_a_counter_and_two_fixes_never_collide() -> None:
    edges = [
        {"id": "xy-edge__a-b", "source": "a", "target": "b"},
        {"id": "e", "source": "a", "target": "b"},
        {"id": "e", "source": "a", "target": "b"},
        {"id": "e", "source": "a", "target": "b"},
    ]
    text = workflow([node("a"), node("b")], edges)
    findings = found(text, "R3")
    assert [f.fixes[0].edits[0].new_text for f in findings] == [
        '"xy-edge__a-b-2"',
        '"xy-edge__a-b-3"',
    ]


def test_a_document_without_any_edge_id_has_every_edge_reported_and_fixed_at_once() -> None:
    """R3: "that tolerance is for legacy data only and never relaxes the requirement at save" —
    a document whose edges all lack ids (hand-written shorthand) is refused edge by edge;
    fix-all gives each its own id in one run."""
    edges = [{"source": "a", "target": "b"}, {"source": "b", "target": "c"}]
    text = workflow([node("a"), node("b"), node("c")], edges, edge_ids=False)
    assert [f.locator for f in found(text, "R3")] == ["edge.0", "edge.1"]
    fixed = apply_edits(text, preferred_edits(analyze(text).findings))
    ids = [edge["id"] for edge in json.loads(fixed)["edges"]]
    assert len(set(ids)) == 2 and found(fixed, "R3") == []
    stored = workflow(
        [node("a"), node("b"), node("c")], [{"id": "e1", **edges[0]}, edges[1]], edge_ids=False
    )
    assert [f.locator for f in found(stored, "R3")] == ["edge.1"]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_edits_equal_a_fresh_analysis(syntax: str) -> None:
    text = _weather(syntax)
    document = WorkflowDocument(text, syntax=syntax)
    assert [f for f in same_as_fresh(document, syntax) if f[0] == "R3"] == []
    edit_replacing(document, _id_member(syntax, E1), _id_member(syntax, E0))
    assert [f[-2:] for f in same_as_fresh(document, syntax) if f[0] == "R3"] == [
        ("R3_EDGE_DUPLICATE_ID", "edge.1")
    ]
    edit_replacing(document, "Chat Input", "Chat 🌦 天気 Input")  # a label edit above
    assert [f[-2:] for f in same_as_fresh(document, syntax) if f[0] == "R3"] == [
        ("R3_EDGE_DUPLICATE_ID", "edge.1")
    ]
    edit_replacing(document, _id_line(syntax, E0), "")  # the first edge loses its id
    rows = [f for f in same_as_fresh(document, syntax) if f[0] == "R3"]
    assert [f[-2:] for f in rows] == [("R3_EDGE_MISSING_ID", "edge.0")]
    second = document.text.index(E0)
    edit_replacing(document, E0, E1)  # the second gets its own id back
    assert document.text.index(E1) == second
    assert [f[-2:] for f in same_as_fresh(document, syntax) if f[0] == "R3"] == [
        ("R3_EDGE_MISSING_ID", "edge.0")
    ]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_positions_after_emoji_and_cjk_labels(syntax: str) -> None:
    text = planted(_weather(syntax), "Chat Input", "Chat 🌦 天気 Input 😀")
    text = planted(text, _id_member(syntax, E1), _id_member(syntax, E0))
    [finding] = found(text, "R3", syntax)
    second = text.index(E0, text.index(E0) + 1) - (syntax == "json")
    assert finding.span.start == second and at(text, finding.span) == _token(syntax, E0)
    assert fix_removes_only(text, finding, finding.fixes[0], syntax).count(E1) == 1


def test_a_half_typed_edge_says_nothing_about_ids() -> None:
    text = json.dumps(
        {"nodes": [node("a"), node("b")], "edges": [{"id": "e1", "source": "a", "target": "b"}]},
        indent=2,
    )
    # An edge being typed has no id yet: its syntax finding is all there is to say.
    half = text.replace(
        '"target": "b"\n', '"target": "b"\n    },\n    {"source": "b", "target": \n'
    )
    assert [f.code for f in analyze(half).findings] == ["FD-SYNTAX"]
