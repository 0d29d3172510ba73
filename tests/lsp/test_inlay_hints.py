"""Inlay hints over LSP: `→ tool_name` after a label whose tool name differs, the tool count
after each consumer's label, only in the requested range, in the negotiated encoding (emoji and
CJK labels), in JSON and Drupal YAML, right after edits."""

from __future__ import annotations

from lsprotocol import types

from tests.support.insight import (
    URI,
    WIDE_AGENT,
    WIDE_TOOL,
    YAML_URI,
    opened,
    position,
    token_range,
    wide_example,
)
from tests.support.lsp import Session, replace_span
from tests.support.samples import SITE_YAML


async def hints(session: Session, uri: str, text: str, start: int = 0, end: int | None = None):
    end = len(text) if end is None else end
    answer = await session.client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(
                start=position(text, start, session.encoding),
                end=position(text, end, session.encoding),
            ),
        )
    )
    return [(hint.position, hint.label) for hint in answer or []]


def after(text: str, token: str, encoding: str, occurrence: int = 0) -> types.Position:
    return token_range(text, token, encoding, occurrence).end


async def test_tool_names_and_tool_counts_after_emoji_and_cjk(session: Session) -> None:
    text = await opened(session, wide_example())
    enc = session.encoding
    assert await hints(session, URI, text) == [
        (after(text, WIDE_AGENT, enc), "3 tools"),
        (after(text, WIDE_TOOL, enc), "→ web_search"),
        (after(text, '"web-search"', enc), "→ web_search"),
        (after(text, '"Calculator"', enc), "→ calculator"),
    ]


async def test_only_the_requested_range(session: Session) -> None:
    text = await opened(session, wide_example())
    start, end = text.index('"toolbox.2"'), text.index('"http_request.2"')
    assert await hints(session, URI, text, start, end) == [
        (after(text, WIDE_TOOL, session.encoding), "→ web_search")
    ]
    assert await hints(session, URI, text, text.index('"edges"')) == []


async def test_hints_follow_edits(session: Session) -> None:
    text = await opened(session, wide_example())
    start = text.index('"web-search"') + 1
    # `web_search` needs no hint (it is its own tool name); the count is unchanged.
    session.change(URI, 2, [replace_span(text, start, start + 10, "web_search", session.encoding)])
    await session.publishes.wait_for(URI, 2)
    edited = text[:start] + "web_search" + text[start + 10 :]
    labels = [label for _, label in await hints(session, URI, edited)]
    assert labels == ["3 tools", "→ web_search", "→ calculator"]
    # Unwire the calculator (delete its tool edge): the agent is offered one tool fewer.
    edge_start = edited.index('    {\n      "id": "e5"')
    edge_end = edited.index('    {\n      "id": "e6"')
    session.change(URI, 3, [replace_span(edited, edge_start, edge_end, "", session.encoding)])
    await session.publishes.wait_for(URI, 3)
    unwired = edited[:edge_start] + edited[edge_end:]
    labels = [label for _, label in await hints(session, URI, unwired)]
    assert labels == ["2 tools", "→ web_search"]


async def test_drupal_yaml(session: Session) -> None:
    text = SITE_YAML.read_text(encoding="utf-8")
    await opened(session, text, YAML_URI, "yaml")
    enc = session.encoding
    assert await hints(session, YAML_URI, text) == [
        (after(text, "'Research Agent'", enc), "3 tools"),
        (after(text, "'Web Search'", enc), "→ web_search"),
        (after(text, "label: web-search", enc), "→ web_search"),
        (after(text, "label: Calculator", enc), "→ calculator"),
    ]
