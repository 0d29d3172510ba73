"""Edits that can change how the lines around them are read (issue 25): spaces and tabs typed or
deleted in a line's indentation, an item's `-` moved to another column, control characters
(NUL, other C0, DEL, a lone surrogate) and other line breaks (CRLF, a lone CR, NEL, U+2028),
emoji and CJK, each at a place of a line where structure lives. What the differential tests
replay on the real corpus's workflows, YAML and JSON alike: after each, the incremental
analysis must equal a fresh read.

`structure_edit(rng, text)` draws one edit of `text` from `rng` (a `random.Random`, seeded by
the property test: a failing case replays from its seed)."""

from __future__ import annotations

import random
import re

from tests.support.builders import CORPUS_CONFIG, CORPUS_JSON, vendored

# What is typed: blanks, markers, line breaks of every kind, characters YAML refuses, text.
TYPED = [
    " ",
    "  ",
    "\t",
    " \t",
    "-",
    "- ",
    "-\n",
    "\n",
    "\r\n",
    "\r",
    "\x00",
    "\x01",
    "\x08",
    "\x0b",
    "\x0c",
    "\x1b",
    "\x1f",
    "\x7f",
    "\x85",
    "\u2028",
    "\ufeff",
    "\ud800",
    "\udfff",
    "数据",
    "🤖",
    "e\u0301",
    "#",
    ":",
    "'",
]

_LINE = re.compile(r"[^\n]*\n?")


def _lines(text: str) -> list[tuple[int, int]]:
    """Each line's start and end (before its line break)."""
    return [
        (match.start(), match.end() - match.group().endswith("\n"))
        for match in _LINE.finditer(text)
        if match.end() > match.start()
    ]


def _typed(rng: random.Random) -> str:
    return "".join(rng.choice(TYPED) for _ in range(rng.choice([1, 1, 1, 2])))


def structure_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    """One edit `(start, end, new_text)` of `text`, at a place of a line where its structure
    lives: its start, inside its indentation, its first character (an item's `-`, a key, a
    brace), just after a `-` marker, its end; or anywhere. Mostly on a line after `nodes`."""
    lines = _lines(text)
    if not lines or rng.random() < 0.1:
        at = rng.randint(0, len(text))
        return at, min(len(text), at + rng.choice([0, 0, 1])), _typed(rng)
    if rng.random() < 0.8:  # mostly in `nodes` and `edges`, where a workflow is edited
        lists = text.find("nodes")
        lines = [line for line in lines if line[0] > lists] or lines
    line_start, line_end = rng.choice(lines)
    line = text[line_start:line_end]
    indent = len(line) - len(line.lstrip(" \t"))
    first = line_start + indent
    kind = rng.choice(["type", "type", "delete", "reindent", "crlf"])
    if kind == "reindent" and line.strip():
        # The line's first character moved to another column (an item's `-` one left or right
        # of its siblings', a key out of its mapping).
        width = max(0, indent + rng.choice([-3, -2, -1, 1, 2, -indent]))
        return line_start, first, " " * width
    if kind == "crlf" and line_end < len(text):
        return line_end, line_end, "\r"  # the line's break becomes CRLF
    places = [line_start, first, line_end]
    if indent:
        places.append(line_start + rng.randint(1, indent))
    if text.startswith("-", first):
        places.append(first + 1)
    at = rng.choice(places)
    if kind == "delete":
        return at, min(len(text), at + rng.choice([1, 1, 2])), ""
    return at, at, _typed(rng)


def corpus_texts(names: list[str]) -> list[tuple[str, str]]:
    """(syntax, text) of the named corpus workflows (`reason`, `aincient_weather`…), each in
    its Drupal config YAML and its JSON export."""
    found = []
    for name in names:
        yml = vendored(CORPUS_CONFIG / f"flowdrop_workflow.flowdrop_workflow.{name}.yml")
        found.append(("yaml", yml.read_text(encoding="utf-8")))
        found.append(("json", vendored(CORPUS_JSON / f"{name}.flowdrop.json").read_text("utf-8")))
    return found
