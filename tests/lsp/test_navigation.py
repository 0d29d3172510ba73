"""Definition, references and document highlight of node ids over LSP, under VS Code's and
Neovim's capabilities (UTF-16 and UTF-8 positions), in JSON and Drupal YAML, with emoji and CJK
ids; after an incremental edit the answers follow the new text."""

from __future__ import annotations

import pytest
from lsprotocol import types

from flowdrop_lsp.core.text.positions import LineIndex
from tests.core.test_navigation import AGENT, SEARCH, json_text, yaml_text
from tests.lsp.conftest import Session
from tests.lsp.test_server import replace_span

JSON_URI = "file:///workspace/nav.flowdrop.json"
YAML_URI = "file:///site/config/sync/flowdrop_workflow.flowdrop_workflow.nav.yml"
FORMATS = {"json": (JSON_URI, "json", json_text), "yaml": (YAML_URI, "yaml", yaml_text)}


def position(text: str, offset: int, encoding: str) -> types.Position:
    line, character = LineIndex(text).position(offset, encoding)  # type: ignore[arg-type]
    return types.Position(line=line, character=character)


def span_of(text: str, rng: types.Range, encoding: str) -> tuple[int, int]:
    lines = LineIndex(text)
    return (
        lines.offset(rng.start.line, rng.start.character, encoding),  # type: ignore[arg-type]
        lines.offset(rng.end.line, rng.end.character, encoding),  # type: ignore[arg-type]
    )


def texts_of(text: str, ranges: list[types.Range], encoding: str) -> list[str]:
    return [text[slice(*span_of(text, r, encoding))] for r in ranges]


async def open_workflow(session: Session, syntax: str) -> tuple[str, str]:
    uri, language_id, make = FORMATS[syntax]
    text = make()
    session.open(uri, text, language_id=language_id)
    await session.publishes.wait_for(uri, 1)
    return uri, text


def doc_position(uri: str, text: str, offset: int, encoding: str) -> dict:
    return {
        "text_document": types.TextDocumentIdentifier(uri=uri),
        "position": position(text, offset, encoding),
    }


@pytest.mark.parametrize("syntax", ["json", "yaml"])
async def test_definition_from_an_endpoint_and_from_a_handle(session: Session, syntax: str) -> None:
    uri, text = await open_workflow(session, syntax)
    enc = session.encoding
    declaration = text.index(AGENT)
    # From the emoji id as an edge's target (cursor after the emoji: UTF-16/UTF-8 columns).
    target = text.index(AGENT, text.index("target"))
    for offset in (target + len("agent.🤖"), text.index(f"{AGENT}-input-tool") + 2):
        found = await session.client.text_document_definition_async(
            types.DefinitionParams(**doc_position(uri, text, offset, enc))
        )
        assert isinstance(found, list) and len(found) == 1
        assert found[0].uri == uri  # type: ignore[union-attr]
        assert span_of(text, found[0].range, enc) == (declaration, declaration + len(AGENT))  # type: ignore[union-attr]
    nothing = await session.client.text_document_definition_async(
        types.DefinitionParams(**doc_position(uri, text, text.index("研究エージェント"), enc))
    )
    assert nothing is None


@pytest.mark.parametrize("syntax", ["json", "yaml"])
async def test_references_and_highlight_of_a_cjk_id(session: Session, syntax: str) -> None:
    uri, text = await open_workflow(session, syntax)
    enc = session.encoding
    at = doc_position(uri, text, text.index(SEARCH) + 1, enc)
    with_declaration = await session.client.text_document_references_async(
        types.ReferenceParams(**at, context=types.ReferenceContext(include_declaration=True))
    )
    assert with_declaration is not None
    # declaration, the edge's source, its source handle
    assert texts_of(text, [loc.range for loc in with_declaration], enc) == [SEARCH] * 3
    without = await session.client.text_document_references_async(
        types.ReferenceParams(**at, context=types.ReferenceContext(include_declaration=False))
    )
    assert without is not None and len(without) == 2
    highlights = await session.client.text_document_document_highlight_async(
        types.DocumentHighlightParams(**at)
    )
    assert highlights is not None
    assert [h.kind for h in highlights] == [
        types.DocumentHighlightKind.Write,
        types.DocumentHighlightKind.Read,
        types.DocumentHighlightKind.Read,
    ]
    assert texts_of(text, [h.range for h in highlights], enc) == [SEARCH] * 3


async def test_answers_follow_an_incremental_edit(session: Session) -> None:
    uri, text = await open_workflow(session, "json")
    enc = session.encoding
    # Insert a line before everything: every answer moves one line down.
    label = text.index("Chat 💬")
    session.change(uri, 2, [replace_span(text, label, label, "🎉 ", enc)])
    await session.publishes.wait_for(uri, 2)
    edited = text[:label] + "🎉 " + text[label:]
    found = await session.client.text_document_references_async(
        types.ReferenceParams(
            **doc_position(uri, edited, edited.index(AGENT) + 1, enc),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert found is not None
    assert texts_of(edited, [loc.range for loc in found], enc) == [AGENT] * 5


async def test_a_document_that_is_not_open_or_not_a_workflow_gets_nothing(session: Session) -> None:
    other = "file:///workspace/package.json"
    session.open(other, '{"name": "x", "nodes": 1}')
    for uri in (other, "file:///workspace/closed.flowdrop.json"):
        found = await session.client.text_document_definition_async(
            types.DefinitionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line=0, character=3),
            )
        )
        assert found is None
