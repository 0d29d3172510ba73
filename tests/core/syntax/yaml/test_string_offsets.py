"""Where each character of a YAML string scalar is written (YamlReader.string_offsets): for
thousands of generated strings written in every style (PyYAML's dumper: plain, single- and
double-quoted, literal and folded blocks, narrow widths that fold lines, CRLF line ends; the
project's own writer, core.syntax.yaml.writer), read back by the reader — whole and one element
alone, as the engine re-reads it — every character's offset is the character itself, its
escape, or the line break that writes it; and what cannot be told exactly is None."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
import yaml

from flowdrop_lsp.core.syntax.reader import YamlReader
from flowdrop_lsp.core.syntax.tree import JArray, JObject, JsonValue, JString, child_at, value_at
from flowdrop_lsp.core.syntax.yaml.writer import yaml_scalar

PIECES = [
    "a",
    "Z",
    "7",
    "word",
    " ",
    "  ",
    '"',
    "'",
    "''",
    "\\",
    "{{ ",
    " }}",
    "{{ node.output|upper }}",
    "#",
    " #",
    ": ",
    "- ",
    "|",
    ">",
    "\n",
    "\n\n",
    "\t",
    "é",
    "漢字",
    "😀",
    "\x1b",
    "\x85",
    "\u2028",
    "\r",
]
PATH = ("nodes", 0, "data", "config", "template")
_HEX_LENGTHS = {"x": 4, "u": 6, "U": 10}
_OTHER_BREAKS = re.compile("\r(?!\n)|[\x85\u2028\u2029]")


def _strings(seed: int, count: int) -> list[str]:
    chance = random.Random(seed)
    return ["".join(chance.choices(PIECES, k=chance.randint(1, 14))) for _ in range(count)]


def _document(template: str, **dump: Any) -> str:
    element = {"id": "n", "data": {"config": {"template": template, "other": "x"}}}
    return yaml.safe_dump({"nodes": [element]}, sort_keys=False, **dump)


def _value(root: JsonValue | None, path: tuple[str | int, ...], text: str = "") -> JsonValue | None:
    """The value at `path`; a value the whole read kept whole (a node's config) re-read with
    its spans from `text`, as the engine re-reads it when it needs them."""
    return value_at(root, path, text)


def check_offsets(text: str, value: JString, offsets: tuple[int, ...] | None) -> None:
    """What the brief asks of every mapped string (also used by the engine's tests)."""
    assert offsets is not None, (text, value.value)
    chars = value.value
    assert len(offsets) == len(chars) + 1
    assert all(a < b for a, b in zip(offsets, offsets[1:], strict=False)), offsets
    assert offsets[-1] <= len(text)
    if text[value.start] in "'\"":
        assert offsets[-1] == value.end - 1  # the closing quote
    for index, char in enumerate(chars):
        at = offsets[index]
        written = text[at]
        if written == char:
            continue  # the character itself (a quote of `''`, a kept line break)
        if written == "\\":  # an escape: exactly this character
            escape = text[at : at + _HEX_LENGTHS.get(text[at + 1], 2)]
            assert yaml.safe_load('"' + escape + '"') == char, (escape, char)
            continue
        # A line break writing a space (folded) or a line feed (CRLF, or after a fold).
        assert written in "\r\n" and char in " \n", (text, value.value, index)


def _read_both(reader: YamlReader, text: str) -> list[tuple[str, JString]]:
    """The template read from the whole text, and from its element's text alone."""
    root = reader.read(text).parsed.root
    value = _value(root, PATH, text)
    assert isinstance(value, JString)
    nodes = _value(root, ("nodes",))
    assert isinstance(nodes, JArray)
    item = nodes.items[0]
    column = item.start - (text.rfind("\n", 0, item.start) + 1)
    element_text = text[item.start : item.end]
    alone = _value(reader.reread_value(element_text, column), PATH[2:])
    assert isinstance(alone, JString)
    return [(text, value), (element_text, alone)]


DUMPS = [
    pytest.param({}, id="default"),
    pytest.param({"width": 12}, id="default-narrow"),
    pytest.param({"default_style": "'", "width": 16}, id="single-narrow"),
    pytest.param({"default_style": "'"}, id="single"),
    pytest.param({"default_style": '"', "width": 14}, id="double-narrow"),
    pytest.param({"default_style": '"', "allow_unicode": True}, id="double-unicode"),
    pytest.param({"default_style": "|", "allow_unicode": True}, id="literal"),
    pytest.param({"default_style": ">", "width": 10, "allow_unicode": True}, id="folded"),
    pytest.param({"width": 12, "line_break": "\r\n", "allow_unicode": True}, id="crlf"),
    pytest.param({"default_style": "|", "line_break": "\r\n", "indent": 4}, id="literal-crlf"),
    pytest.param({"default_style": ">", "line_break": "\r\n", "width": 9}, id="folded-crlf"),
]


@pytest.mark.parametrize("dump", DUMPS)
def test_every_character_of_a_dumped_string_is_placed(dump: dict[str, Any]) -> None:
    reader = YamlReader()
    checked = 0
    for string in _strings(len(str(dump)), 1000):
        text = _document(string, **dump)
        if yaml.safe_load(text)["nodes"][0]["data"]["config"]["template"] != string:
            continue  # PyYAML's dumper cannot write it so (it says so rarely)
        for read_text, value in _read_both(reader, text):
            offsets = reader.string_offsets(read_text, 0, value)
            if offsets is None and _OTHER_BREAKS.search(read_text):
                continue  # a line break YAML 1.1 has besides LF and CRLF, written raw
            check_offsets(read_text, value, offsets)
            checked += 1
    assert checked > 1300


@pytest.mark.parametrize("original", ["plain", "'single'", '"double"', "|"])
def test_every_character_of_a_string_the_writer_writes_is_placed(original: str) -> None:
    reader = YamlReader()
    for string in _strings(len(original), 2000):
        scalar = yaml_scalar(original, string)
        text = f"nodes:\n  -\n    id: n\n    data:\n      config:\n        template: {scalar}\n"
        for read_text, value in _read_both(reader, text):
            assert value.value == string
            offsets = reader.string_offsets(read_text, 0, value)
            if offsets is None and _OTHER_BREAKS.search(read_text):
                continue  # a line break YAML 1.1 has besides LF and CRLF, written raw
            check_offsets(read_text, value, offsets)


def _one(text: str) -> tuple[JString, tuple[int, ...] | None]:
    root = YamlReader().read(text).parsed.root
    assert isinstance(root, JObject)
    value = root.get("t")
    assert isinstance(value, JString)
    return value, YamlReader().string_offsets(text, 0, value)


def _placed(text: str) -> list[str]:
    value, offsets = _one(text)
    check_offsets(text, value, offsets)
    assert offsets is not None
    return [text[at] for at in offsets[:-1]]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("t: plain  words\n  go on\n\n\n   here\n", "plain  words go on\n\nhere"),
        ("t: 'it''s\n\n  x  '\n", "it's\nx  "),
        ('t: "a\\x41\\u00e9\\U0001F600\\ \\t\\/b"\n', "aAé😀 \t/b"),
        ('t: "esc  \\\n    aped\\\n\n  x"\n', "esc  aped\nx"),
        ("t: |-\n  one\n   two\n\n  three\n", "one\n two\n\nthree"),
        ("t: |+\n  kept\n\n\nu: 1\n", "kept\n\n\n"),
        ("t: |\n\n  after a blank\n", "\nafter a blank\n"),
        (
            "t: >\n  folded\n  line\n\n  para\n    more\n  back\n",
            "folded line\npara\n  more\nback\n",
        ),
        ("t: >-\r\n  crlf\r\n  folded\r\n", "crlf folded"),
        ("t:\n    >\r\n  x\r\n\r\n", "x\n"),  # the header on a line of its own
        ("t: 'tab\tinside'\n", "tab\tinside"),
        ("t: \t'after a tab'\n", "after a tab"),
    ],
)
def test_each_style_places_each_character(text: str, value: str) -> None:
    found, offsets = _one(text)
    assert found.value == value
    check_offsets(text, found, offsets)


def test_an_indentation_indicator_in_a_sequence() -> None:
    text = "l:\n  - |2-\n       two more\n      one more\n"
    root = YamlReader().read(text).parsed.root
    value = _value(root, ("l", 0))
    # The indentation counts from the sequence's (2): four spaces.
    assert isinstance(value, JString) and value.value == "   two more\n  one more"
    check_offsets(text, value, YamlReader().string_offsets(text, 0, value))


def test_a_template_finding_lands_on_its_character() -> None:
    text = 't: >-\n  😀 {{ name|uper\n  }} "x"\n'
    value, offsets = _one(text)
    assert offsets is not None
    first = value.value.index("uper")
    assert text[offsets[first] : offsets[first + 4]] == "uper"
    assert _placed("t: 'a''b'\n") == ["a", "'", "b"]


def test_scalars_in_flow_collections() -> None:
    text = "t: { a: 'it''s\n   folded', b: plain\n   words, c: \"\\u00e9\" }\n"
    root = YamlReader().read(text).parsed.root
    for key, expected in (("a", "it's folded"), ("b", "plain words"), ("c", "é")):
        value = _value(root, ("t", key))
        assert isinstance(value, JString) and value.value == expected
        check_offsets(text, value, YamlReader().string_offsets(text, 0, value))


def test_an_alias_is_no_mapping() -> None:
    text = "a: &name 'anchored'\nt: *name\n"
    value, offsets = _one(text)
    assert value.value == "anchored" and offsets is None
    # The anchored scalar itself is mapped (its anchor is not part of it).
    root = YamlReader().read(text).parsed.root
    assert isinstance(root, JObject)
    anchored = root.get("a")
    assert isinstance(anchored, JString)
    check_offsets(text, anchored, YamlReader().string_offsets(text, 0, anchored))


def test_other_line_breaks_are_no_mapping() -> None:
    # NEL, LS, PS and a lone CR are line breaks to YAML 1.1: not mapped, never misplaced.
    for brk in ("\x85", "\u2028", "\r"):
        text = f"t: 'a{brk}  b'\n"
        root = YamlReader().read(text).parsed.root
        value = _value(root, ("t",))
        if isinstance(value, JString):
            assert YamlReader().string_offsets(text, 0, value) is None


def test_a_value_read_otherwise_is_no_mapping() -> None:
    # A string the reader did not read from these characters: refused, not guessed.
    assert YamlReader().string_offsets("t: abc\n", 0, JString(3, 6, "abd")) is None
    assert YamlReader().string_offsets("t: |\n  abc\n", 0, JString(3, 9, "ab")) is None


TYPED = [
    "a",
    "b ",
    " ",
    "  ",
    "\t",
    "'",
    "''",
    '"',
    "\\",
    "\\n",
    "\\x41",
    "\\u00e9",
    "\\ ",
    "\\\n",
    "\n",
    "\n\n",
    "\n  ",
    "\n    ",
    "\r\n",
    "\r\n  ",
    "#",
    " #",
    ": ",
    "😀",
    "漢",
    "|",
    ">",
    "-",
    "+",
    "2",
    "{{ x|y }}",
]
HEADERS = ["", "'", '"', "|\n  ", "|-\n  ", "|+\n  ", ">\n  ", ">-\n   ", "|2\n   ", ">1+\n  "]
PLACES = ["t: ", "x:\n  t: ", "- t: ", "x:\n  - t: ", "t:\n  "]


def test_what_is_typed_is_placed_exactly_or_not_at_all() -> None:
    """Scalars as people type them (not only as a dumper writes them), whatever they hold:
    every string read is either placed exactly or not at all, never misplaced."""
    reader = YamlReader()
    chance = random.Random(3)
    placed = unplaced = 0
    for _ in range(6000):
        header = chance.choice(HEADERS)
        body = "".join(chance.choices(TYPED, k=chance.randint(1, 10)))
        close = header if header in ("'", '"') else ""
        end = chance.choice(["\n", "\nu: 1\n", "", "\n\n"])
        text = chance.choice(PLACES) + header + body + close + end
        value = reader.read(text).parsed.root
        while not isinstance(value, JString | None):
            value = child_at(value, "t") or child_at(value, "x") or child_at(value, 0)
        if value is None:
            continue
        offsets = reader.string_offsets(text, 0, value)
        if offsets is None:
            unplaced += 1
            continue
        check_offsets(text, value, offsets)
        placed += 1
    assert placed > 1500 and unplaced < placed // 100
