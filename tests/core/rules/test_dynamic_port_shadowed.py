"""DYN-5: a dynamic input named like a parameter of its node's type is ignored — on the real
site's weather workflow (YAML and JSON) with a parameter added to the site's `data_mapper`, and
with the defect planted in the workflow; only with node types, only on types that opt in;
incremental == from scratch."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import at, findings, plant
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, node_type_text, site_settings

CODE = "DYN-5"
SYNTAXES = ["yaml", "json"]
WEATHER = "aincient_weather"
ENGINE = "  engine:\n    configurable: true\n"
# The site's data_mapper with a connectable `wx` parameter of its own.
WITH_WX = plant(
    node_type_text("data_mapper"),
    ENGINE,
    "  wx:\n    configurable: false\n    connectable: true\n    required: false\n" + ENGINE,
)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_dynamic_input_named_like_a_parameter_is_a_warning_on_its_name(syntax: str) -> None:
    text = _in(syntax, corpus_workflow(WEATHER))
    settings = site_settings(data_mapper=WITH_WX)
    (finding,) = findings(text, CODE, settings, syntax)
    assert finding.severity.value == "warning"
    assert at(text, finding.span) == ("wx" if syntax == "yaml" else '"wx"')
    assert finding.message == (
        "dynamic input 'wx' of \"Data Mapper\" (data_mapper.3) has the name of a parameter of "
        "node type 'data_mapper': the parameter wins, the dynamic input is ignored and what "
        "arrives for it is discarded"
    )
    assert finding.locator == "node.data_mapper.3.config.dynamicInputs"
    assert finding.fixes == ()
    assert findings(text, CODE, site_settings(), syntax) == []  # the site as it is
    assert findings(text, CODE, Settings(), syntax) == []  # no node types: nothing judged


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_planted_in_the_workflow(syntax: str) -> None:
    # A second data_mapper-typed input named after another type's parameter is no collision;
    # the http_request node's own parameters are not the mapper's.
    text = plant(corpus_workflow(WEATHER), "name: wx\n", "name: method\n")
    assert findings(_in(syntax, text), CODE, site_settings(), syntax) == []
    settings = site_settings(data_mapper=WITH_WX.replace("  wx:\n", "  method:\n"))
    (finding,) = findings(_in(syntax, text), CODE, settings, syntax)
    assert "dynamic input 'method'" in finding.message


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_outputs_and_types_without_the_opt_in_are_not_judged(syntax: str) -> None:
    text = _in(syntax, corpus_workflow(WEATHER))
    with_envelop = plant(WITH_WX, "  wx:\n", "  envelop:\n")  # a dynamic output's name
    assert findings(text, CODE, site_settings(data_mapper=with_envelop), syntax) == []
    opted_out = plant(
        WITH_WX,
        "  dynamicInputs:\n    configurable: true\n    connectable: false\n    required: false\n"
        "    default: {  }\n",
        "",
    )
    assert findings(text, CODE, site_settings(data_mapper=opted_out), syntax) == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_equals_from_scratch(syntax: str) -> None:
    settings = site_settings(data_mapper=WITH_WX)
    document = WorkflowDocument(_in(syntax, corpus_workflow(WEATHER)), settings, syntax=syntax)
    token = "name: wx" if syntax == "yaml" else '"name": "wx"'
    start = document.text.index(token) + len(token) - 2 - (syntax == "json")
    document.apply_edit(start, start + 2, "wy")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
    document.apply_edit(start, start + 2, "wx")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.node for f in fresh if f.code == CODE] == ["data_mapper.3"]
