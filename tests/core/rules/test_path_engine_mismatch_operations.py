"""LANG-23's fix as operations: `jsonpath` written as the engine (`updateNodeConfig`), in place of
the value in its own style, in JSON and Drupal YAML; none when the engine is not written."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.operations import Update
from tests.support.builders import findings
from tests.support.config_site import node_type_text, site_settings
from tests.support.operation_cases import round_trip

CODE = "LANG-23"
TITLE = "Write 'jsonpath' as the engine"


def extractor_json(config: dict[str, str]) -> str:
    node = {"id": "pick", "type": "data_extractor", "data": {"label": "Pick", "config": config}}
    return json.dumps({"nodes": [node], "edges": []}, indent=2, ensure_ascii=False)


def extractor_yaml(config_lines: str) -> str:
    return (
        "id: wf\n"
        "label: WF\n"
        "nodes:\n"
        "  -\n"
        "    id: pick\n"
        "    type: data_extractor\n"
        "    data:\n"
        "      label: Pick\n"
        "      config:\n"
        f"{config_lines}"
        "      metadata:\n"
        "        node_type_id: data_extractor\n"
        "edges: {  }\n"
    )


CASES = {
    "json": (
        extractor_json({"engine": "property_path", "path": "$.results[0].name"}),
        "json",
        '"engine": "property_path"',
        '"engine": "jsonpath"',
    ),
    "yaml": (
        extractor_yaml("        engine: property_path\n        path: '$.results[0].name'\n"),
        "yaml",
        "engine: property_path\n",
        "engine: jsonpath\n",
    ),
    "yaml-double-quoted": (
        extractor_yaml('        path: "$.天気"\n        engine: "property_path"\n'),
        "yaml",
        'engine: "property_path"',
        'engine: "jsonpath"',
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_the_engine_is_written(case: str) -> None:
    text, syntax, before, after = CASES[case]
    fix, fixed = round_trip(text, syntax, CODE, TITLE)
    assert not fix.is_safe and fix.destructive is None
    (op,) = fix.operations
    assert isinstance(op, Update)
    assert (op.scope, op.patch, op.unset) == ("config", {"engine": "jsonpath"}, ())
    assert fixed == text.replace(before, after)


@pytest.mark.parametrize("syntax", ["json", "yaml"])
def test_no_fix_when_the_engine_is_the_type_s_default(syntax: str) -> None:
    """The type's own default says `property_path`: no `engine` in the config to write over
    (a fix adding one would be another remedy)."""
    extractor = node_type_text("data_extractor").replace(
        "    default: jsonpath\n", "    default: property_path\n", 1
    )
    settings = site_settings(data_extractor=extractor)
    text = (
        extractor_json({"path": "$.results[0].name"})
        if syntax == "json"
        else extractor_yaml("        path: '$.results[0].name'\n")
    )
    (finding,) = findings(text, CODE, settings, syntax)
    assert finding.fixes == ()
