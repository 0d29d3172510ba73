"""EDGE-9's fixes as operations (issue 37): an execution-record key renamed to its transport
name (the member renamed, its value kept as written), or removed — on an edge of a copy of the
real weather workflow, as Drupal YAML and as JSON."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.findings import Applicability
from flowdrop_lsp.core.operations import Update
from tests.support.builders import node
from tests.support.config_site import in_syntax as _in
from tests.support.launch import corpus_yaml, found, planted
from tests.support.operation_cases import applied as _applied
from tests.support.operation_cases import read as _load

CODE = "EDGE-9"
SYNTAXES = ("yaml", "json")
WEATHER = corpus_yaml("aincient_weather")
HANDLE = "data_mapper.1-output-url"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_source_handle_is_renamed_with_its_value_kept(syntax: str) -> None:
    text = _in(syntax, planted(WEATHER, f"sourceHandle: {HANDLE}\n", f"source_handle: {HANDLE}\n"))
    (finding,) = found(text, CODE, syntax)
    (fix,) = finding.fixes
    assert (fix.title, fix.preferred) == ("Rename 'source_handle' to 'sourceHandle'", True)
    assert fix.destructive is None
    (op,) = fix.operations
    assert isinstance(op, Update) and op.scope == "edge"
    assert (op.patch, op.unset) == ({"sourceHandle": HANDLE}, ("source_handle",))
    (edit,) = fix.edits  # only the key's token is rewritten
    assert edit.new_text == ("sourceHandle" if syntax == "yaml" else '"sourceHandle"')
    fixed = _applied(text, syntax, fix)
    assert found(fixed, CODE, syntax) == []
    assert _load(fixed, syntax) == yaml.safe_load(WEATHER)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_key_without_a_usable_transport_name_is_removed(syntax: str) -> None:
    anchor = "    source: data_mapper.1\n"
    text = _in(syntax, planted(WEATHER, anchor, "    is_tool: false\n    edge_id: e1\n" + anchor))
    findings = found(text, CODE, syntax)
    assert [f.fixes[0].title for f in findings] == ["Remove 'is_tool'", "Remove 'edge_id'"]
    for finding in findings:
        (fix,) = finding.fixes
        assert fix.applicability is Applicability.UNSAFE and not fix.preferred
        key = fix.title.split("'")[1]
        assert fix.destructive == f"the edge's '{key}' and its value are deleted"
        (op,) = fix.operations
        assert isinstance(op, Update) and (op.patch, op.unset) == ({}, (key,))
        fixed = _applied(text, syntax, fix)
        assert finding.message not in [f.message for f in found(fixed, CODE, syntax)]
    fixed = _applied(text, syntax, findings[0].fixes[0])
    (left,) = found(fixed, CODE, syntax)
    assert _load(_applied(fixed, syntax, left.fixes[0]), syntax) == yaml.safe_load(WEATHER)


def test_edge_id_becomes_the_id_of_an_edge_without_one() -> None:
    text = json.dumps(
        {
            "nodes": [node("a"), node("b")],
            "edges": [{"edge_id": "e1", "source": "a", "target": "b"}],
        }
    )
    (finding,) = found(text, CODE)
    (fix,) = finding.fixes
    (op,) = fix.operations
    assert isinstance(op, Update) and op.target.address == "#0"
    fixed = _applied(text, "json", fix)
    assert json.loads(fixed)["edges"] == [{"id": "e1", "source": "a", "target": "b"}]
