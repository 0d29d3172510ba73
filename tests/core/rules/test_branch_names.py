"""BR-3: two branches of a gateway whose names are one once trimmed and lower-cased — planted in
a copy of the real site's audit agent (YAML and JSON); unusable entries skipped; a type without
`branches` has none; incremental == from scratch."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import at, findings, node, plant, workflow
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, node_type_text, site_settings

CODE = "BR-3"
SYNTAXES = ["yaml", "json"]
AUDIT = "aincient_audit_agent"
PICK = "name: 'Pick brand'\n"


@pytest.mark.parametrize("settings", [site_settings(), Settings()], ids=["site", "bare"])
@pytest.mark.parametrize("syntax", SYNTAXES)
def test_colliding_branch_names_are_a_warning_on_the_later_one(
    syntax: str, settings: Settings
) -> None:
    text = _in(syntax, plant(corpus_workflow(AUDIT), PICK, "name: ' default'\n"))
    (finding,) = findings(text, CODE, settings, syntax)
    assert finding.severity.value == "warning"
    assert at(text, finding.span) == ("Default" if syntax == "yaml" else '"Default"')
    assert finding.message == (
        "branch 'Default' of \"Switch Gateway\" (switch_gateway.1) is the same branch as "
        "' default' once trimmed and lower-cased, as the runtime compares branch names: when "
        "either is active, the edges of both are followed"
    )
    (related,) = finding.related
    assert at(text, related.span) == ("' default'" if syntax == "yaml" else '" default"')
    assert finding.locator == "node.switch_gateway.1.config.branches"
    assert finding.fixes == ()


def test_unusable_entries_and_unicode() -> None:
    branches = [
        {"name": "Ärger", "value": 1},
        {"name": 5, "value": 2},
        {"name": "", "value": 3},
        "ärger",
        {"value": 4},
        {"name": " äRGER ", "value": 5},
    ]
    text = workflow([node("g", label="Ğate 🚦", data={"config": {"branches": branches}})], [])
    (finding,) = [f for f in analyze(text).findings if f.code == CODE]
    assert at(text, finding.span) == '" äRGER "'
    assert [
        f
        for f in analyze(workflow([node("g", data={"config": {"branches": "a,A"}})], [])).findings
        if f.code == CODE
    ] == []


def test_a_type_without_branches_has_none() -> None:
    text = plant(corpus_workflow(AUDIT), PICK, "name: ' default'\n")
    no_branches = node_type_text("switch_gateway")
    start = no_branches.index("  branches:\n")
    end = no_branches.index("  default_branch:\n")
    settings = site_settings(switch_gateway=no_branches[:start] + no_branches[end:])
    assert findings(text, CODE, settings, "yaml") == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_equals_from_scratch(syntax: str) -> None:
    settings = site_settings()
    document = WorkflowDocument(_in(syntax, corpus_workflow(AUDIT)), settings, syntax=syntax)
    start = document.text.index("Pick brand")
    document.apply_edit(start, start + len("Pick brand"), "DEFAULT")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.locator for f in fresh if f.code == CODE] == ["node.switch_gateway.1.config.branches"]
    document.apply_edit(start, start + len("DEFAULT"), "Pick brand")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
