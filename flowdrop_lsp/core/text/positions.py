"""Positions in a text: code-point offsets, (line, column) pairs, and the encodings clients count in.

The core speaks code-point offsets (Python string indices) everywhere. This module is the one
place that turns them into lines and columns, in code points (the CLI), UTF-16 code units (LSP's
default) or UTF-8 bytes (what Neovim negotiates), and back.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import accumulate
from operator import add
from typing import Literal, Protocol

from flowdrop_lsp.core.text.shifts import PendingShift

Encoding = Literal["utf-8", "utf-16", "utf-32"]

# LSP and editors end a line at \r\n, \n or a lone \r.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_WIDE = re.compile("[\U00010000-\U0010ffff]")
_NOT_ASCII = re.compile("[^\x00-\x7f]")


class Anchor(Protocol):
    """What a span moves with: the incremental engine anchors every span inside a node or edge
    to that element, so an edit elsewhere moves the element, not each of its spans."""

    def offset(self) -> int:
        """How far the anchor has moved since the spans were made."""
        ...


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open range `[start, end)` of code-point offsets into a document's text, as it was
    when the span was made. With a `base`, the text may have moved since: `resolve()` adds how
    far the anchor has moved. (`base` takes no part in equality: compare resolved spans.)"""

    start: int
    end: int
    base: Anchor | None = field(default=None, compare=False)

    def contains(self, offset: int) -> bool:
        return self.start <= offset <= self.end

    def resolve(self) -> Span:
        if self.base is None:
            return self
        at = self.base.offset()
        return Span(self.start + at, self.end + at)


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


_BLOCK = 1024  # code points per block of the unit counts: what one conversion scans at most
_SHORT = 4096  # a line segment shorter than this is simply counted (no index needed)


def _block_units(chunk: str, encoding: Encoding) -> list[int]:
    """Cumulative code units at each block boundary of `chunk` (first 0, last the total)."""
    if chunk.isascii():
        return [*range(0, len(chunk), _BLOCK), len(chunk)]
    totals = [0]
    running = 0
    for at in range(0, len(chunk), _BLOCK):
        running += units_in(chunk[at : at + _BLOCK], encoding)
        totals.append(running)
    return totals


class UnitCounts:
    """Code units before any offset of a chunked text, found in time independent of line
    length: per chunk, the cumulative units at every `_BLOCK` code points; across chunks, their
    running totals. A minified document is one line of megabytes: counting from the line start
    on each conversion made each one cost the whole line. Built lazily, per chunk and encoding;
    an edit forgets only the chunks it rebuilt."""

    __slots__ = ("chunks", "chunk_starts", "blocks", "before")

    def __init__(self, chunks: list[str], chunk_starts: list[int]) -> None:
        self.chunks = chunks
        self.chunk_starts = chunk_starts
        self.blocks: dict[str, list[list[int] | None]] = {}  # encoding → per chunk
        self.before: dict[str, list[int]] = {}  # encoding → units before each chunk, and total

    def chunks_replaced(
        self, first: int, last: int, count: int, chunks: list[str], chunk_starts: list[int]
    ) -> None:
        """Chunks `[first, last]` became `count` new ones (the lists are the text's, new)."""
        for encoding, per_chunk in list(self.blocks.items()):
            if len(per_chunk) - (last + 1 - first) + count == len(chunks):
                per_chunk[first : last + 1] = [None] * count
            else:  # chunks were dropped elsewhere too (empty ones): start over
                del self.blocks[encoding]
        self.chunks, self.chunk_starts = chunks, chunk_starts
        self.before.clear()

    def _blocks_of(self, index: int, encoding: Encoding) -> list[int]:
        per_chunk = self.blocks.get(encoding)
        if per_chunk is None:
            per_chunk = self.blocks[encoding] = [None] * len(self.chunks)
        found = per_chunk[index]
        if found is None:
            found = per_chunk[index] = _block_units(self.chunks[index], encoding)
        return found

    def _before(self, encoding: Encoding) -> list[int]:
        found = self.before.get(encoding)
        if found is None:
            found = [0]
            for index in range(len(self.chunks)):
                found.append(found[-1] + self._blocks_of(index, encoding)[-1])
            self.before[encoding] = found
        return found

    def _chunk_of(self, offset: int) -> int:
        return max(0, bisect_right(self.chunk_starts, offset) - 1)

    def units_before(self, offset: int, encoding: Encoding) -> int:
        """Code units in `encoding` of the text before `offset`."""
        if encoding == "utf-32":
            return offset
        index = self._chunk_of(offset)
        local = offset - self.chunk_starts[index]
        block = local // _BLOCK
        chunk = self.chunks[index]
        return (
            self._before(encoding)[index]
            + self._blocks_of(index, encoding)[block]
            + units_in(chunk[block * _BLOCK : local], encoding)
        )

    def offset_at(self, units: int, encoding: Encoding) -> int:
        """The first offset with at least `units` code units before it (a column inside a
        character rounds up past it, as `code_points_for_units` does); the end if none."""
        if encoding == "utf-32":
            return max(0, min(units, self.chunk_starts[-1] + len(self.chunks[-1])))
        if units <= 0:
            return 0
        before = self._before(encoding)
        index = bisect_left(before, units) - 1  # before[index] < units <= before[index + 1]
        if index + 1 >= len(before):
            return self.chunk_starts[-1] + len(self.chunks[-1])
        blocks = self._blocks_of(index, encoding)
        local = units - before[index]
        block = bisect_left(blocks, local) - 1  # blocks[block] < local <= blocks[block + 1]
        start = block * _BLOCK
        segment = self.chunks[index][start : start + _BLOCK]
        return (
            self.chunk_starts[index]
            + start
            + code_points_for_units(segment, local - blocks[block], encoding)
        )


def line_starts(text: str) -> list[int]:
    """Offsets where lines start (\r\n, \n or a lone \r end a line, as LSP says)."""
    return list(line_start_array(text))


_WINDOW = 1 << 20


def line_start_array(text: str) -> array[int]:
    """`line_starts` as a compact array, computed window by window so that a large document
    leaves no million temporary objects behind (they would keep the process's memory high)."""
    starts = array("q", [0])
    at = 0
    while at < len(text):
        found, at = _window_line_starts(text, at)
        starts.extend(found)
    return starts


def _window_line_starts(text: str, at: int) -> tuple[Iterable[int], int]:
    """The starts of the lines beginning in the window of `text` from `at` (about `_WINDOW`
    long, ending after a line break, so that no \r\n is split between two windows), and where
    the window ends."""
    end = text.find("\n", min(at + _WINDOW, len(text)) - 1)
    end = len(text) if end < 0 else end + 1
    if "\r" in text[at:end]:  # rare: exact but slower
        return (match.end() for match in _LINE_BREAK.finditer(text, at, end)), end
    # Without a \r, LSP's line breaks are exactly the \n that str.split("\n") splits at (it
    # ignores \v, \f, U+2028… as LSP does, unlike str.splitlines). Line k of the window starts
    # after the lengths of parts 0..k plus k+1 line breaks.
    parts = text[at:end].split("\n")
    return map(add, accumulate(map(len, parts[:-1])), range(at + 1, at + len(parts))), end


class Positions(Protocol):
    """What converts offsets to positions and back: LineIndex (an immutable text) and
    EditableText (a document being edited) both do."""

    def position(self, offset: int, encoding: Encoding = "utf-32") -> tuple[int, int]: ...

    def offset(self, line: int, column: int, encoding: Encoding = "utf-32") -> int: ...


class LineIndex:
    """Maps offsets to lines and back for one immutable text.

    Line starts are found as far as a question needs, a window at a time: a report on a 53 MB
    export whose one finding is on line 1 reads one window, not the 2 M lines after it."""

    __slots__ = ("text", "_starts", "_scanned", "_units")

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts = array("q", [0])
        self._scanned = 0  # the text before this offset has had its line starts found
        self._units: UnitCounts | None = None

    def _scan_to(self, offset: int) -> None:
        """Line starts found at least up to `offset` (and the start of the line after it)."""
        while self._scanned <= offset and self._scanned < len(self.text):
            found, self._scanned = _window_line_starts(self.text, self._scanned)
            self._starts.extend(found)

    @property
    def line_starts(self) -> list[int]:
        """Every line's start (the whole text scanned)."""
        self._scan_to(len(self.text))
        return list(self._starts)

    @property
    def units(self) -> UnitCounts:
        """The unit counts, made on the first conversion on a long line."""
        if self._units is None:
            self._units = UnitCounts([self.text], [0])
        return self._units

    def line_of(self, offset: int) -> int:
        self._scan_to(offset)
        return bisect_right(self._starts, offset) - 1

    def _start_of(self, line: int) -> int | None:
        """Where `line` starts (None: the text has fewer lines)."""
        while line >= len(self._starts) and self._scanned < len(self.text):
            self._scan_to(self._scanned)
        return self._starts[line] if line < len(self._starts) else None

    def line_end(self, line: int) -> int:
        """Offset of the end of `line`'s content (before its line break)."""
        end = self._start_of(line + 1)
        if end is not None:
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
        start = self._starts[line]
        if encoding == "utf-32":
            return line, offset - start
        if offset - start <= _SHORT:
            return line, units_in(self.text[start:offset], encoding)
        units = self.units
        return line, units.units_before(offset, encoding) - units.units_before(start, encoding)

    def offset(self, line: int, column: int, encoding: Encoding = "utf-32") -> int:
        """Offset of a 0-based (line, column); out-of-range values clamp as LSP asks."""
        if line < 0:
            return 0
        start = self._start_of(line)
        if start is None:
            return len(self.text)
        end = self.line_end(line)
        if end - start <= _SHORT:
            content = self.text[start:end]
            return start + code_points_for_units(content, max(column, 0), encoding)
        return _offset_on_long_line(self.units, start, end, column, encoding)


def _offset_on_long_line(
    units: UnitCounts, start: int, end: int, column: int, encoding: Encoding
) -> int:
    """`start + code_points_for_units(text[start:end], column)`, without scanning the line."""
    if column <= 0:
        return start
    return min(end, units.offset_at(units.units_before(start, encoding) + column, encoding))


_CHUNK = 65536


class EditableText:
    """A document's text that takes edits in time independent of its size.

    The text is kept in chunks of a few thousand code points (an edit rebuilds one or two
    chunks, never the whole string), and line starts in a PendingShift (an edit shifts every
    later line start lazily). `text` joins the chunks on demand, for whole-document parses.

    The line starts are indexed when first needed (an edit, a line asked for), not when the
    text arrives: until then `position` counts line breaks per chunk instead, so a document
    just opened has its few findings placed without waiting for an index of every line.
    """

    def __init__(self, text: str) -> None:
        self.chunks = [text[i : i + _CHUNK] for i in range(0, len(text), _CHUNK)] or [""]
        self._recount()
        self.units = UnitCounts(self.chunks, self.chunk_starts)
        self._joined: str | None = text
        self._lines: PendingShift | None = None
        # Line breaks before each chunk (and in all), for `position` before the index is made;
        # None: not counted yet, or the text has a \r (its line breaks are then indexed).
        self._breaks_before: list[int] | None = None

    def index_lines(self) -> None:
        """Make the line index now (when idle), so that the next edit does not wait for it."""
        self.lines  # noqa: B018 - made on first use

    @property
    def lines(self) -> PendingShift:
        """The line starts (made on first use)."""
        if self._lines is None:
            if self._joined is not None:
                starts = line_start_array(self._joined)
            elif any("\r" in chunk for chunk in self.chunks):  # a \r\n may straddle two chunks
                starts = line_start_array("".join(self.chunks))
            else:
                # Chunk by chunk: the text joined again would be a second copy of it (four bytes
                # a character with one emoji), most of it left resident once freed.
                starts = array("q", [0])
                for chunk, at in zip(self.chunks, self.chunk_starts, strict=True):
                    parts = chunk.split("\n")
                    starts.extend(
                        map(add, accumulate(map(len, parts[:-1])), range(at + 1, at + len(parts)))
                    )
            self._lines = PendingShift(starts)
        return self._lines

    def _recount(self) -> None:
        starts = []
        total = 0
        for chunk in self.chunks:
            starts.append(total)
            total += len(chunk)
        self.chunk_starts = starts
        self.length = total

    @property
    def text(self) -> str:
        if self._joined is None:
            self._joined = "".join(self.chunks)
        return self._joined

    def release(self) -> None:
        """Forget the joined text (the chunks hold it); `text` joins again when asked."""
        self._joined = None

    def __len__(self) -> int:
        return self.length

    def slice(self, start: int, end: int) -> str:
        start, end = max(0, start), min(end, self.length)
        if start >= end:
            return ""
        if self._joined is not None:
            return self._joined[start:end]
        first = bisect_right(self.chunk_starts, start) - 1
        last = bisect_right(self.chunk_starts, end - 1) - 1
        if first == last:
            base = self.chunk_starts[first]
            return self.chunks[first][start - base : end - base]
        pieces = [self.chunks[first][start - self.chunk_starts[first] :]]
        pieces.extend(self.chunks[first + 1 : last])
        pieces.append(self.chunks[last][: end - self.chunk_starts[last]])
        return "".join(pieces)

    def replace(self, start: int, end: int, new_text: str) -> None:
        """Replace `[start, end)` (code points) with `new_text`."""
        start = max(0, min(start, self.length))
        end = max(start, min(end, self.length))
        self._update_lines(start, end, new_text)
        first = max(0, bisect_right(self.chunk_starts, start) - 1)
        last = max(first, bisect_right(self.chunk_starts, max(end - 1, start)) - 1)
        base = self.chunk_starts[first]
        merged = (
            self.chunks[first][: start - base]
            + new_text
            + self.chunks[last][end - self.chunk_starts[last] :]
        )
        pieces = [merged[i : i + _CHUNK] for i in range(0, len(merged), _CHUNK)] or [""]
        self.chunks[first : last + 1] = pieces
        if len(self.chunks) > 1 and "" in pieces:
            self.chunks = [chunk for chunk in self.chunks if chunk] or [""]
        self._recount()
        self.units.chunks_replaced(first, last, len(pieces), self.chunks, self.chunk_starts)
        self._joined = None

    def _update_lines(self, start: int, end: int, new_text: str) -> None:
        self._breaks_before = None
        lines = self._lines
        if lines is None:
            return  # not indexed yet: indexed from the text as it will be, when needed
        # Line breaks of two characters (\r\n) may be split or joined by an edit next to a
        # \r or \n: recount the lines around such an edit from the text itself.
        touches_cr = (
            "\r" in new_text
            or self.slice(start - 1, start) == "\r"
            or self.slice(end, end + 1) == "\n"
            and new_text.endswith("\r")
        )
        first_inside = lines.bisect_right(start)  # first line start after `start`
        after = lines.bisect_right(end)  # first line start after `end`
        if touches_cr:
            new_full = self.slice(0, start) + new_text + self.slice(end, self.length)
            self._lines = PendingShift(line_start_array(new_full))
            return
        inserted = [start + m.end() for m in _LINE_BREAK.finditer(new_text)]
        lines.replace(first_inside, after, inserted)
        lines.shift_from(first_inside + len(inserted), len(new_text) - (end - start))

    # ----- positions (the LineIndex interface) ------------------------------------------------
    def line_of(self, offset: int) -> int:
        return self.lines.bisect_right(offset) - 1

    def line_start(self, line: int) -> int:
        return self.lines.value(line)

    def line_end(self, line: int) -> int:
        if line + 1 < len(self.lines):
            end = self.lines.value(line + 1)
            tail = self.slice(end - 2, end)
            if tail.endswith("\n"):
                end -= 1
                tail = tail[:-1]
            if tail.endswith("\r"):
                end -= 1
            return end
        return self.length

    def position(self, offset: int, encoding: Encoding = "utf-32") -> tuple[int, int]:
        offset = max(0, min(offset, self.length))
        counted = self._counted_line(offset) if self._lines is None else None
        if counted is not None:
            line, start = counted
        else:
            line = self.line_of(offset)
            start = self.lines.value(line)
        if encoding == "utf-32":
            return line, offset - start
        if offset - start <= _SHORT:
            return line, units_in(self.slice(start, offset), encoding)
        units = self.units
        return line, units.units_before(offset, encoding) - units.units_before(start, encoding)

    def _counted_line(self, offset: int) -> tuple[int, int] | None:
        """The line of `offset` and where it starts, found without the index: line breaks
        counted (each chunk's once, then within the chunk of `offset`), the start found back
        from `offset`. Only for a text whose line breaks are all \n (None otherwise: a \r
        may end a line alone, or pair with a \n across two chunks)."""
        before = self._breaks_before
        if before is None:
            if any("\r" in chunk for chunk in self.chunks):
                return None
            before = self._breaks_before = list(
                accumulate((chunk.count("\n") for chunk in self.chunks), initial=0)
            )
        index = max(0, bisect_right(self.chunk_starts, offset) - 1)
        local = offset - self.chunk_starts[index]
        chunk = self.chunks[index]
        line = before[index] + chunk.count("\n", 0, local)
        at = chunk.rfind("\n", 0, local)
        while at < 0 and index > 0 and before[index] > 0:
            index -= 1  # the line began in an earlier chunk (one with a line break)
            at = self.chunks[index].rfind("\n")
        return line, (self.chunk_starts[index] + at + 1) if at >= 0 else 0

    def offset(self, line: int, column: int, encoding: Encoding = "utf-32") -> int:
        if line < 0:
            return 0
        if line >= len(self.lines):
            return self.length
        start = self.lines.value(line)
        end = self.line_end(line)
        if end - start <= _SHORT:
            content = self.slice(start, end)
            return start + code_points_for_units(content, max(column, 0), encoding)
        return _offset_on_long_line(self.units, start, end, column, encoding)
