"""A label reached through an alias is its own label: a rename writes the alias node as its own
scalar (the anchor and the other nodes untouched), and no fix changes a label it did not mean
to (an anchored scalar other nodes read through aliases is never rewritten)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from flowdrop_lsp.entry import main
from tests.support.builders import token_span
from tests.support.drupal import tool, workflow

# Two colliding tools through an alias, and a note (not a tool) sharing the anchor.
TEXT = workflow("&lbl 'Web Search'", "*lbl").replace(
    "edges:\n", tool("note.1", "*lbl", "note") + "edges:\n", 1
)


def labels(text: str) -> dict[str, str]:
    return {node["id"]: node["data"]["label"] for node in yaml.safe_load(text)["nodes"]}


def cmp9(text: str) -> list[str]:
    return [f.node or "" for f in analyze(text, syntax="yaml").findings if f.code == "CMP-9"]


def test_the_alias_is_reported_on_its_own_text() -> None:
    found = {f.node: f for f in analyze(TEXT, syntax="yaml").findings if f.code == "CMP-9"}
    assert found["http_request.1"].span == token_span(TEXT, "'Web Search'")
    assert found["http_request.2"].span == token_span(TEXT, "*lbl", 0)


def test_every_offered_fix_changes_only_the_label_it_means() -> None:
    before = labels(TEXT)
    offered = [
        fix for f in analyze(TEXT, syntax="yaml").findings if f.code == "CMP-9" for fix in f.fixes
    ]
    assert offered
    for fix in offered:
        fixed = apply_edits(TEXT, list(fix.edits))
        after = labels(fixed)  # loads with PyYAML
        changed = {node for node in before if before[node] != after[node]}
        assert len(changed) == 1, (fix.title, changed)
        assert after["note.1"] == "Web Search"
        assert cmp9(fixed) == []


def test_fix_all_writes_the_alias_as_its_own_scalar() -> None:
    fixed = apply_edits(TEXT, preferred_edits(analyze(TEXT, syntax="yaml").findings))
    assert fixed == TEXT.replace("*lbl", "'Web Search 2'", 1)
    assert labels(fixed) == {
        "aincient_reason.1": "Research Agent 🤖",
        "toolbox.1": "Web Tools",
        "http_request.1": "Web Search",
        "http_request.2": "Web Search 2",
        "note.1": "Web Search",
    }
    assert cmp9(fixed) == []


def test_check_fix_on_such_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "flowdrop_workflow.flowdrop_workflow.research.yml"
    path.write_text(TEXT, encoding="utf-8")
    assert main(["check", str(path), "--fix"]) == 0
    capsys.readouterr()
    fixed = path.read_text(encoding="utf-8")
    assert labels(fixed)["http_request.2"] == "Web Search 2"
    assert labels(fixed)["note.1"] == labels(fixed)["http_request.1"] == "Web Search"
    assert "&lbl 'Web Search'" in fixed and fixed.count("*lbl") == 1
    assert main(["check", str(path)]) == 0


def test_a_label_inside_an_aliased_mapping_is_never_rewritten() -> None:
    # `data: *d` shares the whole mapping: renaming its label would rename both nodes.
    text = workflow("'Web Search'", "'web-search'").replace(
        "    data:\n      label: 'web-search'\n", "    data: &d\n      label: 'web-search'\n", 1
    )
    text = text.replace("edges:\n", "  -\n    id: note.1\n    data: *d\nedges:\n", 1)
    for finding in analyze(text, syntax="yaml").findings:
        for fix in finding.fixes:
            fixed = apply_edits(text, list(fix.edits))
            after = yaml.safe_load(fixed)["nodes"]
            assert after[-1]["data"]["label"] == "web-search", fix.title


# A tool whose anchored label a note (not a tool) reads through an alias: renaming that tool
# would rename the note, so the plan renames the OTHER tool instead, and that fix is preferred.
SHARED_WITH_NOTE = workflow("'Web Search'", "&l2 web-search").replace(
    "edges:\n", tool("note.1", "*l2", "note") + "edges:\n", 1
)
NOTE_FIXED = SHARED_WITH_NOTE.replace("label: 'Web Search'", "label: 'Web Search 2'", 1)


def test_a_label_an_alias_repeats_keeps_its_name_and_the_other_tool_is_renamed() -> None:
    findings = analyze(SHARED_WITH_NOTE, syntax="yaml").findings
    found = {f.node: f for f in findings if f.code == "CMP-9"}
    kept, renamed = found["http_request.2"], found["http_request.1"]
    # The kept label's only fix renames the other tool (never "rename it instead").
    assert [(fix.title, fix.preferred) for fix in kept.fixes] == [
        ('Keep "web-search"; rename "Web Search" (http_request.1) to "Web Search 2"', True)
    ]
    assert "no automatic rename of this tool: its label is also read through a YAML alias" in (
        kept.message
    )
    assert renamed.preferred_fix is not None
    assert renamed.preferred_fix.title == 'Rename "Web Search" to "Web Search 2"'
    assert not any("web-search" in fix.title for f in found.values() for fix in f.fixes[1:])
    fixed = apply_edits(SHARED_WITH_NOTE, preferred_edits(findings))
    assert fixed == NOTE_FIXED
    assert labels(fixed) == {
        "aincient_reason.1": "Research Agent 🤖",
        "toolbox.1": "Web Tools",
        "http_request.1": "Web Search 2",
        "http_request.2": "web-search",
        "note.1": "web-search",
    }
    assert cmp9(fixed) == []


def test_check_fix_renames_the_tool_whose_label_no_alias_repeats(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "flowdrop_workflow.flowdrop_workflow.research.yml"
    path.write_text(SHARED_WITH_NOTE, encoding="utf-8")
    main(["check", str(path), "--fix"])
    capsys.readouterr()
    fixed = path.read_text(encoding="utf-8")
    assert fixed == NOTE_FIXED
    assert labels(fixed)["note.1"] == labels(fixed)["http_request.2"] == "web-search"
    assert main(["check", str(path)]) == 0
