"""`check --staged` (cli/staged.py, the pre-commit hook's mode): what the changes staged in git
touch — the staged workflows and node types, the workflows using a staged node type, the
callers of a staged or deleted workflow — in a git repository holding the real site."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.site import copy_site

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
}
SYNC = Path("config/sync")
CALLED = SYNC / "flowdrop_workflow.flowdrop_workflow.aincient_brand_specialist_colour.yml"
CALLER = SYNC / "flowdrop_workflow.flowdrop_workflow.brand_studio.yml"
USED_TYPE = (
    SYNC / "flowdrop_node_type.flowdrop_node_type.aincient_flows_aincient_capability_list_pages.yml"
)
USERS = sorted(
    SYNC / f"flowdrop_workflow.flowdrop_workflow.{name}.yml"
    for name in ("aincient_audit_agent", "aincient_operator_agent_loop", "aincient_pages_agent")
)


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, env={**os.environ, **GIT_IDENTITY}
    )


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy_site(tmp_path, SYNC.as_posix())
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "the site")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_deleting_a_called_workflow_fails_at_its_callers(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _git(repo, "rm", "-q", str(CALLED))
    code, out, _ = run(capsys, "--no-cache", "--staged")
    assert code == 1
    assert f"{CALLER}:" in out and "error FD-CALL" in out
    assert "aincient_brand_specialist_colour" in out


def test_a_changed_node_type_is_judged_with_the_workflows_using_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = repo / USED_TYPE
    path.write_text(path.read_text(encoding="utf-8").replace("label:", "labl: x\nlabel:", 1))
    _git(repo, "add", str(USED_TYPE))
    code, out, err = run(capsys, "--no-cache", "--staged", "--format", "json", "-v")
    found = json.loads(out)
    assert {f["path"] for f in found if f["code"] == "FD-NODE-TYPE-KEY"} == {str(USED_TYPE)}
    judged = sorted(
        line.split(": ")[0].removeprefix("node type ")
        for line in err.splitlines()
        if line.startswith((f"{SYNC}/", f"node type {SYNC}/")) and ": " in line
    )
    assert sorted({*map(str, USERS), str(USED_TYPE)}) == sorted(set(judged)), err


def test_files_named_are_kept_and_only_dependents_are_added(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """pre-commit names the staged files itself; `--staged` adds what they touch."""
    _git(repo, "rm", "-q", str(CALLED))
    clean = SYNC / "flowdrop_workflow.flowdrop_workflow.reason.yml"
    code, out, _ = run(capsys, "--no-cache", "--staged", str(clean))
    assert code == 1 and f"{CALLER}:" in out and "in 1 of 2 files" in out, out


def test_nothing_staged_checks_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--no-cache", "--staged")
    assert code == 0 and out == ""
    assert "no workflow or node type is staged" in err


def test_outside_a_repository_it_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    code, _, err = run(capsys, "--staged")
    assert code == 2 and "--staged needs a git repository" in err
