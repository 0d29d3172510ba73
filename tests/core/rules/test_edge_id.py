"""R3 where its cases (tests/cases/R3: a repeated, missing or empty id planted in the real weather
workflow, ids already taken, a document without any) cannot say it: the incremental engine after
edits equals a fresh analysis, locators included; a half-typed edge says nothing about ids."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import as_json, member, node
from tests.support.launch import corpus_yaml, edit_replacing, same_as_fresh

E0 = "xy-edge__chat_input.1chat_input.1-output-message-data_mapper.1data_mapper.1-input-q"
E1 = "xy-edge__data_mapper.1data_mapper.1-output-url-http_request.1http_request.1-input-url"
WEATHER = corpus_yaml("aincient_weather")
SYNTAXES = ("yaml", "json")


def _weather(syntax: str) -> str:
    return WEATHER if syntax == "yaml" else as_json(WEATHER)


def _id_line(syntax: str, edge_id: str) -> str:
    return f"    id: {edge_id}\n" if syntax == "yaml" else f'      "id": "{edge_id}",\n'


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_edits_equal_a_fresh_analysis(syntax: str) -> None:
    text = _weather(syntax)
    document = WorkflowDocument(text, syntax=syntax)
    assert [f for f in same_as_fresh(document, syntax) if f[0] == "R3"] == []
    edit_replacing(document, member(syntax, "id", E1), member(syntax, "id", E0))
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
