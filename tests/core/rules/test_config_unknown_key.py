"""R6.c: a config key no parameter of the node's type declares — planted in copies of the real
site's workflows (YAML and JSON), judged by the site's node types; its removal fix; the editor's
own keys; incremental == from scratch."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.rules.config_unknown_key import EDITOR_CONFIG_KEYS
from flowdrop_lsp.core.text.positions import Span
from tests.support.builders import findings, plant, token
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, node_type_text, other_findings, site_settings

CODE = "R6.c"
SYNTAXES = ["yaml", "json"]
REASON = "reason"  # one agent step: config operation_type, model, …, maxRetries
RETRIES = "        maxRetries: 0\n"
PLANTED = RETRIES + "        retries: 3\n"
MESSAGE = (
    "config key 'retries' of \"Reason (agent step)\" (aincient_reason.1) is not a parameter "
    "of node type 'aincient_reason': its value is ignored at execution"
)


def _span_after(text: str, token: str, after: str) -> Span:
    start = text.index(token, text.index(after))
    return Span(start, start + len(token))


def _others(text: str, syntax: str, settings: Settings) -> list[tuple[str, str, str]]:
    return other_findings(text, syntax, settings, CODE)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_undeclared_key_is_a_warning_on_its_key(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(REASON), RETRIES, PLANTED))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "warning"
    assert finding.message == MESSAGE
    assert finding.span == _span_after(text, token(syntax, "retries"), "maxRetries")
    assert finding.locator == "node.aincient_reason.1.config.retries"
    assert finding.locator_code is None  # the spec gives this warning no code
    assert finding.node == "aincient_reason.1"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_keys_flowdrop_writes_itself_are_never_unknown(syntax: str) -> None:
    """SCH-21's injected keys, the editor's own (`instanceBadge`, `requiresConfirmation`) and
    `nodeType` on every node — the agent step's type declares none of them as a parameter."""
    assert set(EDITOR_CONFIG_KEYS) >= {
        "instanceTitle",
        "instanceDescription",
        "instanceBadge",
        "nodeType",
        "maxRetries",
        "ports",
        "requiresConfirmation",
    }
    written = sorted(set(EDITOR_CONFIG_KEYS) - {"maxRetries", "nodeType"})  # (one there already)
    keys = "".join(f"        {key}: 1\n" for key in written) + "        nodeType: default\n"
    text = _in(syntax, plant(corpus_workflow(REASON), RETRIES, RETRIES + keys))
    assert findings(text, CODE, site_settings(), syntax) == []
    assert findings(text, "SCH-20", site_settings(), syntax) == []


def _with_visual_types(visual: str, supported: str) -> str:
    """The agent step's type with its `visual_type` and `supported_visual_types` rewritten."""
    text = plant(node_type_text("aincient_reason"), "visual_type: default\n", visual)
    return plant(text, "supported_visual_types:\n  - default\n", supported)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_visual_type_is_judged_once_by_sch20_never_by_r6c(syntax: str) -> None:
    """A real 1.0-alpha site writes `nodeType: default` on a type supporting that one visual
    type (SCH-20 read literally injects it only where there are two): never unknown. A value
    the type does not offer is SCH-20's alone, whatever the count; the type's own `visual_type`
    is offered even where its list leaves it out; a type saying neither judges nothing."""

    def verdicts(value: str, definition: str | None = None) -> list[tuple[str, str | None]]:
        text = _in(
            syntax,
            plant(corpus_workflow(REASON), RETRIES, RETRIES + f"        nodeType: {value}\n"),
        )
        settings = (
            site_settings() if definition is None else site_settings(aincient_reason=definition)
        )
        return [
            (f.code, f.locator)
            for f in analyze(text, settings, syntax=syntax).findings
            if f.code in (CODE, "SCH-20")
        ]

    assert verdicts("default") == []  # the one supported visual type
    on_the_key = ("SCH-20", "node.aincient_reason.1.config.nodeType")
    assert verdicts("tool") == [on_the_key]  # outside the list of one: SCH-20's, once
    two = _with_visual_types(
        "visual_type: default\n", "supported_visual_types:\n  - default\n  - tool\n"
    )
    assert verdicts("tool", two) == []
    assert verdicts("gateway", two) == [on_the_key]
    # The type's own visual type, left out of its list (the editor's default for the key).
    own = _with_visual_types("visual_type: tool\n", "supported_visual_types:\n  - default\n")
    assert verdicts("tool", own) == []
    assert verdicts("simple", own) == [on_the_key]
    # Only a visual_type, no list: the editor offers that one (getAvailableNodeTypes).
    alone = _with_visual_types("visual_type: tool\n", "supported_visual_types: {  }\n")
    assert verdicts("tool", alone) == [] and verdicts("default", alone) == [on_the_key]
    # Neither: nothing is known of the type's visual types, so nothing is judged.
    silent = _with_visual_types("", "")
    assert verdicts("anything", silent) == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_key_for_a_parameter_that_takes_no_config_is_reported(syntax: str) -> None:
    """R6.c with SCH-3/CFG-5: a parameter whose configurable flag is false or not recorded is
    no key of the derived config schema; a value given for it is ignored."""
    for flag in ("    configurable: true\n", ""):
        definition = "id: probe\nparameters:\n  url:\n" + flag + "    connectable: true\n"
        text = _in(
            syntax,
            plant(corpus_workflow(REASON), "node_type_id: aincient_reason", "node_type_id: probe"),
        )
        text = text.replace("maxRetries", "url", 1)
        reported = [
            f.locator for f in findings(text, CODE, site_settings(probe=definition), syntax)
        ]
        assert ("node.aincient_reason.1.config.url" in reported) is (flag == "")


def test_only_nodes_of_a_defined_type_are_judged() -> None:
    planted = plant(corpus_workflow(REASON), RETRIES, PLANTED)
    assert findings(planted, CODE, Settings(), "yaml") == []  # no node types: nothing judged
    unknown = plant(planted, "node_type_id: aincient_reason", "node_type_id: aincient_reasn")
    codes = [f.code for f in analyze(unknown, site_settings(), syntax="yaml").findings]
    assert codes == ["FD-UNKNOWN-NODE-TYPE"]  # R6.j: R9's, and only R9's


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_positions_after_emoji_and_cjk(syntax: str) -> None:
    text = plant(corpus_workflow(REASON), RETRIES, PLANTED)
    text = plant(text, "label: 'Reason (agent step)'", "label: '推論 🤖 step'")
    text = _in(syntax, text)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.span == _span_after(text, token(syntax, "retries"), "maxRetries")
    assert '"推論 🤖 step" (aincient_reason.1)' in finding.message


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_fix_removes_the_key_and_is_unsafe(syntax: str) -> None:
    settings = site_settings()
    original = corpus_workflow(REASON)
    text = _in(syntax, plant(original, RETRIES, PLANTED))
    (finding,) = findings(text, CODE, settings, syntax)
    (fix,) = finding.fixes
    assert fix.title == "Remove 'retries'"
    assert fix.applicability.value == "unsafe" and not fix.preferred
    assert [edit.new_text for edit in fix.edits] == [""]
    fixed = apply_edits(text, fix.edits)
    assert findings(fixed, CODE, settings, syntax) == []
    assert _others(fixed, syntax, settings) == _others(text, syntax, settings)
    loaded = yaml.safe_load(fixed) if syntax == "yaml" else json.loads(fixed)
    assert loaded == yaml.safe_load(original)
    if syntax == "yaml":
        assert fixed == original  # the layout kept: exactly the line that was added goes


def test_several_keys_in_several_nodes() -> None:
    weather = corpus_workflow("aincient_weather")
    text = plant(
        weather,
        "        follow_redirects: true\n        instanceTitle: 'Geocode Second Try'\n",
        "        follow_redirects: true\n        redirects: 3\n        instanceTitle: 'Geocode Second Try'\n",
    )
    text = plant(
        text,
        "        instanceTitle: geo_url\n",
        "        instanceTitle: geo_url\n        mapping: {  }\n",
    )
    reported = findings(text, CODE, site_settings(), "yaml")
    assert sorted(f.locator or "" for f in reported) == [
        "node.data_mapper.1.config.mapping",
        "node.http_request.1.config.redirects",
    ]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_planting_and_removing_equals_from_scratch(syntax: str) -> None:
    settings = site_settings()
    text = _in(syntax, corpus_workflow("aincient_weather"))
    document = WorkflowDocument(text, settings, syntax=syntax)
    assert [f for f in document.findings() if f.code == CODE] == []
    key = "        timeout: 30\n" if syntax == "yaml" else '"timeout": 30,'
    at_key = document.text.index(key)
    added = "        timout: 30\n" if syntax == "yaml" else '"timout": 30, '
    document.apply_edit(at_key, at_key, added)
    label = document.text.index("Geocode")
    document.apply_edit(label, label + len("Geocode"), "ジオコード")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.locator for f in fresh if f.code == CODE] == ["node.http_request.1.config.timout"]
    document.apply_edit(at_key, at_key + len(added), "")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
