"""FD-TOOL-ROUTE's fixes as operations (issue 37): "Route on … instead" is an update of the
gateway's `branches` (only the branch's value written, in the file's style), in Drupal YAML (a
real agent of the site) and in JSON. Removing a branch stays a text edit: an item removed from
a list is not something the renderer writes (no operations)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.findings import Finding, Fix
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.operations import Update, apply_operations
from tests.support.builders import CORPUS_CONFIG

CODE = "FD-TOOL-ROUTE"
SYNTAXES = ("yaml", "json")
PAGES = CORPUS_CONFIG / "flowdrop_workflow.flowdrop_workflow.aincient_pages_agent.yml"
GOOD = "value: capability_quick_brand_picker"
TYPO = "value: capability_list_page"


def _in(syntax: str, yaml_text: str) -> str:
    if syntax == "yaml":
        return yaml_text
    return json.dumps(yaml.safe_load(yaml_text), indent=2, ensure_ascii=False)


def _load(text: str, syntax: str) -> Any:
    return yaml.safe_load(text) if syntax == "yaml" else json.loads(text)


def _routes(text: str, syntax: str) -> list[Finding]:
    return [f for f in analyze(text, syntax=syntax).findings if f.code == CODE]


def _applied(text: str, syntax: str, fix: Fix) -> str:
    assert fix.operations
    fixed = apply_edits(text, fix.edits)
    assert apply_operations(_load(text, syntax), fix.operations) == _load(fixed, syntax)
    return fixed


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_routing_on_the_close_tool_updates_the_branch_value(syntax: str) -> None:
    text = _in(syntax, PAGES.read_text(encoding="utf-8").replace(GOOD, TYPO))
    (finding,) = _routes(text, syntax)
    route, remove = finding.fixes
    assert route.title == 'Route on "capability_list_pages" instead'
    assert not route.preferred and route.destructive is None
    (op,) = route.operations
    assert isinstance(op, Update) and op.scope == "config" and list(op.patch) == ["branches"]
    (edit,) = route.edits
    quote = "" if syntax == "yaml" else '"'
    assert edit.new_text == f"{quote}capability_list_pages{quote}"
    fixed = _applied(text, syntax, route)
    assert _routes(fixed, syntax) == []
    branches = {
        n["id"]: n["data"]["config"].get("branches")
        for n in _load(fixed, syntax)["nodes"]
        if n["id"] == "switch_gateway.1"
    }
    assert {"name": "Default", "value": "default"} in branches["switch_gateway.1"]
    # The removal of a branch: the list patched whole for the editor, one item's text deleted.
    assert remove.title.startswith("Remove the branch") and remove.destructive
    (edit,) = remove.edits
    assert edit.new_text == ""
    removed = _applied(text, syntax, remove)
    assert _routes(removed, syntax) == []
    (gateway,) = [n for n in _load(removed, syntax)["nodes"] if n["id"] == "switch_gateway.1"]
    assert {"name": "Default", "value": "default"} in gateway["data"]["config"]["branches"]
