"""R6.d–h: config values against the config schema a node's stored metadata carries (the
editor's JSON export), one finding per key at the first arm that refuses, in the spec's order;
null never judged; a broken pattern never charged to the author; nothing on the real site."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.core.rules.config_value import violation
from tests.support.builders import at, node, workflow

CODE = "R6.d"
CORPUS_JSON = Path(__file__).parents[2] / "corpus" / "atelier-cms" / "json"
SCHEMA = {
    "properties": {
        "method": {"type": "string", "enum": ["GET", "POST"]},
        "timeout": {"type": "integer", "minimum": 1, "maximum": 300},
        "name": {"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-z]+$"},
        "tags": {"type": "array"},
        "odd": {"type": "decimal"},
        "broken": {"type": "string", "pattern": "(unclosed"},
    }
}


def _doc(config: dict[str, Any]) -> str:
    data = {"label": "Fetch 🌐 取得", "config": config, "metadata": {"configSchema": SCHEMA}}
    return workflow([node("f", data=data)], [])


def _found(text: str) -> list[tuple[str, str, str | None]]:
    return [
        (at(text, f.span), f.message.split(": ", 1)[1], f.locator)
        for f in analyze(text).findings
        if f.code == CODE
    ]


@pytest.mark.parametrize(
    ("value", "schema", "why"),
    [
        ("30", {"type": "integer"}, "is not of type 'integer'"),
        (1.0, {"type": "integer"}, "is not of type 'integer'"),
        (True, {"type": "number"}, "is not of type 'number'"),
        (1, {"type": ["string", "null"]}, "is not of type ['string', 'null']"),
        ("x", {"type": "whatever"}, None),  # an unknown type name imposes nothing
        ("1", {"enum": [1, 2]}, "is not one of 1, 2"),  # no coercion
        (1.0, {"enum": [1]}, "is not one of 1"),
        ("POST", {"enum": ["GET", "POST"]}, None),
        (0, {"minimum": 1}, "is less than the minimum 1"),
        ("0", {"minimum": 1}, None),  # bounds judge numbers only
        (301, {"maximum": 300}, "is more than the maximum 300"),
        ("é", {"minLength": 2}, "is shorter than 2 characters"),
        ("🌐🌐", {"maxLength": 2}, None),  # code points, not UTF-16 units
        ("abc", {"pattern": "^[0-9]+$"}, "does not match the pattern '^[0-9]+$'"),
        ("abc", {"pattern": "(unclosed"}, None),  # R6.h: a broken pattern passes
        ("٣", {"pattern": "^\\d$"}, None),  # a match read either way passes
        (None, {"type": "integer", "minimum": 1}, None),  # R6.i
        # The first arm that refuses, and only it: the type before the enum.
        (5, {"type": "string", "enum": ["a"]}, "is not of type 'string'"),
    ],
)
def test_the_arms_in_their_order(value: Any, schema: dict[str, Any], why: str | None) -> None:
    assert violation(value, schema) == why


def test_one_finding_per_key_on_its_value_with_the_spec_s_code_and_locator() -> None:
    text = _doc(
        {"method": "FETCH", "timeout": 0, "name": "Ab", "tags": {}, "odd": 1, "broken": "x"}
    )
    assert _found(text) == [
        (
            '"FETCH"',
            "'FETCH' is not one of 'GET', 'POST' (the node's stored config schema): "
            "FlowDrop refuses to save the workflow",
            "node.f.config.method",
        ),
        (
            "0",
            "0 is less than the minimum 1 (the node's stored config schema): "
            "FlowDrop refuses to save the workflow",
            "node.f.config.timeout",
        ),
        (
            '"Ab"',
            "'Ab' does not match the pattern '^[a-z]+$' (the node's stored config schema): "
            "FlowDrop refuses to save the workflow",
            "node.f.config.name",
        ),
    ]
    found = [f for f in analyze(text).findings if f.code == CODE]
    assert {f.locator_code for f in found} == {"R6_CONFIG_INVALID"}
    assert {f.severity for f in found} == {Severity.ERROR}
    assert '"Fetch 🌐 取得" (f)' in found[0].message


def test_without_a_stored_schema_or_a_config_object_nothing_is_judged() -> None:
    plain = workflow([node("f", data={"label": "F", "config": {"timeout": "x"}})], [])
    assert _found(plain) == []
    for config in ([1, 2], "text", None, 3):
        data = {"label": "F", "config": config, "metadata": {"configSchema": SCHEMA}}
        assert _found(workflow([node("f", data=data)], [])) == []
    for schema in ([], "x", {"properties": []}, {"properties": {"timeout": 5}}):
        data = {"label": "F", "config": {"timeout": "x"}, "metadata": {"configSchema": schema}}
        assert _found(workflow([node("f", data=data)], [])) == []


def test_incremental_edits_equal_a_fresh_read() -> None:
    text = _doc({"method": "GET", "timeout": 30})
    document = WorkflowDocument(text)
    assert [f for f in document.findings() if f.code == CODE] == []
    start = document.text.index('"GET"')
    document.apply_edit(start + 1, start + 4, "PUT")
    fresh = WorkflowDocument(document.text).findings()
    assert document.findings() == fresh
    assert [f.locator for f in fresh if f.code == CODE] == ["node.f.config.method"]
    document.apply_edit(start + 1, start + 4, "POST")
    assert [f for f in document.findings() if f.code == CODE] == []


def test_the_real_site_s_json_exports_pass() -> None:
    paths = sorted(CORPUS_JSON.glob("*.json"))
    assert paths
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert [f for f in analyze(text).findings if f.code == CODE] == [], path.name
        json.loads(text)
