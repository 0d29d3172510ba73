"""LANG-2: a node's `config.engine` that names no engine FlowDrop provides — planted in a copy
of the real site's audit agent (YAML and JSON); its fixes (the engine meant, safe; close ones,
unsafe) applied and re-analysed; unset and wrong types skipped; incremental == from scratch."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits
from tests.support.builders import at, findings, node, plant, workflow
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, other_findings, site_settings

CODE = "LANG-2"
SYNTAXES = ["yaml", "json"]
AUDIT = "aincient_audit_agent"
ENGINE = "        engine: jsonpath\n"


def _planted(syntax: str, engine: str) -> str:
    return _in(syntax, plant(corpus_workflow(AUDIT), ENGINE, f"        engine: {engine}\n"))


def _others(text: str, syntax: str, settings: Settings) -> list[tuple[str, str, str]]:
    return other_findings(text, syntax, settings, CODE)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_unknown_engine_is_an_error_on_its_value(syntax: str) -> None:
    text = _planted(syntax, "JSONPath")
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "error"
    assert at(text, finding.span) == ("JSONPath" if syntax == "yaml" else '"JSONPath"')
    assert finding.message == (
        "engine 'JSONPath' of \"Data Extractor\" (data_extractor.1) is no expression engine "
        "FlowDrop provides (jsonpath, property_path, expression_language, twig): the save is "
        "refused"
    )
    assert finding.locator == "node.data_extractor.1.config.engine"
    assert findings(text, CODE, Settings(), syntax) == [finding]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_engine_meant_is_a_safe_fix(syntax: str) -> None:
    settings = site_settings()
    text = _planted(syntax, "JSONPath")
    (finding,) = findings(text, CODE, settings, syntax)
    (fix,) = finding.fixes
    assert fix.title == "Write 'jsonpath'" and fix.preferred
    assert fix.applicability.value == "safe"
    fixed = apply_edits(text, fix.edits)
    assert findings(fixed, CODE, settings, syntax) == []
    assert _others(fixed, syntax, settings) == _others(text, syntax, settings)
    original = _in(syntax, corpus_workflow(AUDIT))
    load = yaml.safe_load if syntax == "yaml" else json.loads
    assert load(fixed) == load(original)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_close_engines_are_unsafe_fixes(syntax: str) -> None:
    text = _planted(syntax, "jsonpth")
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert [(f.title, f.applicability.value, f.preferred) for f in finding.fixes] == [
        ("Write 'jsonpath'", "unsafe", False)
    ]
    (none,) = findings(_planted(syntax, "velocity"), CODE, site_settings(), syntax)
    assert none.fixes == ()


def test_unset_and_wrong_types_are_skipped_and_positions_survive_unicode() -> None:
    nodes = [
        node("a", data={"config": {"engine": ""}}),
        node("b", data={"config": {"engine": None}}),
        node("c", data={"config": {"engine": 3}}),
        node("d", data={"config": {"engine": ["twig"]}}),
        node("e", data={"config": "twig"}),
        node("f", data={"config": {"engine": "twig"}}),
        node("g", label="Ünïcödé 🧭", data={"config": {"engine": "🧭"}}),
    ]
    text = workflow(nodes, [])
    (finding,) = [f for f in analyze(text).findings if f.code == CODE]
    assert at(text, finding.span) == '"🧭"'
    assert finding.node == "g"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_equals_from_scratch(syntax: str) -> None:
    settings = site_settings()
    document = WorkflowDocument(_in(syntax, corpus_workflow(AUDIT)), settings, syntax=syntax)
    start = document.text.index("jsonpath")
    document.apply_edit(start, start + len("jsonpath"), "jmespath")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.locator for f in fresh if f.code == CODE] == ["node.data_extractor.1.config.engine"]
    document.apply_edit(start, start + len("jmespath"), "jsonpath")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
