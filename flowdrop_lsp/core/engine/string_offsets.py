"""Where each character of a string is written in its element's text, kept between keystrokes.

A finding inside a 200-line prompt template (a print being typed leaves it broken) asks where
the template's characters are written (`ElementEditor.string_offsets`) after every keystroke.
Mapping every character again through the format's quoting cost ~1 ms there, for the one or two
characters a finding is placed on. The mapping is kept per string (`KeptOffsets`) and, when the
element's text changed by one edit strictly within the characters (`moved`), the new mapping
is the old one with the typed characters written as themselves and everything after them moved:
no character is mapped again. `CharacterOffsets` holds it as pieces of older mappings, each
read with what moves it, so that moving costs what the edit does, not what the string's length
does; past `MAX_PIECES` it is mapped again whole.

The moved mapping is taken only when the string read again from the new text is exactly the
old value with the typed characters put in (and its token starts where it did and ends moved
by the edit): the typed characters are then written as themselves (an escape, a folded or
stripped line break, a quote would make the value differ), and what precedes and follows the
edit is written as before. tests/core/engine/test_string_offsets_moved.py compares it with a
fresh mapping after every keystroke of typed and random edits, JSON and YAML.
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import overload

from flowdrop_lsp.core.syntax.tree import JString
from flowdrop_lsp.core.text.changes import common_prefix, common_suffix

# A piece of a mapping: from character `first` on, `source[start + k] + add` for character
# `first + k` (up to the next piece's first character).
Piece = tuple[int, Sequence[int], int, int]
# Edits moved into a mapping before it is mapped again whole (each adds at most two pieces).
MAX_PIECES = 24
# Strings whose mapping is kept: the ones being typed into, a few nodes at a time.
KEPT = 16


class CharacterOffsets(Sequence[int]):
    """A string's character offsets (`StringOffsets.offsets`: one per character, then the end),
    read from pieces of older mappings without copying them."""

    __slots__ = ("_firsts", "_pieces", "_length")

    def __init__(self, pieces: Sequence[Piece], length: int) -> None:
        self._pieces = tuple(pieces)
        self._firsts = tuple(piece[0] for piece in self._pieces)
        self._length = length

    @classmethod
    def of(cls, offsets: Sequence[int]) -> CharacterOffsets:
        return cls(((0, offsets, 0, 0),) if offsets else (), len(offsets))

    @property
    def pieces(self) -> int:
        return len(self._pieces)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...

    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._length)))
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        first, source, start, add = self._pieces[bisect_right(self._firsts, index) - 1]
        return source[start + index - first] + add

    def __iter__(self) -> Iterator[int]:
        pieces = self._pieces
        for k, (first, source, start, add) in enumerate(pieces):
            stop = pieces[k + 1][0] if k + 1 < len(pieces) else self._length
            for offset in islice(source, start, start + stop - first):
                yield offset + add

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(other) == self._length and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"CharacterOffsets({tuple(self)!r})"

    def shifted(self, add: int) -> CharacterOffsets:
        """Every offset moved by `add`."""
        if not add:
            return self
        moved = tuple((first, source, start, at + add) for first, source, start, at in self._pieces)
        return CharacterOffsets(moved, self._length)

    def index_of(self, offset: int) -> int | None:
        """The character written at `offset` (the end's index for the end), if one starts there."""
        index = bisect_left(self, offset)
        return index if index < self._length and self[index] == offset else None

    def edited(
        self, first: int, stop: int, written_at: int, count: int, delta: int
    ) -> CharacterOffsets:
        """Characters `[first, stop)` replaced by `count` written as themselves from offset
        `written_at`; those after moved by `delta`."""
        pieces = [piece for piece in self._pieces if piece[0] < first]
        if count:
            typed = range(written_at, written_at + count)
            if pieces:
                at, source, start, add = pieces[-1]
                if (
                    isinstance(source, range)
                    and (start, add) == (0, 0)
                    and source.stop == written_at
                    and first - at == len(source)
                ):
                    # Typing on: the characters typed just before it go on.
                    pieces[-1] = (at, range(source.start, written_at + count), 0, 0)
                    typed = range(0)
            if typed:
                pieces.append((first, typed, 0, 0))
        moved_by = first + count - stop
        for k, (at, source, start, add) in enumerate(self._pieces):
            end = self._pieces[k + 1][0] if k + 1 < len(self._pieces) else self._length
            if end <= stop:
                continue
            skip = max(stop - at, 0)
            pieces.append((at + skip + moved_by, source, start + skip, add + delta))
        return CharacterOffsets(pieces, self._length + moved_by)


def moved(
    old_text: str,
    old_value: JString,
    old_offsets: CharacterOffsets,
    text: str,
    value: JString,
) -> CharacterOffsets | None:
    """`old_offsets` (the characters of `old_value` in `old_text`) moved to `value` in `text`,
    when the two texts differ by one edit within the string's characters that wrote the
    characters it added as themselves; None otherwise (map them again)."""
    same_start = common_prefix(old_text, text)
    same_end = common_suffix(old_text, text, min(len(old_text), len(text)) - same_start)
    old_end, new_end = len(old_text) - same_end, len(text) - same_end
    delta = new_end - old_end
    if value.value == old_value.value:
        # An edit beside the string (a label typed in the same node): it moves or stays.
        if old_end <= old_value.start and value.start == old_value.start + delta:
            return old_offsets.shifted(delta)
        if same_start >= old_value.end and value.start == old_value.start:
            return old_offsets if value.end == old_value.end else None
    if value.start != old_value.start or value.end != old_value.end + delta:
        return None
    first = old_offsets.index_of(same_start)
    stop = old_offsets.index_of(old_end)
    if first is None or stop is None or stop < first:
        return None
    typed = text[same_start:new_end]
    old = old_value.value
    if value.value != old[:first] + typed + old[stop:]:
        return None
    return old_offsets.edited(first, stop, same_start, len(typed), delta)


class KeptOffsets:
    """The mappings made lately, by string (its element and path), with the text and value
    they were made from."""

    def __init__(self) -> None:
        self._kept: OrderedDict[object, tuple[str, int, JString, CharacterOffsets]] = OrderedDict()
        self._lock = threading.Lock()  # a document's findings and an editor request may overlap

    def offsets(
        self,
        key: object,
        text: str,
        column: int,
        value: JString,
        mapped: Callable[[str, int, JString], Sequence[int] | None],
    ) -> CharacterOffsets | None:
        """The offsets of `value`'s characters in `text` (read at `column`): the kept ones
        for `key`, moved by the edit when they can be, else mapped (`mapped`: the
        reader's)."""
        with self._lock:
            kept = self._kept.get(key)
        found: CharacterOffsets | None = None
        if kept is not None and kept[1] == column:
            old_text, _, old_value, old_offsets = kept
            if old_text is text or old_text == text:
                same = (old_value.start, old_value.end, old_value.value)
                if same == (value.start, value.end, value.value):
                    found = old_offsets
            else:
                found = moved(old_text, old_value, old_offsets, text, value)
                if found is not None and found.pieces > MAX_PIECES:
                    found = None
        if found is None:
            offsets = mapped(text, column, value)
            if offsets is None:
                return None
            found = CharacterOffsets.of(offsets)
        with self._lock:
            self._kept[key] = (text, column, value, found)
            self._kept.move_to_end(key)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return found
