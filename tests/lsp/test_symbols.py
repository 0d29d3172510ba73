"""Document symbols (nodes by role with their labels, then edges) and workspace symbols across
open documents, over LSP, in JSON and Drupal YAML."""

from __future__ import annotations

import pytest
from lsprotocol import types

from tests.support.lsp import JSON_URI, YAML_URI, Session, open_workflow, span_of
from tests.support.samples import AGENT, SEARCH, json_text


@pytest.mark.parametrize("syntax", ["json", "yaml"])
async def test_document_symbols_group_nodes_by_role(session: Session, syntax: str) -> None:
    uri, text = await open_workflow(session, syntax)
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert symbols is not None
    # Both editors announce hierarchical symbols.
    groups = {s.name: s for s in symbols if isinstance(s, types.DocumentSymbol)}
    assert list(groups) == ["Consumers", "Toolboxes", "Tools", "Other nodes", "Edges"]
    names = {g: [c.name for c in s.children or ()] for g, s in groups.items()}
    assert names["Consumers"] == ["研究エージェント"]
    assert names["Toolboxes"] == ["Tool Box"]
    assert names["Tools"] == ["Web Search 🔎", "web-search"]
    assert names["Other nodes"] == ["Chat 💬"]
    assert names["Edges"][0] == f"chat_input.1 → {AGENT}"
    consumer = (groups["Consumers"].children or [])[0]
    assert consumer.detail == f"{AGENT} · flowdrop_node_processor_reason"
    start, end = span_of(text, consumer.range, session.encoding)
    assert AGENT in text[start:end] and "研究エージェント" in text[start:end]
    for group in groups.values():
        for child in group.children or ():
            inner = span_of(text, child.selection_range, session.encoding)
            outer = span_of(text, child.range, session.encoding)
            assert outer[0] <= inner[0] <= inner[1] <= outer[1]


async def test_workspace_symbols_across_open_documents(session: Session) -> None:
    await open_workflow(session, "json")
    await open_workflow(session, "yaml")
    other = "file:///workspace/second.flowdrop.json"
    session.open(other, json_text().replace("Web Search 🔎", "Web Scraper"))
    await session.publishes.wait_for(other, 1)
    found = await session.client.workspace_symbol_async(
        types.WorkspaceSymbolParams(query="wsrch🔎")
    )
    assert found is not None
    where = sorted((s.name, s.location.uri) for s in found)  # type: ignore[union-attr]
    assert where == sorted([("Web Search 🔎", JSON_URI), ("Web Search 🔎", YAML_URI)])
    by_id = await session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="検索"))
    assert by_id is not None and {s.container_name.split(" · ")[0] for s in by_id} == {SEARCH}
    everything = await session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))
    assert everything is not None and len(everything) == 15


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_the_position_sweep_agrees_with_one_by_one_conversion(encoding: str) -> None:
    from flowdrop_lsp.core.text.positions import EditableText, Span
    from flowdrop_lsp.lsp.convert import RangeSweep, to_range

    text = 'a🤖b\r\n数据 "x"\n\n🎉🎉 end\rlast 🤖'
    lines = EditableText(text)
    lines.replace(3, 3, "检索")  # an edit: line starts now shifted lazily
    spans = [Span(start, end) for start in range(len(lines)) for end in (start, len(lines))]
    offsets = [o for s in spans for o in (s.start, s.end)]
    at = RangeSweep(lines, offsets, encoding)  # type: ignore[arg-type]
    for span in spans:
        assert at.range(span) == to_range(lines, span, encoding)  # type: ignore[arg-type]
