"""A fast reader for the YAML Drupal's config export writes, with libyaml as its fallback.

Drupal writes config with Symfony's dumper (`Yaml::dump($data, PHP_INT_MAX, 2)`): block
mappings and sequences indented by two, `-` alone on its line before a mapping item, scalars
on one line (plain, 'single' or "double" quoted), `{  }` for an empty array, `|` / `|-` for a
string with line breaks. A site's 1,000 workflows are almost all of that shape, and reading
them with PyYAML's `compose` and then converting its nodes into our tree costs twice what
`compose` alone does (docs/performance.md, "Reading a site at the parse floor").

`read_dump` reads exactly that subset, line by line, straight into the syntax tree, and
declines (returns None) at the first thing outside it: a flow collection with content, an
anchor, alias or tag, a multi-line plain or quoted scalar, a key without a value, a
duplicate key, a tab, a CR, a BOM, a character libyaml refuses, a block scalar with an
indentation indicator or leading blank lines... The general reader (core.syntax.yaml.reader)
then reads the text, so every error, recovery and unusual document is told as before.

Asked so (`ElementShapes`, a whole read of a workflow), it keeps spans inside the elements of
`nodes`/`edges` only where the JSON parser keeps them (ids, types, labels, edge ends): their
other block collections (a node's config and metadata, most of a site's lines) are read into
plain Python values, as the JSON parser's C scanner reads them, so the analysis converts no
tree for its schema and models.

What it returns is, by construction and by test, the tree the general reader builds: the same
values (plain scalars go through the same Symfony rules, core.syntax.yaml.scalars), the same
spans (a collection ends where its content does, as libyaml's end mark scanned back over
blanks; a block scalar where the general reader ends it), the same problems (tests/core/
syntax/test_dump_reader.py compares the two on the real site, the generated bench site and
thousands of random edits of them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flowdrop_lsp.core.syntax.tree import (
    JArray,
    JLiteral,
    JMember,
    JNumber,
    JObject,
    JsonValue,
    JString,
    OpaqueValue,
    SyntaxProblem,
)
from flowdrop_lsp.core.syntax.yaml.offsets import DOUBLE_QUOTED_ESCAPES
from flowdrop_lsp.core.syntax.yaml.scalars import MAY_NOT_BE_STRING, plain_node

# A key and its `:` (then a space or the end of the line): 'quoted' ('' for a quote inside),
# or plain: not starting with an indicator, no `:` or `#` inside, not ending with a blank.
_KEY = re.compile(
    r"(?:'((?:[^'\n]|'')*)'|([^\s\-?:,\[\]{}#&*!|>'\"%@`](?:[^:\n#\t]*[^\s:#])?)):(?: +|$)"
)
_SINGLE_QUOTED = re.compile(r"'((?:[^'\n]|'')*)' *")
_DOUBLE_QUOTED = re.compile(r'"((?:[^"\\\n]|\\[^\n])*)" *')
# An escape in a double-quoted scalar; one not in DOUBLE_QUOTED_ESCAPES is an error there.
_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))")
# What may start a plain scalar in block context: not an indicator; `-`, `?` and `:` only
# before a character that is not a blank.
_PLAIN_START = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`]|[-?:][^\s]")
_EMPTY_COLLECTIONS = {"{  }": JObject, "{}": JObject, "[]": JArray}
_BLOCK_HEADERS = frozenset({"|", "|-"})
# What libyaml refuses anywhere (outside its reader's printable set), tabs, and line breaks
# other than LF (CR, NEL, LS, PS), a BOM inside: the general reader tells or handles them. (The refused
# characters listed, not the accepted ones negated: a search for a few is 4x faster.)
_OUTSIDE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufeff\ufffe\uffff\u2028\u2029]")
_BLANKS = " \t\r\n"
# Plain scalars taken without the general rules: an integer written as PHP writes it (no
# leading zero, no sign on 0, within 64 bits), and the three words in Drupal's case.
_CANONICAL_INTEGER = re.compile(r"-?[1-9][0-9]{0,17}|0")
_WORDS: dict[str, bool | None] = {"true": True, "false": False, "null": None}
# The most collections open at once: deeper, the general reader reads it (and STORE-1's door
# measures it first: what this reader reads is never refused for its depth, `read_dump`).
MOST_OPEN = 101


class _Decline(Exception):
    """The text leaves the subset: the general reader reads it."""


@dataclass(frozen=True, slots=True)
class ElementShapes:
    """Which members of the elements of a workflow's `nodes` and `edges` are read with spans,
    as the JSON parser reads them (core.syntax.json.shapes): `by_array` gives an element's
    shape by array name, a dict of its members' shapes, where a dict is a member read so in
    turn and anything else a member read with spans, everything in it; a block collection at
    a member not listed is read whole, into plain Python values kept in an `opaque` value
    (which re-reads it when its inner spans are asked for after all). What the analysis needs
    spans for (ids, types, labels, edge ends) keeps them; a node's config and metadata, most
    of a site's lines, cost no tree."""

    by_array: Mapping[str, Mapping[str, Any]]
    opaque: type[OpaqueValue]


# A block's shape (`_Open.shape`): None (read with spans, everything in it), _WHOLE (read into
# plain values), a dict (a mapping: its members' shapes, `_REST` the shape of those not listed,
# else _WHOLE), a list of one shape (a sequence whose items have it).
_WHOLE: Any = object()
_REST: Any = object()


def read_dump(
    source: str,
    shift: int = 0,
    most_open: int = MOST_OPEN,
    shapes: ElementShapes | None = None,
) -> tuple[JsonValue, list[SyntaxProblem]] | None:
    """The tree of `source` (spans `index + shift`) and its problems, when it is written in
    the shape of Drupal's dumper with at most `most_open` collections open at once; None when
    it is not (the general reader then reads it). With `shapes`, the elements of a root
    mapping's `nodes` and `edges` are read as they say (`ElementShapes`); without, everything
    is read with spans.

    What it reads nests at most `most_open + 1` deep as JSON would (`{}` is 1: its collections,
    and an empty one `{  }` as a value inside the deepest). It reads line by line, never
    recursing, so it may run before the door measures the depth: a text it reads with
    `most_open` below the door's bound less one is one the door lets through."""
    if not source or _OUTSIDE.search(source) is not None:
        return None
    problems: list[SyntaxProblem] = []
    root_shape: Any = None
    opaque: type[OpaqueValue] | None = None
    if shapes is not None:
        root_shape = {name: [shape] for name, shape in shapes.by_array.items()}
        root_shape[_REST] = None
        opaque = shapes.opaque
    try:
        return _read(source, shift, problems, most_open, root_shape, opaque), problems
    except _Decline:
        return None


def empty_lists_as_arrays(root: JsonValue) -> None:
    """Drupal's dumper writes an empty PHP array as `{  }`, so a workflow without edges says
    `edges: {  }`: for the two lists a workflow is made of, that is an empty list."""
    if not isinstance(root, JObject):
        return
    for name in ("nodes", "edges"):
        member = root.member(name)
        value = member.value if member is not None else None
        if member is not None and isinstance(value, JObject) and not value.members:
            member.value = JArray(value.start, value.end, [])


class _Open:
    """A collection being read: its indentation, whether a sequence, where it starts, what it
    has so far, and (a mapping) the key whose value is the block below it; its shape, whether
    it is read whole (`whole`: into plain values), and the opaque value that keeps it when it
    is the outermost block read whole (`opaque`)."""

    __slots__ = ("col", "is_sequence", "start", "items", "last", "key", "shape", "whole", "opaque")

    def __init__(
        self,
        col: int,
        is_sequence: bool,
        start: int,
        shape: Any = None,
        opaque: type[OpaqueValue] | None = None,
    ) -> None:
        self.col, self.is_sequence, self.start = col, is_sequence, start
        self.shape, self.whole, self.opaque = shape, shape is _WHOLE, opaque
        # JMember of a mapping, values of a sequence; read whole: a dict, or a list
        self.items: Any = {} if self.whole and not is_sequence else []
        self.last: dict[str, JMember] = {}
        self.key: Any = None  # a JString; read whole, a str


def _below(parent: _Open, col: int, is_sequence: bool, start: int, opaque: Any) -> _Open:
    """The block opening below `parent` (its pending key's value, or its next item), shaped
    as `parent`'s shape says."""
    shape = parent.shape
    if shape is None or shape is _WHOLE:
        return _Open(col, is_sequence, start, shape)
    if parent.is_sequence:
        below = shape[0] if isinstance(shape, list) else None
    elif isinstance(shape, dict):
        below = shape.get(parent.key.value, shape.get(_REST, _WHOLE))
    else:
        below = None
    if below is _WHOLE:
        return _Open(col, is_sequence, start, _WHOLE, opaque)
    return _Open(col, is_sequence, start, below if isinstance(below, dict | list) else None)


def _add(parent: _Open, value: Any) -> None:
    if parent.is_sequence:
        parent.items.append(value)
        return
    key = parent.key
    assert key is not None
    if parent.whole:
        parent.items[key] = value
    else:
        member = JMember(key, value)
        parent.items.append(member)
        parent.last[key.value] = member
    parent.key = None


def _closed(block: _Open, end: int) -> Any:
    if block.whole:
        opaque = block.opaque
        return block.items if opaque is None else opaque(block.start, end, block.items)
    if block.is_sequence:
        return JArray(block.start, end, block.items)
    return JObject(block.start, end, block.items, block.last)


def _read(  # noqa: C901 - one pass, no call per line (the docstring)
    source: str,
    shift: int,
    problems: list[SyntaxProblem],
    most_open: int,
    root_shape: Any,
    opaque: type[OpaqueValue] | None,
) -> JsonValue:
    """One pass over the lines with a stack of the open collections (no call per line: the
    loop is what a site's read costs)."""
    lines = source.split("\n")
    count = len(lines)
    stack: list[_Open] = []
    expecting = False  # the line before ended with `key:` or `-`: a block below it opens
    root: JsonValue | None = None
    index = 0
    pos = 0
    blanks = _BLANKS
    while index < count:
        line = lines[index]
        content = line.lstrip(" ")
        if not content or content[0] == "#":
            pos += len(line) + 1
            index += 1
            continue
        col = len(line) - len(content)  # (no tab anywhere: `_OUTSIDE` declined the text)
        at = pos + col
        is_dash = content[0] == "-" and (len(content) == 1 or content[1] == " ")
        if expecting:
            if stack and col <= stack[-1].col:
                raise _Decline  # an empty value (null): the general reader reads it
            if len(stack) >= most_open:
                raise _Decline
            parent = stack[-1]
            if parent.whole:  # (most blocks of a site: a node's config and metadata)
                stack.append(_Open(col, is_dash, at + shift, _WHOLE))
            else:
                stack.append(_below(parent, col, is_dash, at + shift, opaque))
            expecting = False
        elif not stack:
            if root is not None:
                raise _Decline
            stack.append(_Open(col, is_dash, at + shift, root_shape))
        elif col != stack[-1].col:
            if col > stack[-1].col:
                raise _Decline  # a scalar continued, or a line off the columns
            end = at
            while end > 0 and source[end - 1] in blanks:
                end -= 1
            end += shift
            while stack and stack[-1].col > col:
                done = _closed(stack.pop(), end)
                if stack:
                    _add(stack[-1], done)
                else:
                    root = done
            if not stack or stack[-1].col != col:
                raise _Decline
        block = stack[-1]
        if block.is_sequence != is_dash:
            raise _Decline
        whole = block.whole  # (values as plain Python, keys as str: no tree below here)
        if is_dash:
            rest = content[1:].lstrip(" ")
            value_at = at + len(content) - len(rest)
        else:
            found = _KEY.match(content)
            if found is None:
                raise _Decline
            quoted, plain = found.groups()
            if plain is not None:
                name = plain
                key_end = at + len(plain)
                if "0" <= plain[0] <= "9":
                    # Read as a scalar for its problems (a date that is no date: only a key
                    # starting with a digit can be one); the key is its text, as the general
                    # reader keeps it.
                    _, problem = plain_node(plain, at + shift, key_end + shift)
                    if problem is not None:
                        problems.append(problem)
            else:
                name = quoted.replace("''", "'")
                key_end = at + len(quoted) + 2
            if name in (block.items if whole else block.last):
                raise _Decline  # the general reader tells the duplicate
            key: Any = name if whole else JString(at + shift, key_end + shift, name)
            rest = content[found.end() :]
            value_at = at + found.end()
        pos += len(line) + 1
        index += 1
        if not rest:
            if not is_dash:
                block.key = key
            expecting = True
            continue
        first = rest[0]
        start = value_at + shift
        value: Any  # a JsonValue; read whole, its plain value
        if first == "'":
            matched = _SINGLE_QUOTED.fullmatch(rest)
            if matched is None:
                raise _Decline
            inner = matched.group(1)
            value = inner.replace("''", "'")
            if not whole:
                value = JString(start, start + len(inner) + 2, value)
        elif first == '"':
            matched = _DOUBLE_QUOTED.fullmatch(rest)
            if matched is None:
                raise _Decline
            inner = matched.group(1)
            value = _unescaped(inner)
            if not whole:
                value = JString(start, start + len(inner) + 2, value)
        elif first == "{" or first == "[":
            written = rest.rstrip(" ")
            kind = _EMPTY_COLLECTIONS.get(written)
            if kind is None:
                raise _Decline
            end = start + len(written)
            if whole:
                value = {} if kind is JObject else []
            else:
                value = JObject(start, end, [], {}) if kind is JObject else JArray(start, end, [])
        elif first == "|":
            if rest not in _BLOCK_HEADERS:
                raise _Decline
            value, index, pos = _block_scalar(source, lines, index, pos, rest, value_at, col)
            if whole:
                value = value.value
            else:
                value.start += shift
                value.end += shift
        else:
            text = rest.rstrip(" ")
            if _PLAIN_START.match(text) is None or ": " in text or " #" in text or text[-1] == ":":
                raise _Decline
            end = start + len(text)
            if text[0] not in MAY_NOT_BE_STRING:
                value = text if whole else JString(start, end, text)
            elif text in _WORDS:
                value = _WORDS[text] if whole else JLiteral(start, end, _WORDS[text])
            elif _CANONICAL_INTEGER.fullmatch(text) is not None:
                value = int(text) if whole else JNumber(start, end, text)
            else:
                value, problem = plain_node(text, start, end)
                if problem is not None:
                    problems.append(problem)
                if whole:
                    value = value.value
        # (What `_add` does, written out: this runs for every scalar of the site.)
        if is_dash:
            block.items.append(value)
        elif whole:
            block.items[key] = value
        else:
            member = JMember(key, value)
            block.items.append(member)
            block.last[key.value] = member
    if expecting or not stack:
        raise _Decline
    end = len(source)
    while end > 0 and source[end - 1] in blanks:
        end -= 1
    end += shift
    while len(stack) > 1:
        done = _closed(stack.pop(), end)
        _add(stack[-1], done)
    return _closed(stack[0], end)


def _unescape(found: re.Match[str]) -> str:
    code = found.group(1) or found.group(2) or found.group(3)
    if code is None:
        replaced = DOUBLE_QUOTED_ESCAPES.get(found.group(4))
        if replaced is None:
            raise _Decline  # libyaml refuses it: the general reader tells where
        return replaced
    value = int(code, 16)
    if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
        raise _Decline
    return chr(value)


def _unescaped(inner: str) -> str:
    return _ESCAPE.sub(_unescape, inner) if "\\" in inner else inner


def _block_scalar(
    source: str, lines: list[str], index: int, pos: int, header: str, at: int, owner: int
) -> tuple[JString, int, int]:
    """`|` or `|-` at `at` and the lines from `index` (at `pos`) more indented than `owner`:
    the value (spans of `source`), and the index and start of the line after it. The first
    line sets the indentation; blank lines inside are empty lines."""
    count = len(lines)
    if index >= count:
        raise _Decline
    first = lines[index]
    indent = len(first) - len(first.lstrip(" "))
    if indent <= owner or indent == len(first):
        raise _Decline  # leading blank lines, or no content: the general reader reads it
    taken: list[str] = []
    trailing = 0  # blank lines after the last content line
    prefix = " " * indent
    while index < count:
        line = lines[index]
        if line.startswith(prefix) and len(line) > indent:
            taken.append(line[indent:])
            trailing = 0
        elif line.strip(" ") == "":
            taken.append("")
            trailing += 1
        else:
            break
        pos += len(line) + 1
        index += 1
    if index == count and lines[-1]:
        raise _Decline  # the text ends without a line break: libyaml's end mark differs
    if taken[len(taken) - 1 - trailing].strip(" ") == "":
        raise _Decline  # a last line of blanks: kept or not by rules not copied here
    if trailing:
        del taken[-trailing:]
    value = "\n".join(taken) + ("\n" if header == "|" else "")
    # The general reader's span: from `|` to libyaml's end mark (the start of the line
    # after the scalar), line breaks stripped.
    end = min(pos, len(source))
    while end > at and source[end - 1] == "\n":
        end -= 1
    return JString(at, end, value), index, pos
