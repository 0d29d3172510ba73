"""Where each character of a YAML string scalar is written in the text, as libyaml reads it.

A finding inside a string (a misspelt filter at character 17 of a template) is placed on the
character that writes it. Every style Drupal's dumper writes, and the ones people type:

- plain and quoted scalars fold their lines: a line break between two lines writes one space
  (placed at the break), each empty line after it one line feed (at its own break); the
  blanks around a break and the indentation of a continuation line write nothing;
- single-quoted `''` writes one quote (placed at the first); double-quoted escapes (`\\n`,
  `\\x41`, `\\u00e9`, `\\U0001f600`, `\\ `…) write one character each, placed at the backslash,
  and an escaped line break (`\\` at the end of a line) writes nothing;
- block scalars (`|`, `>`, with a chomping and an indentation indicator) write their lines
  without the indentation; a kept line break is placed at the break, a folded one (`>`) too.

The same rules as libyaml's scanner (`yaml_parser_scan_plain_scalar`, `…_flow_scalar`,
`…_block_scalar`), applied to the scalar's text; the characters found must be the value read,
else the answer is None (never a wrong place): an alias, a line break YAML 1.1 has besides LF
and CRLF (NEL, LS, PS, a lone CR), or anything read otherwise. Offsets are code points.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from flowdrop_lsp.core.syntax.tree import JString

# Characters written and the offset the first is written from (the rest follow it one to one:
# a block scalar's line is one entry, not one per character).
_Written = list[tuple[str, int]]

# YAML's escapes in a double-quoted scalar (libyaml's list) and what each stands for.
DOUBLE_QUOTED_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "'": "'",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX_LENGTHS = {"x": 2, "u": 4, "U": 8}
_HEX = re.compile(r"[0-9a-fA-F]+")
# Line breaks libyaml reads besides LF and CRLF: a scalar holding one is not mapped.
_OTHER_BREAKS = re.compile("\r(?!\n)|[\x85\u2028\u2029]")
_BLOCK_HEADER = re.compile(r"([|>])(?:([+-])([1-9])?|([1-9])([+-])?)?[ \t]*(?:#[^\r\n]*)?")


def yaml_string_offsets(text: str, column: int, value: JString) -> tuple[int, ...] | None:
    """For each character of `value` (a string scalar read from `text`, whose first line starts
    `column` characters into its line) the offset in `text` of what writes it, then the offset
    just after the last one (a quoted scalar: its closing quote); None when that cannot be told
    exactly (see the module docstring)."""
    start, end = value.start, value.end
    if not (0 <= start < end <= len(text)):
        return None if value.value else _empty(text, value)
    first = text[start]
    if first in "*&!":
        # An alias: the value is the anchored scalar's, written elsewhere. (An anchor or a tag
        # before a scalar is not part of its span: the reader skips them.)
        return None
    if first in "|>":
        return _block(text, start, column, value.value)
    if _OTHER_BREAKS.search(text, start, end):
        return None
    if first in "'\"":
        if end - start < 2 or text[end - 1] != first:
            return None
        written = _flow(text, start + 1, end - 1, first)
        stop = end - 1
    else:
        written = _flow(text, start, end, "")
        stop = end
    return _checked(written, value.value, stop)


def _empty(text: str, value: JString) -> tuple[int, ...] | None:
    """An empty value with an empty span (nothing is written): its one offset, its place."""
    return (value.start,) if 0 <= value.start <= len(text) else None


def _checked(written: _Written | None, expected: str, stop: int) -> tuple[int, ...] | None:
    if written is None or "".join(chars for chars, _ in written) != expected:
        return None
    offsets: list[int] = []
    for chars, at in written:
        if len(chars) == 1:
            offsets.append(at)
        else:
            offsets.extend(range(at, at + len(chars)))
    offsets.append(stop)
    return tuple(offsets)


def _break_length(text: str, at: int) -> int:
    return 2 if text.startswith("\r\n", at) else 1


def _flow(text: str, at: int, stop: int, style: str) -> _Written | None:
    """The characters a plain (`style` "") or quoted (`'`, `"`) scalar's text `[at, stop)`
    writes (inside its quotes), with where each is written from."""
    written: _Written = []
    blanks: _Written = []  # blanks since the last character, before any break: kept if no break
    breaks: list[int] = []  # the line breaks since the last character
    escaped = False  # the run of blanks began with an escaped line break (`\` at a line's end)

    def fold() -> None:
        nonlocal escaped
        if escaped:
            written.extend(("\n", place) for place in breaks)
        elif len(breaks) == 1:
            written.append((" ", breaks[0]))
        elif breaks:
            written.extend(("\n", place) for place in breaks[1:])
        else:
            written.extend(blanks)
        blanks.clear()
        breaks.clear()
        escaped = False

    while at < stop:
        char = text[at]
        if char in " \t":
            if not breaks and not escaped:
                blanks.append((char, at))
            at += 1
            continue
        if char in "\r\n":
            breaks.append(at)
            at += _break_length(text, at)
            continue
        fold()
        if style == "'" and char == "'":
            if text[at + 1 : at + 2] != "'":
                return None
            written.append(("'", at))
            at += 2
        elif style == '"' and char == "\\":
            after = text[at + 1 : at + 2]
            if after in ("\r", "\n"):
                escaped = True
                at += 1 + _break_length(text, at + 1)
                continue
            escape = _escape(text, at, stop)
            if escape is None:
                return None
            written.append((escape[0], at))
            at += escape[1]
        else:
            written.append((char, at))
            at += 1
    if style:
        fold()  # a quoted scalar's last blanks (or folded break) are written; a plain one's not
    return written


def _escape(text: str, at: int, stop: int) -> tuple[str, int] | None:
    """The character the escape at `at` (its backslash) writes, and its length."""
    kind = text[at + 1 : at + 2]
    simple = DOUBLE_QUOTED_ESCAPES.get(kind)
    if simple is not None:
        return simple, 2
    length = _HEX_LENGTHS.get(kind)
    if length is None or at + 2 + length > stop:
        return None
    digits = text[at + 2 : at + 2 + length]
    if not _HEX.fullmatch(digits):
        return None
    code = int(digits, 16)
    if code > 0x10FFFF:
        return None
    return chr(code), 2 + length


def _block(text: str, start: int, column: int, expected: str) -> tuple[int, ...] | None:
    """A block scalar (`|`, `>`): its header at `start`, its lines below."""
    header = _BLOCK_HEADER.match(text, start)
    if header is None:
        return None
    at = header.end()
    if (at < len(text) and text[at] not in "\r\n") or _OTHER_BREAKS.search(text, start, at):
        return None
    literal = header.group(1) == "|"
    chomping = header.group(2) or header.group(5) or ""
    indicator = header.group(3) or header.group(4)
    # The header's line is indented `floor`: the collection holding the scalar is indented at
    # least so, and its content further (the text's first line starts `column` into its line)
    # — unless the header starts its line (`key:` above it): then nothing is known.
    line_start = text.rfind("\n", 0, start) + 1
    floor = (0 if line_start else column) + _spaces(text, line_start, start)
    if line_start + _spaces(text, line_start, start) == start:
        floor = 0
    lines = _lines(text, at, floor)
    if lines is None:
        return None
    # The content's indentation, as libyaml tells it: an indicator counts from the enclosing
    # collection's indentation, which this does not know, and without one a first line less
    # indented than that collection's content leaves the scalar empty. Each candidate is tried;
    # all that read the value must agree.
    deepest = max([floor, *(spaces for spaces, _, _, _ in lines)])
    if indicator:
        candidates: Iterable[int] = range(floor + 1, deepest + 2)
    else:
        leading = _leading(lines)
        auto = max([floor + 1, *(spaces for spaces, _, _, _ in leading)])
        candidates = (auto, leading[-1][0] + 1) if leading else (auto,)
    found: tuple[int, ...] | None = None
    for indent in candidates:
        written = _block_lines(text, lines, indent, literal, chomping)
        offsets = _checked(written[0], expected, written[1])
        if offsets is None:
            continue
        if found is not None and found != offsets:
            return None
        found = offsets
    return found


def _spaces(text: str, at: int, stop: int) -> int:
    begin = at
    while at < stop and text[at] == " ":
        at += 1
    return at - begin


# A line below a block header: the count of its leading spaces, where its content starts, where
# its line break is (its end) and that break's length (0 at the end of the text).
_Line = tuple[int, int, int, int]


def _lines(text: str, at: int, floor: int) -> list[_Line] | None:
    """The lines after the header line ending at `at` (its line break), to the first line with
    content indented `floor` or less (which no block scalar there holds)."""
    lines: list[_Line] = []
    if at >= len(text):
        return lines
    at += _break_length(text, at)
    while at < len(text):
        line_end = text.find("\n", at)
        line_end = len(text) if line_end < 0 else line_end
        length = 1 if line_end < len(text) else 0
        if line_end > at and text[line_end - 1] == "\r" and length:
            line_end, length = line_end - 1, 2
        content = at + _spaces(text, at, line_end)
        if content < line_end and content - at <= floor:
            break
        if _OTHER_BREAKS.search(text, at, line_end):
            return None
        lines.append((content - at, content, line_end, length))
        at = line_end + length
    return lines


def _leading(lines: list[_Line]) -> list[_Line]:
    """The lines up to the first with content (spaces only are no content), that one included."""
    leading: list[_Line] = []
    for line in lines:
        leading.append(line)
        if line[1] < line[2]:
            break
    return leading


def _block_lines(
    text: str, lines: list[_Line], indent: int, literal: bool, chomping: str
) -> tuple[_Written, int]:
    """The characters the lines of a block scalar write at `indent`, and the offset after the
    last one written (libyaml's `yaml_parser_scan_block_scalar`)."""
    written: _Written = []
    leading_break: tuple[int, int] | None = None  # the break ending the last content line
    trailing: list[tuple[int, int]] = []  # the breaks of the empty lines since
    leading_blank = False
    after = -1
    for spaces, content, line_end, length in lines:
        if spaces <= indent and content == line_end:  # an empty line
            if length:
                trailing.append((line_end, length))
            continue
        if spaces < indent:
            break  # the scalar ended above
        begin = content - (spaces - indent)
        trailing_blank = text[begin] in " \t"
        if not literal and leading_break is not None and not leading_blank and not trailing_blank:
            if not trailing:
                written.append((" ", leading_break[0]))
        elif leading_break is not None:
            written.append(("\n", leading_break[0]))
        written.extend(("\n", place) for place, _ in trailing)
        trailing.clear()
        leading_blank = trailing_blank
        if begin < line_end:
            written.append((text[begin:line_end], begin))
        after = line_end
        leading_break = (line_end, length) if length else None
        if leading_break is None:
            break  # the end of the text
    if chomping != "-" and leading_break is not None:
        written.append(("\n", leading_break[0]))
        after = leading_break[0] + leading_break[1]
    if chomping == "+" and trailing:
        written.extend(("\n", place) for place, _ in trailing)
        after = trailing[-1][0] + trailing[-1][1]
    if not written:
        return written, (lines[0][1] if lines else len(text))
    return written, after
