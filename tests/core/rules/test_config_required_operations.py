"""R6.b's fixes as operations (issue 37): the missing keys set to their declared defaults (one
update of the node's config), an empty default set for review, and — without a default, where
the parameter's schema lists its values — "Choose a value for 'key'", the choice FlowDrop's
editor offers (`Finding.choices`). In Drupal YAML and in JSON."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.findings import Applicability, Finding
from flowdrop_lsp.core.operations import PICKED, Update, apply_operations, with_picked
from tests.support.builders import in_syntax as _in
from tests.support.config_site import site_settings
from tests.support.operation_cases import applied as _applied
from tests.support.operation_cases import read as _load

CODE = "R6.b"
SYNTAXES = ("yaml", "json")
PROBE = """\
id: probe_fetch
parameters:
  url:
    configurable: true
    required: false
  method:
    configurable: true
    required: true
    default: GET
  format:
    configurable: true
    required: true
    default: json
  check:
    configurable: true
    required: true
    default: ''
  mode:
    configurable: true
    required: true
"""
SETTINGS = site_settings(probe_fetch=PROBE)
SCHEMA = """\
        configSchema:
          type: object
          properties:
            mode:
              type: string
              enum:
                - fast
                - thorough
"""


def _workflow(config: str, metadata_extra: str = "") -> str:
    """A Drupal YAML workflow of one probe node with the `config` lines given."""
    return (
        "id: probe\n"
        "label: Probe\n"
        "nodes:\n"
        "  -\n"
        "    id: fetch.1\n"
        "    position:\n"
        "      x: 0\n"
        "      'y': 0\n"
        "    data:\n"
        "      label: Fetch\n"
        f"{config}"
        "      metadata:\n"
        "        node_type_id: probe_fetch\n"
        f"{metadata_extra}"
        "edges: {  }\n"
    )


WITHOUT_DEFAULTS = (
    "      config:\n        url: 'https://example.com'\n        check: links\n        mode: fast\n"
)


def _found(text: str, syntax: str) -> list[Finding]:
    return [f for f in analyze(text, SETTINGS, syntax=syntax).findings if f.code == CODE]


def _missing(text: str, syntax: str) -> list[str]:
    return [f.locator.rsplit(".", 1)[-1] for f in _found(text, syntax) if f.locator]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_defaults_are_set_by_one_update_of_the_config(syntax: str) -> None:
    text = _in(syntax, _workflow(WITHOUT_DEFAULTS))
    assert sorted(_missing(text, syntax)) == ["format", "method"]
    first, second = _found(text, syntax)
    assert first.fixes == second.fixes
    (fix,) = first.fixes
    assert fix.title == "Set 'method', 'format' to their defaults"
    assert fix.preferred and fix.applicability is Applicability.SAFE and fix.destructive is None
    (op,) = fix.operations
    assert isinstance(op, Update) and op.scope == "config"
    assert op.patch == {"method": "GET", "format": "json"}
    fixed = _applied(text, syntax, fix)
    assert _missing(fixed, syntax) == []
    config = _load(fixed, syntax)["nodes"][0]["data"]["config"]
    assert list(config) == ["url", "check", "mode", "method", "format"]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_one_default_fills_drupals_empty_config(syntax: str) -> None:
    lone = PROBE.split("  format:")[0]  # url and method only
    settings = site_settings(probe_fetch=lone)
    text = _in(syntax, _workflow("      config: {  }\n"))
    (finding,) = [f for f in analyze(text, settings, syntax=syntax).findings if f.code == CODE]
    (fix,) = finding.fixes
    assert fix.title == "Set 'method' to its default \"GET\""
    fixed = _applied(text, syntax, fix)
    if syntax == "yaml":
        assert "      config:\n        method: GET\n      metadata:\n" in fixed
    assert not [f for f in analyze(fixed, settings, syntax=syntax).findings if f.code == CODE]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_empty_default_is_set_for_review(syntax: str) -> None:
    config = "      config:\n        method: GET\n        format: json\n        mode: fast\n"
    text = _in(syntax, _workflow(config))
    (finding,) = _found(text, syntax)
    (fix,) = finding.fixes
    assert fix.title == "Set 'check' to its empty default (fill it in)"
    assert not fix.preferred and fix.applicability is Applicability.UNSAFE
    (op,) = fix.operations
    assert isinstance(op, Update) and op.patch == {"check": ""}
    fixed = _applied(text, syntax, fix)
    assert _found(fixed, syntax) == []
    assert _load(fixed, syntax)["nodes"][0]["data"]["config"]["check"] == ""


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_value_without_default_is_chosen_from_the_schemas_enum(syntax: str) -> None:
    config = "      config:\n        method: GET\n        format: json\n        check: links\n"
    text = _in(syntax, _workflow(config, SCHEMA))
    (finding,) = _found(text, syntax)
    assert finding.fixes == ()
    (choice,) = finding.choices
    assert choice.title == "Choose a value for 'mode'"
    assert choice.edits == () and not choice.preferred and choice.destructive is None
    assert choice.choice is not None and choice.choice.param == "mode"
    assert choice.choice.options == (("fast", "fast"), ("thorough", "thorough"))
    (op,) = choice.operations
    assert isinstance(op, Update) and op.scope == "config" and op.patch == {"mode": PICKED}
    picked = apply_operations(_load(text, syntax), with_picked(choice.operations, "thorough"))
    assert picked["nodes"][0]["data"]["config"]["mode"] == "thorough"
    assert _found(json.dumps(picked), "json") == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_no_choice_without_an_enum_of_strings(syntax: str) -> None:
    config = "      config:\n        method: GET\n        format: json\n        check: links\n"
    text = _in(syntax, _workflow(config))
    (finding,) = _found(text, syntax)
    assert finding.choices == ()
    numbers = SCHEMA.replace("- fast", "- 1").replace("- thorough", "- 2")
    (finding,) = _found(_in(syntax, _workflow(config, numbers)), syntax)
    assert finding.choices == ()
