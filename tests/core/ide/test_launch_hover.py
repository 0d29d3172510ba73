"""Hover on what the launch checks judge (issue 29): a config key of a node (the type's
parameters, the hovered one marked; an unknown key said to be ignored, with the key it is close
to) and an edge's handle (the node's ports on that side, and whether the handle names one) —
on copies of the real site, YAML and JSON, with emoji and CJK before the hovered token."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.ide.service import WorkflowService
from tests.support.builders import in_syntax, plant, token
from tests.support.config_site import corpus_workflow, site_settings

SYNTAXES = ["yaml", "json"]
TOKENS = "        maxTokens: 8192\n"
MISSPELT = plant(corpus_workflow("reason"), TOKENS, "        maxTokes: 8192\n")
LABEL = "label: 'Reason (agent step)'"
WIDE = "label: '推論 🤖 step'"


def _hover(
    text: str, syntax: str, token: str, markdown: bool = True, settings: Settings | None = None
) -> tuple[str, str]:
    """The hover's text and the text its span covers, with the cursor inside `token` (its last
    occurrence: a config key comes after the label)."""
    service = WorkflowService(text, settings or site_settings(), syntax=syntax)
    at = text.rindex(token) + len(token) // 2
    found = service.hover(at, markdown)
    assert found is not None, token
    return found.text.replace("\n  ", " "), text[found.span.start : found.span.end]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_unknown_key_is_said_ignored_with_its_close_key_and_the_parameters(syntax: str) -> None:
    text = in_syntax(syntax, plant(MISSPELT, LABEL, WIDE))
    said, covered = _hover(text, syntax, token(syntax, "maxTokes"))
    assert covered == token(syntax, "maxTokes")
    lines = said.splitlines()
    assert lines[0] == (
        '**Config key** `maxTokes` of "推論 🤖 step" (`aincient_reason.1`) — ⚠ not one of the '
        "parameters node type `aincient_reason` takes in config: its value is ignored at "
        "execution; did you mean `maxTokens`?"
    )
    spelled = "'claude-sonnet-4-5-20250929'" if syntax == "yaml" else '"claude-sonnet-4-5-20250929"'
    role = "'aincient_role:task'" if syntax == "yaml" else '"aincient_role:task"'
    assert lines[2:9] == [
        "Node type `aincient_reason` takes in config:",
        "",
        "- `maxTokens` — default `1024`",
        f"- `model` — default `{spelled}`",
        f"- `operation_type` — default `{role}`",
        "- `systemPrompt`",
        "- `temperature` — default `0.0`",
    ]
    assert "← here" not in said  # the hovered key is none of them
    assert lines[-1] == (
        "and the editor's keys: `instanceBadge`, `instanceDescription`, `instanceTitle`, "
        "`maxRetries`, `nodeType`, `ports`, `requiresConfirmation`"
    )


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_parameter_is_marked_among_the_others(syntax: str) -> None:
    text = in_syntax(syntax, corpus_workflow("reason"))
    said, covered = _hover(text, syntax, token(syntax, "temperature"))
    assert covered == token(syntax, "temperature")
    assert said.splitlines()[0].endswith("— a parameter of node type `aincient_reason`")
    assert "- **`temperature`** ← here — default `0.0`" in said
    said, _ = _hover(text, syntax, token(syntax, "maxRetries"))
    assert "a key FlowDrop's editor adds to a node's config schema" in said
    assert "**`maxRetries`** ← here" in said


def test_a_required_key_and_its_empty_default() -> None:
    text = corpus_workflow("aincient_policy_links")
    service = WorkflowService(text, site_settings(), syntax="yaml")
    found = service.hover(text.index("check: links") + 2, True)
    assert found is not None and text[found.span.start : found.span.end] == "check"
    assert "- **`check`** ← here — required, default `''`" in found.text


def test_plain_text_has_no_markup() -> None:
    said, _ = _hover(MISSPELT, "yaml", "maxTokes", markdown=False)
    assert "`" not in said and "**" not in said
    assert "did you mean maxTokens?" in said


def test_nothing_without_the_sites_node_types() -> None:
    service = WorkflowService(MISSPELT, Settings(), syntax="yaml")
    assert service.hover(MISSPELT.index("maxTokes") + 2, True) is None


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_handle_naming_no_port_shows_the_nodes_inputs(syntax: str) -> None:
    text = in_syntax(syntax, corpus_workflow("aincient_weather"))
    said, covered = _hover(text, syntax, "data_mapper.2-input-gf")
    assert covered == token(syntax, "data_mapper.2-input-gf").replace("'", "")
    lines = said.splitlines()
    assert lines[0] == (
        '**Target handle** `data_mapper.2-input-gf` — ⚠ names input port `gf`, which "Data '
        'Mapper" (`data_mapper.2`) does not have: no data flows on it; did you mean `g`?'
    )
    assert lines[2:] == [
        "Its inputs:",
        "",
        "- `g`",
        "",
        "and the reserved: `trigger`, `loop_back`, `tool`",
    ]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_source_handle_marks_its_port_among_the_outputs(syntax: str) -> None:
    text = in_syntax(syntax, corpus_workflow("aincient_weather"))
    said, _ = _hover(text, syntax, "chat_input.1-output-message")
    assert said.splitlines()[0] == (
        "**Source handle** `chat_input.1-output-message` — output port `message` of "
        '"Chat Input" (`chat_input.1`)'
    )
    assert "Its outputs:" in said and "- **`message`** ← here" in said


def test_positions_after_emoji_and_cjk_on_one_json_line() -> None:
    """The whole workflow on one line: the key comes after a wide label on the same line."""
    data = yaml.safe_load(plant(MISSPELT, LABEL, WIDE))
    text = json.dumps(data, ensure_ascii=False)
    assert text.index("推論") < text.index('"maxTokes"')
    service = WorkflowService(text, site_settings(), syntax="json")
    found = service.hover(text.index('"maxTokes"') + 3, True)
    assert found is not None and text[found.span.start : found.span.end] == '"maxTokes"'
    # Elsewhere in the node (its config's value, its position): no launch hover.
    assert service.hover(text.index("8192"), True) is None
