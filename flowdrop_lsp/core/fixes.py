"""Applying text edits in code-point spans, and collecting the fixes `--fix` and fix-all apply."""

from __future__ import annotations

from collections.abc import Iterable

from flowdrop_lsp.core.findings import Finding, TextEdit


def preferred_edits(findings: Iterable[Finding], unsafe: bool = False) -> list[TextEdit]:
    """The edits of every finding's applied fix (`Finding.applied_fix`), each distinct edit
    once: the preferred (safe) fixes, as fix-all applies them; with `unsafe` (`check --fix
    --unsafe-fixes`) also a finding's only fix when that one is unsafe. A fix whose edits
    conflict with those of a fix taken before it (overlapping, or starting at the same place)
    is left out whole, never half applied: the next run offers it again. Fixes are taken in
    the order of their first edit, so the result never depends on hashing."""
    fixes: dict[tuple[TextEdit, ...], None] = {}
    for finding in findings:
        fix = finding.applied_fix(unsafe)
        if fix is not None and fix.edits:
            fixes.setdefault(fix.edits, None)
    taken: dict[TextEdit, None] = {}
    ranges: list[tuple[int, int]] = []
    for edits in sorted(fixes, key=_first_place):
        new = [edit for edit in dict.fromkeys(edits) if edit not in taken]
        if any(_conflicts(edit, ranges) for edit in new):
            continue
        for edit in new:
            taken[edit] = None
            ranges.append((edit.span.start, edit.span.end))
    return list(taken)


def _first_place(edits: tuple[TextEdit, ...]) -> tuple[int, int, str]:
    first = min(edits, key=lambda e: (e.span.start, e.span.end, e.new_text))
    return (first.span.start, first.span.end, first.new_text)


def _conflicts(edit: TextEdit, ranges: list[tuple[int, int]]) -> bool:
    start, end = edit.span.start, edit.span.end
    return any(
        start == other_start or (start < other_end and other_start < end)
        for other_start, other_end in ranges
    )


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """`text` with `edits` applied. Identical edits count once; an edit overlapping one kept
    before it, or starting where it starts (two insertions into one place, each written as if
    alone, would not read as one), is dropped, so a malformed set can never corrupt the text.
    The order is decided by the edits alone (position, then text), never by hashing."""
    ordered = sorted(set(edits), key=lambda e: (e.span.start, e.span.end, e.new_text))
    pieces: list[str] = []
    cursor = 0
    last_start = -1
    for edit in ordered:
        if edit.span.start < cursor or edit.span.start == last_start:
            continue
        pieces.append(text[cursor : edit.span.start])
        pieces.append(edit.new_text)
        cursor = edit.span.end
        last_start = edit.span.start
    pieces.append(text[cursor:])
    return "".join(pieces)
