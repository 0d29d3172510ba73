"""The engine re-reads only what an edit touches and recomputes only the consumers it reaches."""

from __future__ import annotations

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument

DOC = """{
  "nodes": [
    {"id": "a1", "type": "agent", "data": {"label": "Agent One"}},
    {"id": "a2", "type": "agent", "data": {"label": "Agent Two"}},
    {"id": "a3", "type": "agent", "data": {"label": "Agent Three"}},
    {"id": "b1", "type": "toolbox", "data": {"label": "Box One"}},
    {"id": "b2", "type": "toolbox", "data": {"label": "Box Two"}},
    {"id": "t1", "type": "http_request", "data": {"label": "Search"}},
    {"id": "t2", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "t3", "type": "http_request", "data": {"label": "search"}},
    {"id": "t4", "type": "calculator", "data": {"label": "Calc"}}
  ],
  "edges": [
    {"source": "t1", "target": "b1", "data": {"edgeType": "tool_availability"}},
    {"source": "t2", "target": "b1", "data": {"edgeType": "tool_availability"}},
    {"source": "b1", "target": "a1", "data": {"edgeType": "tool_availability"}},
    {"source": "t3", "target": "b2", "data": {"edgeType": "tool_availability"}},
    {"source": "b2", "target": "a2", "data": {"edgeType": "tool_availability"}},
    {"source": "t4", "target": "a3", "data": {"edgeType": "tool_availability"}}
  ]
}
"""


def edit(document: WorkflowDocument, text: str, old: str, new: str) -> str:
    start = text.index(old)
    document.apply_edit(start, start + len(old), new)
    return text[:start] + new + text[start + len(old) :]


def cmp9(document: WorkflowDocument) -> list[str]:
    return [f.node for f in document.findings() if f.code == "CMP-9"]  # type: ignore[misc]


def test_a_label_edit_rereads_one_element_and_recomputes_only_the_consumers_it_reaches() -> None:
    document = WorkflowDocument(DOC)
    assert document.stats.full_reread
    assert sorted(document.stats.consumers_recomputed) == ["a1", "a2", "a3"]
    text = edit(document, DOC, '"Fetch"', '"Fetch Page"')
    assert not document.stats.full_reread
    assert document.stats.elements_reread == 1
    assert document.stats.consumers_recomputed == ["a1"]
    edit(document, text, '"Calc"', '"Calculate"')
    assert document.stats.consumers_recomputed == ["a3"]


def test_adding_an_edge_into_a_toolbox_recomputes_only_its_downstream_consumers() -> None:
    document = WorkflowDocument(DOC)
    new_edge = '{"source": "t3", "target": "b1", "data": {"edgeType": "tool_availability"}},\n    '
    at = DOC.index('{"source": "t1"')
    document.apply_edit(at, at, new_edge)
    text = DOC[:at] + new_edge + DOC[at:]
    assert not document.stats.full_reread
    assert document.stats.elements_reread == 1
    assert document.stats.consumers_recomputed == ["a1"]  # not a2, which t3 also reaches
    assert sorted(cmp9(document)) == ["t1", "t3"]
    assert [f.code for f in document.findings()] == [
        f.code for f in WorkflowDocument(text).findings()
    ]


def test_deleting_a_node_with_its_edges_is_incremental() -> None:
    document = WorkflowDocument(DOC)
    text = edit(
        document, DOC, '    {"id": "t2", "type": "http_request", "data": {"label": "Fetch"}},\n', ""
    )
    assert not document.stats.full_reread
    assert document.stats.consumers_recomputed == ["a1"]
    text = edit(
        document,
        text,
        '    {"source": "t2", "target": "b1", "data": {"edgeType": "tool_availability"}},\n',
        "",
    )
    assert not document.stats.full_reread
    assert document.stats.consumers_recomputed == ["a1"]
    assert document.findings() == WorkflowDocument(text).findings()


def test_a_broken_element_stays_local_and_so_does_its_repair() -> None:
    document = WorkflowDocument(DOC)
    text = edit(document, DOC, '"Fetch"', '"Fetch')  # unterminated string: inside one node
    assert not document.stats.full_reread
    assert document.stats.elements_reread == 1
    assert any(f.code == "FD-SYNTAX" for f in document.findings())
    text = edit(document, text, '"Fetch', '"Fetch"')
    assert not document.stats.full_reread
    assert document.findings() == WorkflowDocument(text).findings()


def test_a_broken_structure_falls_back_and_the_next_whole_text_is_incremental_again() -> None:
    document = WorkflowDocument(DOC)
    text = edit(document, DOC, '"Fetch"', '"Fetch"]')  # closes `nodes` early: structure broken
    assert document.stats.full_reread
    assert any(f.code == "FD-SYNTAX" for f in document.findings())
    text = edit(document, text, '"Fetch"]', '"Fetch"')
    assert document.stats.full_reread  # the repair itself re-reads the whole text
    edit(document, text, '"Calc"', '"Calcs"')
    assert not document.stats.full_reread
    assert document.stats.consumers_recomputed == ["a3"]


def test_full_recompute_mode_rereads_everything() -> None:
    document = WorkflowDocument(DOC, Settings(full_recompute=True))
    edit(document, DOC, '"Fetch"', '"Fetch Page"')
    assert document.stats.full_reread
    assert sorted(document.stats.consumers_recomputed) == ["a1", "a2", "a3"]
