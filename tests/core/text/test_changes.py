"""What an edit really changes (core/text/changes.py): the common ends of the replaced text and
its replacement, exact against a naive reference at any length, emoji and CJK included."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import flowdrop_lsp.core.text.changes as changes_module
from flowdrop_lsp.core.text.changes import common_prefix, common_suffix, unchanged_ends

PIECES = ["a", "b", '"', "😀", "数", "\n", "\r\n", "é", "\U0001f527"]
texts = st.lists(st.sampled_from(PIECES), max_size=80).map("".join)


def naive_ends(old: str, new: str) -> tuple[int, int]:
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(old), len(new)) - prefix
        and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]
    ):
        suffix += 1
    return prefix, suffix


# The first comparison's length: 1 and 2 make short texts gallop and halve.
probes = st.sampled_from([1, 2, 3, 256])


@given(old=texts, new=texts, shared_head=texts, shared_tail=texts, probe=probes)
def test_unchanged_ends_match_the_naive_reference(
    old: str, new: str, shared_head: str, shared_tail: str, probe: int
) -> None:
    old, new = shared_head + old + shared_tail, shared_head + new + shared_tail
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(changes_module, "_FIRST_PROBE", probe)
        prefix, suffix = unchanged_ends(old, new)
    assert (prefix, suffix) == (naive_ends(old, new) if old and new else (0, 0))
    # What is left to replace turns `old` into `new`.
    assert old[:prefix] + new[prefix : len(new) - suffix] + old[len(old) - suffix :] == new


def test_a_keystroke_sent_as_a_long_line_is_that_keystroke() -> None:
    line = "".join(PIECES[i % len(PIECES)] for i in range(200_000))
    at = 123_457
    typed = line[:at] + "x" + line[at:]
    assert unchanged_ends(line, typed) == (at, len(line) - at)
    # At an astral character, before it, after it: the one change, exactly.
    emoji = line.index("😀", at)
    for where in (emoji, emoji + 1):
        assert unchanged_ends(line, line[:where] + "Ω" + line[where:]) == (
            where,
            len(line) - where,
        )
    replaced = line[:emoji] + "🔧" + line[emoji + 1 :]
    assert unchanged_ends(line, replaced) == (emoji, len(line) - emoji - 1)


def test_the_same_text_and_overlapping_ends() -> None:
    assert unchanged_ends("abc", "abc") == (3, 0)
    assert unchanged_ends("aa", "aaa") == (2, 0)  # never overlapping: at most the shorter
    assert unchanged_ends("", "x") == (0, 0)
    assert common_prefix("😀a", "😀b") == 1
    assert common_suffix("a数", "b数", 5) == 1
    assert common_suffix("ab", "ab", 1) == 1
