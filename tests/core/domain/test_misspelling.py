"""Which known names a misspelt one may mean: a few letters typed, dropped, changed or
swapped, however many words the names share."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from flowdrop_lsp.core.text.suggestions import close_names, typo_distance

SPECIALISTS = [
    "aincient_brand_specialist_shape",
    "aincient_brand_specialist_colour",
    "aincient_brand_specialist_typography",
]


def test_a_swap_is_one_typo_and_shared_words_make_no_likeness() -> None:
    assert typo_distance("shpae", "shape") == 1
    assert close_names("aincient_brand_specialist_shpae", SPECIALISTS) == [
        "aincient_brand_specialist_shape"
    ]


def test_closest_first_and_at_most_three() -> None:
    known = ["colour", "color", "colours", "collar", "cooler"]
    assert close_names("colr", known) == ["color"]
    assert close_names("colour", known) == ["color", "colours"]  # itself is no suggestion
    assert (
        len(close_names("aaaaaaaaaaaaaaa", [f"aaaaaaaaaaaaa{x}{y}" for x in "bc" for y in "de"]))
        == 3
    )


def test_a_short_name_allows_one_typo() -> None:
    assert close_names("ab", ["ba", "xy"]) == ["ba"]
    assert close_names("ask", ["question"]) == []


@given(st.text(alphabet="abc_", max_size=8), st.text(alphabet="abc_", max_size=8))
def test_the_distance_is_a_symmetric_bound_by_the_longer_length(a: str, b: str) -> None:
    distance = typo_distance(a, b)
    assert distance == typo_distance(b, a)
    assert (distance == 0) == (a == b)
    assert distance <= max(len(a), len(b))
