"""The one "did you mean" (core/text/suggestions.py): its wording, and its likeness search
giving what each rule's own difflib call gave."""

from __future__ import annotations

import difflib

from hypothesis import given
from hypothesis import strategies as st

from flowdrop_lsp.core.text.suggestions import (
    alike_names,
    did_you_mean,
    either,
    likeness,
    quoted,
)


def test_one_wording_for_one_two_and_three_names() -> None:
    assert did_you_mean(quoted(["a"])) == "did you mean 'a'?"
    assert did_you_mean(quoted(["a", "b"])) == "did you mean 'a' or 'b'?"
    # Where a message joined three with " or " each time, it now reads as a sentence.
    assert did_you_mean(quoted(["a", "b", "c"])) == "did you mean 'a', 'b' or 'c'?"
    assert either(["`a`", "`b`"]) == "`a` or `b`"


NAMES = st.text(alphabet="abcde_", min_size=1, max_size=8)


@given(
    NAMES,
    st.lists(NAMES, max_size=12, unique=True),
    st.sampled_from([0.6, 0.75, 0.8]),
    st.integers(1, 3),
)
def test_alike_names_is_what_the_rules_asked_difflib(
    name: str, known: list[str], cutoff: float, limit: int
) -> None:
    # The rules gave known names sorted, as a set or in their own order: difflib ranks by
    # (likeness, name) whatever the order, so the answer is the same.
    expected = difflib.get_close_matches(name, sorted(known), n=limit, cutoff=cutoff)
    assert alike_names(name, set(known), cutoff=cutoff, limit=limit) == expected
    assert alike_names(name, known, cutoff=cutoff, limit=limit) == expected
    for other in known:
        assert likeness(name, other) == difflib.SequenceMatcher(None, name, other).ratio()
