"""Code lens on consumers ("N tools · M collisions") and the `flowdrop.showTools` command it
runs: the flattened set answered and shown; JSON and Drupal YAML; right after edits."""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types

from tests.support.insight import (
    URI,
    WIDE_AGENT,
    YAML_URI,
    opened,
    position,
    token_range,
    wide_example,
)
from tests.support.lsp import Session, replace_span
from tests.support.samples import SITE_YAML


def node_start(text: str, node_id: str, encoding: str) -> types.Position:
    """Where the JSON object of node `node_id` starts (its `{`)."""
    return position(text, text.rindex("{", 0, text.index(f'"id": "{node_id}"')), encoding)


def covers(outer: types.Range, inner: types.Range) -> bool:
    def key(p: types.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(outer.start) <= key(inner.start) and key(inner.end) <= key(outer.end)


async def lenses(session: Session, uri: str) -> list[types.CodeLens]:
    answer = await session.client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    return list(answer or [])


async def run(session: Session, command: types.Command) -> Any:
    return await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command.command, arguments=command.arguments)
    )


async def test_a_lens_on_each_consumer_runs_show_tools(session: Session) -> None:
    text = await opened(session, wide_example())
    (lens,) = await lenses(session, URI)
    assert lens.range.start == node_start(text, "reason.1", session.encoding)
    assert covers(lens.range, token_range(text, WIDE_AGENT, session.encoding))
    assert lens.command is not None
    assert lens.command.title == "3 tools · 1 collision"
    assert lens.command.command == "flowdrop.showTools"
    assert "flowdrop.showTools" in (
        session.result.capabilities.execute_command_provider.commands  # type: ignore[union-attr]
    )
    shown_before = len(session.client.messages)
    answer = await run(session, lens.command)
    assert answer["consumer"] == "reason.1" and answer["collisions"] == 1
    assert [(t["toolName"], t["node"], t["route"], t["collidesWith"]) for t in answer["tools"]] == [
        ("calculator", "calculator.1", ["toolbox.1"], []),
        ("web_search", "http_request.1", ["toolbox.2", "toolbox.1"], ["http_request.2"]),
        ("web_search", "http_request.2", ["toolbox.1"], ["http_request.1"]),
    ]
    for _ in range(100):  # the message is a notification sent before the answer: it is here
        if len(session.client.messages) > shown_before:
            break
        await asyncio.sleep(0.02)
    message = session.client.messages[-1]
    assert message.type == types.MessageType.Info
    assert message.message.startswith(
        'FlowDrop: "研究 Agent 🧪" is offered 3 tools (1 collision): '
    )
    assert '"Web Search 🤖 数据" via Web Tools → Research Tools (collides)' in message.message


async def test_lens_titles_follow_edits(session: Session) -> None:
    text = await opened(session, wide_example())
    start = text.index('"web-search"') + 1
    session.change(URI, 2, [replace_span(text, start, start + 10, "Fetch", session.encoding)])
    await session.publishes.wait_for(URI, 2)
    (lens,) = await lenses(session, URI)
    assert lens.command is not None and lens.command.title == "3 tools · 0 collisions"


async def test_show_tools_with_bad_arguments_answers_nothing(session: Session) -> None:
    await opened(session, wide_example())
    for arguments in ([], [URI], [URI, "chat_input.1"], ["file:///nowhere.json", "reason.1"]):
        command = types.Command(title="", command="flowdrop.showTools", arguments=arguments)
        assert await run(session, command) is None


async def test_drupal_yaml(session: Session) -> None:
    text = SITE_YAML.read_text(encoding="utf-8")
    await opened(session, text, YAML_URI, "yaml")
    (lens,) = await lenses(session, YAML_URI)
    assert covers(lens.range, token_range(text, "'Research Agent'", session.encoding))
    assert (
        lens.range.start.line
        == token_range(text, "id: aincient_reason.1", session.encoding).start.line
    )
    assert lens.command is not None and lens.command.title == "3 tools · 1 collision"
    assert list(lens.command.arguments or ()) == [YAML_URI, "aincient_reason.1"]
