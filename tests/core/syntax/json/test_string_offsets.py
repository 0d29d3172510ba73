"""Where each character of a JSON string value is written (JsonReader.string_offsets): for
thousands of generated strings written by `json.dumps` (ASCII-only escapes and raw UTF-8), read
back by the reader, every character's offset is the character itself or its escape."""

from __future__ import annotations

import json
import random

import pytest

from flowdrop_lsp.core.syntax.reader import JsonReader
from flowdrop_lsp.core.syntax.tree import JObject, JsonValue, JString, child_at

PIECES = [
    "a",
    "Z",
    "7",
    " ",
    "  ",
    '"',
    "'",
    "\\",
    "/",
    "{{ ",
    " }}",
    "{{ node.output|upper }}",
    "#",
    ": ",
    "\n",
    "\r\n",
    "\t",
    "\b",
    "\x00",
    "\x1f",
    "\x7f",
    "é",
    "漢字",
    "😀",
    "👩‍💻",
    "\u2028",
    "\ufeff",
]


def _strings(seed: int, count: int) -> list[str]:
    chance = random.Random(seed)
    return ["".join(chance.choices(PIECES, k=chance.randint(0, 12))) for _ in range(count)]


def _value(root: JsonValue | None, path: tuple[str | int, ...]) -> JsonValue | None:
    for step in path:
        root = child_at(root, step)
    return root


def _check(text: str, value: JString, offsets: tuple[int, ...] | None) -> None:
    assert offsets is not None, (text, value.value)
    chars = value.value
    assert len(offsets) == len(chars) + 1
    assert all(a < b for a, b in zip(offsets, offsets[1:], strict=False)), offsets
    assert offsets[0] > value.start and offsets[-1] == value.end - 1  # the closing quote
    for index, char in enumerate(chars):
        at = offsets[index]
        if text[at] == "\\":
            # The escape (a surrogate pair: both escapes) writes exactly this character.
            assert json.loads('"' + text[at : offsets[index + 1]] + '"') == char
        else:
            assert text[at] == char and offsets[index + 1] == at + 1


@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_every_character_of_a_dumped_string_is_placed(ensure_ascii: bool) -> None:
    reader = JsonReader()
    for number, string in enumerate(_strings(7 + ensure_ascii, 3000)):
        # As a node's config value, the node read alone as the engine re-reads it.
        element = {"id": "n", "data": {"config": {"template": string, "n": number}}}
        indent = 2 if number % 2 else None
        text = json.dumps(element, ensure_ascii=ensure_ascii, indent=indent)
        value = _value(reader.reread_value(text, 0), ("data", "config", "template"))
        assert isinstance(value, JString) and value.value == string
        _check(text, value, reader.string_offsets(text, 0, value))


def test_a_surrogate_pair_is_one_code_point_at_its_first_escape() -> None:
    text = '{"t": "x\\ud83d\\ude00y\\u00e9\\n"}'
    root = JsonReader().reread_value(text, 0)
    assert isinstance(root, JObject)
    value = root.get("t")
    assert isinstance(value, JString) and value.value == "x😀yé\n"
    offsets = JsonReader().string_offsets(text, 0, value)
    assert offsets is not None
    assert [text[at : at + 2] for at in offsets[:-1]] == ["x\\", "\\u", "y\\", "\\u", "\\n"]
    assert offsets[1] == text.index("\\ud83d") and offsets[2] == text.index("y")


def test_a_template_finding_lands_on_its_character() -> None:
    # A misspelt filter at character 17 of a template, after an escape and an emoji.
    template = '😀 "{{ name|uper }}"'
    text = json.dumps({"t": template})
    root = JsonReader().reread_value(text, 0)
    assert isinstance(root, JObject)
    value = root.get("t")
    assert isinstance(value, JString)
    offsets = JsonReader().string_offsets(text, 0, value)
    assert offsets is not None
    first = template.index("uper")
    assert text[offsets[first] : offsets[first + 4]] == "uper"


def test_an_invalid_escape_is_read_as_the_tolerant_parser_reads_it() -> None:
    # `\q` is no JSON escape: the parser reads `q` (and reports it); a pair is then not joined.
    text = '{"t": "a\\qb\\ud83d\\ude00"}'
    root = JsonReader().reread_value(text, 0)
    assert isinstance(root, JObject)
    value = root.get("t")
    assert isinstance(value, JString)
    offsets = JsonReader().string_offsets(text, 0, value)
    assert offsets is not None and len(offsets) == len(value.value) + 1
    assert text[offsets[1]] == "\\" and text[offsets[2]] == "b"


def test_no_string_token_is_no_mapping() -> None:
    assert JsonReader().string_offsets('{"t": 1}', 0, JString(6, 7, "1")) is None
    assert JsonReader().string_offsets('"ab"', 0, JString(0, 4, "xy")) is None
