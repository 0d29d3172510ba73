"""prepareRename and rename of a node id over LSP (VS Code's and Neovim's capabilities, JSON
and Drupal YAML): the id, every endpoint, the handles and edge ids that embed it; the renamed
text re-analysed gives the same diagnostics modulo the id; clear refusals."""

from __future__ import annotations

import json

import pytest
import yaml
from lsprotocol import types

from tests.support.lsp import (
    Session,
    apply_edits,
    doc_position,
    full_change,
    open_workflow,
    span_of,
)
from tests.support.samples import AGENT, SEARCH, navigation_workflow


def edits_of(edit: types.WorkspaceEdit | None, uri: str, version: int) -> list[types.TextEdit]:
    assert edit is not None
    if edit.document_changes:
        (change,) = edit.document_changes
        assert isinstance(change, types.TextDocumentEdit)
        assert change.text_document.uri == uri and change.text_document.version == version
        return list(change.edits)  # type: ignore[arg-type]
    assert edit.changes is not None
    return list(edit.changes[uri])


def shown(diagnostics: list[types.Diagnostic]) -> list[tuple[str, str]]:
    return sorted((str(d.code), d.message) for d in diagnostics)


@pytest.mark.parametrize("syntax", ["json", "yaml"])
@pytest.mark.parametrize("new_id", ["agent.🎉2", "エージェント: 2"])
async def test_rename_from_a_handle_renames_everywhere(
    session: Session, syntax: str, new_id: str
) -> None:
    uri, text = await open_workflow(session, syntax)
    before = await session.publishes.wait_for(uri, 1)
    enc = session.encoding
    at = doc_position(uri, text, text.index(f"{AGENT}-input-tool") + len("agent.🤖"), enc)
    prepared = await session.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(**at)
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder)
    assert prepared.placeholder == AGENT
    start, end = span_of(text, prepared.range, enc)
    assert text[start:end] == AGENT
    edit = await session.client.text_document_rename_async(
        types.RenameParams(**at, new_name=new_id)
    )
    renamed = apply_edits(text, edits_of(edit, uri, 1), enc)
    loaded = json.loads(renamed) if syntax == "json" else yaml.safe_load(renamed)
    expected = json.dumps(navigation_workflow(), ensure_ascii=False).replace(AGENT, new_id)
    assert loaded == json.loads(expected)
    session.change(uri, 2, full_change(renamed))
    after = await session.publishes.wait_for(uri, 2)
    assert shown(after) == [(c, m.replace(AGENT, new_id)) for c, m in shown(before)]


@pytest.mark.parametrize("syntax", ["json", "yaml"])
async def test_rename_to_an_existing_id_is_refused_with_a_message(
    session: Session, syntax: str
) -> None:
    uri, text = await open_workflow(session, syntax)
    at = doc_position(uri, text, text.index(SEARCH) + 1, session.encoding)
    with pytest.raises(Exception, match='node with id "toolbox.1" already exists'):
        await session.client.text_document_rename_async(
            types.RenameParams(**at, new_name="toolbox.1")
        )


async def test_prepare_rename_refuses_a_position_that_is_not_an_id(session: Session) -> None:
    uri, text = await open_workflow(session, "json")
    for offset in (text.index("Web Search 🔎") + 2, text.index("-output-tool") + 3):
        at = doc_position(uri, text, offset, session.encoding)
        with pytest.raises(Exception, match="Only a node id can be renamed"):
            await session.client.text_document_prepare_rename_async(types.PrepareRenameParams(**at))


@pytest.mark.parametrize("old", ["x", "y", "g", "-", "_", "e", "edge", "🤖", "代理"])
async def test_rename_from_an_edge_id_keeps_its_prefix_and_the_other_nodes_parts(
    session: Session, old: str
) -> None:
    def workflow(node_id: str) -> dict:
        return {
            "nodes": [
                {"id": node_id, "data": {"metadata": {"node_type_id": "http_request"}}},
                {"id": "agent", "data": {"metadata": {"node_type_id": "ai_agent"}}},
            ],
            "edges": [
                {
                    "id": f"xy-edge__{node_id}{node_id}-output-tool-agentagent-input-tool",
                    "source": node_id,
                    "target": "agent",
                    "sourceHandle": f"{node_id}-output-tool",
                    "targetHandle": "agent-input-tool",
                }
            ],
        }

    uri = "file:///workspace/edge-ids.flowdrop.json"
    text = json.dumps(workflow(old), indent=2, ensure_ascii=False)
    session.open(uri, text)
    await session.publishes.wait_for(uri, 1)
    enc = session.encoding
    edge_id = text.index("xy-edge__") + len("xy-edge__")  # the source's place in the edge id
    at = doc_position(uri, text, edge_id, enc)
    prepared = await session.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(**at)
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder) and prepared.placeholder == old
    definition = await session.client.text_document_definition_async(types.DefinitionParams(**at))
    assert definition  # from the edge id to the node's declaration
    (location,) = definition if isinstance(definition, list) else [definition]
    start, end = span_of(text, location.range, enc)  # type: ignore[union-attr]
    assert text[start:end] == old and start < text.index('"edges"')
    edit = await session.client.text_document_rename_async(types.RenameParams(**at, new_name="web"))
    renamed = apply_edits(text, edits_of(edit, uri, 1), enc)
    assert json.loads(renamed) == workflow("web")
