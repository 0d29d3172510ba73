"""The items of a block sequence found from the text's lines alone, and where a YAML syntax error
really is: what lets a broken Drupal YAML document be read item by item (core.syntax.yaml.reader)
as the JSON parser reads around a half-typed element.

Drupal writes `nodes:` and `edges:` as block sequences at the top level, one item per `-` line
at one indentation (`  -`), each item's value below it. Which lines belong to which item needs no
parser: a `-` line at the sequence's indentation starts an item, a non-blank line less indented
than it (a comment aside) ends the sequence, everything else belongs to the item above. A broken
item therefore cannot swallow its neighbours, and each item can be read on its own.

PyYAML reports an error where it gave up, often far from the typo: an unterminated quote runs on
to the next quote in the file. `unclosed_quote` finds the line where a quoted scalar opens and
is not closed (Drupal's dumper writes every quoted scalar on one line), and `error_place` puts
the error there, or at PyYAML's context mark where that is the line at fault (a key being typed),
keeping the mark where it gave up as related information.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flowdrop_lsp.core.syntax.tree import JArray, JObject, JsonValue

_DASH = re.compile(r"-(?=[ \t\r\n]|\Z)")
# What YAML counts as blank between tokens (white space and line breaks), where Python's
# `str.strip` would take a no-break space, a form feed or U+3000 too: those are content (or
# an error) to libyaml, and an element's span must keep them.
BLANKS = " \t\r\n"
# A top-level key whose value is a block below it: `nodes:` alone on its line.
_BLOCK_KEY = {
    name: re.compile(rf"^{name}[ \t]*:[ \t]*(?:#[^\n]*)?\r?$", re.M) for name in ("nodes", "edges")
}
# A line whose value opens with a quote: optional `- ` entries, an optional key, the quote.
_QUOTED_VALUE = re.compile(
    r"[ ]*(?:-[ ]+)*(?:(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"#\-?:,\[\]{}][^:#\n]*?)[ ]*:[ ]+)?(['\"])"
)
_BLOCK_SCALAR = re.compile(r"(?:^|[ ]|:)[|>][+\-0-9]*[ \t]*(?:#.*)?$")
# Contexts whose mark is the line at fault (the rest point at a collection's start, far away).
_AT_CONTEXT = (
    "while scanning a quoted scalar",
    "while scanning a simple key",
    "while parsing a flow mapping",
    "while parsing a flow sequence",
)


@dataclass(frozen=True)
class Body:
    """A block sequence's items: the offsets of their `-`, the column of those, and where the
    sequence ends (the start of the line that ends it, or the end of the text)."""

    dashes: list[int]
    column: int
    end: int


def scan_items(text: str, pos: int, column: int | None = None) -> Body | None:
    """The block sequence whose lines start at `pos` (a line start), None when its first
    non-blank, non-comment line is not a `-` item (at `column` when given).

    The sequence runs until a line at its parent's indentation (column 0: a top-level key; at
    column 0 itself, a line that is not a `-`). A `-` line starts an item when it is at the
    items' column, left of it (` -` among items at 2) or left of the current item's keys
    (`   -` under keys at 4): a mis-indented marker starts an item of its own, never the end of
    the sequence nor part of the item above. Any other line belongs to the item above."""
    dashes: list[int] = []
    length = len(text)
    keys: int | None = None  # the current item's key indentation (its first content's column)
    while pos < length:
        newline = text.find("\n", pos)
        eol = length if newline < 0 else newline + 1
        indent = pos
        while indent < eol and text[indent] == " ":
            indent += 1
        first = text[indent] if indent < eol else "\n"
        if first in "\r\n" or first == "#":
            pos = eol
            continue
        width = indent - pos
        if first == "\t" and dashes:  # a tab in indentation: the item above's (broken) line
            pos = eol
            continue
        dash = first == "-" and _DASH.match(text, indent) is not None
        if column is None:
            if not dash:
                return None
            column = width
        if width == 0 and not (dash and column == 0):
            break
        if dash and (width <= column or (keys is not None and width < keys)):
            dashes.append(indent)
            keys = _inline_content(text, indent, eol)
        elif not dashes:
            return None
        elif keys is None:
            keys = width
        pos = eol
    if column is None or not dashes:
        return None
    return Body(dashes, column, min(pos, length))


def _inline_content(text: str, dash: int, eol: int) -> int | None:
    """The column of what follows an item's `-` on its line (`- id: x`: the key's), or None."""
    at = dash + 1
    while at < eol and text[at] == " ":
        at += 1
    if at >= eol or text[at] in "\r\n#":
        return None
    return at - (text.rfind("\n", 0, dash) + 1)


_ID_LINE = re.compile(r"^( *)(?:-[ ]+)?id[ \t]*:[ \t]+(?=[^ \t\r\n#])", re.M)


def id_line(text: str, dash: int, stop: int) -> tuple[int, int] | None:
    """Where the value of a broken item's `id:` line starts and its line's content ends (the
    item's `-` at `dash`, its text up to `stop`): the first `id:` line at the item's key
    indentation (its first content's column), else the first at any indentation, else None.
    What lets a node item with a mis-indented line keep its id, as a half-typed JSON element
    keeps what it still says: its edges are then no dangling endpoints (R8)."""
    keys = value_start(text, dash, stop)
    key_column = keys - (text.rfind("\n", 0, keys) + 1)
    found = None
    line_start = text.rfind("\n", 0, dash) + 1
    for match in _ID_LINE.finditer(text, line_start, stop):
        if match.start() + len(match.group(1)) < dash:
            continue
        key_at = text.find("id", match.start() + len(match.group(1)), match.end())
        place = (match.end(), line_bounds(text, match.end())[1])
        if key_at - (text.rfind("\n", 0, key_at) + 1) == key_column:
            return place
        found = found or place
    return found


def has_other_line_break(text: str) -> bool:
    """Whether `text` holds a line break libyaml knows besides LF and CRLF (YAML 1.1: a lone
    CR, NEL, LS, PS), which the reads by lines here do not split at: its lines are then not
    the ones libyaml reads (a key after a NEL starts a line of its own), and only a whole read
    can tell what they are. (C scans, not a regex: a whole read asks it too.)"""
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return True
    return "\x85" in text or "\u2028" in text or "\u2029" in text


_LEFT_OF: dict[int, re.Pattern[str]] = {}


def has_line_left_of(text: str, column: int) -> bool:
    """Whether a line after the first of `text` holds content left of `column` (a multi-line
    quoted scalar can: a read by lines would then cut the text there)."""
    if column <= 0:
        return False
    pattern = _LEFT_OF.get(column)
    if pattern is None:
        pattern = _LEFT_OF[column] = re.compile(rf"\n {{0,{column - 1}}}[^ \r\n#]")
    return pattern.search(text) is not None


def is_block_key(text: str, name: str, key_start: int) -> bool:
    """Whether the key `name` at `key_start` is one `block_bodies` finds (`nodes:` alone on its
    line, at the top level): a list under another spelling (`'nodes':`, `? nodes`) is not read
    by its lines when the document is broken."""
    line_start = text.rfind("\n", 0, key_start) + 1
    return line_start == key_start and _BLOCK_KEY[name].match(text, line_start) is not None


def block_bodies(text: str) -> list[tuple[int, Body]]:
    """The top-level `nodes:`/`edges:` block sequences of a document: each key's offset, its
    items."""
    found = []
    for pattern in _BLOCK_KEY.values():
        for match in pattern.finditer(text):
            newline = text.find("\n", match.end())
            if newline < 0:
                continue
            body = scan_items(text, newline + 1)
            if body is not None:
                found.append((match.start(), body))
    found.sort(key=lambda pair: pair[0])
    return found


def blank(text: str, stretches: list[tuple[int, int]]) -> str:
    """`text` with every character of `stretches` but line breaks made a space (same offsets)."""
    parts = []
    at = 0
    for start, end in stretches:
        parts.append(text[at:start])
        parts.append(re.sub(r"[^\r\n]", " ", text[start:end]))
        at = end
    parts.append(text[at:])
    return "".join(parts)


def value_start(text: str, dash: int, stop: int) -> int:
    """Where the value of the item whose `-` is at `dash` starts (its first character that is
    neither blank nor a comment), or `stop`."""
    at = dash + 1
    while at < stop:
        char = text[at]
        if char in " \t\r\n":
            at += 1
        elif char == "#":
            newline = text.find("\n", at, stop)
            at = stop if newline < 0 else newline
        else:
            return at
    return stop


def item_start(before: str, column: int) -> int | None:
    """The offset in `before` (which starts at a line's start) of the `-` of the item whose
    value starts at `len(before)`: only blanks between them, the `-` at `column` with only
    spaces before it on its line. None when that is not so."""
    dash = len(before.rstrip(" \t\r\n")) - 1
    if dash < 0 or before[dash] != "-":
        return None
    line_start = before.rfind("\n", 0, dash) + 1
    if before[line_start:dash] != " " * column:
        return None
    return dash


def line_bounds(text: str, at: int) -> tuple[int, int]:
    """The start of the line holding `at`, and the end of its content (before trailing blanks)."""
    start = text.rfind("\n", 0, at) + 1
    newline = text.find("\n", at)
    end = len(text) if newline < 0 else newline
    return start, start + len(text[start:end].rstrip(BLANKS))


def _closes_on_its_line(line: str, quote: int) -> bool:
    mark = line[quote]
    at = quote + 1
    while at < len(line):
        char = line[at]
        if mark == '"' and char == "\\":
            at += 2
            continue
        if char == mark:
            if mark == "'" and line[at + 1 : at + 2] == "'":
                at += 2
                continue
            return True
        at += 1
    return False


def unclosed_quote(text: str, start: int, stop: int) -> int | None:
    """The offset of the first quote in `[start, stop)` that opens a scalar's value and is not
    closed on its line (block scalars' content skipped), or None."""
    at = text.rfind("\n", 0, start) + 1
    block_indent = -1  # inside a block scalar's content: lines indented more than this
    while at < stop:
        newline = text.find("\n", at)
        eol = len(text) if newline < 0 else newline
        line = text[at:eol]
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if block_indent >= 0:
            if not stripped.strip() or indent > block_indent:
                at = eol + 1
                continue
            block_indent = -1
        if stripped and not stripped.startswith("#"):
            match = _QUOTED_VALUE.match(line)
            if match is not None and not _closes_on_its_line(line, match.start(1)):
                return at + match.start(1)
            if _BLOCK_SCALAR.search(line.rstrip("\r")):
                block_indent = indent
        at = eol + 1
    return None


def _lone_word_above(text: str, at: int, start: int) -> int | None:
    """The start of the line above `at`'s when it is a plain word without `:` (a key being typed
    that runs on, as a plain scalar, into the key below it), else None."""
    line_start, _ = line_bounds(text, at)
    if line_start <= start:
        return None
    above_start, above_end = line_bounds(text, line_start - 1)
    if above_start < start:
        return None
    line = text[above_start:above_end]
    word = line.strip()
    if not word or word[0] in "-#'\"[{|>" or ":" in word:
        return None
    return above_start + len(line) - len(line.lstrip())


def _line_fits(levels: list[int], opened: int | None, width: int, dash: bool) -> bool:
    if opened is not None and (width == opened or (dash and width == opened - 2)):
        return True
    return width in levels


def misfit_before(text: str, block_from: int, given: int) -> int | None:
    """Where the line at fault starts (its first non-blank character) when PyYAML gave up at
    `given` on a mis-indented line or on the line after one (it reads a key one space off as
    a nested block, or as a plain scalar running on): that line, else the one above it, when
    its indentation is not one of the open blocks' levels, else None.

    The levels come from the lines from `block_from` (a line start: the document's, or an
    item's `-` line) on, as Drupal's dumper writes them: a line ending with `:` or a lone `-`
    opens a block two columns in (a `-` list may also sit at its key's column); any other line
    is at the level of a block still open. A line that fits neither changes no level."""
    levels: list[int] = []
    opened: int | None = None
    block_scalar = -1
    found: list[tuple[int, bool]] = []  # each content line's first character, and its fit
    _, stop = line_bounds(text, given)
    at = block_from
    while at <= stop and at < len(text):
        newline = text.find("\n", at)
        eol = len(text) if newline < 0 else newline
        line = text[at:eol].rstrip("\r")
        stripped = line.lstrip(" ")
        width = len(line) - len(stripped)
        line_start, at = at, eol + 1
        if not stripped or stripped.startswith("#"):
            continue
        if block_scalar >= 0:
            if width > block_scalar:
                continue
            block_scalar = -1
        dash = _DASH.match(stripped) is not None
        fits = not levels or _line_fits(levels, opened, width, dash)
        found.append((line_start + width, fits))
        if not fits:
            continue
        while levels and levels[-1] > width:
            levels.pop()
        if not levels or levels[-1] != width:
            levels.append(width)
        content = stripped.split(" #", 1)[0].rstrip()
        opened = None
        if dash:
            rest = content[1:].lstrip(" ")
            if not rest:
                opened = width + 2
            else:
                inner = width + len(content) - len(rest)
                levels.append(inner)
                opened = inner + 2 if rest.endswith(":") else None
        elif content.endswith(":"):
            opened = width + 2
        if _BLOCK_SCALAR.search(content):
            block_scalar = width
    for start, fits in reversed(found[-2:]):
        if not fits:
            return start
    return None


def _misfit(text: str, start: int, given: int, block_from: int | None) -> int | None:
    origin = line_bounds(text, start)[0] if block_from is None else block_from
    found = misfit_before(text, origin, given)
    return found if found is not None and found >= start else None


@dataclass(frozen=True)
class ErrorPlace:
    """Where a syntax error is reported, and where PyYAML gave up (-1: the same place)."""

    start: int
    end: int
    message: str
    gave_up: int


def error_place(
    text: str,
    problem: str,
    context: str | None,
    problem_at: int | None,
    context_at: int | None,
    start: int = 0,
    stop: int | None = None,
    block_from: int | None = None,
) -> ErrorPlace:
    """Where a PyYAML error in `text[start:stop]` belongs (offsets into `text`): an unterminated
    quote at or before the line PyYAML gave up on, else the context mark when its context is a
    scalar or a key being scanned, else a mis-indented line at or just above where PyYAML gave
    up (`misfit_before`, levels read from `block_from`, by default `start`'s line), else the
    problem mark. The span runs to the end of its line."""
    stop = len(text) if stop is None else stop
    given = problem_at if problem_at is not None else context_at
    given = start if given is None else max(start, min(given, stop))
    message = f"YAML: {problem}" + (f" ({context})" if context else "")
    _, given_line_end = line_bounds(text, given)
    quote = unclosed_quote(text, start, min(stop, given_line_end + 1))
    # `lab` typed above `metadata:` runs on into it as one plain scalar: the error is above.
    word = _lone_word_above(text, given, start) if problem.startswith("mapping values") else None
    if quote is not None:
        at = quote
        message = (
            f"YAML: unterminated quoted scalar: the quote is not closed on its line ({problem})"
        )
    elif context in _AT_CONTEXT and context_at is not None and start <= context_at < stop:
        at = context_at
    elif (misfit := _misfit(text, start, given, block_from)) is not None:
        at = misfit
    elif word is not None:
        at = word
    else:
        at = given
    _, line_end = line_bounds(text, at)
    end = max(line_end, at + 1) if at < len(text) and text[at] not in "\r\n" else at
    end = min(end, len(text))
    line_start, _ = line_bounds(text, at)
    gave_up = given if not line_start <= given <= line_end else -1
    return ErrorPlace(at, end, message, gave_up)


def items_align(text: str, root: JsonValue) -> bool:
    """Whether the items of a composed document's `nodes`/`edges` block sequences are its `-`
    lines (what a read by items would split: a multi-line scalar could hide one), under keys a
    read by items finds."""
    if not isinstance(root, JObject):
        return True
    for name in ("nodes", "edges"):
        member = root.member(name)
        value = member.value if member is not None else None
        if not isinstance(value, JArray) or not value.items or text[value.start] != "-":
            continue
        assert member is not None
        if not is_block_key(text, name, member.key.start):
            return False
        body = scan_items(text, text.rfind("\n", 0, value.start) + 1)
        if body is None or len(body.dashes) != len(value.items) or body.end < value.end:
            return False
    return True


def dumped_items_align(text: str, root: JsonValue) -> bool:
    """`items_align` of a document the dump reader read: its `nodes`/`edges` items are its
    `-` lines by construction (a block scalar's lines are indented past them), so only a
    quoted key (`'nodes':`, which a read by items does not find) can make them differ."""
    if not isinstance(root, JObject):
        return True
    for name in ("nodes", "edges"):
        member = root.member(name)
        value = member.value if member is not None else None
        listed = member is not None and isinstance(value, JArray) and bool(value.items)
        if listed and not is_block_key(text, name, member.key.start):  # type: ignore[union-attr]
            return False
    return True
