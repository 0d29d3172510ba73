"""STORE-8: a `schema_version` that is not three dot-separated non-negative integers — planted in
a copy of the real site's weather workflow (YAML and JSON); a missing one left alone;
incremental == from scratch."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import at, findings, plant
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, site_settings

CODE = "STORE-8"
SYNTAXES = ["yaml", "json"]
WEATHER = "aincient_weather"
VERSION = "schema_version: 1.0.0\n"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_two_part_version_is_a_warning_on_it(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(WEATHER), VERSION, "schema_version: '1.0'\n"))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "warning"
    assert at(text, finding.span) == ("'1.0'" if syntax == "yaml" else '"1.0"')
    assert finding.message == (
        "the workflow's schema_version '1.0' is not three dot-separated non-negative integers "
        "(such as 1.0.0; 0.0.0 before its contract is first built)"
    )
    assert finding.fixes == ()


@pytest.mark.parametrize(
    ("value", "reported"),
    [
        ("0.0.0", False),
        ("10.20.300", False),
        ("v1.0.0", True),
        ("1.0.0-beta", True),
        ("-1.0.0", True),
        ("1.0.0.0", True),
        ("", True),
        (None, True),
        (1.5, True),
        ("１.０.０", True),  # full-width digits are no ASCII integers
    ],
)
def test_what_a_version_is(value: object, reported: bool) -> None:
    text = json.dumps({"schema_version": value, "nodes": [], "edges": []}, ensure_ascii=False)
    assert bool([f for f in analyze(text).findings if f.code == CODE]) is reported


def test_a_missing_version_is_left_alone() -> None:
    text = plant(corpus_workflow(WEATHER), VERSION, "")
    assert findings(text, CODE, site_settings(), "yaml") == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_equals_from_scratch(syntax: str) -> None:
    settings = site_settings()
    document = WorkflowDocument(_in(syntax, corpus_workflow(WEATHER)), settings, syntax=syntax)
    start = document.text.index("1.0.0", document.text.index("schema_version"))
    document.apply_edit(start + 3, start + 5, "")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.code for f in fresh].count(CODE) == 1
    inside = document.text.index("Chat Input")
    document.apply_edit(inside, inside, "🌦️ ")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    (finding,) = [f for f in fresh if f.code == CODE]
    assert "1.0" in at(document.text, finding.span)
    start = document.text.index("1.0", document.text.index("schema_version"))
    document.apply_edit(start + 3, start + 3, ".0")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
