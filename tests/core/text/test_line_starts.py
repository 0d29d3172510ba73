"""Line starts of a whole text (text.line_start_array): only \\r\\n, \\n and a lone \\r end a
line (LSP), never the other characters str.splitlines breaks at (\\v, \\f, U+001C–U+001E,
U+0085, U+2028, U+2029), with or without a \\r in the text, across the 1 MiB windows."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from flowdrop_lsp.core.text.positions import line_start_array

PIECES = ["a", "é", "🎉", "数", "\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x85", "\u2028", "\u2029"]


def oracle(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]


@given(st.lists(st.sampled_from(PIECES), max_size=60).map("".join))
def test_line_starts_break_only_where_lsp_does(text: str) -> None:
    assert list(line_start_array(text)) == oracle(text)


def test_line_starts_across_windows() -> None:
    text = ("x" * 1000 + "\u2028\v\n") * 3000  # ≈ 3 MB: several windows, no \r
    assert list(line_start_array(text)) == oracle(text)
