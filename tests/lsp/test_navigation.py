"""Definition, references and document highlight of node ids over LSP, under VS Code's and
Neovim's capabilities (UTF-16 and UTF-8 positions), in JSON and Drupal YAML, with emoji and CJK
ids; after an incremental edit the answers follow the new text."""

from __future__ import annotations

import pytest
from lsprotocol import types

from tests.support.lsp import (
    Session,
    doc_position,
    open_workflow,
    replace_span,
    span_of,
)
from tests.support.samples import AGENT, SEARCH


def texts_of(text: str, ranges: list[types.Range], encoding: str) -> list[str]:
    return [text[slice(*span_of(text, r, encoding))] for r in ranges]


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
        assert found[0].uri == uri
        assert span_of(text, found[0].range, enc) == (declaration, declaration + len(AGENT))
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
