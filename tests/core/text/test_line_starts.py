"""Line starts of a whole text (text.line_start_array): only \\r\\n, \\n and a lone \\r end a
line (LSP), never the other characters str.splitlines breaks at (\\v, \\f, U+001C–U+001E,
U+0085, U+2028, U+2029), with or without a \\r in the text, across the 1 MiB windows."""

from __future__ import annotations

import bisect
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flowdrop_lsp.core.text import positions
from flowdrop_lsp.core.text.positions import LineIndex, line_start_array

PIECES = ["a", "é", "🎉", "数", "\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x85", "\u2028", "\u2029"]


def oracle(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]


@given(st.lists(st.sampled_from(PIECES), max_size=60).map("".join))
def test_line_starts_break_only_where_lsp_does(text: str) -> None:
    assert list(line_start_array(text)) == oracle(text)


def test_line_starts_across_windows() -> None:
    text = ("x" * 1000 + "\u2028\v\n") * 3000  # ≈ 3 MB: several windows, no \r
    assert list(line_start_array(text)) == oracle(text)


@given(
    st.lists(st.sampled_from(PIECES), max_size=60).map("".join),
    st.lists(st.integers(min_value=-2, max_value=70), max_size=8),
    st.integers(min_value=1, max_value=9),
)
def test_a_line_index_finds_lines_only_as_far_as_asked_and_answers_alike(
    text: str, asked: list[int], window: int
) -> None:
    """LineIndex scans a window at a time, as far as each question needs (a report on a huge
    file's first line reads one window): in any order of questions, with windows of a few
    characters (every \\r\\n and line end at a window's edge), its answers are the whole
    scan's."""
    starts = oracle(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(positions, "_WINDOW", window)
        index = LineIndex(text)
        for value in asked:
            offset = max(0, min(value, len(text)))
            assert index.line_of(offset) == bisect.bisect_right(starts, offset) - 1
            line = max(0, value // 3)
            ends = [*starts[1:], len(text) + 1]
            if line < len(starts):
                end = ends[line] if ends[line] <= len(text) else len(text)
                while end > starts[line] and text[end - 1] in "\r\n" and end > ends[line] - 2:
                    end -= 1
                assert index.line_end(line) == end
                assert index.offset(line, 0) == starts[line]
            else:
                assert index.offset(line, 0) == len(text)
        assert list(index.line_starts) == starts
