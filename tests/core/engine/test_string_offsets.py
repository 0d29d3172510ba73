"""Where each character of a string in a node is written (ElementEditor.string_offsets,
implemented by the engine's elements): a finding inside an expression (a misspelt Twig filter)
lands on its characters in the document, in JSON (escapes) and YAML (block and quoted
scalars), and still does after an edit before the node moved it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from flowdrop_lsp.core.domain.element_facts import StringOffsets
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import at, node, workflow

TEMPLATE = 'Dear {{ user.name|title }},\n  😀 天気 "{{ items|lenght }}"\n\tend\\'
NOTE = "tab\there é {{ x|uper }}"
PATH = ("data", "config", "template")

YAML = """uuid: 00000000-0000-4000-8000-000000000000
langcode: en
status: true
id: research
label: 'Research'
nodes:
  -
    id: first
    type: default
    data:
      label: 'First'
      config: {  }
  -
    id: mapper
    type: default
    data:
      label: 'Mapper'
      config:
        template: |-
          Dear {{ user.name|title }},
            😀 天気 "{{ items|lenght }}"
          \tend\\
        note: "tab\\there \\u00e9 {{ x|uper }}"
        plain: it's plain
          and {{ y|uper }}
edges: {  }
"""


def _json(ensure_ascii: bool) -> str:
    config = {"template": TEMPLATE, "note": NOTE, "plain": "it's plain and {{ y|uper }}"}
    nodes = [
        node("first", "default", label="First"),
        node("mapper", "default", data={"label": "Mapper", "config": config}),
    ]
    text = workflow(nodes, [])
    return json.dumps(json.loads(text), indent=2, ensure_ascii=ensure_ascii)


DOCUMENTS = [
    pytest.param("json", _json(True), id="json-ascii"),
    pytest.param("json", _json(False), id="json-utf8"),
    pytest.param("yaml", YAML, id="yaml"),
]
# With an alias (a document with aliases is re-read whole on every edit: not in the tests above).
ALIASED = YAML.replace("label: 'Mapper'", "label: &shared 'Mapper'").replace(
    "edges:", "        again: *shared\nedges:"
)


def _editor(document: WorkflowDocument, node_id: str) -> Any:
    document.findings()
    editor = document.graph.nodes_by_id[node_id].editor
    assert editor is not None
    return editor


def _word(places: StringOffsets, value: str, word: str) -> str:
    """The document text the characters of `word` (inside the value) are written in, now."""
    first = value.index(word)
    return places.characters(first, first + len(word)).resolve()


@pytest.mark.parametrize(("syntax", "text"), DOCUMENTS)
def test_a_misspelt_filter_lands_on_its_characters_before_and_after_an_edit(
    syntax: str, text: str
) -> None:
    document = WorkflowDocument(text, syntax=syntax)
    places = _editor(document, "mapper").string_offsets(PATH)
    assert places is not None
    located = _editor(document, "mapper").locate(PATH)
    assert places.value.resolve() == located.value.resolve()
    assert len(places.offsets) == len(TEMPLATE) + 1
    assert at(document.text, _word(places, TEMPLATE, "lenght")) == "lenght"
    assert at(document.text, _word(places, TEMPLATE, "😀 天気")) == "😀 天気" or syntax == "json"
    # Every character: itself, its escape's backslash, or the line break writing it.
    shift = places.value.resolve().start - places.value.start
    for index, char in enumerate(TEMPLATE):
        written = document.text[places.offsets[index] + shift]
        assert written == char or written == "\\" or (written == "\n" and char == " ")
    # An edit before the node (in the first node's label) moves it: the spans move with it.
    label = document.text.index("First")
    document.apply_edit(label, label, "🌦 天気 ")
    assert places.value.base is _editor(document, "mapper")  # taken incrementally: not re-read
    assert at(document.text, _word(places, TEMPLATE, "lenght")) == "lenght"
    again = _editor(document, "mapper").string_offsets(PATH)
    assert again is not None
    first = TEMPLATE.index("lenght")
    assert again.characters(first).resolve() == places.characters(first).resolve()


@pytest.mark.parametrize(("syntax", "text"), DOCUMENTS)
def test_several_strings_of_a_node_with_one_read(syntax: str, text: str) -> None:
    document = WorkflowDocument(text, syntax=syntax)
    editor = _editor(document, "mapper")
    paths = (
        ("data", "config", "note"),
        ("data", "config", "plain"),
        ("data", "config"),  # a mapping: no string
        ("data", "config", "missing"),
        ("id",),
    )
    note, plain, config, missing, node_id = editor.strings_offsets(paths)
    assert at(document.text, _word(note, NOTE, "uper")) == "uper"
    assert at(document.text, _word(plain, "it's plain and {{ y|uper }}", "uper")) == "uper"
    assert config is None and missing is None
    assert node_id is not None and at(document.text, node_id.characters(0, 6).resolve()) == "mapper"
    # `é` is written escaped in the YAML note and in ASCII-only JSON, itself in UTF-8 JSON.
    written = at(document.text, note.characters(NOTE.index("é")).resolve())
    assert written in ("é", "\\u00e9")


def test_an_alias_is_placed_on_the_whole_value() -> None:
    document = WorkflowDocument(ALIASED, syntax="yaml")
    editor = _editor(document, "mapper")
    assert editor.string_offsets(("data", "config", "again")) is None
    assert (
        at(document.text, editor.locate(("data", "config", "again")).value.resolve()) == "*shared"
    )
    # The anchored label itself is mapped (its anchor is not part of it).
    label = editor.string_offsets(("data", "label"))
    assert label is not None and at(document.text, label.characters(0, 6).resolve()) == "Mapper"
