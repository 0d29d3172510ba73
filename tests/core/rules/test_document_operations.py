"""FD-SCHEMA's fix of a config left null as operations (issue 37): the editor's update of the
node's config with nothing to add (`{...(config ?? {})}`: the empty mapping), written as JSON's
`{}` and Drupal's `{  }`. A YAML `config:` with nothing after it has no value to write over:
its fix is the reader's empty mapping typed after the key, as before (no operations)."""

from __future__ import annotations

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.findings import Applicability, Finding, Fix
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.operations import Update, apply_operations
from tests.support.operation_cases import read as _load

CODE = "FD-SCHEMA"


def _yaml(config_line: str) -> str:
    return (
        "id: probe\n"
        "label: Probe\n"
        "nodes:\n"
        "  -\n"
        "    id: fetch.1\n"
        "    type: http_request\n"
        "    data:\n"
        "      label: Fetch\n"
        f"{config_line}"
        "      metadata:\n"
        "        node_type_id: http_request\n"
        "edges: {  }\n"
    )


def _json(config: str) -> str:
    return (
        '{"nodes": [{"id": "fetch.1", "type": "http_request", "data": {"label": "Fetch", '
        f'"config": {config}}}}}], "edges": []}}'
    )


def _null_config(text: str, syntax: str) -> Finding:
    (finding,) = [
        f
        for f in analyze(text, syntax=syntax).findings
        if f.code == CODE and "is empty (null)" in f.message
    ]
    return finding


def _fix(finding: Finding, title: str) -> Fix:
    (fix,) = finding.fixes
    assert (fix.title, fix.preferred, fix.applicability) == (title, True, Applicability.SAFE)
    assert fix.destructive is None
    return fix


@pytest.mark.parametrize(
    ("syntax", "text", "written"),
    [
        ("json", _json("null"), "{}"),
        ("yaml", _yaml("      config: null\n"), "{  }"),
        ("yaml", _yaml("      config: ~\n"), "{  }"),
    ],
)
def test_a_null_config_becomes_the_empty_mapping(syntax: str, text: str, written: str) -> None:
    fix = _fix(_null_config(text, syntax), f"Write the empty config {written}")
    (op,) = fix.operations
    assert isinstance(op, Update) and (op.scope, op.patch, op.unset) == ("config", {}, ())
    (edit,) = fix.edits
    assert edit.new_text == written
    fixed = apply_edits(text, fix.edits)
    assert apply_operations(_load(text, syntax), fix.operations) == _load(fixed, syntax)
    assert _load(fixed, syntax)["nodes"][0]["data"]["config"] == {}
    assert not [f for f in analyze(fixed, syntax=syntax).findings if f.code == CODE]


def test_a_bare_yaml_config_key_gets_the_empty_mapping_after_a_space() -> None:
    text = _yaml("      config:\n")
    fix = _fix(_null_config(text, "yaml"), "Write the empty config {  }")
    assert fix.operations and bool(fix.operations)
    fixed = apply_edits(text, fix.edits)
    assert "      config: {  }\n" in fixed
    assert yaml.safe_load(fixed)["nodes"][0]["data"]["config"] == {}
    assert not [f for f in analyze(fixed, syntax="yaml").findings if f.code == CODE]
