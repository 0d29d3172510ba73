"""FD-UNKNOWN-PORT's fixes as operations (issue 37): an edge reconnected to a close port (an
update of its handle) or removed — planted in a copy of the real workshop workflow, as Drupal
YAML and as JSON, and on the weather workflow's real leftovers."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from flowdrop_lsp.core.findings import Finding, Fix
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.operations import Remove, Update, apply_operations
from tests.support.port_site import as_json, findings, real_workflow

CODE = "FD-UNKNOWN-PORT"
SYNTAXES = ("yaml", "json")
GOOD = "targetHandle: chat_output.1-input-message"
TYPO = "targetHandle: chat_output.1-input-mesage"


def _in(syntax: str, yaml_text: str) -> str:
    return yaml_text if syntax == "yaml" else as_json(yaml_text)


def _load(text: str, syntax: str) -> Any:
    return yaml.safe_load(text) if syntax == "yaml" else json.loads(text)


def _fix(finding: Finding, title: str) -> Fix:
    (fix,) = [fix for fix in finding.fixes if fix.title == title]
    return fix


def _applied(text: str, syntax: str, fix: Fix) -> str:
    assert fix.operations
    fixed = apply_edits(text, fix.edits)
    assert apply_operations(_load(text, syntax), fix.operations) == _load(fixed, syntax)
    return fixed


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_connecting_to_the_close_port_updates_the_handle(syntax: str) -> None:
    original = real_workflow("workshop_one_ai_call")
    text = _in(syntax, original.replace(GOOD, TYPO))
    (finding,) = findings(text, syntax, CODE)
    fix = _fix(finding, "Connect to 'message'")
    assert not fix.preferred and fix.destructive is None
    (op,) = fix.operations
    assert isinstance(op, Update) and op.scope == "edge"
    assert op.patch == {"targetHandle": "chat_output.1-input-message"}
    fixed = _applied(text, syntax, fix)
    assert findings(fixed, syntax, CODE) == []
    assert _load(fixed, syntax) == yaml.safe_load(original)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_removing_the_edge(syntax: str) -> None:
    text = _in(syntax, real_workflow("workshop_one_ai_call").replace(GOOD, TYPO))
    (finding,) = findings(text, syntax, CODE)
    fix = _fix(finding, "Remove the edge")
    assert fix.destructive == "the edge is deleted"
    (op,) = fix.operations
    assert isinstance(op, Remove)
    fixed = _applied(text, syntax, fix)
    assert findings(fixed, syntax, CODE) == []
    assert len(_load(fixed, syntax)["edges"]) == 1


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_every_fix_of_the_weather_leftovers(syntax: str) -> None:
    text = _in(syntax, real_workflow("aincient_weather"))
    found = findings(text, syntax, CODE)
    assert len(found) == 3
    for finding in found:
        for fix in finding.fixes:
            fixed = _applied(text, syntax, fix)
            assert finding.message not in [f.message for f in findings(fixed, syntax, CODE)]
    # A source end: the output handle is what changes.
    first = _fix(found[0], "Connect to 'url_full'")
    (op,) = first.operations
    assert isinstance(op, Update) and op.patch == {"sourceHandle": "data_mapper.1-output-url_full"}
