"""DYN-2's fix as operations: the definition's `label` set to its name (the mapping below
`config` patched: `updateNodeConfig` of the whole list), a blank label's value written in place,
an absent one added as the format writes a member (Drupal YAML: a block mapping's next line,
indented as its siblings), in JSON and Drupal YAML."""

from __future__ import annotations

import json
from typing import Any

import pytest

from flowdrop_lsp.core.operations import Update
from tests.support.operation_cases import one_node_yaml, read, round_trip

CODE = "DYN-2"


def mapper_json(inputs: list[dict[str, Any]]) -> str:
    config = {"dynamicInputs": inputs}
    node = {"id": "map", "type": "data_mapper", "data": {"label": "Map", "config": config}}
    return json.dumps({"nodes": [node], "edges": []}, indent=2, ensure_ascii=False)


def mapper_yaml(input_lines: str) -> str:
    return one_node_yaml(
        "map",
        "data_mapper",
        "Map",
        "        dynamicInputs:\n"
        "          -\n"
        "            name: q\n"
        "            label: Q\n"
        "            dataType: string\n"
        "          -\n"
        f"{input_lines}",
    )


FIRST = {"name": "q", "label": "Q", "dataType": "string"}
CASES = {
    "json-absent": mapper_json([FIRST, {"name": "天気🌦️", "dataType": "string"}]),
    "json-blank": mapper_json([FIRST, {"name": "天気🌦️", "label": " ", "dataType": "string"}]),
    "yaml-absent": mapper_yaml("            name: '天気🌦️'\n            dataType: string\n"),
    "yaml-blank": mapper_yaml(
        "            name: '天気🌦️'\n            label: ''\n            dataType: string\n"
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_the_label_is_the_name(case: str) -> None:
    syntax = case.split("-")[0]
    text = CASES[case]
    fix, fixed = round_trip(text, syntax, CODE, "Label it '天気🌦️'")
    assert fix.preferred and fix.is_safe and fix.destructive is None
    (op,) = fix.operations
    assert isinstance(op, Update) and op.scope == "config" and op.unset == ()
    inputs = read(fixed, syntax)["nodes"][0]["data"]["config"]["dynamicInputs"]
    assert op.patch == {"dynamicInputs": inputs}
    assert inputs[0] == FIRST
    assert inputs[1]["label"] == "天気🌦️"
    assert inputs[1]["dataType"] == "string"


def test_an_absent_label_is_added_in_drupal_s_style() -> None:
    text = CASES["yaml-absent"]
    _, fixed = round_trip(text, "yaml", CODE, "Label it '天気🌦️'")
    # A line of the block mapping after its last member, indented as its siblings (a plain
    # scalar, as Drupal's dumper writes this one); nothing else changes.
    last = "            name: '天気🌦️'\n            dataType: string\n"
    assert fixed == text.replace(last, last + "            label: 天気🌦️\n")


def test_a_blank_label_is_written_in_place() -> None:
    text = CASES["yaml-blank"]
    _, fixed = round_trip(text, "yaml", CODE, "Label it '天気🌦️'")
    assert fixed == text.replace("label: ''", "label: '天気🌦️'")
    text = CASES["json-blank"]
    _, fixed = round_trip(text, "json", CODE, "Label it '天気🌦️'")
    assert fixed == text.replace('"label": " "', '"label": "天気🌦️"')
