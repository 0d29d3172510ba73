"""R6.a: a node's `data.config` must be an object. FD-SCHEMA reports it (the workflow schema types
`config`); the finding carries the spec's locator code and locator, in JSON and YAML alike."""

from __future__ import annotations

import json

from flowdrop_lsp.core.analysis import analyze
from tests.support.builders import at, findings

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
