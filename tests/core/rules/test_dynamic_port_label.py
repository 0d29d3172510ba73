"""DYN-2: a dynamic port definition without a label — planted in a copy of the real site's
weather workflow (YAML and JSON); its fix (the label set to the name) applied and re-analysed;
wrong types skipped; incremental == from scratch."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits
from tests.support.builders import at, node, workflow
from tests.support.config_site import (
    corpus_workflow,
    found,
    other_findings,
    plant,
    site_settings,
)
from tests.support.config_site import (
    in_syntax as _in,
)

CODE = "DYN-2"
SYNTAXES = ["yaml", "json"]
WEATHER = "aincient_weather"
LABELLED = "            name: q\n            label: Query\n"
UNLABELLED = "            name: q\n"


def _others(text: str, syntax: str, settings: Settings) -> list[tuple[str, str, str]]:
    return other_findings(text, syntax, settings, CODE)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_definition_without_a_label_is_a_warning_on_its_name(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(WEATHER), LABELLED, UNLABELLED))
    (finding,) = found(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "warning"
    assert at(text, finding.span) == ("q" if syntax == "yaml" else '"q"')
    assert finding.message == (
        "dynamic input 'q' of \"Data Mapper\" (data_mapper.1) has no label: a dynamic port "
        "definition carries a name, a label and a data type"
    )
    assert finding.locator == "node.data_mapper.1.config.dynamicInputs"
    assert finding.locator_code is None
    assert finding.node == "data_mapper.1"
    assert found(text, CODE, Settings(), syntax) == [finding]  # no node types needed


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_fix_labels_the_port_with_its_name(syntax: str) -> None:
    settings = site_settings()
    text = _in(syntax, plant(corpus_workflow(WEATHER), LABELLED, UNLABELLED))
    (finding,) = found(text, CODE, settings, syntax)
    (fix,) = finding.fixes
    assert fix.title == "Label it 'q'"
    assert fix.applicability.value == "safe" and fix.preferred
    fixed = apply_edits(text, fix.edits)
    assert found(fixed, CODE, settings, syntax) == []
    assert _others(fixed, syntax, settings) == _others(text, syntax, settings)
    loaded = yaml.safe_load(fixed) if syntax == "yaml" else json.loads(fixed)
    item = loaded["nodes"][1]["data"]["config"]["dynamicInputs"][0]
    assert item["label"] == "q" and item["name"] == "q" and item["dataType"] == "string"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_blank_label_is_reported_on_it_and_replaced(syntax: str) -> None:
    text = plant(corpus_workflow(WEATHER), "label: 'URL Full'", "label: '  '")
    text = _in(syntax, text)
    (finding,) = found(text, CODE, site_settings(), syntax)
    assert at(text, finding.span) == ("'  '" if syntax == "yaml" else '"  "')
    assert finding.message.startswith("dynamic output 'url_full' of")
    fixed = apply_edits(text, finding.fixes[0].edits)
    assert found(fixed, CODE, site_settings(), syntax) == []
    loaded = yaml.safe_load(fixed) if syntax == "yaml" else json.loads(fixed)
    assert loaded["nodes"][1]["data"]["config"]["dynamicOutputs"][0]["label"] == "url_full"


def test_unicode_labels_keep_positions() -> None:
    text = plant(corpus_workflow(WEATHER), LABELLED, UNLABELLED)
    text = plant(text, "label: 'Chat Input'", "label: '入力 🌦️ chat'")
    for syntax in SYNTAXES:
        document = _in(syntax, text)
        (finding,) = found(document, CODE, site_settings(), syntax)
        assert at(document, finding.span) == ("q" if syntax == "yaml" else '"q"')


def test_wrong_types_are_skipped_and_a_missing_data_type_is_no_finding() -> None:
    nodes = [
        node("a", data={"config": {"dynamicInputs": "not-an-array", "dynamicOutputs": 42}}),
        node("b", data={"config": {"dynamicInputs": [1, None, "x", {"name": "n", "label": 5}]}}),
        node("c", data={"config": {"dynamicInputs": {}}}),
        node("d", data={"config": [1]}),
        node("e", data={"config": {"dynamicInputs": [{"name": "q", "label": "Q"}]}}),
    ]
    assert [f for f in analyze(workflow(nodes, [])).findings if f.code == CODE] == []


def test_without_a_name_there_is_no_fix() -> None:
    text = workflow([node("a", data={"config": {"dynamicOutputs": [{"dataType": "string"}]}})], [])
    (finding,) = [f for f in analyze(text).findings if f.code == CODE]
    assert finding.message.startswith("dynamic output #1 of")
    assert finding.fixes == ()


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_equals_from_scratch(syntax: str) -> None:
    settings = site_settings()
    text = _in(syntax, corpus_workflow(WEATHER))
    document = WorkflowDocument(text, settings, syntax=syntax)
    label = "Query" if syntax == "yaml" else '"Query"'
    start = document.text.index(label)
    document.apply_edit(start, start + len(label), "''" if syntax == "yaml" else '""')
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.locator for f in fresh if f.code == CODE] == [
        "node.data_mapper.1.config.dynamicInputs"
    ]
    end = start + 2
    document.apply_edit(start, end, label)
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
