"""Hover over LSP, under VS Code's and Neovim's capabilities: on a tool's label, a consumer, a
toolbox and a gateway branch value; ranges in the negotiated encoding with emoji and CJK
labels; JSON and Drupal YAML; right after edits; markdown or plaintext as the client asks."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import AsyncIterator, Iterator

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.ide.service import WorkflowService
from flowdrop_lsp.core.workspace.node_types import NodeTypeLocator
from flowdrop_lsp.core.workspace.resolver import SettingsResolver
from tests.support.builders import node, tool_edge, workflow
from tests.support.insight import (
    EXAMPLE,
    URI,
    WIDE_AGENT,
    WIDE_TOOL,
    YAML_URI,
    opened,
    position,
    token_range,
    wide_example,
)
from tests.support.lsp import REPO, Session, replace_span, server_command
from tests.support.samples import SITE_YAML


async def hover_at(session: Session, uri: str, pos: types.Position) -> types.Hover | None:
    return await session.client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos)
    )


def value_of(hover: types.Hover | None) -> str:
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    return hover.contents.value


async def test_hover_on_a_tool_label_after_emoji_and_cjk(session: Session) -> None:
    text = await opened(session, wide_example())
    # The cursor after the emoji and inside the CJK text: the column depends on the encoding.
    cursor = text.index(WIDE_TOOL) + WIDE_TOOL.index("数") + 1
    hover = await hover_at(session, URI, position(text, cursor, session.encoding))
    assert hover is not None and hover.range == token_range(text, WIDE_TOOL, session.encoding)
    assert isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.Markdown
    value = hover.contents.value.replace("\n  ", " ")  # a wrapped line joined, as Markdown does
    assert value.startswith("**Tool** `web_search`")
    assert "Offered to 1 consumer" in value
    assert '"研究 Agent 🧪" (`reason.1`), through "Web Tools" → "Research Tools"' in value
    assert '⚠ collides with "web-search" (`http_request.2`)' in value


async def test_hover_on_a_consumer_lists_its_flattened_tools(session: Session) -> None:
    text = await opened(session, wide_example())
    cursor = text.index(WIDE_AGENT) + WIDE_AGENT.index("🧪") + 1  # just after the emoji
    hover = await hover_at(session, URI, position(text, cursor, session.encoding))
    assert hover is not None and hover.range == token_range(text, WIDE_AGENT, session.encoding)
    lines = value_of(hover).splitlines()
    assert (
        lines[0] == '**Consumer** "研究 Agent 🧪" (`reason.1`) is offered 3 tools · ⚠ 1 collision'
    )
    # A list, not a table: a narrow window (Neovim's float) shows it without 200-column rows.
    assert lines[2:] == [
        '- `calculator` — "Calculator" (`calculator.1`), through "Research Tools"',
        '- `web_search` ⚠ — "Web Search 🤖 数据" (`http_request.1`), through "Web Tools" → "Research Tools"',
        '- `web_search` ⚠ — "web-search" (`http_request.2`), through "Research Tools"',
    ]


async def test_hover_on_a_toolbox_says_what_it_forwards_to_whom(session: Session) -> None:
    text = await opened(session, wide_example())
    rng = token_range(text, '"Web Tools"', session.encoding)
    value = value_of(await hover_at(session, URI, rng.start))
    assert value.splitlines()[0] == (
        '**Toolbox** "Web Tools" (`toolbox.2`) forwards 1 tool to "研究 Agent 🧪" (`reason.1`)'
    )
    assert '- `web_search` — "Web Search 🤖 数据" (`http_request.1`), wired directly' in value


async def test_hover_on_an_id_and_nothing_elsewhere(session: Session) -> None:
    text = await opened(session, wide_example())
    ident = token_range(text, '"calculator.1"', session.encoding)  # the node's own id
    assert value_of(await hover_at(session, URI, ident.end)).startswith("**Tool** `calculator`")
    for token in ('"position"', '"edges"', '"chat_input.1"'):  # a chat input plays no tool role
        at = token_range(text, token, session.encoding).start
        assert await hover_at(session, URI, at) is None
    assert await hover_at(session, "file:///workspace/not-open.flowdrop.json", at) is None


async def test_hover_follows_edits(session: Session) -> None:
    text = await opened(session, wide_example())
    start = text.index('"web-search"') + 1
    session.change(URI, 2, [replace_span(text, start, start + 10, "Calculator", session.encoding)])
    await session.publishes.wait_for(URI, 2)
    edited = text[:start] + "Calculator" + text[start + 10 :]
    tool = token_range(edited, WIDE_TOOL, session.encoding)
    assert "collides" not in value_of(await hover_at(session, URI, tool.start))
    calculator = token_range(edited, '"Calculator"', session.encoding, 1)
    value = value_of(await hover_at(session, URI, calculator.start)).replace("\n  ", " ")
    assert '⚠ collides with "Calculator" (`http_request.2`)' in value


async def test_hover_in_drupal_yaml_on_tools_and_branch_values(session: Session) -> None:
    text = SITE_YAML.read_text(encoding="utf-8")
    await opened(session, text, YAML_URI, "yaml")
    tool = token_range(text, "web-search", session.encoding, 1)  # `label: web-search`, plain
    hover = await hover_at(session, YAML_URI, tool.start)
    assert hover is not None and hover.range == tool
    # Wrapped before the label (Markdown joins the lines again), never inside it or its id.
    assert '⚠ collides with\n  "Web Search" (`http_request.1`)' in value_of(hover)
    live = token_range(text, "value: web_search", session.encoding)
    hover = await hover_at(session, YAML_URI, live.end)
    assert value_of(hover) == (
        '**Branch** "Search the web" routes on `web_search`, selecting:\n\n'
        '- "Web Search" (`http_request.1`) at "Research Agent" (`aincient_reason.1`)\n'
        '- "web-search" (`http_request.2`) at "Research Agent" (`aincient_reason.1`)'
    )
    dead = token_range(text, "value: maps_lookup", session.encoding)
    assert value_of(await hover_at(session, YAML_URI, dead.end)).replace("\n  ", " ") == (
        '**Branch** "Look up a map" routes on `maps_lookup`: "Research Agent" '
        "(`aincient_reason.1`) has no tool of that name, so it never fires."
    )
    default = token_range(text, "value: default", session.encoding)
    assert "default branch" in value_of(await hover_at(session, YAML_URI, default.end))


async def test_unrelated_json_gets_no_hover(session: Session) -> None:
    uri = "file:///workspace/package.json"
    session.open(uri, '{"name": "x", "nodes": 1}')
    assert await hover_at(session, uri, types.Position(0, 3)) is None


# ----- a client that renders plaintext only ----------------------------------------------------
PLAINTEXT_ONLY = types.ClientCapabilities(
    text_document=types.TextDocumentClientCapabilities(
        hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.PlainText])
    )
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command()))
async def plain_client(lsp_client: LanguageClient) -> AsyncIterator[LanguageClient]:
    await lsp_client.initialize_session(types.InitializeParams(capabilities=PLAINTEXT_ONLY))
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_plaintext_when_the_client_renders_no_markdown(plain_client: LanguageClient) -> None:
    lsp_client = plain_client
    text = wide_example()
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="json", version=1, text=text)
        )
    )
    hover = await lsp_client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=position(text, text.index(WIDE_AGENT) + 1, "utf-16"),
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.PlainText
    assert hover.contents.value.splitlines() == [
        'Consumer "研究 Agent 🧪" (reason.1) is offered 3 tools · ⚠ 1 collision',
        "",
        '- calculator — "Calculator" (calculator.1), through "Research Tools"',
        '- web_search ⚠ — "Web Search 🤖 数据" (http_request.1), through "Web Tools" → "Research Tools"',
        '- web_search ⚠ — "web-search" (http_request.2), through "Research Tools"',
    ]


async def test_labels_never_turn_into_markup(session: Session) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace('"Calculator"', '"Sum | *all* <b>"')
    await opened(session, text)
    agent = token_range(text, '"Research Agent"', session.encoding)
    rows = value_of(await hover_at(session, URI, agent.start)).splitlines()
    assert (
        '- `sum_all_b` — "Sum \\| \\*all\\* \\<b\\>" (`calculator.1`), through "Research Tools"'
        in rows
    )


# ----- readable in a narrow window (Neovim's hover float) ----------------------------------

HOVER_WIDTH = 100  # columns (a CJK character or an emoji takes two)
CORPUS = REPO / "tests" / "corpus" / "atelier-cms" / "config" / "sync"


def _columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def _hovers_on_every_node(text: str, settings: Settings, syntax: str) -> Iterator[str]:
    service = WorkflowService(text, settings, syntax=syntax)
    for symbol in service.matching_nodes("", 100_000):
        if symbol.node_id is None:
            continue
        at = service.definitions(symbol.node_id)[0].start + 1  # on the node's id
        for markdown in (True, False):
            hover = service.hover(at, markdown=markdown)
            if hover is not None:
                yield hover.text


def test_hover_lines_on_the_real_site_fit_a_narrow_window() -> None:
    resolver = SettingsResolver(node_types=NodeTypeLocator(base=CORPUS), fallback_base=CORPUS)
    widest = 0
    for path in sorted(CORPUS.glob("flowdrop_workflow.flowdrop_workflow.*.yml")):
        text = path.read_text(encoding="utf-8")
        for value in _hovers_on_every_node(text, resolver.for_workflow(path), "yaml"):
            for line in value.splitlines():
                widest = max(widest, _columns(line))
                assert _columns(line) <= HOVER_WIDTH, (path.name, line)
    assert widest > HOVER_WIDTH * 3 // 4  # the site's ids and labels do fill lines


def test_a_long_id_stays_whole_on_a_line_of_its_own() -> None:
    long_id = "flowdrop_workflow_executor_" + "brand_🤖_ツール_" * 8 + "specialist.1"
    text = workflow(
        [
            node(long_id, label="Run workflow: Brand colour & contrast specialist"),
            node("x", "agent"),
        ],
        [tool_edge(long_id, "x")],
    )
    values = list(_hovers_on_every_node(text, Settings(), "json"))
    assert values
    for value in values:
        assert long_id in value  # never cut, never broken
        for line in value.splitlines():
            if _columns(line) > HOVER_WIDTH:  # only an unbreakable id: no space outside it
                assert " " not in re.sub(r"`[^`]*`", "", line.strip()), line
                assert long_id in line


def test_a_long_tool_name_is_cut_like_a_label() -> None:
    # A tool name comes from the label: cut like it (only node ids stay whole).
    label = "Search " * 44 + "web"  # 311 characters
    assert len(label) == 311
    text = workflow(
        [node("t", label=label), node("box", "toolbox", "Kit"), node("x", "agent")],
        [tool_edge("t", "box"), tool_edge("box", "x")],
    )
    values = list(_hovers_on_every_node(text, Settings(), "json"))
    assert values
    for value in values:
        for line in value.splitlines():
            assert _columns(line) <= HOVER_WIDTH, line


# ----- never failing, whatever the text and wherever the mouse ------------------------------


def _every_answer(document: WorkflowService) -> int:
    """Ask about every offset of the document, as a mouse sweeping over it would, in Markdown
    and in plain text; returns how many offsets had something to say."""
    answered = 0
    for offset in range(len(document.text) + 1):
        markdown = document.hover(offset, markdown=True)
        plain = document.hover(offset, markdown=False)
        assert (markdown is None) == (plain is None)
        answered += markdown is not None
    return answered


def test_every_offset_of_every_fixture_and_of_broken_texts_is_answered_without_failing() -> None:
    fixtures = sorted((REPO / "tests" / "fixtures").glob("*.json"))
    fixtures += sorted((REPO / "tests" / "fixtures" / "spec").glob("*.json"))
    assert len(fixtures) >= 10
    for path in fixtures:
        text = path.read_text(encoding="utf-8")
        assert _every_answer(WorkflowService(text)) > 0, path.name  # tools or agents in each
        for cut in (len(text) // 3, len(text) // 2):  # half-typed: a syntax error mid-way
            _every_answer(WorkflowService(text[:cut]))
    yaml_text = SITE_YAML.read_text(encoding="utf-8")
    assert _every_answer(WorkflowService(yaml_text, syntax="yaml")) > 0
    _every_answer(WorkflowService(yaml_text[: len(yaml_text) // 2] + "\n  - {", syntax="yaml"))
