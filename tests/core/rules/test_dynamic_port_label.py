"""DYN-2 where its cases (tests/cases/DYN-2: a definition without a label or with a blank one, in
the real weather workflow and in a data mapper; wrong types skipped; no name, no fix) cannot say
it: the site's node types change none of its findings, and incremental equals from scratch."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, site_settings
from tests.support.rule_cases import cases

CODE = "DYN-2"
SYNTAXES = ["yaml", "json"]
WEATHER = "aincient_weather"


def test_the_site_s_node_types_change_none_of_its_findings() -> None:
    """A definition carries its own name and label: the cases (judged without node types) say
    the same with the real site's."""
    found = 0
    for case in (case for case in cases() if case.code == CODE):
        text, syntax = case.text(), case.syntax
        alone = [f for f in analyze(text, Settings(), syntax=syntax).findings if f.code == CODE]
        with_site = analyze(text, site_settings(), syntax=syntax).findings
        assert [f for f in with_site if f.code == CODE] == alone, case.name
        found += len(alone)
    assert found >= 10


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
