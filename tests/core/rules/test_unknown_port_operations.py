"""FD-UNKNOWN-PORT's fixes as operations (issue 37): an edge reconnected to a close port (an
update of its handle) or removed — planted in a copy of the real workshop workflow, as Drupal
YAML and as JSON, and on the weather workflow's real leftovers."""

from __future__ import annotations

import pytest
import yaml

from flowdrop_lsp.core.operations import Remove, Update
from tests.support.builders import findings
from tests.support.builders import in_syntax as _in
from tests.support.operation_cases import applied as _applied
from tests.support.operation_cases import fix_titled as _fix
from tests.support.operation_cases import read as _load
from tests.support.port_site import real_workflow, site_settings

CODE = "FD-UNKNOWN-PORT"
SYNTAXES = ("yaml", "json")
GOOD = "targetHandle: chat_output.1-input-message"
TYPO = "targetHandle: chat_output.1-input-mesage"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_connecting_to_the_close_port_updates_the_handle(syntax: str) -> None:
    original = real_workflow("workshop_one_ai_call")
    text = _in(syntax, original.replace(GOOD, TYPO))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    fix = _fix(finding, "Connect to 'message'")
    assert not fix.preferred and fix.destructive is None
    (op,) = fix.operations
    assert isinstance(op, Update) and op.scope == "edge"
    assert op.patch == {"targetHandle": "chat_output.1-input-message"}
    fixed = _applied(text, syntax, fix)
    assert findings(fixed, CODE, site_settings(), syntax) == []
    assert _load(fixed, syntax) == yaml.safe_load(original)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_removing_the_edge(syntax: str) -> None:
    text = _in(syntax, real_workflow("workshop_one_ai_call").replace(GOOD, TYPO))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    fix = _fix(finding, "Remove the edge")
    assert fix.destructive == "the edge is deleted"
    (op,) = fix.operations
    assert isinstance(op, Remove)
    fixed = _applied(text, syntax, fix)
    assert findings(fixed, CODE, site_settings(), syntax) == []
    assert len(_load(fixed, syntax)["edges"]) == 1


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_every_fix_of_the_weather_leftovers(syntax: str) -> None:
    text = _in(syntax, real_workflow("aincient_weather"))
    found = findings(text, CODE, site_settings(), syntax)
    assert len(found) == 3
    for finding in found:
        for fix in finding.fixes:
            fixed = _applied(text, syntax, fix)
            assert finding.message not in [
                f.message for f in findings(fixed, CODE, site_settings(), syntax)
            ]
    # A source end: the output handle is what changes.
    first = _fix(found[0], "Connect to 'url_full'")
    (op,) = first.operations
    assert isinstance(op, Update) and op.patch == {"sourceHandle": "data_mapper.1-output-url_full"}
