"""R6.b (R6_CONFIG_REQUIRED): a required config key missing — planted in copies of the real
site's workflows, in YAML and in JSON, judged by the site's own node types; incrementally; and
the real site, on which the three config checks (R6.b, R6.c, R6.l) report nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.text.positions import Span
from tests.support.builders import as_json, at, findings, node, plant, tool_edge, workflow
from tests.support.builders import in_syntax as _in
from tests.support.config_site import WORKFLOWS, corpus_workflow, node_type_text, site_settings

CODE = "R6.b"
SYNTAXES = ["yaml", "json"]
POLICY = "aincient_policy_links"
CHECK = "        check: links\n"  # the one config key of the policy check node, required
WITHOUT_CHECK = "        langcode: en\n"  # a declared (connectable) key in its place
MISSING_CHECK = (
    "config of \"Internal links\" (policy_check.1) lacks 'check', which node type "
    "'aincient_flows_policy_check' requires (no edge can supply it): FlowDrop refuses to "
    "launch the workflow"
)


def _key_token(syntax: str, key: str) -> str:
    return key if syntax == "yaml" else f'"{key}"'


def _others(text: str, syntax: str, settings: Any) -> list[tuple[str, str, str]]:
    """The other rules' findings, each with the text it is on (positions move with a fix)."""
    return [
        (f.code, f.message, at(text, f.span))
        for f in analyze(text, settings, syntax=syntax).findings
        if f.code != CODE
    ]


# ----- the real site ---------------------------------------------------------------------------


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_config_checks_report_nothing_on_the_real_site(syntax: str) -> None:
    settings = site_settings()
    assert len(WORKFLOWS) == 15
    for path in WORKFLOWS:
        text = _in(syntax, path.read_text(encoding="utf-8"))
        codes = {f.code for f in analyze(text, settings, syntax=syntax).findings}
        assert not codes & {"R6.b", "R6.c", "R6.l"}, (path.name, codes)


# ----- a missing key ---------------------------------------------------------------------------


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_missing_required_key_is_reported_on_the_config_key(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(POLICY), CHECK, WITHOUT_CHECK))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "error"
    assert finding.message == MISSING_CHECK
    assert at(text, finding.span) == _key_token(syntax, "config")
    assert finding.span == Span(*_nth(text, _key_token(syntax, "config")))
    assert finding.locator_code == "R6_CONFIG_REQUIRED"
    assert finding.locator == "node.policy_check.1.config.check"
    assert finding.node == "policy_check.1"


def _nth(text: str, token: str, after: str = "policy_check.1") -> tuple[int, int]:
    """Where `token` first occurs after `after` (found independently of the rule)."""
    start = text.index(token, text.index(after))
    return start, start + len(token)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_node_without_config_is_reported_on_its_label_without_a_fix(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(POLICY), "      config:\n" + CHECK, ""))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.message == (
        '"Internal links" (policy_check.1) has no config, and node type '
        "'aincient_flows_policy_check' requires its key 'check' (no edge can supply it): "
        "FlowDrop refuses to launch the workflow"
    )
    label = "'Internal links'" if syntax == "yaml" else '"Internal links"'
    assert finding.span == Span(*_nth(text, label))
    assert finding.fixes == ()  # no config object to add the key to
    assert finding.locator == "node.policy_check.1.config.check"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_null_counts_as_present(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(POLICY), CHECK, "        check: null\n"))
    assert findings(text, CODE, site_settings(), syntax) == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_parameter_without_a_default_gets_no_fix(syntax: str) -> None:
    no_default = plant(
        node_type_text("aincient_flows_policy_check"),
        "    required: true\n    default: ''\n",
        "    required: true\n",
    )
    settings = site_settings(aincient_flows_policy_check=no_default)
    text = _in(syntax, plant(corpus_workflow(POLICY), CHECK, WITHOUT_CHECK))
    (finding,) = findings(text, CODE, settings, syntax)
    assert finding.fixes == ()


def test_connectable_or_unconfigurable_parameters_are_not_required_in_config() -> None:
    for flags in ("connectable: true", "configurable: false"):
        changed = plant(
            node_type_text("aincient_flows_policy_check"),
            "  check:\n    configurable: true\n    connectable: false\n",
            "  check:\n    " + flags + "\n",
        )
        settings = site_settings(aincient_flows_policy_check=changed)
        text = plant(corpus_workflow(POLICY), CHECK, WITHOUT_CHECK)
        assert findings(text, CODE, settings, "yaml") == [], flags


def test_a_node_of_a_type_the_site_does_not_define_is_not_judged() -> None:
    """R6.j: no derived schema, no verdict (FD-UNKNOWN-NODE-TYPE reports the type)."""
    text = plant(corpus_workflow(POLICY), CHECK, WITHOUT_CHECK)
    text = plant(text, "node_type_id: aincient_flows_policy_check", "node_type_id: policy_chek")
    reported = analyze(text, site_settings(), syntax="yaml").findings
    assert [f.code for f in reported] == ["FD-UNKNOWN-NODE-TYPE"]
    # Without the site's node types nothing is judged at all.
    assert (
        findings(plant(corpus_workflow(POLICY), CHECK, WITHOUT_CHECK), CODE, Settings(), "yaml")
        == []
    )


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_config_that_is_not_an_object_is_fd_schema_only(syntax: str) -> None:
    """R6.a is FD-SCHEMA's: config must be an object; R6.b stays silent on it."""
    for value in ("links", "[links]", "null"):
        text = _in(
            syntax,
            plant(corpus_workflow(POLICY), "      config:\n" + CHECK, f"      config: {value}\n"),
        )
        reported = analyze(text, site_settings(), syntax=syntax).findings
        about_config = [f for f in reported if f.locator_code == "R6_CONFIG_INVALID"]
        assert [f.code for f in about_config] == ["FD-SCHEMA"], value
        said = "is empty (null)" if value == "null" else "is not of type 'object'"
        assert said in about_config[0].message
        assert not [f for f in reported if f.code.startswith("R6")]


# ----- required-ness from the declared flags only (R6.b: never from the edges) ----------------

AUDIT = "aincient_audit_agent"
AUDIT_TOOL = "aincient_flows_aincient_capability_run_page_audit"


def _audit_site() -> Any:
    """The real site, with the audit tool's required `node_id` no longer connectable."""
    text = plant(node_type_text(AUDIT_TOOL), "    connectable: true\n", "    connectable: false\n")
    return site_settings(**{AUDIT_TOOL: text})


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_tool_is_judged_like_any_node(syntax: str) -> None:
    """R6.b: required-ness "is decided from the node type's declared flags and never from the
    workflow's actual edges" — a node in tool mode lacking a required key is refused too."""
    settings = _audit_site()
    audit = corpus_workflow(AUDIT)
    (tagged,) = findings(_in(syntax, audit), CODE, settings, syntax)  # config.nodeType: tool
    assert tagged.locator == f"node.{AUDIT_TOOL}.1.config.node_id"
    untagged = plant(
        audit,
        "      label: 'Capability: Run page audit'\n      config:\n        nodeType: tool\n",
        "      label: 'Capability: Run page audit'\n      config:\n",
    )
    assert [f.locator for f in findings(_in(syntax, untagged), CODE, settings, syntax)] == [
        tagged.locator
    ]


FETCHER = "id: fetcher\nparameters:\n  url:\n    configurable: true\n    required: true\n"


def _fetch_findings(
    edges: list[dict[str, Any]], config: dict[str, Any] | None = None, node_type: str = FETCHER
) -> list[Finding]:
    settings = site_settings(fetcher=node_type)
    text = workflow(
        [
            node("f", "fetcher", "Fetch", data={"config": config or {}}),
            node("agent", "aincient_reason", "Agent"),
            node("out", "chat_output", "Out"),
        ],
        edges,
    )
    return findings(text, CODE, settings, "json")


def test_edges_never_decide_required_ness() -> None:
    data = {"source": "f", "target": "out", "targetHandle": "out-input-message"}
    assert len(_fetch_findings([])) == 1
    assert len(_fetch_findings([tool_edge("f", "agent")])) == 1
    assert len(_fetch_findings([tool_edge("f", "agent"), data])) == 1
    assert len(_fetch_findings([data], {"nodeType": "tool"})) == 1
    assert len(_fetch_findings([tool_edge("agent", "f")])) == 1


def test_an_unrecorded_configurable_flag_is_false() -> None:
    """CFG-1 (SCH-2/3): a parameter whose `configurable` is not recorded is not configurable,
    so it is not in the derived config schema and R6.b cannot require it."""
    unrecorded = "id: fetcher\nparameters:\n  url:\n    required: true\n"
    assert _fetch_findings([], node_type=unrecorded) == []
    not_configurable = (
        "id: fetcher\nparameters:\n  url:\n    configurable: false\n    required: true\n"
    )
    assert _fetch_findings([], node_type=not_configurable) == []


# ----- unicode before the finding --------------------------------------------------------------


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_positions_after_emoji_and_cjk(syntax: str) -> None:
    text = plant(corpus_workflow(POLICY), CHECK, WITHOUT_CHECK)
    text = plant(text, "label: 'Internal links'", "label: '🔗 内部リンク 🚀'")
    text = _in(syntax, text)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.span == Span(*_nth(text, _key_token(syntax, "config")))
    assert '"🔗 内部リンク 🚀" (policy_check.1)' in finding.message


# ----- incremental == from scratch -------------------------------------------------------------

WEATHER = "aincient_weather"
METHOD_REQUIRED = (
    "  method:\n    configurable: true\n    connectable: false\n    required: false\n",
    "  method:\n    configurable: true\n    connectable: false\n    required: true\n",
)


def _weather_site() -> Any:
    return site_settings(http_request=plant(node_type_text("http_request"), *METHOD_REQUIRED))


def _same_as_fresh(document: WorkflowDocument, settings: Any, syntax: str) -> tuple[Finding, ...]:
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [(f.locator_code, f.locator) for f in document.findings()] == [
        (f.locator_code, f.locator) for f in fresh
    ]
    return fresh


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_planting_and_removing_equals_from_scratch(syntax: str) -> None:
    settings = _weather_site()
    text = _in(syntax, corpus_workflow(WEATHER))
    document = WorkflowDocument(text, settings, syntax=syntax)
    assert [f for f in document.findings() if f.code == CODE] == []
    # Delete the first http_request node's `method` line (its only one: GET).
    method = "        method: GET\n" if syntax == "yaml" else '"method": "GET",'
    start = document.text.index(method)
    line_start = start if syntax == "yaml" else document.text.rindex("\n", 0, start) + 1
    removed = document.text[line_start : start + len(method) + (0 if syntax == "yaml" else 1)]
    document.apply_edit(line_start, line_start + len(removed), "")
    reported = [f for f in _same_as_fresh(document, settings, syntax) if f.code == CODE]
    assert [f.locator for f in reported] == ["node.http_request.1.config.method"]
    # A label edit in another node: the finding stays, as from scratch.
    label = document.text.index("Geocode")
    document.apply_edit(label, label + len("Geocode"), "Géocode 🌍")
    assert [f.code for f in _same_as_fresh(document, settings, syntax)].count(CODE) == 1
    # Put the key back: gone.
    document.apply_edit(line_start, line_start, removed)
    assert [f for f in _same_as_fresh(document, settings, syntax) if f.code == CODE] == []


def test_incremental_an_edge_turning_a_tool_into_a_data_source_equals_from_scratch() -> None:
    settings = _audit_site()
    text = plant(
        corpus_workflow(AUDIT),
        "      label: 'Capability: Run page audit'\n      config:\n        nodeType: tool\n",
        "      label: 'Capability: Run page audit'\n      config:\n",
    )
    document = WorkflowDocument(text, settings, syntax="yaml")
    locator = f"node.{AUDIT_TOOL}.1.config.node_id"
    assert [f.locator for f in document.findings() if f.code == CODE] == [locator]
    handle = "targetHandle: flowdrop_node_processor_toolbox.1-input-tool\n    style: 'stroke: var(--fd-edge-tool); stroke-dasharray: 5 3;'"
    at_edge = document.text.index("source: aincient_flows_aincient_capability_run_page_audit.1")
    start = document.text.index(handle, at_edge) + len(
        "targetHandle: flowdrop_node_processor_toolbox.1-input-"
    )
    document.apply_edit(start, start + len("tool"), "data")
    edge_type = document.text.index("edgeType: tool", at_edge) + len("edgeType: ")
    document.apply_edit(edge_type, edge_type + len("tool"), "data")
    reported = [f for f in _same_as_fresh(document, settings, "yaml") if f.code == CODE]
    assert [f.locator for f in reported] == [locator]  # the edges never decided it


# ----- the fix ---------------------------------------------------------------------------------


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_fix_sets_the_default(syntax: str) -> None:
    settings = site_settings()
    original = plant(corpus_workflow(POLICY), CHECK, WITHOUT_CHECK)
    text = _in(syntax, original)
    (finding,) = findings(text, CODE, settings, syntax)
    (fix,) = finding.fixes
    # The type's default is empty (`''`): a placeholder, offered but never applied unreviewed.
    assert fix.title == "Set 'check' to its empty default (fill it in)"
    assert not fix.preferred and fix.applicability.value == "unsafe" and bool(fix.operations)
    assert finding.applied_fix() is None
    fixed = apply_edits(text, fix.edits)
    assert findings(fixed, CODE, settings, syntax) == []
    assert _others(fixed, syntax, settings) == _others(text, syntax, settings)
    expected = yaml.safe_load(original)
    expected["nodes"][0]["data"]["config"]["check"] = ""
    loaded = yaml.safe_load(fixed) if syntax == "yaml" else json.loads(fixed)
    assert loaded == expected


def test_the_fix_fills_an_empty_yaml_config() -> None:
    # Drupal writes an empty config `config: {  }`: filled, it becomes a block mapping.
    original = plant(corpus_workflow(POLICY), "      config:\n" + CHECK, "      config: {  }\n")
    (finding,) = findings(original, CODE, site_settings(), "yaml")
    (fix,) = finding.fixes
    fixed = apply_edits(original, fix.edits)
    assert "      config:\n        check: ''\n" in fixed
    assert yaml.safe_load(fixed)["nodes"][0]["data"]["config"] == {"check": ""}
    assert findings(fixed, CODE, site_settings(), "yaml") == []


def test_the_fix_fills_an_empty_json_config() -> None:
    original = plant(corpus_workflow(POLICY), "      config:\n" + CHECK, "      config: {  }\n")
    text = as_json(original)
    (finding,) = findings(text, CODE, site_settings(), "json")
    (fix,) = finding.fixes
    fixed = apply_edits(text, fix.edits)
    assert json.loads(fixed)["nodes"][0]["data"]["config"] == {"check": ""}
    assert findings(fixed, CODE, site_settings(), "json") == []


# ----- several required keys missing in one config: one fix sets them all ------------------------

WEATHER = "aincient_weather"
HTTP_CONFIG = (
    "        method: GET\n        headers: {  }\n        body: ''\n        timeout: 30\n"
    "        follow_redirects: true\n        instanceTitle: 'Geocode Second Try'\n"
)


def _all_required_http() -> Settings:
    text = node_type_text("http_request")
    for key in ("headers", "method", "timeout"):
        text = text.replace(
            f"  {key}:\n    configurable: true\n    connectable: false\n    required: false\n",
            f"  {key}:\n    configurable: true\n    connectable: false\n    required: true\n",
        )
    return site_settings(http_request=text)


@pytest.mark.parametrize(
    ("syntax", "config"),
    [
        ("yaml", "        instanceTitle: 'Geocode Second Try'\n"),
        ("json", "        instanceTitle: 'Geocode Second Try'\n"),
        ("json", None),  # an empty config: `{}` in JSON
        ("yaml", None),  # an empty config: `{  }` as Drupal writes it
    ],
)
def test_several_missing_defaults_are_set_by_one_fix_in_the_types_order(
    syntax: str, config: str | None
) -> None:
    settings = _all_required_http()
    replaced = "      config:\n" + (config or "") if config else "      config: {  }\n"
    original = plant(corpus_workflow(WEATHER), "      config:\n" + HTTP_CONFIG, replaced)
    text = _in(syntax, original)
    reported = findings(text, CODE, settings, syntax)
    assert len(reported) == 3
    by_key = {f.locator.rsplit(".", 1)[1]: f for f in reported if f.locator}
    # `headers` defaults to `{}`: an empty placeholder, its own unsafe fix; the defaults that say
    # something are set by one safe fix, offered on each of their findings.
    (empty,) = by_key["headers"].fixes
    assert empty.title == "Set 'headers' to its empty default (fill it in)"
    assert not empty.is_safe and not empty.preferred
    assert by_key["method"].fixes == by_key["timeout"].fixes
    (fix,) = by_key["method"].fixes
    assert fix.title == "Set 'method', 'timeout' to their defaults"
    assert fix.preferred and fix.is_safe
    fixed = apply_edits(text, fix.edits)
    loaded = yaml.safe_load(fixed) if syntax == "yaml" else json.loads(fixed)
    node = next(n for n in loaded["nodes"] if n["id"] == "http_request.1")
    assert list(node["data"]["config"].items())[-2:] == [("method", "GET"), ("timeout", 30)]
    (left,) = findings(fixed, CODE, settings, syntax)
    assert left.locator == "node.http_request.1.config.headers"
    # Taken in the editor, the empty default fills the rest.
    refixed = apply_edits(fixed, left.fixes[0].edits)
    loaded = yaml.safe_load(refixed) if syntax == "yaml" else json.loads(refixed)
    node = next(n for n in loaded["nodes"] if n["id"] == "http_request.1")
    assert node["data"]["config"]["headers"] == {}
    assert findings(refixed, CODE, settings, syntax) == []
