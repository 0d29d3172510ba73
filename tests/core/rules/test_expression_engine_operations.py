"""LANG-2's fixes as operations (`replacement_fixes`, LANG-28's operator too): the engine meant
written over the value (`updateNodeConfig`), in place in its own style, in JSON and Drupal
YAML; the one spelt alike safe and preferred, close ones each an unsafe choice."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.findings import Fix
from flowdrop_lsp.core.operations import Update
from tests.support.builders import findings
from tests.support.operation_cases import round_trip


def node_json(type_id: str, config: dict[str, str]) -> str:
    node = {"id": "n", "type": type_id, "data": {"label": "天気🌦️", "config": config}}
    return json.dumps({"nodes": [node], "edges": []}, indent=2, ensure_ascii=False)


def node_yaml(type_id: str, config_lines: str) -> str:
    return (
        "id: wf\n"
        "label: WF\n"
        "nodes:\n"
        "  -\n"
        "    id: n\n"
        f"    type: {type_id}\n"
        "    data:\n"
        "      label: '天気🌦️'\n"
        "      config:\n"
        f"{config_lines}"
        "      metadata:\n"
        f"        node_type_id: {type_id}\n"
        "edges: {  }\n"
    )


def _only_update(fix: Fix, key: str, value: str) -> None:
    (op,) = fix.operations
    assert isinstance(op, Update)
    assert (op.scope, op.patch, op.unset) == ("config", {key: value}, ())


ALIKE = {
    "json": (
        node_json("data_extractor", {"engine": "JSONPath", "path": "a.b"}),
        "json",
        '"JSONPath"',
        '"jsonpath"',
    ),
    "yaml": (
        node_yaml("data_extractor", "        engine: JSONPath\n        path: a.b\n"),
        "yaml",
        "JSONPath",
        "jsonpath",
    ),
    "yaml-single-quoted": (
        node_yaml("data_extractor", "        path: a.b\n        engine: 'JSON-Path'\n"),
        "yaml",
        "'JSON-Path'",
        "'jsonpath'",
    ),
}


@pytest.mark.parametrize("case", ALIKE)
def test_an_engine_spelt_otherwise_is_written(case: str) -> None:
    text, syntax, before, after = ALIKE[case]
    fix, fixed = round_trip(text, syntax, "LANG-2", "Write 'jsonpath'")
    assert fix.preferred and fix.is_safe and fix.destructive is None
    _only_update(fix, "engine", "jsonpath")
    assert fixed == text.replace(before, after)


@pytest.mark.parametrize("syntax", ["json", "yaml"])
def test_close_engines_are_each_a_choice(syntax: str) -> None:
    text = (
        node_json("data_extractor", {"engine": "jsonpat"})
        if syntax == "json"
        else node_yaml("data_extractor", "        engine: jsonpat\n")
    )
    (finding,) = findings(text, "LANG-2", syntax=syntax)
    assert finding.fixes and not any(f.preferred or f.is_safe for f in finding.fixes)
    fix, fixed = round_trip(text, syntax, "LANG-2", "Write 'jsonpath'")
    _only_update(fix, "engine", "jsonpath")
    assert fixed == text.replace("jsonpat", "jsonpath")


@pytest.mark.parametrize("syntax", ["json", "yaml"])
def test_a_condition_operator_is_written_alike(syntax: str) -> None:
    text = (
        node_json("if_else", {"operator": "Not Equals", "matchText": "x"})
        if syntax == "json"
        else node_yaml("if_else", "        operator: 'Not Equals'\n        matchText: x\n")
    )
    fix, fixed = round_trip(text, syntax, "LANG-28", "Write 'not_equals'")
    assert fix.preferred
    _only_update(fix, "operator", "not_equals")
    assert fixed == text.replace("Not Equals", "not_equals")
