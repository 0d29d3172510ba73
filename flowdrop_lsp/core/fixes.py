"""Applying text edits in code-point spans, and collecting the fixes `--fix` and fix-all apply."""

from __future__ import annotations

from collections.abc import Iterable

from flowdrop_lsp.core.findings import Finding, TextEdit


def preferred_edits(findings: Iterable[Finding], unsafe: bool = False) -> list[TextEdit]:
    """The edits of every finding's applied fix (`Finding.applied_fix`), each distinct edit
    once: the preferred (safe) fixes, as fix-all applies them; with `unsafe` (`check --fix
    --unsafe-fixes`) also a finding's only fix when that one is unsafe."""
    edits: dict[TextEdit, None] = {}
    for finding in findings:
        fix = finding.applied_fix(unsafe)
        if fix is not None:
            edits.update(dict.fromkeys(fix.edits))
    return list(edits)


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """`text` with `edits` applied. Identical edits count once; an edit overlapping one that
    starts earlier is dropped, so a malformed set can never corrupt the text."""
    ordered = sorted(set(edits), key=lambda e: (e.span.start, e.span.end))
    pieces: list[str] = []
    cursor = 0
    for edit in ordered:
        if edit.span.start < cursor:
            continue
        pieces.append(text[cursor : edit.span.start])
        pieces.append(edit.new_text)
        cursor = edit.span.end
    pieces.append(text[cursor:])
    return "".join(pieces)
