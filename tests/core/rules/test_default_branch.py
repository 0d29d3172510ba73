"""LANG-27: a switch gateway's `default_branch` naming none of its branches — planted in a copy of
the real site's audit agent (YAML and JSON); names compared trimmed and without case; the type's
default branches; unset and wrong types skipped; incremental == from scratch."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import at, findings, node, plant, workflow
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, site_settings

CODE = "LANG-27"
SYNTAXES = ["yaml", "json"]
AUDIT = "aincient_audit_agent"
DEFAULT = "        default_branch: default\n"


@pytest.mark.parametrize("settings", [site_settings(), Settings()], ids=["site", "bare"])
@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_default_naming_no_branch_is_a_warning_on_it(syntax: str, settings: Settings) -> None:
    text = _in(syntax, plant(corpus_workflow(AUDIT), DEFAULT, "        default_branch: fallback\n"))
    (finding,) = findings(text, CODE, settings, syntax)
    assert finding.severity.value == "warning"
    assert at(text, finding.span) == ("fallback" if syntax == "yaml" else '"fallback"')
    assert finding.message == (
        "default_branch 'fallback' of \"Switch Gateway\" (switch_gateway.1) names none of its "
        "branches ('Pick brand', 'Default'): when no branch matches, the node fails"
    )
    assert finding.locator == "node.switch_gateway.1.config.default_branch"
    assert finding.fixes == ()


@pytest.mark.parametrize("default", ["default", " DEFAULT ", "pick BRAND", "''", "null", "[x]"])
def test_what_names_a_branch_or_is_unset(default: str) -> None:
    text = plant(corpus_workflow(AUDIT), DEFAULT, f"        default_branch: {default}\n")
    assert findings(text, CODE, site_settings(), "yaml") == []


def test_the_type_s_default_branches_when_the_node_has_none() -> None:
    start = corpus_workflow(AUDIT).index(
        "        branches:\n", corpus_workflow(AUDIT).index(DEFAULT)
    )
    text = corpus_workflow(AUDIT)
    end = text.index("      metadata:\n", start)
    own_none = text[:start] + text[end:]
    assert findings(own_none, CODE, site_settings(), "yaml") == []  # the type's `Default`
    text = plant(own_none, DEFAULT, "        default_branch: 'Pick brand'\n")
    (finding,) = findings(text, CODE, site_settings(), "yaml")
    assert "('Default')" in finding.message
    assert findings(text, CODE, Settings(), "yaml") == []  # branches unknown without the type


def test_unicode_positions() -> None:
    config = {"default_branch": "Ünknown 🚦", "branches": [{"name": "Änder", "value": 1}]}
    text = workflow([node("g", label="Gate 🚦", data={"config": config})], [])
    (finding,) = [f for f in analyze(text).findings if f.code == CODE]
    assert at(text, finding.span) == '"Ünknown 🚦"'


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_equals_from_scratch(syntax: str) -> None:
    settings = site_settings()
    document = WorkflowDocument(_in(syntax, corpus_workflow(AUDIT)), settings, syntax=syntax)
    start = document.text.index("Pick brand")
    document.apply_edit(start, start + len("Pick brand"), "Pick")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    name = document.text.index("Default", start)
    document.apply_edit(name, name + len("Default"), "Fallback")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.locator for f in fresh if f.code == CODE] == [
        "node.switch_gateway.1.config.default_branch"
    ]
    document.apply_edit(name, name + len("Fallback"), "Default")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
