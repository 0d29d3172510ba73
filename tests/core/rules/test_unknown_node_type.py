"""FD-UNKNOWN-NODE-TYPE (spec R9, R9_NODE_TYPE_UNKNOWN): its locator, and its fixes replacing
the type with the closest ones the site defines — in copies of the real site's workflows (YAML
and JSON), with every token of a node that names the unknown type replaced together."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.text.positions import Span
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

CODE = "FD-UNKNOWN-NODE-TYPE"
SYNTAXES = ["yaml", "json"]
REASON = "reason"
TYPE_LINE = "        node_type_id: aincient_reason\n"
MISSPELT = "        node_type_id: aincient_reasn\n"


def _others(text: str, syntax: str, settings: Settings) -> list[tuple[str, str, str]]:
    return other_findings(text, syntax, settings, CODE)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_unknown_type_has_the_spec_s_code_and_locator(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(REASON), TYPE_LINE, MISSPELT))
    (finding,) = found(text, CODE, site_settings(), syntax)
    assert finding.message.startswith(
        "node type 'aincient_reasn' of \"Reason (agent step)\" (aincient_reason.1) is not "
        "defined by the site's node types (90 definitions from "
    )
    token = "aincient_reasn" if syntax == "yaml" else '"aincient_reasn"'
    start = text.index(token)
    assert finding.span == Span(start, start + len(token))
    assert finding.locator_code == "R9_NODE_TYPE_UNKNOWN"
    assert finding.locator == "node.aincient_reason.1"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_fix_replaces_the_type_with_the_closest_defined_one(syntax: str) -> None:
    settings = site_settings()
    original = corpus_workflow(REASON)
    text = _in(syntax, plant(original, TYPE_LINE, MISSPELT))
    (finding,) = found(text, CODE, settings, syntax)
    assert finding.fixes, "a close type is offered"
    first = finding.fixes[0]
    assert first.title == "Replace with 'aincient_reason'"
    assert all(f.applicability.value == "unsafe" and not f.preferred for f in finding.fixes)
    assert finding.preferred_fix is None
    fixed = apply_edits(text, first.edits)
    assert found(fixed, CODE, settings, syntax) == []
    assert _others(fixed, syntax, settings) == _others(text, syntax, settings)
    loaded = yaml.safe_load(fixed) if syntax == "yaml" else json.loads(fixed)
    assert loaded == yaml.safe_load(original)
    if syntax == "yaml":
        assert fixed == original


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_every_metadata_token_naming_the_unknown_type_is_replaced(syntax: str) -> None:
    settings = site_settings()
    both = TYPE_LINE + "        id: aincient_reason\n"
    original = plant(corpus_workflow(REASON), TYPE_LINE, both)
    text = _in(syntax, plant(original, both, MISSPELT + "        id: aincient_reasn\n"))
    (finding,) = found(text, CODE, settings, syntax)
    first = finding.fixes[0]
    assert len(first.edits) == 2
    fixed = apply_edits(text, first.edits)
    loaded = yaml.safe_load(fixed) if syntax == "yaml" else json.loads(fixed)
    assert loaded == yaml.safe_load(original)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_metadata_id_naming_something_else_is_left_alone(syntax: str) -> None:
    settings = site_settings()
    text = _in(
        syntax,
        plant(corpus_workflow(REASON), TYPE_LINE, MISSPELT + "        id: something_else\n"),
    )
    (finding,) = found(text, CODE, settings, syntax)
    assert len(finding.fixes[0].edits) == 1
    assert "something_else" in apply_edits(text, finding.fixes[0].edits)


def test_several_close_types_are_several_choices_and_none_close_is_no_fix() -> None:
    settings = site_settings()
    text = workflow([node("a", "chat_put", "Chat")], [])
    (finding,) = found(text, CODE, settings, "json")
    titles = [f.title for f in finding.fixes]
    assert 2 <= len(titles) <= 3
    assert {"Replace with 'chat_input'", "Replace with 'chat_output'"} <= set(titles)
    for fix in finding.fixes:
        (edit,) = fix.edits
        assert at(text, edit.span) == '"chat_put"'
        assert edit.new_text == '"' + fix.title.split("'")[1] + '"'
    (nothing,) = found(workflow([node("a", "zzqx", "Z")], []), CODE, settings, "json")
    assert nothing.fixes == ()


def test_positions_after_emoji_and_cjk() -> None:
    text = workflow([node("🚀", "chat_inptu", "日本語 🤖 ノード")], [])
    (finding,) = found(text, CODE, site_settings(), "json")
    start = text.index('"chat_inptu"')
    assert finding.span == Span(start, start + len('"chat_inptu"'))
    assert finding.fixes[0].edits[0].span == finding.span


def test_incremental_equals_from_scratch() -> None:
    settings = site_settings()
    document = WorkflowDocument(corpus_workflow("aincient_weather"), settings, syntax="yaml")
    at_type = document.text.index("node_type_id: http_request") + len("node_type_id: http_")
    document.apply_edit(at_type, at_type + len("request"), "reqest")
    label = document.text.index("Geocode")
    document.apply_edit(label, label + len("Geocode"), "Géo 🌍")
    fresh = WorkflowDocument(document.text, settings, syntax="yaml").findings()
    assert document.findings() == fresh
    assert [f.locator for f in fresh if f.code == CODE] == ["node.http_request.1"]
