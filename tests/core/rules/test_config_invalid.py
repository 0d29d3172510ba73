"""R6.a: a node's `data.config` must be an object. FD-SCHEMA reports it (the workflow schema types
`config`); the finding carries the spec's locator code and locator, in JSON and YAML alike."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits
from tests.support.builders import as_json, at, findings, plant
from tests.support.config_site import corpus_workflow, site_settings

NODE = {"id": "fetch", "type": "http_request", "data": {"label": "Fetch 🌐 取得", "config": 3}}


def test_a_config_that_is_not_an_object_has_the_spec_locator() -> None:
    text = json.dumps({"nodes": [NODE], "edges": []}, ensure_ascii=False)
    [finding] = findings(text, "FD-SCHEMA")
    assert (finding.locator_code, finding.locator) == ("R6_CONFIG_INVALID", "node.fetch.config")
    assert at(text, finding.span) == "3"


def test_other_schema_problems_carry_no_spec_locator() -> None:
    node = {"id": "fetch", "type": "http_request", "data": {"label": 5, "config": {}}}
    text = json.dumps({"nodes": [node], "edges": []})
    [finding] = findings(text, "FD-SCHEMA")
    assert (finding.locator_code, finding.locator) == (None, None)


def test_in_drupal_yaml_too() -> None:
    text = (
        "id: w\nnodes:\n  -\n    id: fetch\n    data:\n      label: 'Fetch 🌐 取得'\n"
        "      config: 'not a mapping'\n      metadata:\n        node_type_id: http_request\n"
        "edges: {  }\n"
    )
    found = [f for f in analyze(text, syntax="yaml").findings if f.locator_code]
    assert [(f.locator_code, f.locator, at(text, f.span)) for f in found] == [
        ("R6_CONFIG_INVALID", "node.fetch.config", "'not a mapping'")
    ]


# ----- an emptied config: null, its last key deleted ---------------------------------------------

POLICY = "aincient_policy_links"
CONFIG = "      config:\n        check: links\n"  # the policy check node's only key
EMPTIED = (
    'the config of "Internal links" (policy_check.1) is empty (null): FlowDrop expects a '
    "mapping; write `{}` for an empty one"
)


def _site(text: str) -> str:
    return plant(text, "label: 'Internal links'", "label: '内部リンク 🔗 links'")


@pytest.mark.parametrize("syntax", ["yaml", "json"])
def test_an_emptied_config_is_said_on_its_key_with_a_safe_fix(syntax: str) -> None:
    """Deleting the last key leaves `config:` (null in YAML; `"config": null` in JSON): said in
    FlowDrop's words on the `config` key, named by its label and id; the safe fix writes the
    empty mapping as the format writes it (Drupal's `{  }`), nothing else changes."""
    site = _site(corpus_workflow(POLICY))
    emptied = plant(site, CONFIG, "      config:\n")
    text = emptied if syntax == "yaml" else as_json(emptied)
    found = analyze(text, site_settings(), syntax=syntax).findings
    [finding] = [f for f in found if f.locator_code == "R6_CONFIG_INVALID"]
    empty = "{  }" if syntax == "yaml" else "{}"
    assert finding.message == EMPTIED.replace("Internal links", "内部リンク 🔗 links").replace(
        "{}", empty
    )
    assert at(text, finding.span) == ("config" if syntax == "yaml" else '"config"')
    assert (finding.locator_code, finding.locator) == (
        "R6_CONFIG_INVALID",
        "node.policy_check.1.config",
    )
    assert finding.node == "policy_check.1"
    (fix,) = finding.fixes
    assert (fix.title, fix.is_safe, fix.preferred) == (
        f"Write the empty config {empty}",
        True,
        True,
    )
    assert finding.applied_fix() is fix  # plain --fix applies it
    fixed = apply_edits(text, fix.edits)
    if syntax == "yaml":
        assert fixed == plant(site, CONFIG, "      config: {  }\n")
    else:
        assert json.loads(fixed) == json.loads(as_json(plant(site, CONFIG, "      config: {  }\n")))
    after = analyze(fixed, site_settings(), syntax=syntax).findings
    assert [f for f in after if f.locator_code == "R6_CONFIG_INVALID"] == []
    # What is left is the launch error of the key the type requires, with its own fix.
    assert [f.locator for f in after if f.code == "R6.b"] == ["node.policy_check.1.config.check"]


def test_a_written_yaml_null_is_replaced() -> None:
    text = plant(corpus_workflow(POLICY), CONFIG, "      config: ~\n")
    [finding] = [f for f in analyze(text, syntax="yaml").findings if f.code == "FD-SCHEMA"]
    fixed = apply_edits(text, finding.fixes[0].edits)
    assert fixed == plant(corpus_workflow(POLICY), CONFIG, "      config: {  }\n")


def test_other_schema_problems_of_a_node_name_it_by_label_and_id() -> None:
    node = {"id": "fetch", "type": "http_request", "data": {"label": "Fetch", "config": []}}
    text = json.dumps({"nodes": [node], "edges": []})
    [finding] = findings(text, "FD-SCHEMA")
    assert finding.message == "data.config of \"Fetch\" (fetch): [] is not of type 'object'"
    assert finding.fixes == () and finding.node == "fetch"


@pytest.mark.parametrize("syntax", ["yaml", "json"])
def test_emptying_and_refilling_a_config_incrementally_equals_from_scratch(syntax: str) -> None:
    """The last key deleted by an edit (as in an editor), then the fix applied as an edit: the
    engine's findings after each equal a fresh read's."""
    settings = site_settings()
    site = corpus_workflow(POLICY)
    text = site if syntax == "yaml" else as_json(site)
    document = WorkflowDocument(text, settings, syntax=syntax)
    key = (
        "\n        check: links" if syntax == "yaml" else '{\n          "check": "links"\n        }'
    )
    start = document.text.index(key)
    document.apply_edit(start, start + len(key), "" if syntax == "yaml" else "null")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    (finding,) = [f for f in fresh if f.locator_code == "R6_CONFIG_INVALID"]
    (edit,) = finding.fixes[0].edits
    document.apply_edit(edit.span.start, edit.span.end, edit.new_text)
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.locator_code == "R6_CONFIG_INVALID"] == []
    assert [f.locator for f in fresh if f.code == "R6.b"] == ["node.policy_check.1.config.check"]
