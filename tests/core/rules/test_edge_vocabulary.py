"""EDGE-9 where its cases (tests/cases/EDGE-9: execution-record keys planted on an edge of the
real weather workflow, renamed back or removed) cannot say it: kept per edge, and equal to a
fresh analysis after edits."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import as_json, member, token
from tests.support.launch import corpus_yaml, edit_replacing, same_as_fresh

WEATHER = corpus_yaml("aincient_weather")
SYNTAXES = ("yaml", "json")
HANDLE = "data_mapper.1-output-url"


def _weather(syntax: str) -> str:
    return WEATHER if syntax == "yaml" else as_json(WEATHER)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_edits_equal_a_fresh_analysis(syntax: str) -> None:
    document = WorkflowDocument(_weather(syntax), syntax=syntax)
    document.findings()
    edit_replacing(
        document, member(syntax, "sourceHandle", HANDLE), member(syntax, "source_handle", HANDLE)
    )
    rows = [row for row in same_as_fresh(document, syntax) if row[0] == "EDGE-9"]
    assert [row[-1] for row in rows] == ["edge.1"]
    edit_replacing(document, "Chat Input", "Chat 🌦 天気 Input 😀")  # a label edit above
    rows = [row for row in same_as_fresh(document, syntax) if row[0] == "EDGE-9"]
    assert document.text[rows[0][3] : rows[0][4]] == token(syntax, "source_handle")
    edit_replacing(document, token(syntax, "source_handle"), token(syntax, "sourceHandle"))
    assert [row for row in same_as_fresh(document, syntax) if row[0] == "EDGE-9"] == []
