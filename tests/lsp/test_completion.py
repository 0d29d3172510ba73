"""Completion over LSP: node ids in an edge's source/target, edge types, node type ids (the
site registry's when there is one), in JSON and Drupal YAML, in the negotiated encoding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from lsprotocol import types

from tests.support.lsp import Session, apply_edits, doc_position, open_workflow
from tests.support.samples import AGENT, SEARCH


async def complete(session: Session, uri: str, text: str, offset: int) -> types.CompletionList:
    found = await session.client.text_document_completion_async(
        types.CompletionParams(**doc_position(uri, text, offset, session.encoding))
    )
    assert isinstance(found, types.CompletionList)
    return found


def chosen(text: str, item: types.CompletionItem, encoding: str) -> str:
    assert isinstance(item.text_edit, types.TextEdit)
    return apply_edits(text, [item.text_edit], encoding)


@pytest.mark.parametrize("syntax", ["json", "yaml"])
async def test_node_ids_in_an_edge_target(session: Session, syntax: str) -> None:
    uri, text = await open_workflow(session, syntax)
    key = '"target": "' if syntax == "json" else "target: "
    # The cursor after "tool" in the target "toolbox.1" of the second edge.
    offset = text.index(key + "toolbox.1") + len(key) + len("tool")
    found = await complete(session, uri, text, offset)
    labels = [item.label for item in found.items]
    assert labels == ["toolbox.1"]  # filtered by what is typed
    offset = text.index(key + AGENT) + len(key)
    found = await complete(session, uri, text, offset)
    items = {item.label: item for item in found.items}
    assert set(items) == {"chat_input.1", AGENT, "toolbox.1", SEARCH, "calc.1"}
    assert items[SEARCH].detail == "Web Search 🔎 · http_request"
    replaced = chosen(text, items[SEARCH], session.encoding)
    loaded = json.loads(replaced) if syntax == "json" else yaml.safe_load(replaced)
    assert loaded["edges"][0]["target"] == SEARCH


async def test_edge_types_and_a_value_not_yet_quoted(session: Session) -> None:
    uri = "file:///workspace/typing.flowdrop.json"
    text = '{"nodes": [{"id": "a"}], "edges": [{"source": "a", "target": , "data": {"edgeType": "to"}}]}'
    session.open(uri, text)
    await session.publishes.wait_for(uri, 1)
    found = await complete(session, uri, text, text.index('"target": ') + len('"target": '))
    (item,) = found.items
    assert chosen(text, item, session.encoding).count('"target": "a"') == 1
    found = await complete(
        session, uri, text, text.index('"edgeType": "to') + len('"edgeType": "to')
    )
    assert [i.label for i in found.items] == ["tool_availability"]


async def test_node_types_come_from_the_site_registry(session: Session, tmp_path: Path) -> None:
    from tests.support.builders import CORPUS_CONFIG

    site = tmp_path / "config" / "sync"
    site.mkdir(parents=True)
    for definition in Path(CORPUS_CONFIG).glob("flowdrop_node_type.flowdrop_node_type.*.yml"):
        (site / definition.name).write_text(definition.read_text(encoding="utf-8"))
    uri = (site / "flowdrop_workflow.flowdrop_workflow.t.yml").as_uri()
    text = "nodes:\n  - id: a.1\n    data:\n      metadata:\n        node_type_id: flowdrop_node_processor_tool\nedges: []\n"
    session.open(uri, text, language_id="yaml")
    await session.publishes.wait_for(uri, 1)
    found = await complete(session, uri, text, text.index("_tool\n") + len("_tool"))
    labels = {i.label for i in found.items}
    assert "flowdrop_node_processor_toolbox" in labels
    assert all("flowdrop_node_processor_tool" in label for label in labels)
