"""`check --write-baseline FILE` records today's findings; `check --baseline FILE` reports only
new ones, counts the rest, and keeps doing so when unrelated lines move."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.baseline import Baseline, BaselineError, baseline_json, fingerprints
from tests.support.builders import REPO, node, tool_edge, workflow
from tests.support.cli import run

COLLISION = workflow(
    [node("a", label="Web Search"), node("b", label="web-search"), node("x", "agent")],
    [tool_edge("a", "x"), tool_edge("b", "x")],
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "flows").mkdir()
    (tmp_path / "flows" / "a.flowdrop.json").write_text(COLLISION, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_write_then_apply_reports_nothing_and_counts_what_it_suppressed(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    code, out, err = run(capsys, "flows", "--write-baseline", "baseline.json")
    assert (code, out) == (0, "")
    assert "wrote 2 findings in 1 file to baseline.json" in err
    data = json.loads((project / "baseline.json").read_text(encoding="utf-8"))
    assert [(f["path"], f["code"]) for f in data["findings"]] == [
        ("flows/a.flowdrop.json", "CMP-9"),
        ("flows/a.flowdrop.json", "CMP-9"),
    ]
    code, out, _ = run(capsys, "flows", "--baseline", "baseline.json")
    assert code == 0
    assert out == "no problems in 1 file; 2 more suppressed by the baseline\n"
    code, out, err = run(capsys, "flows", "--baseline", "baseline.json", "--format", "json")
    assert (code, json.loads(out)) == (0, [])
    assert "2 findings suppressed by the baseline" in err


def test_a_new_finding_is_reported_and_moved_lines_keep_the_old_ones_suppressed(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    run(capsys, "flows", "--write-baseline", "baseline.json")
    moved = workflow(
        [
            node("n", label="Notes"),  # a node inserted above: every line below moves
            node("a", label="Web Search"),
            node("b", label="web-search"),
            node("c", label="Calendar"),
            node("d", label="calendar"),  # a new collision
            node("x", "agent"),
        ],
        [tool_edge("a", "x"), tool_edge("b", "x"), tool_edge("c", "x"), tool_edge("d", "x")],
    )
    (project / "flows" / "a.flowdrop.json").write_text(moved, encoding="utf-8")
    code, out, _ = run(capsys, "flows", "--baseline", "baseline.json", "--format", "json")
    assert code == 1
    assert {f["tool_name"] for f in json.loads(out)} == {"calendar"}


def test_the_baseline_means_the_same_from_another_working_directory(
    capsys: pytest.CaptureFixture[str], project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(capsys, "flows", "--write-baseline", "baseline.json")
    monkeypatch.chdir(project / "flows")
    code, out, _ = run(capsys, ".", "--baseline", "../baseline.json")
    assert (code, out) == (0, "no problems in 1 file; 2 more suppressed by the baseline\n")


def test_fixed_findings_leave_unmatched_entries_and_a_note(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    run(capsys, "flows", "--write-baseline", "baseline.json")
    clean = workflow([node("a", label="Web Search"), node("x", "agent")], [tool_edge("a", "x")])
    (project / "flows" / "a.flowdrop.json").write_text(clean, encoding="utf-8")
    code, _, err = run(capsys, "flows", "--baseline", "baseline.json")
    assert code == 0
    assert "2 baseline entries matched no finding" in err


def test_fix_leaves_baselined_findings_alone(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    run(capsys, "flows", "--write-baseline", "baseline.json")
    code, out, _ = run(capsys, "flows", "--baseline", "baseline.json", "--diff")
    assert (code, out) == (0, "")


def test_a_bad_baseline_is_a_usage_error(capsys: pytest.CaptureFixture[str], project: Path) -> None:
    (project / "baseline.json").write_text('{"findings": "no"}', encoding="utf-8")
    code, _, err = run(capsys, "flows", "--baseline", "baseline.json")
    assert code == 2 and "is not a flowdrop-lsp baseline" in err
    code, _, err = run(capsys, "flows", "--baseline", "missing.json")
    assert code == 2 and "cannot read the baseline missing.json" in err
    code, _, err = run(capsys, "flows", "--write-baseline", "b.json", "--fix")
    assert code == 2 and "--write-baseline" in err


def test_a_baseline_listing_one_of_two_findings_suppresses_just_that_one(tmp_path: Path) -> None:
    findings = analyze(COLLISION).findings
    text = baseline_json([(str(tmp_path / "a.json"), findings[:1])], tmp_path)
    (tmp_path / "b.json").write_text(text, encoding="utf-8")
    baseline = Baseline.read(tmp_path / "b.json")
    kept, suppressed = baseline.split(str(tmp_path / "a.json"), findings)
    assert suppressed == 1 and len(kept) == len(findings) - 1
    assert len(set(fingerprints(findings, "a.json"))) == len(findings)
    with pytest.raises(BaselineError):
        (tmp_path / "c.json").write_text("[]", encoding="utf-8")
        Baseline.read(tmp_path / "c.json")


def _two_files(project: Path) -> None:
    (project / "flows" / "b.flowdrop.json").write_text(COLLISION, encoding="utf-8")


def test_entries_of_files_not_checked_are_not_stale(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    # pre-commit passes only the staged files: the others' entries are not "matched no finding".
    _two_files(project)
    run(capsys, "flows", "--write-baseline", "baseline.json")
    code, out, err = run(capsys, "flows/a.flowdrop.json", "--baseline", "baseline.json")
    assert (code, out) == (0, "no problems in 1 file; 2 more suppressed by the baseline\n")
    assert "matched no finding" not in err
    clean = workflow([node("a", label="Web Search"), node("x", "agent")], [tool_edge("a", "x")])
    (project / "flows" / "a.flowdrop.json").write_text(clean, encoding="utf-8")
    code, _, err = run(capsys, "flows/a.flowdrop.json", "--baseline", "baseline.json")
    assert "2 baseline entries matched no finding in the files checked" in err


def test_write_baseline_on_some_files_keeps_the_other_files_entries(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    _two_files(project)
    run(capsys, "flows", "--write-baseline", "baseline.json")
    before = json.loads((project / "baseline.json").read_text(encoding="utf-8"))
    clean = workflow([node("a", label="Web Search"), node("x", "agent")], [tool_edge("a", "x")])
    (project / "flows" / "a.flowdrop.json").write_text(clean, encoding="utf-8")
    code, _, err = run(capsys, "flows/a.flowdrop.json", "--write-baseline", "baseline.json")
    assert code == 0
    assert "kept 2 entries of 1 file not checked" in err
    after = json.loads((project / "baseline.json").read_text(encoding="utf-8"))
    assert after["findings"] == [
        f for f in before["findings"] if f["path"].endswith("b.flowdrop.json")
    ]
    code, out, _ = run(capsys, "flows", "--baseline", "baseline.json")
    assert (code, out) == (0, "no problems in 2 files; 2 more suppressed by the baseline\n")
    # A file deleted since is gone from the project: its entries go too.
    (project / "flows" / "b.flowdrop.json").unlink()
    run(capsys, "flows", "--write-baseline", "baseline.json")
    assert json.loads((project / "baseline.json").read_text(encoding="utf-8"))["findings"] == []


def test_write_baseline_refuses_to_overwrite_a_file_that_is_not_a_baseline(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    (project / "notes.json").write_text('{"mine": 1}', encoding="utf-8")
    code, _, err = run(capsys, "flows", "--write-baseline", "notes.json")
    assert code == 2 and "is not a flowdrop-lsp baseline" in err
    assert (project / "notes.json").read_text(encoding="utf-8") == '{"mine": 1}'


def test_write_baseline_help_says_other_files_are_kept(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run(capsys, "--help")
    out = " ".join(capsys.readouterr().out.split())
    assert "keeps the entries of files not checked" in out


# ----- version 1 (message-based fingerprints) and version 2 ----------------------------------

V1_SITE = REPO / "tests" / "fixtures" / "baseline-v1"


@pytest.fixture
def v1_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The site a version-1 baseline was written for by the message-based fingerprints (its
    twelve findings), with that baseline."""
    site = tmp_path / "site"
    shutil.copytree(V1_SITE, site)
    monkeypatch.chdir(site)
    return site


def test_a_version_1_baseline_still_suppresses_the_findings_it_listed(
    capsys: pytest.CaptureFixture[str], v1_site: Path
) -> None:
    data = json.loads((v1_site / "baseline.json").read_text(encoding="utf-8"))
    assert data["flowdrop-lsp-baseline"] == 1 and len(data["findings"]) == 12
    code, out, err = run(capsys, "--no-cache", ".", "--baseline", "baseline.json")
    assert (code, out) == (0, "no problems in 3 files; 12 more suppressed by the baseline\n")
    assert "matched no finding" not in err


def test_write_baseline_writes_version_2_and_keeps_unchecked_v1_entries_matching(
    capsys: pytest.CaptureFixture[str], v1_site: Path
) -> None:
    """A rewrite checking another file keeps the version-1 entries of the workflow it did not
    check (as `fingerprint_v1`), which go on suppressing its findings."""
    (v1_site / "other.flowdrop.json").write_text(COLLISION, encoding="utf-8")
    code, _, err = run(
        capsys, "--no-cache", "other.flowdrop.json", "--write-baseline", "baseline.json"
    )
    assert code == 0 and "kept 12 entries of 1 file not checked" in err
    data = json.loads((v1_site / "baseline.json").read_text(encoding="utf-8"))
    assert data["flowdrop-lsp-baseline"] == 2
    kinds = sorted(
        (item["path"], "fingerprint" in item, "fingerprint_v1" in item) for item in data["findings"]
    )
    others = len(kinds) - 12
    assert others >= 2  # the collision, and whatever the site's node types say of it
    assert (
        kinds
        == [("legacy.flowdrop.json", False, True)] * 12
        + [("other.flowdrop.json", True, False)] * others
    )
    code, out, err = run(capsys, "--no-cache", ".", "--baseline", "baseline.json")
    assert (code, out) == (
        0,
        f"no problems in 4 files; {12 + others} more suppressed by the baseline\n",
    )
    assert "matched no finding" not in err


def test_a_version_2_baseline_survives_a_reworded_message(
    capsys: pytest.CaptureFixture[str], v1_site: Path
) -> None:
    """The node type's `timeout` renamed away: R6.c's "did you mean 'timeout'?" leaves two
    messages. Version 2 keeps them suppressed; the version-1 baseline did not."""
    run(capsys, "--no-cache", ".", "--write-baseline", "v2.json")
    assert (
        json.loads((v1_site / "v2.json").read_text(encoding="utf-8"))["flowdrop-lsp-baseline"] == 2
    )
    definition = v1_site / "flowdrop_node_type.flowdrop_node_type.http_request.yml"
    text = definition.read_text(encoding="utf-8")
    definition.write_text(text.replace("timeout:", "deadline:"), encoding="utf-8")
    code, out, _ = run(capsys, "--no-cache", ".", "--format", "json")
    messages = [f["message"] for f in json.loads(out) if f["code"] == "R6.c"]
    assert len(messages) == 4 and not any("did you mean" in m for m in messages)
    code, out, err = run(capsys, "--no-cache", ".", "--baseline", "v2.json")
    assert (code, out) == (0, "no problems in 3 files; 12 more suppressed by the baseline\n")
    _, out, _ = run(capsys, "--no-cache", ".", "--baseline", "baseline.json", "--format", "json")
    assert sorted(f["locator"] for f in json.loads(out)) == [
        "node.fetch.config.timout",
        "node.post.config.timeot",
    ]


def test_a_baseline_of_an_unknown_version_is_refused(
    capsys: pytest.CaptureFixture[str], v1_site: Path
) -> None:
    for version in (3, True, "2"):
        (v1_site / "b.json").write_text(
            json.dumps({"flowdrop-lsp-baseline": version, "findings": []}), encoding="utf-8"
        )
        code, _, err = run(capsys, "--no-cache", ".", "--baseline", "b.json")
        assert code == 2 and "is not a flowdrop-lsp baseline" in err, version
    mixed = {"path": "legacy.flowdrop.json", "fingerprint": "a:1", "fingerprint_v1": "b:1"}
    (v1_site / "b.json").write_text(
        json.dumps({"flowdrop-lsp-baseline": 2, "findings": [mixed]}), encoding="utf-8"
    )
    code, _, err = run(capsys, "--no-cache", ".", "--baseline", "b.json")
    assert code == 2 and "is not a flowdrop-lsp baseline" in err
