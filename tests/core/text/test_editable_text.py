"""EditableText and PendingShift against the plain string and LineIndex they stand in for."""

from __future__ import annotations

import random
import re
from array import array
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given
from hypothesis import strategies as st

import flowdrop_lsp.core.text.positions as text_module
from flowdrop_lsp.core.text.positions import (
    EditableText,
    Encoding,
    LineIndex,
    PendingShift,
    Positions,
    line_starts,
)

PIECES = ["a", "b", "\n", "\r\n", "\r", "数", "😀", " ", "{", "\n\n"]


@pytest.mark.parametrize("chunk", [4, 65536])
def test_editable_text_matches_a_plain_string(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    monkeypatch.setattr(text_module, "_CHUNK", chunk)
    rng = random.Random(chunk)
    for _ in range(200):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 60)))
        editable = EditableText(text)
        for _ in range(25):
            start = rng.randint(0, len(text))
            end = rng.randint(start, min(len(text), start + 6))
            new = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 4)))
            text = text[:start] + new + text[end:]
            editable.replace(start, end, new)
            index = LineIndex(text)
            assert editable.text == text
            assert [
                editable.lines.value(i) for i in range(len(editable.lines))
            ] == index.line_starts
            for offset in range(0, len(text) + 1, 2):
                for encoding in ("utf-16", "utf-8"):
                    assert editable.position(offset, encoding) == index.position(offset, encoding)
            for line in range(len(index.line_starts) + 1):
                assert editable.offset(line, 3, "utf-16") == index.offset(line, 3, "utf-16")
            first = rng.randint(0, len(text))
            assert editable.slice(first, first + 7) == text[first : first + 7]


@pytest.mark.parametrize("chunk", [1, 3, 4, 65536])
def test_positions_before_the_line_index_match_a_plain_string(
    monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """A text just read has no line index: `position` counts line breaks per chunk instead
    (\n only; a \r makes it index), and edits made before any index leave none. Every answer
    is LineIndex's, and no index is made for it unless the text held a \r (once made, the
    index is kept up to date)."""
    monkeypatch.setattr(text_module, "_CHUNK", chunk)
    rng = random.Random(chunk)
    for _ in range(150):
        pieces = PIECES if rng.random() < 0.3 else [p for p in PIECES if "\r" not in p]
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 60)))
        editable = EditableText(text)
        held_cr = False
        for _ in range(4):
            index = LineIndex(text)
            held_cr = held_cr or "\r" in text
            for offset in range(-1, len(text) + 2):
                for encoding in ("utf-16", "utf-8", "utf-32"):
                    assert editable.position(offset, encoding) == index.position(offset, encoding)
            assert (editable._lines is None) == (not held_cr)
            start = rng.randint(0, len(text))
            end = rng.randint(start, min(len(text), start + 6))
            new = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
            text = text[:start] + new + text[end:]
            editable.replace(start, end, new)
        editable.index_lines()
        assert [editable.lines.value(i) for i in range(len(editable.lines))] == (
            LineIndex(text).line_starts
        )


@pytest.mark.parametrize("max_marks", [1, 3, 48])
def test_pending_shift_matches_a_plain_list(
    monkeypatch: pytest.MonkeyPatch, max_marks: int
) -> None:
    monkeypatch.setattr(PendingShift, "MAX_MARKS", max_marks)
    rng = random.Random(max_marks)
    for trial in range(500):
        truth = sorted(rng.sample(range(1000), rng.randint(0, 30)))
        shifted = PendingShift(array("q", truth) if trial % 2 else list(truth))
        for _ in range(40):
            if rng.random() < 0.5 and truth:
                index, delta = rng.randint(0, len(truth)), rng.randint(-5, 5)
                truth[index:] = [value + delta for value in truth[index:]]
                shifted.shift_from(index, delta)
            else:
                start = rng.randint(0, len(truth))
                stop = rng.randint(start, min(len(truth), start + 3))
                values = [rng.randint(-50, 1500) for _ in range(rng.randint(0, 3))]
                truth[start:stop] = values
                shifted.replace(start, stop, values)
            assert [shifted.value(i) for i in range(len(truth))] == truth


def test_line_starts_by_windows_match_the_regex(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_module, "_WINDOW", 7)
    rng = random.Random(3)
    for _ in range(2000):
        text = "".join(rng.choice("ab\n\r\u2028") for _ in range(rng.randint(0, 40)))
        assert line_starts(text) == LineIndex(text).line_starts


# ----- positions on long lines: exact against a naive oracle ---------------------------------
# Emoji (surrogate pairs in UTF-16, 4 bytes in UTF-8), CJK (3 bytes), a combining mark, ASCII,
# and every line break LSP knows.
LONG_PIECES = ["a", "{", '"', "😀", "数", "e\u0301", "\u0301", "\n", "\r\n", "\r", "é"]
ENCODINGS: tuple[Encoding, ...] = ("utf-8", "utf-16", "utf-32")


def naive_line_starts(text: str) -> list[int]:
    return [0, *(match.end() for match in re.finditer(r"\r\n|\r|\n", text))]


def oracle_position(text: str, offset: int, encoding: Encoding) -> tuple[int, int]:
    offset = max(0, min(offset, len(text)))
    starts = naive_line_starts(text)
    line = max(i for i, start in enumerate(starts) if start <= offset)
    return line, naive_units(text[starts[line] : offset], encoding)


def naive_units(segment: str, encoding: Encoding) -> int:
    if encoding == "utf-32":
        return len(segment)
    if encoding == "utf-16":
        return len(segment.encode("utf-16-le", "surrogatepass")) // 2
    return len(segment.encode("utf-8", "surrogatepass"))


def oracle_offset(text: str, line: int, column: int, encoding: Encoding) -> int:
    starts = naive_line_starts(text)
    if line < 0:
        return 0
    if line >= len(starts):
        return len(text)
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    content = text[starts[line] : end]
    if line + 1 < len(starts):  # only the line's own break goes, not a \r before a \r\n's \r
        content = content[:-2] if content.endswith("\r\n") else content[:-1]
    counted = 0
    for index, char in enumerate(content):
        if counted >= column:
            return starts[line] + index
        counted += naive_units(char, encoding)
    return starts[line] + len(content)


def check_against_oracle(
    text: str, positions: Positions, rng: random.Random, samples: int = 12
) -> None:
    offsets = {0, len(text), *(rng.randint(0, len(text)) for _ in range(samples))}
    for offset in sorted(offsets):
        for encoding in ENCODINGS:
            line, column = oracle_position(text, offset, encoding)
            assert positions.position(offset, encoding) == (line, column), (offset, encoding)
            assert positions.offset(line, column, encoding) == oracle_offset(
                text, line, column, encoding
            )
            for nudge in (-1, 1, 3):  # inside a surrogate pair or a UTF-8 sequence; past the end
                assert positions.offset(line, column + nudge, encoding) == oracle_offset(
                    text, line, column + nudge, encoding
                ), (line, column + nudge, encoding)


@contextmanager
def small_blocks() -> Iterator[None]:
    """Tiny chunks, blocks and 'long line' threshold: short texts take the long-line paths."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(text_module, "_CHUNK", 7)
        patch.setattr(text_module, "_BLOCK", 3)
        patch.setattr(text_module, "_SHORT", 2)
        yield


long_texts = st.lists(st.sampled_from(LONG_PIECES), max_size=120).map("".join)
edits = st.lists(
    st.tuples(st.integers(0, 10_000), st.integers(0, 6), long_texts.map(lambda s: s[:5])),
    max_size=12,
)


@given(long_texts, edits, st.randoms(use_true_random=False))
def test_positions_on_long_lines_match_the_oracle_after_edits(
    text: str, changes: list[tuple[int, int, str]], rng: random.Random
) -> None:
    with small_blocks():
        editable = EditableText(text)
        check_against_oracle(text, LineIndex(text), rng)
        check_against_oracle(text, editable, rng)
        for at, length, new in changes:
            start = at % (len(text) + 1)
            end = min(len(text), start + length)
            text = text[:start] + new + text[end:]
            editable.replace(start, end, new)
            check_against_oracle(text, editable, rng)


def test_a_real_long_minified_line_after_many_edits() -> None:
    """Default block sizes, a 40k-code-point line (the shape of an API export), edits of up
    to a whole chunk."""
    rng = random.Random(7)
    text = "".join(rng.choice(LONG_PIECES[:7]) for _ in range(40_000))
    editable = EditableText(text)
    check_against_oracle(text, LineIndex(text), rng, samples=4)
    for _ in range(8):
        start = rng.randint(0, len(text))
        end = min(len(text), start + rng.randint(0, 70_000 if rng.random() < 0.2 else 5))
        new = "".join(rng.choice(LONG_PIECES) for _ in range(rng.randint(0, 9)))
        text = text[:start] + new + text[end:]
        editable.replace(start, end, new)
        assert editable.text == text
        check_against_oracle(text, editable, rng, samples=2)


def test_an_edit_forgets_only_the_unit_counts_of_the_chunks_it_rebuilt() -> None:
    text = "数😀a" * text_module._CHUNK  # three chunks, one line
    editable = EditableText(text)
    assert editable.position(len(text), "utf-16") == (0, 4 * text_module._CHUNK)
    last = editable.units.blocks["utf-16"][-1]
    editable.replace(10, 10, "x")  # the first chunk grows past the chunk size: it splits in two
    assert len(editable.chunks) == 4
    assert editable.units.blocks["utf-16"][-1] is last  # kept, not recounted
    assert editable.position(len(text) + 1, "utf-16") == (0, 4 * text_module._CHUNK + 1)
