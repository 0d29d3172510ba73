"""CFG-4: an edge into a parameter its node type does not make connectable — none on the real
site; planted in a copy of a real workflow in YAML and JSON, found exactly; the fix; nothing
without the site's node types; incremental edits of the handle."""

from __future__ import annotations

import pytest
import yaml

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits
from tests.support.builders import as_json, at, findings, node, workflow
from tests.support.port_site import (
    gist,
    real_workflow,
    real_workflow_names,
    same_as_fresh,
    site_settings,
)

CODE = "CFG-4"
SYNTAXES = ["yaml", "json"]
WORKSHOP = "workshop_one_ai_call"
GOOD = "targetHandle: chat_output.1-input-message"
PLANTED = "targetHandle: chat_output.1-input-format"
HANDLE = "chat_output.1-input-format"


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
def test_an_edge_into_a_configuration_parameter(syntax: str) -> None:
    """CFG-4 (SCH-3, DATA-1): chat_output's `format` is `connectable: false`."""
    text = planted(syntax)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "warning"
    assert at(text, finding.span).strip('"') == HANDLE
    edges = yaml.safe_load(text)["edges"]
    (index,) = [i for i, e in enumerate(edges) if e.get("targetHandle") == HANDLE]
    assert finding.locator == f"edge.{index}"
    assert finding.message == (
        "edge into 'chat_output.1' ends on parameter 'format', which its node type "
        "'chat_output' does not make connectable (connectable: false): nothing is delivered "
        "on it; the node takes the value from its config"
    )
    # Nothing else changed but this finding.
    original = text_of(real_workflow(WORKSHOP), syntax)
    assert gist(findings(text, None, site_settings(), syntax)) == sorted(
        [*gist(findings(original, None, site_settings(), syntax)), (CODE, finding.message)]
    )
    # The fix removes the edge and the finding with it, nothing else.
    fixed = apply_edits(text, finding.fixes[0].edits)
    assert yaml.safe_load(fixed)["edges"] == edges[:index] + edges[index + 1 :]
    assert gist(findings(fixed, None, site_settings(), syntax)) == [
        g for g in gist(findings(text, None, site_settings(), syntax)) if g[0] != CODE
    ]


def test_what_is_not_judged() -> None:
    # An unsaid flag is closed (CFG-1); reserved, undeclared and source ends are not judged.
    text = workflow(
        [node("o", "chat_output"), node("c", "chat_input"), node("x", "no_such_type")],
        [
            {"source": "c", "target": "o", "targetHandle": "o-input-message"},  # connectable
            {"source": "c", "target": "o", "targetHandle": "o-input-trigger"},  # reserved
            {"source": "c", "target": "o", "targetHandle": "o-input-nope"},  # undeclared
            {"source": "o", "target": "x", "targetHandle": "x-input-format"},  # unknown type
            {"source": "o", "target": "c", "sourceHandle": "o-output-format"},  # a source end
        ],
    )
    assert findings(text, CODE, site_settings(), "json") == []
    assert findings(planted("yaml"), CODE, Settings(), "yaml") == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_retyping_the_handle(syntax: str) -> None:
    document = WorkflowDocument(planted(syntax), site_settings(), syntax=syntax)
    assert len([f for f in same_as_fresh(document, syntax) if f[0] == CODE]) == 1
    start = document.text.index(HANDLE) + len("chat_output.1-input-")
    document.apply_edit(start, start + len("format"), "message")
    assert not document.stats.full_reread and document.stats.elements_reread == 1
    assert [f for f in same_as_fresh(document, syntax) if f[0] == CODE] == []
