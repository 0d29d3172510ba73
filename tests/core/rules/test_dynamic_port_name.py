"""DYN-3: a dynamic port name that breaks the pattern, is reserved, or repeats another dynamic
port of the node (inputs and outputs together) — planted in a copy of the real site's weather
workflow (YAML and JSON); no fix; wrong types skipped; incremental == from scratch."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.rules.dynamic_port_name import RESERVED_NAMES, name_problem
from tests.support.builders import at, findings, member, node, plant, token, workflow
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, site_settings

CODE = "DYN-3"
SYNTAXES = ["yaml", "json"]
WEATHER = "aincient_weather"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_non_ascii_name_is_an_error_on_its_name(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(WEATHER), "name: wx\n", "name: wëx\n"))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "error"
    assert at(text, finding.span) == token(syntax, "wëx")
    assert finding.message == (
        "the name of dynamic input 'wëx' of \"Data Mapper\" (data_mapper.3) is not an ASCII "
        "letter followed by ASCII letters, digits or underscores: the definition is refused"
    )
    assert finding.locator == "node.data_mapper.3.config.dynamicInputs"
    assert finding.fixes == ()
    assert findings(text, CODE, Settings(), syntax) == [finding]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_input_and_an_output_may_not_share_a_name(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(WEATHER), "name: url_full\n", "name: q\n"))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.message == (
        "dynamic output 'q' of \"Data Mapper\" (data_mapper.1) repeats the name of dynamic "
        "input 'q': dynamic port names are unique across a node's inputs and outputs, the "
        "definition is refused"
    )
    name = token(syntax, "q")
    first = text.index(member(syntax, "name", "q"))
    second = text.index(member(syntax, "name", "q"), first + 1)
    assert finding.span.start == text.index(name, second + 4)
    assert at(text, finding.span) == name
    (related,) = finding.related
    assert related.span.start == text.index(name, first + 4)
    assert finding.locator == "node.data_mapper.1.config.dynamicOutputs"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_reserved_name_and_a_missing_name(syntax: str) -> None:
    text = plant(corpus_workflow(WEATHER), "name: wx\n", "name: engine\n")
    text = _in(syntax, plant(text, "            name: g\n", ""))
    reported = findings(text, CODE, site_settings(), syntax)
    assert [(f.message.split(" of ")[0], f.node) for f in reported] == [
        ("dynamic input #1", "data_mapper.2"),
        ("the name", "data_mapper.3"),
    ]
    assert reported[0].message.endswith("has no name: the definition is refused")
    assert "'engine'" in reported[1].message and "is a reserved name" in reported[1].message
    assert at(text, reported[1].span) == token(syntax, "engine")
    # The nameless definition is reported on the item itself.
    assert (
        at(text, reported[0].span)
        .lstrip("-\n {")
        .startswith(member(syntax, "label", "Geo Data", "'"))
    )


def test_the_pattern_and_the_reserved_names() -> None:
    for ok in ("in_1", "Alpha2", "a", "Z_"):
        assert name_problem(ok) is None
    for bad in ("pörtchen", "2nd", "_x", "my-port", "a b", "é"):
        assert name_problem(bad) is not None
    assert name_problem("__interrupt_id__") == "is reserved (a `__` prefix)"
    for reserved in RESERVED_NAMES:
        assert name_problem(reserved) == "is a reserved name"
    assert name_problem("Trigger") is None  # names are compared exactly (EDGE-1)


def test_wrong_types_are_skipped() -> None:
    nodes = [
        node("a", data={"config": {"dynamicInputs": [{"name": 5}, {"name": ["x"]}, "q"]}}),
        node("b", data={"config": {"dynamicInputs": "q", "dynamicOutputs": {"name": "q"}}}),
    ]
    assert [f for f in analyze(workflow(nodes, [])).findings if f.code == CODE] == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_equals_from_scratch(syntax: str) -> None:
    settings = site_settings()
    document = WorkflowDocument(_in(syntax, corpus_workflow(WEATHER)), settings, syntax=syntax)
    token = member(syntax, "name", "url_first")
    start = document.text.index(token) + len(token) - len("url_first") - (syntax == "json")
    document.apply_edit(start, start + len("url_first"), "url_full")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.node for f in fresh if f.code == CODE] == ["data_mapper.1"]
    document.apply_edit(start, start + len("url_full"), "url_first")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
