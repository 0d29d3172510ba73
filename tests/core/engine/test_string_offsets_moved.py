"""Where a string's characters are written, kept between keystrokes and moved by the edit
(core/engine/string_offsets.py), equals a fresh mapping of a fresh read after every keystroke:
a Twig print typed into a template with emoji and CJK text before it (code points, not UTF-16
units, in JSON written as UTF-8 and as `\\u` escapes, and in a YAML block scalar), random edits
in and around the string (quotes, backslashes, line breaks, escapes); and the typed keystrokes
are really moved, not mapped again."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.engine.string_offsets import CharacterOffsets
from flowdrop_lsp.core.syntax.reader import JsonReader, YamlReader
from tests.support.builders import node, workflow

PATH = ("data", "config", "template")
TEMPLATE = (
    "Bonjour 😀 {{ user.name|title }} — 天気は晴れ 🌦️.\n"
    'Quote " and \\ backslash, tab\tthere.\n'
    "{% if ready %}Ready: {{ ready|default('no') }}{% endif %}\n"
    "Here the print is typed: end of line.\n"
    "Last line 🙂."
)
TYPED = " {{ live_state|default('none') }}"


def _json(ensure_ascii: bool) -> str:
    config = {"template": TEMPLATE, "note": "a 😀 note"}
    nodes = [
        node("first", "default", label="First 天気"),
        node("mapper", "default", data={"label": "Mapper 😀", "config": config}),
        node("last", "default", label="Last"),
    ]
    return json.dumps(json.loads(workflow(nodes, [])), indent=2, ensure_ascii=ensure_ascii)


def _yaml() -> str:
    block = "\n".join(f"          {line}" if line else "" for line in TEMPLATE.split("\n"))
    return f"""uuid: 00000000-0000-4000-8000-000000000000
langcode: en
status: true
id: research
label: 'Research 😀'
nodes:
  -
    id: first
    type: default
    data:
      label: 'First 天気'
      config: {{  }}
  -
    id: mapper
    type: default
    data:
      label: 'Mapper 😀'
      config:
        template: |-
{block}
        note: "a \\U0001F600 note"
edges: {{  }}
"""


DOCUMENTS = [
    pytest.param("json", _json(True), id="json-ascii"),
    pytest.param("json", _json(False), id="json-utf8"),
    pytest.param("yaml", _yaml(), id="yaml"),
]


def _places(document: WorkflowDocument, path: tuple[str | int, ...] = PATH) -> Any:
    """The document offsets of the characters of the string at `path` of node `mapper` (None
    when there is no such node or string)."""
    document.findings()
    found = document.graph.nodes_by_id.get("mapper")
    if found is None or found.editor is None:
        return None
    places = found.editor.string_offsets(path)
    if places is None:
        return None
    shift = places.value.resolve().start - places.value.start
    return places.value.resolve(), [offset + shift for offset in places.offsets]


def _fresh(syntax: str, text: str, path: tuple[str | int, ...] = PATH) -> Any:
    return _places(WorkflowDocument(text, syntax=syntax), path)


@pytest.fixture
def mapped(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the strings mapped whole by the readers."""
    calls: list[int] = []
    for reader in (JsonReader, YamlReader):
        original = reader.string_offsets

        def counted(self: Any, *args: Any, _original: Any = original) -> Any:
            calls.append(1)
            return _original(self, *args)

        monkeypatch.setattr(reader, "string_offsets", counted)
    return calls


@pytest.mark.parametrize(("syntax", "text"), DOCUMENTS)
def test_a_print_typed_after_emoji_and_cjk_moves_the_mapping(
    syntax: str, text: str, mapped: list[int]
) -> None:
    document = WorkflowDocument(text, syntax=syntax)
    at = text.index("end of line.")
    assert _places(document) == _fresh(syntax, text)
    remapped = 0
    for typed, char in enumerate(TYPED, start=1):
        document.apply_edit(at, at, char)
        text = text[:at] + char + text[at:]
        at += 1
        before = len(mapped)
        here = _places(document)
        remapped += len(mapped) - before
        assert here is not None
        assert here == _fresh(syntax, text), (syntax, TYPED[:typed])
        # The typed characters are written where they were typed.
        assert here[1][TEMPLATE.index("end of line.") + typed - 1] == at - 1
    # Each keystroke's characters were written as themselves: nothing mapped again.
    assert remapped == 0


@pytest.mark.parametrize(("syntax", "text"), DOCUMENTS)
def test_deleting_and_typing_before_the_string_moves_the_mapping(
    syntax: str, text: str, mapped: list[int]
) -> None:
    document = WorkflowDocument(text, syntax=syntax)
    assert _places(document) is not None
    mapped.clear()
    label = text.index("Mapper") + len("Mapper")
    for start, end, written in ((label, label, "X"), (label, label + 1, ""), (label, label, "天")):
        document.apply_edit(start, end, written)
        text = text[:start] + written + text[end:]
        assert _places(document) == _fresh(syntax, text)
    assert len(mapped) == 3  # the three fresh reads only
    mapped.clear()
    word = text.index("backslash")
    document.apply_edit(word, word + len("back"), "")
    text = text[:word] + text[word + len("back") :]
    assert _places(document) == _fresh(syntax, text)
    assert len(mapped) == 1  # the fresh read: a deletion inside moves the mapping too


PIECES = [
    "a",
    " ",
    "{",
    "}",
    "{{ x }}",
    '"',
    "\\",
    "\\n",
    "\\u00e9",
    "\n",
    "'",
    "é",
    "😀",
    "天気",
    "#",
]


def _edited(text: str, around: tuple[int, int], rng: random.Random) -> tuple[int, int, str]:
    start = rng.randint(max(around[0] - 3, 0), min(around[1] + 3, len(text)))
    if rng.random() < 0.3:
        return start, min(start + rng.randint(1, 3), len(text)), ""
    return start, start, rng.choice(PIECES)


@pytest.mark.parametrize(("syntax", "text"), DOCUMENTS)
def test_random_edits_in_and_around_the_string_equal_fresh_mappings(syntax: str, text: str) -> None:
    rng = random.Random(39)
    for _round in range(6):
        document = WorkflowDocument(text, syntax=syntax)
        current = text
        for _ in range(25):
            places = _places(document)
            around = (places[0].start, places[0].end) if places is not None else (0, len(current))
            start, end, written = _edited(current, around, rng)
            document.apply_edit(start, end, written)
            current = current[:start] + written + current[end:]
            assert _places(document) == _fresh(syntax, current), (syntax, current)
            assert _places(document, ("data", "config", "note")) == _fresh(
                syntax, current, ("data", "config", "note")
            )


def _spelled(offsets: Sequence[int]) -> tuple[int, ...]:
    return tuple(offsets[i] for i in range(len(offsets)))


def test_character_offsets_read_as_the_tuple_they_stand_for() -> None:
    plain = tuple(range(10, 30)) + (40, 41, 47, 48)
    offsets = CharacterOffsets.of(plain)
    assert tuple(offsets) == _spelled(offsets) == plain and offsets == plain
    # Characters 3..5 replaced by two typed at 13, what follows moved by -1.
    edited = offsets.edited(3, 6, 13, 2, -1)
    expected = plain[:3] + (13, 14) + tuple(o - 1 for o in plain[6:])
    assert tuple(edited) == _spelled(edited) == expected
    assert edited[-1] == expected[-1] and edited[2:6] == expected[2:6]
    # Typing on extends the typed run instead of adding a piece.
    typed_on = edited.edited(5, 5, 15, 1, 1)
    assert typed_on.pieces == edited.pieces
    assert tuple(typed_on) == expected[:5] + (15,) + tuple(o + 1 for o in expected[5:])
    assert tuple(typed_on.shifted(100)) == tuple(o + 100 for o in typed_on)
    assert typed_on.index_of(15) == 5 and typed_on.index_of(38) is None and 38 not in typed_on
    with pytest.raises(IndexError):
        typed_on[len(typed_on)]
