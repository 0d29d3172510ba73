"""Rename fixes: each CMP-9 finding carries them, and fix-all (every finding's preferred fix)
leaves valid JSON with no CMP-9 and nothing changed but label strings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.core import Settings, analyze
from flowdrop_lsp.core.edits import apply_edits, preferred_edits
from flowdrop_lsp.core.findings import TextEdit
from flowdrop_lsp.core.names import sanitize_tool_name
from flowdrop_lsp.core.renames import json_string
from flowdrop_lsp.core.text import Span
from tests.core.builders import (
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


def fix_all(text: str, settings: Settings | None = None) -> str:
    analysis = analyze(text, settings or Settings())
    return apply_edits(text, preferred_edits(analysis.findings))


def assert_only_labels_changed(before: Any, after: Any) -> None:
    """Equal JSON trees except for nodes' data.label values; a node without a label (or without
    `data`) may gain one, and a non-object `data` may become `{"label": ...}`."""
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
        if isinstance(old_data, dict):
            old_data.pop("label", None)
            assert new_data == old_data
        else:
            assert new_data == {}
        assert sanitize_tool_name(new_label)


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
            # Each fix on its own resolves this finding's own tool name.
            fixed = apply_edits(text, fix.edits)
            json.loads(fixed)
            after = [
                f
                for f in findings(fixed, "CMP-9")
                if f.node == finding.node
                and dict(f.extra)["consumer"] == dict(finding.extra)["consumer"]
            ]
            assert after == [], (fix.title, [f.message for f in after])


@pytest.mark.parametrize(
    ("name", "text"), COLLISION_TEXTS, ids=[name for name, _ in COLLISION_TEXTS]
)
def test_fix_all_leaves_valid_json_without_cmp9_and_changes_only_labels(
    name: str, text: str
) -> None:
    fixed = fix_all(text)
    before, after = json.loads(text), json.loads(fixed)
    assert findings(fixed, "CMP-9") == []
    assert_only_labels_changed(before, after)
    # Nothing but findings that were there before: a fix never creates a new problem.
    assert {f.code for f in analyze(fixed).findings} <= {f.code for f in analyze(text).findings}
    # Fixing again changes nothing.
    assert fix_all(fixed) == fixed
    # Line breaks are kept as they were.
    assert fixed.count("\r\n") == text.count("\r\n")
    assert fixed.count("\n") == text.count("\n")


def test_unlabelled_nodes_gain_a_label_without_a_duplicate_key() -> None:
    text = (FIXTURES / "collision-type-fallback.flowdrop.json").read_text(encoding="utf-8")
    fixed = fix_all(text)
    assert "FD-DUPLICATE-KEY" not in {f.code for f in analyze(fixed).findings}
    nodes = {n["id"]: n for n in json.loads(fixed)["nodes"]}
    names = [sanitize_tool_name(nodes[i]["data"]["label"]) for i in "abcdefgh"]
    assert len(set(names)) == len(names)
    assert nodes["d"]["data"]["config"] == {"url": "x"}


def test_non_object_data_is_replaced_not_duplicated() -> None:
    text = workflow(
        [node("a", data={"x": 1}), node("b", data={"x": 1}), node("agent", "agent")],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
        indent=None,
    ).replace('{"x": 1}', "5")
    assert json.loads(text)["nodes"][0]["data"] == 5
    fixed = fix_all(text)
    document = json.loads(fixed)
    assert findings(fixed, "CMP-9") == []
    assert "FD-DUPLICATE-KEY" not in {f.code for f in analyze(fixed).findings}
    assert [n["data"] for n in document["nodes"][:2]] == [
        {"label": "http_request 1"},
        {"label": "http_request 2"},
    ]


def test_new_label_keeps_non_ascii_and_valid_escapes() -> None:
    text = (FIXTURES / "collision-unicode.flowdrop.json").read_text(encoding="utf-8")
    fixed = fix_all(text)
    labels = {n["id"]: n["data"]["label"] for n in json.loads(fixed)["nodes"]}
    assert labels["t.1"].startswith("Café")
    assert labels["t.3"].startswith("数据") and sanitize_tool_name(labels["t.3"]) != "unnamed_tool"
    assert labels["t.5"].startswith("web-search")
    assert labels["t.6"].startswith("Web\tSearch")
    assert labels["t.7"].startswith('Say "Hi" \\ Back')
    assert labels["t.9"].startswith("📦 Über")
    # Raw non-ASCII stays raw; control characters and quotes stay escaped.
    assert '"Café 1"' in fixed
    assert '"Web\\tSearch ' in fixed


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
    titles = [fix.title for fix in found["tool_a"][0].fixes]
    assert any("My Tools: Web Search" in title for title in titles)
    qualified = next(fix for fix in found["tool_a"][0].fixes if "Qualify" in fix.title)
    assert not qualified.preferred
    assert [e.new_text for e in qualified.edits] == ['"My Tools: Web Search"']


def test_no_qualified_form_for_a_direct_tool() -> None:
    text = workflow(
        [node("a", label="Search"), node("b", label="search"), node("agent", "agent")],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
    )
    for finding in findings(text, "CMP-9"):
        assert [fix.preferred for fix in finding.fixes] == [True]


def test_qualified_form_uses_the_box_nearest_the_tool() -> None:
    text = (FIXTURES / "collision-nested-drupal.flowdrop.json").read_text(encoding="utf-8")
    found = cmp9_by_node(text)
    titles = [fix.title for fix in found["http_request.1"][0].fixes]
    assert any('"Inner Box: Fetch Page"' in title for title in titles)


def test_preferred_renames_skip_names_already_taken() -> None:
    text = (FIXTURES / "collision-numbering.flowdrop.json").read_text(encoding="utf-8")
    fixed = fix_all(text)
    labels = {n["id"]: n["data"]["label"] for n in json.loads(fixed)["nodes"]}
    # "Search 1", "Search 3" and "Search 4" are taken at the agents these tools reach.
    assert (
        labels["s4"] == "Search 1" and labels["s7"] == "Search 3" and labels["other"] == "Search 4"
    )
    # s1 reaches only agent_a, where search_1 and search_3 are taken; s2 and s3 reach both
    # agents (search_2 and search_4 are taken at agent_b) and avoid the names planned before them.
    assert [labels["s1"], labels["s2"], labels["s3"]] == ["Search 2", "search 5", "SEARCH 6"]
    # A trailing number continues ("Search 2" → "Search 3", free at agent_b) instead of doubling
    # up; "search-2" has no " <number>" ending, so it gets one.
    assert [labels["s5"], labels["s6"]] == ["Search 3", "search-2 1"]


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
