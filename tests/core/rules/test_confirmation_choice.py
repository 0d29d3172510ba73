"""RT-GATE-8 on a copy of the real audit agent: a stored confirmation choice its node type does
not grant is inert — reported on the choice, cleared by the fix (YAML and JSON); a granted one
and the default (`''`, defer) are not; nothing on the real site."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.core.fixes import apply_edits
from tests.support.builders import at, findings, plant
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, site_settings

CODE = "RT-GATE-8"
AUDIT = "aincient_audit_agent"
SYNTAXES = ["yaml", "json"]
# The chat input (its type `confirmation: {  }` grants nothing), then the chat output.
CHAT_INPUT = "        requiresConfirmation: ''\n      metadata:\n        node_type_id: chat_input\n"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_real_site_defers_everywhere(syntax: str) -> None:
    assert findings(_in(syntax, corpus_workflow(AUDIT)), CODE, site_settings(), syntax) == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_choice_the_type_does_not_grant_is_reported_and_cleared(syntax: str) -> None:
    planted = plant(corpus_workflow(AUDIT), CHAT_INPUT, CHAT_INPUT.replace("''", "waive"))
    text = _in(syntax, planted)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity is Severity.WARNING
    assert at(text, finding.span) == ("waive" if syntax == "yaml" else '"waive"')
    assert finding.locator == "node.chat_input.1.config.requiresConfirmation"
    assert "(it grants none)" in finding.message
    fixed = apply_edits(text, finding.fixes[0].edits)
    assert fixed == _in(syntax, corpus_workflow(AUDIT))
    assert findings(fixed, CODE, site_settings(), syntax) == []


def test_a_granted_choice_and_unknown_values_are_not_judged() -> None:
    text = corpus_workflow(AUDIT)
    grants = "confirmation:\n  author_controls:\n    - waive\n"
    chat_input = site_settings(chat_input=f"id: chat_input\n{grants}")
    planted = plant(text, CHAT_INPUT, CHAT_INPUT.replace("''", "waive"))
    assert findings(planted, CODE, chat_input, "yaml") == []
    for value in ("maybe", "true", "1"):
        other = plant(text, CHAT_INPUT, CHAT_INPUT.replace("''", value))
        assert findings(other, CODE, site_settings(), "yaml") == []
