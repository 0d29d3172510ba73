"""Rename fixes: each CMP-9 finding carries them, and fix-all (every finding's preferred fix)
leaves valid JSON with no CMP-9, nothing changed but label strings, and exactly one tool per
collision group keeping its name. (Each fixture's findings and fixes, one by one: the cases of
tests/cases/CMP-9.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.names import llm_name_problem, sanitize_tool_name
from flowdrop_lsp.core.findings import TextEdit
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from flowdrop_lsp.core.text.literals import json_string
from flowdrop_lsp.core.text.positions import Span
from tests.support.builders import (
    FIXTURES,
    SPEC_EXAMPLES,
    cmp9_by_node,
    findings,
    vendored,
)

COLLISION_FIXTURES = sorted(FIXTURES.glob("collision-*.flowdrop.json"))
REFUSED = "cmp9-refused-two-tools-through-a-box.json"


def _collision_texts() -> list[tuple[str, str]]:
    texts = [(p.name, p.read_text(encoding="utf-8")) for p in COLLISION_FIXTURES]
    texts.append((REFUSED, vendored(SPEC_EXAMPLES / REFUSED).read_text(encoding="utf-8")))
    texts.append(
        (
            "research-agent example",
            (FIXTURES.parents[1] / "examples" / "research-agent.flowdrop.json").read_text(
                encoding="utf-8"
            ),
        )
    )
    # Every fixture again with CRLF line breaks and once on a single line.
    texts += [(f"{name} (CRLF)", text.replace("\n", "\r\n")) for name, text in texts[:3]]
    texts += [
        (f"{name} (compact)", json.dumps(json.loads(text), ensure_ascii=False))
        for name, text in texts[:3]
    ]
    return texts


COLLISION_TEXTS = _collision_texts()


def fix_all(text: str, settings: Settings | None = None, code: str | None = None) -> str:
    analysis = analyze(text, settings or Settings())
    chosen = [f for f in analysis.findings if code is None or f.code == code]
    return apply_edits(text, preferred_edits(chosen))


def assert_only_labels_changed(before: Any, after: Any) -> None:
    """Equal JSON trees except for nodes' data.label values; a node without a label (or without
    `data`) may gain one; a non-object `data` is never touched."""
    assert isinstance(after, dict) and after.keys() == before.keys()
    assert {k: v for k, v in after.items() if k != "nodes"} == {
        k: v for k, v in before.items() if k != "nodes"
    }
    assert len(after["nodes"]) == len(before["nodes"])
    for old, new in zip(before["nodes"], after["nodes"], strict=True):
        old, new = json.loads(json.dumps(old)), json.loads(json.dumps(new))
        if old == new:
            continue
        old_data = old.pop("data", None)
        new_data = new.pop("data", None)
        assert new == old  # nothing outside `data` changed
        assert isinstance(new_data, dict) and isinstance(new_data.get("label"), str)
        new_label = new_data.pop("label")
        assert old_data is None or isinstance(old_data, dict)
        if isinstance(old_data, dict):
            old_data.pop("label", None)
            assert new_data == old_data
        else:
            assert new_data == {}
        assert llm_name_problem(sanitize_tool_name(new_label)) is None


def collision_groups(text: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(consumer, tool name, leaves) of every collision in `text`."""
    results = analyze(text).context.results_of("CMP-9")
    return [(c.consumer, c.tool_name, c.leaves) for per in results.values() for c in per]


def assert_one_keeps_its_name_per_group(before: str, after: str) -> None:
    """Exactly one tool per collision group keeps its name, unless every tool of the group
    also collides at another consumer with a tool kept there (the plan is greedy, in document
    order: the first tool keeps its name)."""
    names = {node_id: node.tool_name for node_id, node in analyze(after).graph.nodes_by_id.items()}
    groups = collision_groups(before)
    kept_at = {
        (consumer, leaf)
        for consumer, name, leaves in groups
        for leaf in leaves
        if names[leaf] == name
    }
    for consumer, tool_name, leaves in groups:
        keeping = [leaf for leaf in leaves if names[leaf] == tool_name]
        assert len(keeping) <= 1, (consumer, tool_name, keeping)
        if not keeping:
            for leaf in leaves:
                assert any(
                    (other_consumer, other) in kept_at and other != leaf
                    for other_consumer, _, other_leaves in groups
                    if other_consumer != consumer and leaf in other_leaves
                    for other in other_leaves
                ), (consumer, tool_name, leaf)


def test_there_are_collision_fixtures() -> None:
    assert len(COLLISION_FIXTURES) >= 6


@pytest.mark.parametrize(
    ("name", "text"), COLLISION_TEXTS, ids=[name for name, _ in COLLISION_TEXTS]
)
def test_every_cmp9_finding_has_fixes_with_exactly_one_preferred(name: str, text: str) -> None:
    cmp9 = findings(text, "CMP-9")
    assert cmp9, f"{name} has no collision"
    for finding in cmp9:
        assert finding.fixes, finding.message
        assert sum(fix.preferred for fix in finding.fixes) == 1
        for fix in finding.fixes:
            assert fix.edits and fix.title
            # Each fix on its own resolves this finding's collisions, and adds none.
            fixed = apply_edits(text, fix.edits)
            json.loads(fixed)
            after = [f for f in findings(fixed, "CMP-9") if f.node == finding.node]
            assert after == [], (fix.title, [f.message for f in after])
            assert len(findings(fixed, "CMP-9")) < len(cmp9)


@pytest.mark.parametrize(
    ("name", "text"), COLLISION_TEXTS, ids=[name for name, _ in COLLISION_TEXTS]
)
def test_fix_all_leaves_valid_json_without_cmp9_and_changes_only_labels(
    name: str, text: str
) -> None:
    # (CMP-9's fixes alone: the spec's example has no edge ids, and R3's fixes mint them.)
    fixed = fix_all(text, code="CMP-9")
    before, after = json.loads(text), json.loads(fixed)
    assert findings(fixed, "CMP-9") == []
    assert_only_labels_changed(before, after)
    assert_one_keeps_its_name_per_group(text, fixed)
    # Nothing but findings that were there before: a fix never creates a new problem.
    assert {f.code for f in analyze(fixed).findings} <= {f.code for f in analyze(text).findings}
    # Fixing again changes nothing.
    assert fix_all(fixed, code="CMP-9") == fixed
    # Line breaks are kept as they were.
    assert fixed.count("\r\n") == text.count("\r\n")
    assert fixed.count("\n") == text.count("\n")


def test_json_string_escapes_only_what_json_needs() -> None:
    assert json_string('Café "x" \\ \n 数据') == '"Café \\"x\\" \\\\ \\n 数据"'
    assert json_string("\ud83d") == '"\\ud83d"'
    assert json.loads(json_string("a\u2028b")) == "a\u2028b"


def test_qualified_toolbox_form_is_offered_for_tools_arriving_through_a_toolbox() -> None:
    text = vendored(SPEC_EXAMPLES / REFUSED).read_text(encoding="utf-8")
    found = cmp9_by_node(text)
    for leaf, label in (("tool_a", "Web Search"), ("tool_b", "web-search")):
        qualified = next(fix for fix in found[leaf][0].fixes if "Qualify" in fix.title)
        assert not qualified.preferred
        assert [e.new_text for e in qualified.edits] == [f'"My Tools: {label}"']


def test_apply_edits_drops_overlaps_and_duplicates() -> None:
    text = "0123456789"
    edits = [
        TextEdit(Span(2, 4), "ab"),
        TextEdit(Span(3, 6), "zz"),
        TextEdit(Span(2, 4), "ab"),
        TextEdit(Span(8, 8), "!"),
    ]
    assert apply_edits(text, edits) == "01ab4567!89"


def test_fixture_files_are_not_modified() -> None:
    for path in COLLISION_FIXTURES:
        assert findings(Path(path).read_text(encoding="utf-8"), "CMP-9")
