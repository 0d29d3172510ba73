"""Positions in a text: code-point offsets, (line, column) pairs, and the encodings clients count in.

The core speaks code-point offsets (Python string indices) everywhere. This module is the one
place that turns them into lines and columns, in code points (the CLI), UTF-16 code units (LSP's
default) or UTF-8 bytes (what Neovim negotiates), and back.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Literal

Encoding = Literal["utf-8", "utf-16", "utf-32"]

# LSP and editors end a line at \r\n, \n or a lone \r.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_WIDE = re.compile("[\U00010000-\U0010ffff]")
_NOT_ASCII = re.compile("[^\x00-\x7f]")


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open range `[start, end)` of code-point offsets into a document's text."""

    start: int
    end: int

    def contains(self, offset: int) -> bool:
        return self.start <= offset <= self.end


def units_in(segment: str, encoding: Encoding) -> int:
    """How many code units `segment` takes in `encoding`."""
    if encoding == "utf-32" or not _NOT_ASCII.search(segment):
        return len(segment)
    if encoding == "utf-16":
        return len(segment) + len(_WIDE.findall(segment))
    return len(segment.encode("utf-8", "surrogatepass"))


def code_points_for_units(segment: str, units: int, encoding: Encoding) -> int:
    """How many code points of `segment` fit in its first `units` code units (clamped)."""
    if encoding == "utf-32" or not _NOT_ASCII.search(segment):
        return min(units, len(segment))
    counted = 0
    for index, char in enumerate(segment):
        if counted >= units:
            return index
        code = ord(char)
        if encoding == "utf-16":
            counted += 2 if code > 0xFFFF else 1
        else:
            counted += 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
    return len(segment)


class LineIndex:
    """Maps offsets to lines and back for one immutable text."""

    __slots__ = ("text", "line_starts")

    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = [0]
        self.line_starts.extend(match.end() for match in _LINE_BREAK.finditer(text))

    def line_of(self, offset: int) -> int:
        return bisect_right(self.line_starts, offset) - 1

    def line_end(self, line: int) -> int:
        """Offset of the end of `line`'s content (before its line break)."""
        if line + 1 < len(self.line_starts):
            end = self.line_starts[line + 1]
            text = self.text
            if end > 0 and text[end - 1] == "\n":
                end -= 1
            if end > 0 and text[end - 1] == "\r":
                end -= 1
            return end
        return len(self.text)

    def position(self, offset: int, encoding: Encoding = "utf-32") -> tuple[int, int]:
        """0-based (line, column) of `offset`, the column counted in `encoding`'s units."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.line_starts[line]
        return line, units_in(self.text[start:offset], encoding)

    def offset(self, line: int, column: int, encoding: Encoding = "utf-32") -> int:
        """Offset of a 0-based (line, column); out-of-range values clamp as LSP asks."""
        if line < 0:
            return 0
        if line >= len(self.line_starts):
            return len(self.text)
        start = self.line_starts[line]
        content = self.text[start : self.line_end(line)]
        return start + code_points_for_units(content, max(column, 0), encoding)
