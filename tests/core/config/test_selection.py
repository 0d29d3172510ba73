"""Which files are workflows (core.config.selection): globs, content sniffing, excludes, .gitignore."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

import pytest

from flowdrop_lsp.core.config.selection import (
    Candidate,
    Skipped,
    is_excluded,
    matches_globs,
    text_is_flowdrop,
    walk,
)
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import CORPUS_JSON, FIXTURES, SPEC_EXAMPLES

NOT_FLOWDROP = sorted((FIXTURES / "not-flowdrop").glob("*.json"))
WORKFLOWS = [
    *sorted(FIXTURES.glob("*.flowdrop.json")),
    *sorted(SPEC_EXAMPLES.glob("*.json")),
    *sorted(CORPUS_JSON.glob("*.json")),
]


@pytest.mark.parametrize("path", NOT_FLOWDROP, ids=lambda p: p.name)
def test_other_json_graphs_and_configs_are_not_flowdrop(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not text_is_flowdrop(text)
    assert not WorkflowDocument(text, allow_comments=True).looks_like_flowdrop


def test_the_not_flowdrop_fixtures_cover_the_shapes_the_issue_names() -> None:
    names = {p.stem for p in NOT_FLOWDROP}
    assert {"package", "tsconfig", "d3-force-graph", "n8n-workflow", "networkx-links"} <= names
    assert {"networkx-edges", "cytoscape", "json-graph-format", "edge-list"} <= names


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_real_and_fixture_workflow_is_flowdrop(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text_is_flowdrop(text)
    assert WorkflowDocument(text).looks_like_flowdrop


def test_spec_shorthand_with_only_edges_and_an_empty_node_list() -> None:
    edges_only = {"nodes": [], "edges": [{"source": "a", "target": "b"}]}
    assert text_is_flowdrop(json.dumps(edges_only))
    assert not text_is_flowdrop(json.dumps({"nodes": [], "edges": []}))
    assert not text_is_flowdrop(json.dumps({"nodes": [{"id": "a", "type": "x"}]}))  # no edges


def test_a_broken_workflow_is_still_recognised() -> None:
    text = '{"nodes": [{"id": "a", "type": "x", "data": {"label": "A"}}, {"id": "b", "da\n'
    assert text_is_flowdrop(text + '], "edges": []}')


def test_a_half_typed_node_does_not_change_the_verdict_while_typing() -> None:
    document = WorkflowDocument(
        '{"nodes": [\n  {"id": "a", "type": "x"},\n  {"id": "b", "type": "y"}\n], "edges": []}'
    )
    assert document.looks_like_flowdrop
    at = document.text.index('{"id": "b"')
    document.apply_edit(at, at, '{"id": "c", "ty\n  ')
    assert document.looks_like_flowdrop


@pytest.mark.parametrize(
    ("relative", "pattern", "expected"),
    [
        ("a.flowdrop.json", "**/*.flowdrop.json", True),
        ("deep/er/a.flowdrop.json", "**/*.flowdrop.json", True),
        ("a.json", "*.json", True),
        ("sub/a.json", "*.json", False),  # `*` does not cross `/`
        ("sub/a.json", "sub/*.json", True),
        ("sub/x/a.json", "sub/*.json", False),
        ("sub/x/a.json", "sub/**/*.json", True),
        (".hidden/a.flowdrop.json", "**/*.flowdrop.json", True),
    ],
)
def test_globs_mean_the_same_thing_everywhere(relative: str, pattern: str, expected: bool) -> None:
    base = PurePosixPath("/repo")
    assert matches_globs(base / relative, [pattern], base) is expected


def test_excludes_cover_a_folder_and_everything_under_it() -> None:
    base = PurePosixPath("/repo")
    assert is_excluded(base / "legacy/a/b.flowdrop.json", ["legacy"], base)
    assert is_excluded(base / "x/fixtures/b.flowdrop.json", ["**/fixtures"], base)
    assert not is_excluded(base / "x/legacy.flowdrop.json", ["legacy"], base)
    assert is_excluded(base / "x/old.flowdrop.json", ["**/old.*"], base)


def _tree(root: Path) -> None:
    workflow = (SPEC_EXAMPLES / "cmp9-refused-two-tools-through-a-box.json").read_text()
    for relative in [
        "a.flowdrop.json",
        "sub/b.flowdrop.json",
        "sub/unnamed.json",
        "sub/deeper/c.flowdrop.json",
        "build/generated.flowdrop.json",
        "legacy/old.flowdrop.json",
        "node_modules/pkg/x.flowdrop.json",
    ]:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(workflow, encoding="utf-8")
    # Not even JSON: only its name can make it a workflow.
    (root / "sub/deeper/broken.flowdrop.json").write_text('{"nodes": [', encoding="utf-8")
    for path in NOT_FLOWDROP:
        (root / "sub" / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")


def _selected(raw: str, settings: Settings, cwd: Path) -> set[str]:
    found = walk(raw, lambda _: settings, cwd)
    return {
        item.path.resolve().relative_to(cwd.resolve()).as_posix()
        for item in found
        if isinstance(item, Candidate)
    }


def test_a_walk_honours_gitignore_inside_a_repository(tmp_path: Path) -> None:
    _tree(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("build/\n", encoding="utf-8")
    (tmp_path / "sub" / ".gitignore").write_text("deeper/\n!keep/\n", encoding="utf-8")
    selected = _selected(str(tmp_path), Settings(), tmp_path)
    assert selected == {
        "a.flowdrop.json",
        "sub/b.flowdrop.json",
        "sub/unnamed.json",
        "legacy/old.flowdrop.json",
    }


def test_gitignore_means_nothing_outside_a_repository(tmp_path: Path) -> None:
    _tree(tmp_path)
    (tmp_path / ".gitignore").write_text("build/\n", encoding="utf-8")
    assert "build/generated.flowdrop.json" in _selected(str(tmp_path), Settings(), tmp_path)


def test_a_walk_honours_exclude_and_reports_why(tmp_path: Path) -> None:
    _tree(tmp_path)
    settings = Settings().with_overrides({"exclude": ["legacy", "build"]})
    items = list(walk(str(tmp_path), lambda _: settings, tmp_path))
    reasons = {i.path.name: i.reason for i in items if isinstance(i, Skipped)}
    assert reasons["package.json"].startswith("not a FlowDrop workflow")
    assert "old.flowdrop.json" not in reasons  # its folder was never entered
    selected = {i.path.name for i in items if isinstance(i, Candidate)}
    assert selected == {
        "a.flowdrop.json",
        "b.flowdrop.json",
        "unnamed.json",
        "c.flowdrop.json",
        "broken.flowdrop.json",
    }


def test_dot_absolute_and_subfolder_select_the_same_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path)
    settings = Settings().with_overrides({"files": ["sub/*.flowdrop.json", "a.flowdrop.json"]})
    monkeypatch.chdir(tmp_path)
    dot = _selected(".", settings, tmp_path)
    absolute = _selected(str(tmp_path), settings, tmp_path)
    sub = _selected("sub", settings, tmp_path)
    assert dot == absolute
    assert sub == {p for p in dot if p.startswith("sub/")}
    assert "sub/b.flowdrop.json" in dot
    assert "sub/deeper/broken.flowdrop.json" not in dot  # `*` does not cross `/`
    assert "sub/deeper/c.flowdrop.json" in dot  # by content
    assert "sub/deeper/broken.flowdrop.json" in _selected(".", Settings(), tmp_path)
    assert "sub/unnamed.json" in dot  # by content
