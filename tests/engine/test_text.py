"""EditableText and PendingShift against the plain string and LineIndex they stand in for."""

from __future__ import annotations

import random
from array import array

import pytest

import flowdrop_lsp.core.text as text_module
from flowdrop_lsp.core.text import EditableText, LineIndex, PendingShift, line_starts

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
