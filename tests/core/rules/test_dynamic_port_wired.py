"""DYN-7: an edge into `dynamicInputs`/`dynamicOutputs`, the configuration holding a node's
dynamic port definitions — planted in a copy of the real site's weather workflow (YAML and
JSON); its fix (remove the edge, unsafe) applied and re-analysed; FD-UNKNOWN-PORT's when the
type does not declare the parameter; incremental == from scratch."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits
from tests.support.builders import at, findings, plant
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, node_type_text, site_settings

CODE = "DYN-7"
SYNTAXES = ["yaml", "json"]
WEATHER = "aincient_weather"
SOURCE = "sourceHandle: http_request.3-output-json\n    "
HANDLE = SOURCE + "targetHandle: data_mapper.2-input-g\n"
PLANTED = SOURCE + "targetHandle: data_mapper.2-input-dynamicInputs\n"
# The planted edge's position in `edges`.
INDEX = next(
    index
    for index, edge in enumerate(yaml.safe_load(corpus_workflow(WEATHER))["edges"])
    if edge["targetHandle"] == "data_mapper.2-input-g" and edge["source"] == "http_request.3"
)


def _others(text: str, syntax: str, settings: Settings) -> list[tuple[str, str]]:
    return [
        (f.code, f.message)
        for f in analyze(text, settings, syntax=syntax).findings
        if f.code != CODE
    ]


@pytest.mark.parametrize("settings", [site_settings(), Settings()], ids=["site", "bare"])
@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_edge_into_the_definitions_is_a_warning_on_its_handle(
    syntax: str, settings: Settings
) -> None:
    text = _in(syntax, plant(corpus_workflow(WEATHER), HANDLE, PLANTED))
    (finding,) = findings(text, CODE, settings, syntax)
    assert finding.severity.value == "warning"
    handle = "data_mapper.2-input-dynamicInputs"
    assert at(text, finding.span) == (handle if syntax == "yaml" else f'"{handle}"')
    assert finding.message == (
        "the edge from 'http_request.3' goes into 'dynamicInputs' of \"Data Mapper\" "
        "(data_mapper.2): it holds the node's dynamic port definitions, which are "
        "configuration and never a wireable input; nothing flows on this edge"
    )
    assert finding.locator == f"edge.{INDEX}"
    assert finding.locator_code is None
    assert finding.node == "data_mapper.2"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_fix_removes_the_edge_and_is_unsafe(syntax: str) -> None:
    settings = site_settings()
    original = _in(syntax, corpus_workflow(WEATHER))
    text = _in(syntax, plant(corpus_workflow(WEATHER), HANDLE, PLANTED))
    (finding,) = findings(text, CODE, settings, syntax)
    (fix,) = finding.fixes
    assert fix.title == "Remove the edge"
    assert fix.applicability.value == "unsafe" and not fix.preferred
    fixed = apply_edits(text, fix.edits)
    assert findings(fixed, CODE, settings, syntax) == []
    assert _others(fixed, syntax, settings) == _others(text, syntax, settings)
    loaded = yaml.safe_load(fixed) if syntax == "yaml" else json.loads(fixed)
    expected = yaml.safe_load(original) if syntax == "yaml" else json.loads(original)
    del expected["edges"][INDEX]
    assert loaded == expected


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_type_without_the_parameter_leaves_it_to_fd_unknown_port(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(WEATHER), HANDLE, PLANTED))
    opted_out = plant(
        node_type_text("data_mapper"),
        "  dynamicInputs:\n    configurable: true\n    connectable: false\n    required: false\n"
        "    default: {  }\n",
        "",
    )
    settings = site_settings(data_mapper=opted_out)
    assert findings(text, CODE, settings, syntax) == []
    unknown = [f.message for f in findings(text, "FD-UNKNOWN-PORT", settings, syntax)]
    assert any("dynamicInputs" in message for message in unknown)


def test_a_source_handle_and_an_unparsable_handle_are_not_judged() -> None:
    text = plant(
        corpus_workflow(WEATHER),
        "sourceHandle: http_request.3-output-json\n    targetHandle: data_mapper.2-input-g\n",
        "sourceHandle: http_request.3-output-dynamicOutputs\n    targetHandle: dynamicInputs\n",
    )
    assert findings(text, CODE, Settings(), "yaml") == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_equals_from_scratch(syntax: str) -> None:
    settings = site_settings()
    document = WorkflowDocument(_in(syntax, corpus_workflow(WEATHER)), settings, syntax=syntax)
    edge_id = "xy-edge__http_request.3http_request.3-output-json-data_mapper.2data_mapper.2-input-g"
    handle = document.text.index(
        "data_mapper.2-input-g", document.text.index("targetHandle", document.text.index(edge_id))
    )
    start = handle + len("data_mapper.2-input-")
    document.apply_edit(start, start + 1, "dynamicInputs")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.locator for f in fresh if f.code == CODE] == [f"edge.{INDEX}"]
    document.apply_edit(start, start + len("dynamicInputs"), "g")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
