"""CMP-3: a node without a type planted in a copy of the real weather workflow (its
`node_type_id` key misspelt; Drupal YAML, and the same data as JSON), and a workflow without a
node; the workflow's own identifier and a node's id are left to the store and to FD-SCHEMA."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import as_json, at, findings, node, plant, workflow
from tests.support.launch import corpus_yaml, edit_replacing, same_as_fresh

WEATHER = corpus_yaml("aincient_weather")
SYNTAXES = ("yaml", "json")
MESSAGE = (
    'node "HTTP Request" (http_request.1) has no type (no `data.metadata.node_type_id`, `type` '
    "or `data.metadata.id` names one): compilation refuses the workflow"
)


def _weather(syntax: str) -> str:
    return WEATHER if syntax == "yaml" else as_json(WEATHER)


def _type_member(syntax: str, key: str = "node_type_id") -> str:
    return f"{key}: http_request" if syntax == "yaml" else f'"{key}": "http_request"'


def _id_token(text: str, syntax: str) -> tuple[int, str]:
    member = "id: http_request.1\n" if syntax == "yaml" else '"id": "http_request.1"'
    start = text.index(member) + (4 if syntax == "yaml" else 6)
    return start, ("http_request.1" if syntax == "yaml" else '"http_request.1"')


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_node_whose_type_key_is_misspelt_has_no_type(syntax: str) -> None:
    text = plant(_weather(syntax), _type_member(syntax), _type_member(syntax, "node_type"), of=3)
    [finding] = analyze(text, syntax=syntax).findings  # nothing else says anything
    assert (finding.code, finding.severity.value, finding.message) == ("CMP-3", "error", MESSAGE)
    assert (finding.locator_code, finding.locator, finding.node) == (
        None,
        "node.http_request.1",
        "http_request.1",
    )
    start, token = _id_token(text, syntax)
    assert (finding.span.start, at(text, finding.span)) == (start, token)


def test_the_editor_render_type_names_no_type() -> None:
    text = workflow([node("a", "universalNode", "Fetch")], [])
    [finding] = findings(text, "CMP-3")
    assert finding.message.startswith('node "Fetch" (a) has no type')
    named = node("a", "universalNode", data={"metadata": {"id": "http_request"}})
    assert findings(workflow([named], []), "CMP-3") == []


def test_every_node_without_a_type_is_reported() -> None:
    text = workflow([node("a", None), node("b"), node("c", None)], [])
    assert [f.node for f in findings(text, "CMP-3")] == ["a", "c"]


@pytest.mark.parametrize(
    ("syntax", "text", "array"),
    [
        ("json", '{"nodes": [], "edges": []}', "[]"),
        ("json", '{\n  "nodes": [ ],\n  "edges": [{"source": "a", "target": "b"}]\n}', "[ ]"),
        ("yaml", "id: w\nlabel: 'Empty 空'\nnodes: {  }\nedges: {  }\n", "{  }"),
    ],
)
def test_a_workflow_without_a_node_is_reported_on_its_nodes(
    syntax: str, text: str, array: str
) -> None:
    [finding] = findings(text, "CMP-3", syntax=syntax)
    assert finding.message == "the workflow has no node: there is nothing to compile"
    assert (finding.span.start, at(text, finding.span)) == (text.index(array), array)


def test_the_workflow_identifier_and_node_ids_are_not_this_rules() -> None:
    """Shorthand documents carry no `id` (the store's key is the workflow's); a node without an
    id is FD-SCHEMA's."""
    assert findings(workflow([node("a")], []), "CMP-3") == []
    text = json.dumps({"nodes": [{"type": "http_request"}], "edges": []})
    assert [f.code for f in analyze(text).findings] == ["FD-SCHEMA"]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_edits_equal_a_fresh_analysis(syntax: str) -> None:
    document = WorkflowDocument(_weather(syntax), syntax=syntax)
    assert same_as_fresh(document, syntax) == []
    edit_replacing(document, _type_member(syntax), _type_member(syntax, "node_type"))
    [row] = same_as_fresh(document, syntax)
    assert (row[0], row[2], row[-1]) == ("CMP-3", MESSAGE, "node.http_request.1")
    edit_replacing(document, "Chat Input", "Chat 🌦 天気 Input 😀")  # a label edit above
    [row] = same_as_fresh(document, syntax)
    start, token = _id_token(document.text, syntax)
    assert (row[3], document.text[row[3] : row[4]]) == (start, token)
    edit_replacing(document, _type_member(syntax, "node_type"), _type_member(syntax))
    assert same_as_fresh(document, syntax) == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_positions_after_emoji_and_cjk_labels(syntax: str) -> None:
    text = plant(_weather(syntax), "Chat Input", "Chat 🌦 天気 Input 😀", of=2)
    text = plant(text, _type_member(syntax), _type_member(syntax, "node_type"), of=3)
    [finding] = findings(text, "CMP-3", syntax=syntax)
    assert (finding.span.start, at(text, finding.span)) == _id_token(text, syntax)


def test_a_half_typed_node_says_nothing_about_its_type() -> None:
    text = json.dumps({"nodes": [node("a")], "edges": []}, indent=2)
    half = text.replace(
        '"type": "http_request"\n    }',
        '"type": "http_request"\n    },\n    {"id": "b", "data": \n    }',
    )
    assert [f.code for f in analyze(half).findings] == ["FD-SYNTAX"]
