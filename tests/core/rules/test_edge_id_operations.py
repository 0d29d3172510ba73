"""R3's fix as operations (issue 37): the edge's `id` set to a fresh one — written over an empty
id, added as a member when there is none, written over a repeated one (the edge then addressed
by its position: its id names the first edge carrying it) — in a copy of the real weather
workflow, as Drupal YAML and as JSON."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.findings import Applicability, Finding, Fix
from flowdrop_lsp.core.operations import Update
from tests.support.config_site import in_syntax as _in
from tests.support.launch import corpus_yaml, found, planted
from tests.support.operation_cases import applied as _applied
from tests.support.operation_cases import read as _load

CODE = "R3"
SYNTAXES = ("yaml", "json")
WEATHER = corpus_yaml("aincient_weather")
E0 = "xy-edge__chat_input.1chat_input.1-output-message-data_mapper.1data_mapper.1-input-q"
E1 = "xy-edge__data_mapper.1data_mapper.1-output-url-http_request.1http_request.1-input-url"
TITLE = "Give the edge a fresh id"


def _only_fix(finding: Finding) -> Fix:
    (fix,) = finding.fixes
    assert (fix.title, fix.preferred, fix.applicability) == (TITLE, True, Applicability.SAFE)
    assert fix.destructive is None
    return fix


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_repeated_id_is_replaced_on_the_edge_at_its_position(syntax: str) -> None:
    text = _in(syntax, planted(WEATHER, f"id: {E1}\n", f"id: {E0}\n"))
    (finding,) = found(text, CODE, syntax)
    fix = _only_fix(finding)
    (op,) = fix.operations
    assert isinstance(op, Update) and op.scope == "edge" and op.patch == {"id": E1}
    assert (op.target.id, op.target.address) == (None, "#1")
    fixed = _applied(text, syntax, fix)
    assert found(fixed, CODE, syntax) == []
    assert _load(fixed, syntax) == yaml.safe_load(WEATHER)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_missing_id_is_added(syntax: str) -> None:
    text = _in(syntax, planted(WEATHER, f"    id: {E1}\n", ""))
    (finding,) = found(text, CODE, syntax)
    fix = _only_fix(finding)
    (op,) = fix.operations
    assert isinstance(op, Update) and op.patch == {"id": E1} and op.target.address == "#1"
    fixed = _applied(text, syntax, fix)
    assert found(fixed, CODE, syntax) == []
    assert _load(fixed, syntax) == yaml.safe_load(WEATHER)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_empty_id_is_written_over(syntax: str) -> None:
    text = _in(syntax, planted(WEATHER, f"    id: {E1}\n", "    id: ''\n"))
    (finding,) = found(text, CODE, syntax)
    fix = _only_fix(finding)
    (edit,) = fix.edits
    # Written in the style of the value it replaces (YAML's single quotes kept).
    assert edit.new_text == (f"'{E1}'" if syntax == "yaml" else json.dumps(E1))
    fixed = _applied(text, syntax, fix)
    assert found(fixed, CODE, syntax) == []
    assert _load(fixed, syntax) == yaml.safe_load(WEATHER)
