"""FD-TOOL-ROUTE's fixes as operations (issue 37): "Route on … instead" is an update of the
gateway's `branches` (only the branch's value written, in the file's style), in Drupal YAML (a
real agent of the site) and in JSON. Removing a branch stays a text edit: an item removed from
a list is not something the renderer writes (no operations)."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.operations import Update
from tests.support.builders import CORPUS_CONFIG
from tests.support.builders import in_syntax as _in
from tests.support.operation_cases import applied as _applied
from tests.support.operation_cases import read as _load

CODE = "FD-TOOL-ROUTE"
SYNTAXES = ("yaml", "json")
PAGES = CORPUS_CONFIG / "flowdrop_workflow.flowdrop_workflow.aincient_pages_agent.yml"
GOOD = "value: capability_quick_brand_picker"
TYPO = "value: capability_list_page"


def _routes(text: str, syntax: str) -> list[Finding]:
    return [f for f in analyze(text, syntax=syntax).findings if f.code == CODE]


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
