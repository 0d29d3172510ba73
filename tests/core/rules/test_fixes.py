"""Rename fixes: each CMP-9 finding carries them, and fix-all (every finding's preferred fix)
leaves valid JSON with no CMP-9, nothing changed but label strings, and exactly one tool per
collision group keeping its name."""

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
    node,
    tool_edge,
    vendored,
    workflow,
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


def test_unlabelled_nodes_gain_a_label_without_a_duplicate_key() -> None:
    text = (FIXTURES / "collision-type-fallback.flowdrop.json").read_text(encoding="utf-8")
    fixed = fix_all(text)
    assert "FD-DUPLICATE-KEY" not in {f.code for f in analyze(fixed).findings}
    nodes = {n["id"]: n for n in json.loads(fixed)["nodes"]}
    graph = analyze(fixed).graph
    names = [graph.nodes_by_id[i].tool_name for i in "abcdefgh"]
    assert len(set(names)) == len(names)
    assert "data" not in nodes["a"]  # the first keeps its (type) name
    assert [nodes[i]["data"]["label"] for i in "bcdefgh"] == [
        *(f"http_request {n}" for n in range(2, 8)),
        "HTTP Request 8",
    ]
    assert nodes["d"]["data"]["config"] == {"url": "x"}


def test_non_object_data_is_never_replaced() -> None:
    text = workflow(
        [node("a", data={"x": 1}), node("b", data={"x": 1}), node("agent", "agent")],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
        indent=None,
    ).replace('{"x": 1}', '"Web Search"')
    assert json.loads(text)["nodes"][0]["data"] == "Web Search"
    cmp9 = findings(text, "CMP-9")
    assert [f.node for f in cmp9] == ["a", "b"]
    for finding in cmp9:
        assert finding.fixes == ()
        assert finding.message.endswith(
            '; no automatic rename of this tool: its "data" is not an object'
        )
    assert fix_all(text) == text


def test_new_label_keeps_non_ascii_and_valid_escapes() -> None:
    text = (FIXTURES / "collision-unicode.flowdrop.json").read_text(encoding="utf-8")
    fixed = fix_all(text)
    labels = {n["id"]: n["data"]["label"] for n in json.loads(fixed)["nodes"]}
    # The first of each pair keeps its label; the second is renamed.
    assert [labels[f"t.{i}"] for i in (1, 3, 5, 7, 9)] == [
        "Café",
        "数据",
        "web-search",
        'Say "Hi" \\ Back',
        "📦 Über",
    ]
    assert labels["t.2"] == "Caf 2"
    assert labels["t.4"] == "データ 📦 calculator 2"  # a label without ASCII gets its type
    assert labels["t.6"] == "Web\tSearch 2"
    assert labels["t.8"] == "say hi back 2"
    assert labels["t.10"] == "ber 2"
    # Raw non-ASCII stays raw; control characters and quotes stay escaped.
    assert '"データ 📦 calculator 2"' in fixed
    assert '"Web\\tSearch 2"' in fixed
    assert '"Say \\"Hi\\" \\\\ Back"' in fixed


def test_lone_surrogate_label_is_written_as_an_escape() -> None:
    text = workflow(
        [node("a", label="X"), node("b", label="x"), node("agent", "agent")],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
    ).replace('"X"', '"X\\ud83d"')
    fixed = fix_all(text)
    fixed.encode("utf-8")  # writable as UTF-8
    assert json.loads(fixed)["nodes"][0]["data"]["label"].startswith("X\ud83d")
    assert findings(fixed, "CMP-9") == []


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


def test_no_qualified_form_for_a_direct_tool() -> None:
    text = workflow(
        [node("a", label="Search"), node("b", label="search"), node("agent", "agent")],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
    )
    for finding in findings(text, "CMP-9"):
        assert not [fix for fix in finding.fixes if "Qualify" in fix.title]


def test_qualified_form_uses_the_box_nearest_the_tool() -> None:
    text = (FIXTURES / "collision-nested-drupal.flowdrop.json").read_text(encoding="utf-8")
    found = cmp9_by_node(text)
    titles = [fix.title for fix in found["http_request.1"][0].fixes]
    assert any('"Inner Box: Fetch Page"' in title for title in titles)


def test_preferred_renames_skip_names_already_taken() -> None:
    text = (FIXTURES / "collision-numbering.flowdrop.json").read_text(encoding="utf-8")
    fixed = fix_all(text)
    labels = {n["id"]: n["data"]["label"] for n in json.loads(fixed)["nodes"]}
    # Tools that collide with nothing keep their labels.
    assert [labels["s4"], labels["s7"], labels["other"]] == ["Search 1", "Search 3", "Search 4"]
    # s1 comes first and keeps "Search"; s2 and s3 reach both agents, where search_2, search_3
    # and search_4 are taken, and avoid the names planned before them.
    assert [labels["s1"], labels["s2"], labels["s3"]] == ["Search", "search 5", "SEARCH 6"]
    # "Search 2" comes first and keeps its name; "search-2" has no " <number>" ending, so it
    # gets one (numbering starts at 2: the tool keeping the name counts as the first).
    assert [labels["s5"], labels["s6"]] == ["Search 2", "search-2 2"]


def test_instance_title_setting_renames_the_title() -> None:
    text = workflow(
        [
            node("a", label="Alpha", data={"config": {"instanceTitle": "Search"}}),
            node("b", label="Beta", data={"config": {"instanceTitle": "search"}}),
            node("agent", "agent"),
        ],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
    )
    assert findings(text, "CMP-9") == []
    settings = Settings(use_instance_title=True)
    assert {f.node for f in findings(text, "CMP-9", settings)} == {"a", "b"}
    fixed = fix_all(text, settings)
    assert findings(fixed, "CMP-9", settings) == []
    nodes = json.loads(fixed)["nodes"]
    assert [n["data"]["label"] for n in nodes[:2]] == ["Alpha", "Beta"]


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
