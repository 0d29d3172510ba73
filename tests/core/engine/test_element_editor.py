"""The element editor (core.domain.element_facts.ElementEditor, implemented by the engine's
elements): spans of values below an element, and edits in the document's own format, which
stay right after edits elsewhere moved the element."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import TextEdit
from flowdrop_lsp.core.fixes import apply_edits
from tests.support.builders import CORPUS_CONFIG, at

WEATHER = Path(CORPUS_CONFIG) / "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml"


def _node(document: WorkflowDocument, node_id: str):
    document.findings()
    return document.graph.nodes_by_id[node_id]


def _edge(document: WorkflowDocument, edge_id: str):
    document.findings()
    [edge] = document.graph.edges_by_id[edge_id]
    return edge


def test_yaml_member_edits_keep_drupal_style_after_an_edit_above() -> None:
    original = WEATHER.read_text(encoding="utf-8")
    document = WorkflowDocument(original, syntax="yaml")
    document.findings()
    # An edit far above the node: the element's spans move with it.
    at_label = original.index("label:") + len("label: ")
    document.apply_edit(at_label, at_label, "🌦 天気 ")
    text = document.text
    node = _node(document, "http_request.1")
    located = node.editor.locate(("data", "config", "follow_redirects"))
    assert located is not None and at(text, located.key.resolve()) == "follow_redirects"
    removal = node.editor.member_removal(("data", "config"), "follow_redirects")
    assert removal is not None
    span, written = removal
    removed = yaml.safe_load(apply_edits(text, [TextEdit(span.resolve(), written)]))
    expected = yaml.safe_load(text)
    config = next(n for n in expected["nodes"] if n["id"] == "http_request.1")["data"]["config"]
    del config["follow_redirects"]
    assert removed == expected
    insertion = node.editor.member_insertion(("data", "config"), "retries", 3)
    assert insertion is not None
    span, new_text = insertion
    added = yaml.safe_load(apply_edits(text, [TextEdit(span.resolve(), new_text)]))
    config = next(n for n in added["nodes"] if n["id"] == "http_request.1")["data"]["config"]
    assert config["retries"] == 3 and "retries: 3\n" in new_text


def test_an_edge_is_removed_with_one_separator_in_yaml_and_json() -> None:
    original = WEATHER.read_text(encoding="utf-8")
    data = yaml.safe_load(original)
    for syntax, text in (("yaml", original), ("json", json.dumps(data, indent=2))):
        document = WorkflowDocument(text, syntax=syntax)
        edges = data["edges"]
        for position in (0, 3, len(edges) - 1):
            edge = _edge(document, edges[position]["id"])
            assert edge.editor.position() == position
            removal = edge.editor.item_removal()
            assert removal is not None
            left = apply_edits(text, [TextEdit(removal.resolve(), "")])
            loaded = yaml.safe_load(left) if syntax == "yaml" else json.loads(left)
            assert loaded["edges"] == edges[:position] + edges[position + 1 :]
