"""`scoped_findings`: a launch check's findings kept per node and edge. After an edit, only the
node or edge the edit reached and its neighbours are checked again — never the document — and
the findings equal a from-scratch analysis's."""

from __future__ import annotations

import json
from collections import Counter

from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import RuleContext, scoped_findings

COUNT = 300


def _document_text() -> str:
    nodes = [
        {"id": f"n{i}", "type": "http_request", "data": {"label": f"Step {i} 🚀 步骤"}}
        for i in range(COUNT)
    ]
    edges = [{"id": f"e{i}", "source": f"n{i}", "target": f"n{i + 1}"} for i in range(COUNT - 1)]
    return json.dumps({"nodes": nodes, "edges": edges}, ensure_ascii=False, indent=2)


class _Counting:
    """A check that counts what it is asked about and reports labels holding '!'."""

    def __init__(self) -> None:
        self.asked: Counter[str] = Counter()

    def node(self, ctx: RuleContext, node: Node) -> list[Finding]:
        self.asked[f"node {node.id}"] += 1
        if node.label and "!" in node.label:
            return [Finding("T", Severity.WARNING, f"loud {node.id}", node.anchor)]
        return []

    def edge(self, ctx: RuleContext, edge: Edge) -> list[Finding]:
        self.asked[f"edge {edge.id}"] += 1
        return []


def _messages(findings: list[Finding]) -> list[tuple[str, int, int]]:
    return sorted((f.message, f.span.resolve().start, f.span.resolve().end) for f in findings)


def test_a_label_edit_rechecks_that_node_and_its_edges_only() -> None:
    text = _document_text()
    document = WorkflowDocument(text)
    document.findings()
    counting = _Counting()
    first = scoped_findings(
        document.context, "T", node_check=counting.node, edge_check=counting.edge
    )
    assert first == [] and len(counting.asked) == 2 * COUNT - 1  # every node and edge once
    counting.asked.clear()
    at = document.text.index('"Step 150 ') + len('"Step 150')
    document.apply_edit(at, at, "!")
    document.findings()
    found = scoped_findings(
        document.context, "T", node_check=counting.node, edge_check=counting.edge
    )
    assert set(counting.asked) == {"node n150", "edge e149", "edge e150"}
    fresh = WorkflowDocument(document.text)
    fresh.findings()
    again = scoped_findings(fresh.context, "T", node_check=_Counting().node)
    assert _messages(found) == _messages(again) == [("loud n150", *_label_span(document.text))]


def _label_span(text: str) -> tuple[int, int]:
    start = text.index('"Step 150!')
    return start, text.index('"', start + 1) + 1


def test_a_removed_node_takes_its_findings_with_it() -> None:
    text = _document_text().replace('"Step 7 ', '"Step 7! ')
    document = WorkflowDocument(text)
    document.findings()
    counting = _Counting()
    assert [
        f.message for f in scoped_findings(document.context, "T", node_check=counting.node)
    ] == ["loud n7"]
    start = document.text.index('{\n      "id": "n7"')
    end = document.text.index('{\n      "id": "n8"')
    document.apply_edit(start, end, "")
    document.findings()
    assert scoped_findings(document.context, "T", node_check=counting.node) == []
