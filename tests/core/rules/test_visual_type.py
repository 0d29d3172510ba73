"""SCH-20: a node's `config.nodeType` outside its type's `supported_visual_types` — none on the
real site; planted in a copy of a real workflow in YAML and JSON, found exactly; fixed back;
nothing without the site's node types; incremental edits of the value."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import as_json, at, findings, node, workflow
from tests.support.port_site import (
    gist,
    real_workflow,
    real_workflow_names,
    same_as_fresh,
    site_settings,
)

CODE = "SCH-20"
SYNTAXES = ["yaml", "json"]
WORKSHOP = "workshop_one_ai_call"
# The workshop's chat output (a type supporting default, simple and square).
GOOD = "        showTimestamp: false\n        nodeType: default\n"
PLANTED = GOOD.replace("default", "gateway")


def text_of(yaml_text: str, syntax: str) -> str:
    return yaml_text if syntax == "yaml" else as_json(yaml_text)


def planted(syntax: str) -> str:
    text = real_workflow(WORKSHOP)
    assert text.count(GOOD) == 1
    return text_of(text.replace(GOOD, PLANTED), syntax)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_nothing_on_the_real_site(syntax: str) -> None:
    for name in real_workflow_names():
        assert (
            findings(text_of(real_workflow(name), syntax), CODE, site_settings(), syntax) == []
        ), name


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_visual_type_the_type_does_not_support(syntax: str) -> None:
    """SCH-20: chat_output supports default, simple and square; not gateway."""
    text = planted(syntax)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "warning"
    assert at(text, finding.span).strip('"') == "gateway"
    assert finding.locator == "node.chat_output.1.config.nodeType"
    assert finding.message == (
        "config.nodeType 'gateway' of \"Chat Output\" (chat_output.1) is not a visual type of "
        "node type 'chat_output' (it supports 'default', 'simple', 'square')"
    )
    original = text_of(real_workflow(WORKSHOP), syntax)
    assert gist(findings(text, None, site_settings(), syntax)) == sorted(
        [*gist(findings(original, None, site_settings(), syntax)), (CODE, finding.message)]
    )


def test_what_is_not_judged() -> None:
    text = workflow(
        [
            node("a", "chat_output", data={"config": {"nodeType": 3}}),
            node("b", "no_such_type", data={"config": {"nodeType": "gateway"}}),
            node("c", "chat_output", data={"config": {"nodeType": "square"}}),
        ],
        [],
    )
    assert findings(text, CODE, site_settings(), "json") == []
    assert findings(planted("yaml"), CODE, Settings(), "yaml") == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_retyping_the_value(syntax: str) -> None:
    document = WorkflowDocument(planted(syntax), site_settings(), syntax=syntax)
    assert len([f for f in same_as_fresh(document, syntax) if f[0] == CODE]) == 1
    start = document.text.index("gateway")
    document.apply_edit(start, start + len("gateway"), "simple")
    assert not document.stats.full_reread and document.stats.elements_reread == 1
    assert [f for f in same_as_fresh(document, syntax) if f[0] == CODE] == []
