"""Fix applicability (safe/unsafe, as Ruff's) and the spec's locator codes on findings
(core/findings.py): the invariants, which fix `--fix` applies, and every copy of a finding
keeping the new fields (map_spans, through_edits, the YAML fix writer, the cache's pickles)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from flowdrop_lsp.core.findings import (
    Applicability,
    Finding,
    Fix,
    RelatedLocation,
    Severity,
    TextEdit,
    through_edits,
)
from flowdrop_lsp.core.fixes import preferred_edits
from flowdrop_lsp.core.operations import TextOnly
from flowdrop_lsp.core.syntax.yaml.writer import yaml_fixes
from flowdrop_lsp.core.text.positions import EditableText, Span
from flowdrop_lsp.core.workspace.cache import dumps, loads

SAFE = Fix("rename", (TextEdit(Span(0, 3), '"b"'),), True)
UNSAFE = Fix("remove", (TextEdit(Span(5, 9), ""),), applicability=Applicability.UNSAFE)
OTHER_UNSAFE = Fix("retarget", (TextEdit(Span(0, 3), '"c"'),), False, Applicability.UNSAFE)


def finding(*fixes: Fix) -> Finding:
    return Finding(
        "R8",
        Severity.WARNING,
        "message",
        Span(0, 3),
        node="a",
        related=(RelatedLocation(Span(5, 9), "there"),),
        fixes=fixes,
        extra=(("k", 1),),
        locator_code="R8_EDGE_TARGET_MISSING",
        locator="edge.3",
    )


def test_a_fix_is_safe_by_default_and_positional_callers_keep_working() -> None:
    fix = Fix("t", (), True)
    assert fix.applicability is Applicability.SAFE and fix.is_safe
    assert fix.operations == () and fix.destructive is None and fix.choice is None
    assert Applicability.UNSAFE.value == "unsafe"


def test_a_preferred_fix_must_be_safe() -> None:
    with pytest.raises(ValueError, match="preferred fix must be safe"):
        Fix("t", (), True, Applicability.UNSAFE)
    with pytest.raises(ValueError):
        replace(UNSAFE, preferred=True)


def test_a_finding_has_no_locator_unless_a_rule_gives_one() -> None:
    plain = Finding("R8", Severity.WARNING, "m", Span(0, 1))
    assert plain.locator_code is None and plain.locator is None


def test_the_applied_fix_is_the_preferred_one_else_the_only_unsafe_one_when_allowed() -> None:
    assert finding(SAFE, UNSAFE).applied_fix(False) is SAFE
    assert finding(SAFE, UNSAFE).applied_fix(True) is SAFE  # preferred wins
    assert finding(UNSAFE).applied_fix(False) is None
    assert finding(UNSAFE).applied_fix(True) is UNSAFE
    assert finding(UNSAFE).has_unsafe_fix_only
    # Several choices: never applied automatically, whatever the flag.
    assert finding(UNSAFE, OTHER_UNSAFE).applied_fix(True) is None
    assert finding().applied_fix(True) is None
    assert finding(UNSAFE).preferred_fix is None


def test_preferred_edits_apply_unsafe_fixes_only_when_asked() -> None:
    findings = [finding(SAFE), finding(UNSAFE), finding(UNSAFE, OTHER_UNSAFE)]
    assert preferred_edits(findings) == list(SAFE.edits)
    assert preferred_edits(findings, unsafe=True) == [*SAFE.edits, *UNSAFE.edits]


def test_map_spans_and_through_edits_keep_every_field() -> None:
    special = replace(UNSAFE, operations=(TextOnly("the config entity's id"),))
    original = finding(SAFE, special)
    moved = original.map_spans(lambda s: Span(s.start + 1, s.end + 1))
    assert moved.fixes == (
        replace(SAFE, edits=(TextEdit(Span(1, 4), '"b"'),)),
        replace(special, edits=(TextEdit(Span(6, 10), ""),)),
    )
    assert (moved.locator_code, moved.locator) == ("R8_EDGE_TARGET_MISSING", "edge.3")
    carried = through_edits(replace(original, span=Span(20, 23)), [(15, 15, 2)])
    assert carried is not None
    assert [f.applicability for f in carried.fixes] == [
        Applicability.SAFE,
        Applicability.UNSAFE,
    ]
    assert carried.fixes[1].operations == special.operations
    assert (carried.locator_code, carried.locator) == ("R8_EDGE_TARGET_MISSING", "edge.3")


def test_the_yaml_writer_keeps_every_fix_unless_it_rewrites_a_repeated_value() -> None:
    text = "k: abc\n  - x: 1\n"
    insertion = Fix("add", (TextEdit(Span(7, 7), "  - y\n"),), True)
    rename = Fix("rename", (TextEdit(Span(3, 6), "xyz"),), False, Applicability.UNSAFE)
    written = yaml_fixes(finding(insertion, rename), EditableText(text))
    assert written.fixes == (insertion, rename)  # written in YAML by their elements' editors
    assert (written.locator_code, written.locator, written.extra) == (
        "R8_EDGE_TARGET_MISSING",
        "edge.3",
        (("k", 1),),
    )
    # Inside a value aliases repeat, a fix is left out: it would change every place too.
    assert yaml_fixes(finding(insertion, rename), EditableText(text), shared=((5, 9),)).fixes == (
        rename,
    )


def test_the_cache_round_trips_the_new_fields() -> None:
    original = finding(SAFE, UNSAFE, replace(OTHER_UNSAFE, destructive="the edge is deleted"))
    restored = loads(dumps((original,)))[0]
    assert restored == original
    assert [f.applicability for f in restored.fixes] == [
        Applicability.SAFE,
        Applicability.UNSAFE,
        Applicability.UNSAFE,
    ]
    assert restored.fixes[2].destructive == "the edge is deleted"
    assert (restored.locator_code, restored.locator) == ("R8_EDGE_TARGET_MISSING", "edge.3")
