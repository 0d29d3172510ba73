"""A finding carried through edits made to its text since (core/findings.py `through_edits`):
what the server shows for a large open site file until its site reads the new text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from flowdrop_lsp.core.findings import (
    Finding,
    Fix,
    RelatedLocation,
    Severity,
    TextEdit,
    through_edits,
)
from flowdrop_lsp.core.text.positions import Span

FINDING = Finding(
    "FD-X",
    Severity.ERROR,
    "message",
    Span(10, 15),
    related=(
        RelatedLocation(Span(30, 32), "same file"),
        RelatedLocation(Span(1, 2), "another file", path="/site/other.yml"),
    ),
    fixes=(Fix("fix", (TextEdit(Span(10, 15), "new"),), preferred=True),),
)


def test_no_edit_keeps_the_finding() -> None:
    assert through_edits(FINDING, []) is FINDING


def test_text_inserted_before_moves_every_span_of_this_file() -> None:
    moved = through_edits(FINDING, [(0, 0, 3)])
    assert moved is not None
    assert moved.span == Span(13, 18)
    assert moved.related[0].span == Span(33, 35)
    assert moved.related[1].span == Span(1, 2)  # another file's span never moves
    assert moved.fixes[0].edits[0].span == Span(13, 18)
    assert moved.fixes[0].preferred


def test_text_after_it_changes_nothing() -> None:
    assert through_edits(FINDING, [(40, 45, 0)]) == FINDING


def test_an_edit_touching_its_span_drops_it() -> None:
    assert through_edits(FINDING, [(12, 13, 0)]) is None
    assert through_edits(FINDING, [(14, 20, 1)]) is None
    # At either end: typing right after (or before) a name changes the name.
    assert through_edits(FINDING, [(15, 15, 1)]) is None
    assert through_edits(FINDING, [(15, 16, 0)]) is None
    assert through_edits(FINDING, [(10, 10, 1)]) is None
    assert through_edits(FINDING, [(9, 10, 0)]) is None


def test_an_edit_touching_a_related_location_drops_only_that_location() -> None:
    moved = through_edits(FINDING, [(20, 31, 0)])
    assert moved is not None
    assert moved.span == Span(10, 15)
    assert [r.message for r in moved.related] == ["another file"]


def test_edits_apply_in_order_each_on_the_text_the_previous_left() -> None:
    # Remove 5 code points before it, then insert 2 at the (new) start of the text.
    moved = through_edits(FINDING, [(0, 5, 0), (0, 0, 2)])
    assert moved is not None and moved.span == Span(7, 12)


@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 10), st.integers(0, 10)), max_size=6))
def test_a_carried_span_still_covers_the_same_text(raw: list[tuple[int, int, int]]) -> None:
    text = "".join(chr(ord("a") + i % 26) for i in range(60))
    span_text = text[10:15]
    edits = []
    for start, length, inserted in raw:
        start = min(start, len(text))
        end = min(len(text), start + length)
        text = text[:start] + "#" * inserted + text[end:]
        edits.append((start, end, inserted))
    moved = through_edits(FINDING, edits)
    if moved is not None:
        assert text[moved.span.start : moved.span.end] == span_text
