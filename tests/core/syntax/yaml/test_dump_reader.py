"""The reader of Drupal's dump shape (core.syntax.yaml.dump_reader) reads exactly what the
general reader (libyaml's compose, then the conversion) reads, or declines.

Compared on: every YAML file of the vendored site and the test fixtures (all in the shape, so
none may be declined, but two rule cases written for what Drupal's dumper never writes); documents generated inside the shape with everything that is tricky in
it (block scalars with blank and space-only lines, comments, escapes, Symfony scalars, quoted
and numeric keys, emoji and CJK); real workflows mutated at random (most then leave the shape,
and those that stay must agree); the items of a `nodes:` list read alone at their column. The
comparison covers every value's type, span and value, the problems, the shared spans and
whether edits can stay local."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowdrop_lsp.core.syntax.tree import JNumber, JObject, JString
from flowdrop_lsp.core.syntax.yaml import reader
from flowdrop_lsp.core.syntax.yaml.dump_reader import read_dump
from flowdrop_lsp.core.syntax.yaml.items import block_bodies
from tests.support.builders import CORPUS_CONFIG
from tests.support.trees import shape

TESTS = Path(__file__).resolve().parents[3]
YAML_FILES = sorted(p for p in TESTS.rglob("*.yml") if "node_modules" not in p.parts)
# Rule cases of YAML only (tests/cases/CMP-9) for what Drupal's dumper never writes: the dump
# reader declines them, and the general reader reads them.
OUT_OF_SHAPE = {
    TESTS / "cases" / "CMP-9" / "yaml_block_scalar_labels.yml": "a folded block scalar (>-)",
    TESTS / "cases" / "CMP-9" / "yaml_label_through_an_alias.yml": "an anchor and its alias",
}
SHAPED_SEEDS = [
    p.read_text(encoding="utf-8")
    for p in sorted(CORPUS_CONFIG.glob("flowdrop_workflow.*.yml"))
    if p.stat().st_size < 20_000
]


def read(text: str, column: int = 0, *, general: bool) -> object:
    if general:
        saved = reader.read_dump
        reader.read_dump = lambda *_: None  # type: ignore[assignment]
        try:
            parsed, local = reader.read_yaml(text, column)
        finally:
            reader.read_dump = saved
    else:
        parsed, local = reader.read_yaml(text, column)
    return shape(parsed.root), parsed.problems, parsed.shared, local


def assert_agree(text: str, column: int = 0) -> None:
    assert read(text, column, general=False) == read(text, column, general=True), text


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.name)
def test_every_yaml_file_of_the_tests_is_read_by_the_dump_reader_as_the_general_reader_reads_it(
    path: Path,
) -> None:
    text = path.read_text(encoding="utf-8")
    if path in OUT_OF_SHAPE:
        assert read_dump(text) is None, f"read in the dump shape: {OUT_OF_SHAPE[path]}"
    else:
        assert read_dump(text) is not None, "a file in Drupal's shape was declined"
    assert_agree(text)


def test_there_are_files_to_compare() -> None:
    assert len(YAML_FILES) > 100
    assert len(SHAPED_SEEDS) >= 4


# ------------------------------------------------------------------ generated inside the shape
SCALARS = [
    "plain", "x y", "-2180", "0", "-0", "007", "1_000", "1e3", "+1", "0x1F", "0o17", "12:30",
    "on", "yes", "TRUE", "Null", "~", "null", "true", "false", "2026-01-01", "2026-13-01",
    "2026-01-01 10:00:00", "'q'", "'it''s'", "''", '"d"', r'"a\nb\t\"c\\"',
    r'"\x41\u00e9\U0001F600"', r'"\q"', '""', "{  }", "{}", "[]", "😀 emoji", "日本語 ラベル",
    "a:b", "http://x.y/z", "a #b", "a# b", "-x", "?x", ":x", "x:", "1.5", "-.5", ".inf",
    "3.0e-2", "9223372036854775808", "99999999999999999999", "trailing  ", "a\u00a0b",
]  # fmt: skip
KEYS = ["id", "label", "'y'", "'it''s'", "1", "true", "a b", "é", "日本", "x-y", "'nodes'",
        "nodes", "edges", "k.k", "<<", "2026-13-01", "0x1F", "😀"]  # fmt: skip


class _Generator:
    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)

    def blank(self) -> str:
        r = self.rnd.random()
        if r < 0.1:
            return "\n"
        if r < 0.15:
            return " " * self.rnd.randint(0, 6) + "\n"
        if r < 0.2:
            return " " * self.rnd.randint(0, 6) + "# a comment\n"
        return ""

    def block_scalar(self, indent: int) -> str:
        rnd = self.rnd
        column = indent + rnd.choice([1, 2, 4])
        lines = [" " * column + "first"]
        for _ in range(rnd.randint(0, 4)):
            r = rnd.random()
            if r < 0.2:
                lines.append("")
            elif r < 0.3:
                lines.append(" " * rnd.randint(0, column + 2))
            else:
                words = rnd.choice(["text", "# heading", "- item", "{{ x }}", "a: b", "😀 日本"])
                lines.append(" " * (column + rnd.choice([0, 0, 2])) + words)
        tail = "".join(rnd.choice(["", "\n", " " * rnd.randint(0, column) + "\n"]) for _ in "ab")
        return rnd.choice(["|", "|-"]) + "\n" + "\n".join(lines) + "\n" + tail

    def value(self, indent: int, depth: int) -> str:
        r = self.rnd.random()
        if depth < 4 and r < 0.25:
            return "\n" + self.mapping(indent + 2, depth + 1)
        if depth < 4 and r < 0.4:
            return "\n" + self.sequence(indent + 2, depth + 1)
        if r < 0.5:
            return " " + self.block_scalar(indent)
        return " " + self.rnd.choice(SCALARS) + "\n"

    def mapping(self, indent: int, depth: int) -> str:
        out = ""
        for _ in range(self.rnd.randint(1, 4)):
            out += self.blank() + " " * indent + self.rnd.choice(KEYS) + ":"
            out += self.value(indent, depth)
        return out

    def sequence(self, indent: int, depth: int) -> str:
        out = ""
        for _ in range(self.rnd.randint(1, 4)):
            out += self.blank() + " " * indent
            if depth < 4 and self.rnd.random() < 0.4:
                out += "-\n" + self.mapping(indent + 2, depth + 1)
            else:
                out += "-" + self.value(indent, depth)
        return out

    def document(self) -> str:
        text = self.blank() + self.mapping(0, 0) + self.blank()
        return text.rstrip("\n") if self.rnd.random() < 0.2 else text


def test_documents_generated_in_the_shape_read_the_same_and_most_are_read_by_the_dump_reader() -> (
    None
):
    generator = _Generator(28)
    taken = 0
    for _ in range(1500):
        text = generator.document()
        taken += read_dump(text) is not None
        assert_agree(text)
    # Duplicate keys, empty values and the rarer block scalars are declined; most are not.
    assert taken > 600


# ------------------------------------------------------------------ real workflows, mutated
PARTS = st.sampled_from(
    [" ", "  ", "-", "- ", ":", ": ", "#", " #", "'", '"', "|", "|-", "|+", ">", "\n", "\n\n",
     "\t", "{", "}", "{  }", "[]", "&a ", "*a", "!!str ", "x", "0", "12:30", "-1", "\\", "\\n",
     "\\x41", "on", "~", "null", "1e3", "2026-13-01", "é", "😀", "\r\n", "\r", "\x85",
     "\u2028", "\ufeff", "? ", "%", "`", ",", "  - ", "\n  ", "key: v\n", "\x07"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    seed=st.sampled_from(range(len(SHAPED_SEEDS))),
    edits=st.lists(st.tuples(st.floats(0, 1), PARTS, st.integers(0, 4)), min_size=1, max_size=3),
)
def test_a_mutated_workflow_reads_the_same_whichever_reader_reads_it(
    seed: int, edits: list[tuple[float, str, int]]
) -> None:
    text = SHAPED_SEEDS[seed]
    for where, part, cut in edits:
        at = int(where * len(text))
        text = text[:at] + part + text[at + cut :]
    assert_agree(text)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.sampled_from(range(len(SHAPED_SEEDS))),
    which=st.floats(0, 1),
    where=st.floats(0, 1),
    part=PARTS,
)
def test_an_item_read_alone_at_its_column_reads_the_same_whichever_reader_reads_it(
    seed: int, which: float, where: float, part: str
) -> None:
    text = SHAPED_SEEDS[seed]
    items = [
        (dash, body.dashes[i + 1] if i + 1 < len(body.dashes) else body.end, body.column)
        for _, body in block_bodies(text)
        for i, dash in enumerate(body.dashes)
    ]
    dash, stop, column = items[int(which * (len(items) - 1))]
    item = text[dash:stop]
    at = int(where * len(item))
    assert_agree(item[:at] + part + item[at:], column)


# ------------------------------------------------------------------ what it declines, and why
@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # anchors and aliases
        "a: !!str 1\n",  # tags
        "a: [1, 2]\n",  # flow collections with content
        "a: {b: 1}\n",
        "a: one\n  two\n",  # a plain scalar on two lines
        "a: 'one\n  two'\n",  # a quoted scalar on two lines
        "a:\nb: 1\n",  # an empty value (null)
        "a: 1\na: 2\n",  # a duplicate key (a problem the general reader tells)
        "a:\n\tb: 1\n",  # a tab
        "a: 1\r\nb: 2\r\n",  # CRLF
        "a: b\u2028c: d\n",  # a line break libyaml knows
        "a: \x07\n",  # a character libyaml refuses
        "a: |2\n   x\n",  # an indentation indicator
        "a: |\n\n  x\n",  # a block scalar opening with a blank line
        "a: >\n  x\n",  # folded
        "- a: 1\n",  # a compact mapping in a sequence
        "a: b: c\n",  # a mapping value on the line of a key
        "a: 1 # a comment\n",
        '"a": 1\n',  # a double-quoted key
        "--- \na: 1\n",  # a document marker
        "a:\n- 1\n",  # a sequence at its key's column
        "a: '\\q\"'x\n",
        'a: "\\q"\n',  # an escape libyaml refuses
        "a: x\n b: y\n",
    ],
)
def test_what_leaves_the_shape_is_declined_and_read_as_before(text: str) -> None:
    assert read_dump(text) is None
    assert_agree(text)


def test_positions_are_code_points_with_emoji_and_cjk_and_values_are_drupal_s() -> None:
    text = (
        "label: '😀 日本 ''q'''\n"
        "nodes: {  }\n"
        "edges: []\n"
        "config:\n"
        '  d: "tab\\there \\u00e9"\n'
        "  on: on\n"
        "  n: 0x1F\n"
        "  t: |-\n"
        "    line 😀\n"
        "\n"
        "    # not a comment\n"
        "items:\n"
        "  -\n"
        "    id: 日本\n"
        "  - 12\n"
    )
    found = read_dump(text)
    assert found is not None
    root, problems = found
    assert problems == []
    assert isinstance(root, JObject)
    label = root.get("label")
    assert isinstance(label, JString)
    assert (label.start, label.end, label.value) == (7, 19, "😀 日本 'q'")
    assert text[label.start : label.end] == "'😀 日本 ''q'''"
    config = root.get("config")
    assert isinstance(config, JObject)
    assert [m.key.value for m in config.members] == ["d", "on", "n", "t"]
    assert config.get("d").value == "tab\there é"  # type: ignore[union-attr]
    assert config.get("on").value == "on"  # type: ignore[union-attr]
    assert isinstance(config.get("n"), JNumber)
    block = config.get("t")
    assert isinstance(block, JString)
    assert block.value == "line 😀\n\n# not a comment"
    assert text[block.start : block.end] == "|-\n    line 😀\n\n    # not a comment"
    assert_agree(text)


def test_a_document_drupal_refuses_keeps_its_problem() -> None:
    text = "id: x\ncreated: 2026-13-01\n"
    found = read_dump(text)
    assert found is not None
    assert [p.kind for p in found[1]] == ["invalid-date"]
    assert_agree(text)
