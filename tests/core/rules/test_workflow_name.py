"""STORE-2: a workflow whose name (`label` in Drupal config, `name` as the API exports it) is
empty — planted in a copy of the real site's weather workflow (YAML and JSON); a missing name
and a null `name` left alone; positions after edits in the arrays before it; incremental ==
from scratch."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import as_json, at, findings, plant
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, site_settings

CODE = "STORE-2"
SYNTAXES = ["yaml", "json"]
WEATHER = "aincient_weather"
LABEL = "label: 'Weather (demo tool)'\n"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_empty_label_is_an_error_on_it(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(WEATHER), LABEL, "label: '  '\n"))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "error"
    assert at(text, finding.span) == ("'  '" if syntax == "yaml" else '"  "')
    assert finding.span.start < text.index("nodes")  # the top level's, not a node's label
    assert finding.message == (
        "the workflow's label is empty: a workflow must be named, the save is refused"
    )
    assert finding.fixes == ()


def test_the_api_s_name_and_unicode() -> None:
    exported = {"id": "w", "name": "", "nodes": [], "edges": []}
    text = json.dumps(exported)
    (finding,) = [f for f in analyze(text).findings if f.code == CODE]
    assert at(text, finding.span) == '""' and "workflow's name" in finding.message
    named = json.dumps({**exported, "name": "天気 🌦️"}, ensure_ascii=False)
    assert [f for f in analyze(named).findings if f.code == CODE] == []


@pytest.mark.parametrize(
    "top",
    [
        {},  # shorthand: no name at all
        {"id": "w"},  # no name: not reported (see the module)
        {"name": None},  # FD-SCHEMA's
        {"name": 5},  # FD-SCHEMA's
        {"label": ["x"]},
        {"label": "Weather", "name": ""},  # Drupal's label decides
    ],
)
def test_what_is_left_alone(top: dict[str, object]) -> None:
    text = json.dumps({**top, "nodes": [], "edges": []})
    assert [f for f in analyze(text).findings if f.code == CODE] == []


def test_a_null_drupal_label_is_reported() -> None:
    text = plant(corpus_workflow(WEATHER), LABEL, "label: null\n")
    (finding,) = findings(text, CODE, site_settings(), "yaml")
    assert at(text, finding.span) == "null"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_equals_from_scratch(syntax: str) -> None:
    settings = site_settings()
    yaml_text = corpus_workflow(WEATHER)
    if syntax == "json":  # the name after the arrays: edits in them move its span
        data = json.loads(as_json(yaml_text))
        label = data.pop("label")
        text = json.dumps({**data, "label": label}, indent=2, ensure_ascii=False)
    else:
        text = yaml_text
    document = WorkflowDocument(text, settings, syntax=syntax)
    start = document.text.index("Weather (demo tool)")
    document.apply_edit(start, start + len("Weather (demo tool)"), "")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.code for f in fresh].count(CODE) == 1
    # An edit inside the nodes, before the name in JSON: the kept span moves with it.
    inside = document.text.index("Chat Input")
    document.apply_edit(inside, inside + len("Chat"), "Chat 💬")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    (finding,) = [f for f in fresh if f.code == CODE]
    assert at(document.text, finding.span) in ("''", '""')
    label = document.text.index('""' if syntax == "json" else "''", finding.span.start)
    document.apply_edit(label + 1, label + 1, "Météo")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
