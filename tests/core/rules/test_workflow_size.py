"""R5: more than 500 nodes (R5_TOO_MANY_NODES) or 1000 edges (R5_TOO_MANY_EDGES), planted by
appending notes and edges to a copy of the real weather workflow (17 nodes, 17 edges; Drupal YAML
and the same data as JSON): one finding per bound, on the first element past it; exactly at the
bound, nothing; incremental == fresh as elements come and go."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import at, findings, plant, token
from tests.support.launch import corpus_yaml, same_as_fresh

WEATHER = corpus_yaml("aincient_weather")
SYNTAXES = ("yaml", "json")
REAL_NODES = REAL_EDGES = 17


def _extra_node(i: int) -> dict[str, object]:
    return {
        "id": f"extra.{i}",
        "data": {"label": f"Note {i} 📝 注", "metadata": {"node_type_id": "note"}},
    }


def _extra_edge(i: int) -> dict[str, object]:
    return {"id": f"extra-edge.{i}", "source": f"extra.{i}", "target": f"extra.{i + 1}"}


def _grown(syntax: str, nodes: int, edges: int = 0) -> str:
    """The weather workflow with `nodes` notes and `edges` edges between them appended."""
    new_nodes = [_extra_node(i) for i in range(nodes)]
    new_edges = [_extra_edge(i) for i in range(edges)]
    if syntax == "json":
        data = yaml.safe_load(WEATHER)
        data["nodes"] += new_nodes
        data["edges"] += new_edges
        return json.dumps(data, indent=2, ensure_ascii=False)
    # Drupal's own layout: items after the last node and the last edge.
    node_text = "".join(_yaml_item(n) for n in new_nodes)
    edge_text = "".join(_yaml_item(e) for e in new_edges)
    text = plant(WEATHER, "\nedges:\n", "\n" + node_text.rstrip("\n") + "\nedges:\n")
    return (
        plant(text, "\nmetadata:\n", "\n" + edge_text.rstrip("\n") + "\nmetadata:\n")
        if edges
        else text
    )


def _yaml_item(item: dict[str, object]) -> str:
    body = yaml.safe_dump(item, allow_unicode=True, sort_keys=False)
    return "  -\n" + "".join(f"    {line}\n" for line in body.splitlines())


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_too_many_nodes_is_reported_on_the_first_past_the_bound(syntax: str) -> None:
    text = _grown(syntax, 501 - REAL_NODES)
    [finding] = findings(text, "R5", syntax=syntax)
    assert finding.severity.value == "error"
    assert finding.message == (
        "the workflow has 501 nodes, more than the 500 a workflow may have; node 501 is here"
    )
    assert (finding.locator_code, finding.locator) == ("R5_TOO_MANY_NODES", "node.extra.483")
    assert at(text, finding.span) == token(syntax, "extra.483")
    assert finding.span.start == text.index(
        token(syntax, "extra.483") + ("\n" if syntax == "yaml" else "")
    )
    assert findings(_grown(syntax, 500 - REAL_NODES), "R5", syntax=syntax) == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_too_many_edges_is_reported_on_the_first_past_the_bound(syntax: str) -> None:
    nodes = 1001 - REAL_EDGES + 1  # a chain of notes long enough; too many nodes as well
    text = _grown(syntax, nodes, 1001 - REAL_EDGES)
    reported = findings(text, "R5", syntax=syntax)
    assert [f.locator_code for f in reported] == ["R5_TOO_MANY_NODES", "R5_TOO_MANY_EDGES"]
    edges = reported[1]
    assert edges.message == (
        "the workflow has 1,001 edges, more than the 1000 a workflow may have; edge 1001 is here"
    )
    assert edges.locator == "edge.1000"
    # The edge's target: `extra.984` (the 984th appended edge goes from extra.983).
    assert at(text, edges.span) == token(syntax, "extra.984")
    assert len(findings(_grown(syntax, nodes, 1000 - REAL_EDGES), "R5", syntax=syntax)) == 1


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_edits_equal_a_fresh_analysis(syntax: str) -> None:
    text = _grown(syntax, 500 - REAL_NODES)
    document = WorkflowDocument(text, syntax=syntax)
    assert [row for row in same_as_fresh(document, syntax) if row[0] == "R5"] == []
    # One more node, inserted before the first: every node moves one place on.
    first = document.text.index(
        "\n  -\n    id: chat_input.1" if syntax == "yaml" else '    {\n      "id": "chat_input.1"'
    )
    item = (
        "\n  -\n    id: early\n    data:\n      label: 'Early 🌅 早'\n      metadata:\n        node_type_id: note"
        if syntax == "yaml"
        else '    {"id": "early", "data": {"label": "Early 🌅 早", "metadata": {"node_type_id": "note"}}},\n'
    )
    document.apply_edit(first, first, item)
    [row] = [row for row in same_as_fresh(document, syntax) if row[0] == "R5"]
    assert row[-2:] == ("R5_TOO_MANY_NODES", "node.extra.482")
    assert document.text[row[3] : row[4]] == token(syntax, "extra.482")
    start = document.text.index(item)
    document.apply_edit(start, start + len(item), "")
    assert [row for row in same_as_fresh(document, syntax) if row[0] == "R5"] == []
