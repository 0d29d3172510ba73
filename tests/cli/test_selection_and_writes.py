"""`check` on a real repository layout: only FlowDrop documents are judged, walks honour
excludes and .gitignore, and `--fix` writes safely (symlinks, read-only files, modes, pipes)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from flowdrop_lsp.entry import main
from tests.support.builders import FIXTURES, REPO
from tests.support.cli import finding_lines

NOT_FLOWDROP = FIXTURES / "not-flowdrop"
COLLISION = FIXTURES / "collision-nested-drupal.flowdrop.json"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_other_json_in_a_repository_is_never_judged(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(NOT_FLOWDROP, tmp_path / "repo")
    monkeypatch.chdir(tmp_path / "repo")
    code, out, err = run(capsys, ".", "-v")
    assert code == 0
    assert out == ""
    assert "no workflow files to check in ." in err
    skipped = {line.split(":")[0].removeprefix("skipped ") for line in err.splitlines()}
    assert {p.name for p in NOT_FLOWDROP.glob("*.json")} <= skipped


def test_a_file_named_like_a_workflow_is_always_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    named = tmp_path / "graph.flowdrop.json"
    shutil.copy(NOT_FLOWDROP / "d3-force-graph.json", named)
    code, out, _ = run(capsys, str(tmp_path))
    assert code == 1 and "FD-" in out  # judged, since its name says it is a workflow


def test_dot_and_absolute_and_subfolder_select_the_same_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "flows" / "old").mkdir(parents=True)
    shutil.copy(COLLISION, tmp_path / "flows" / "a.flowdrop.json")
    shutil.copy(COLLISION, tmp_path / "flows" / "old" / "b.flowdrop.json")
    shutil.copy(COLLISION, tmp_path / "top.flowdrop.json")
    (tmp_path / "flowdrop-lsp.toml").write_text(
        'extend-exclude = ["flows/old"]\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)

    def files(*args: str) -> set[str]:
        _, out, _ = run(capsys, *args)
        return {str(Path(line.split(":")[0]).resolve()) for line in finding_lines(out)}

    dot, absolute = files("."), files(str(tmp_path))
    assert (
        dot
        == absolute
        == {
            str(tmp_path / "flows" / "a.flowdrop.json"),
            str(tmp_path / "top.flowdrop.json"),
        }
    )
    monkeypatch.chdir(tmp_path / "flows")
    assert files(".") == {str(tmp_path / "flows" / "a.flowdrop.json")}


def test_walks_skip_what_gitignore_ignores(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("dist/\n*.generated.flowdrop.json\n", encoding="utf-8")
    (tmp_path / "dist").mkdir()
    shutil.copy(COLLISION, tmp_path / "dist" / "x.flowdrop.json")
    shutil.copy(COLLISION, tmp_path / "y.generated.flowdrop.json")
    shutil.copy(COLLISION, tmp_path / "kept.flowdrop.json")
    monkeypatch.chdir(tmp_path)
    _, out, err = run(capsys, ".", "-v")
    assert {line.split(":")[0] for line in finding_lines(out)} == {"kept.flowdrop.json"}
    assert "skipped y.generated.flowdrop.json: ignored by .gitignore" in err
    # Named explicitly, an ignored file is checked.
    code, out, _ = run(capsys, "dist/x.flowdrop.json")
    assert code == 1


def test_fix_writes_through_a_symlink_to_its_target(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "real" / "flow.flowdrop.json"
    target.parent.mkdir()
    shutil.copy(COLLISION, target)
    os.chmod(target, 0o640)
    link = tmp_path / "link.flowdrop.json"
    link.symlink_to(target)
    code, _, err = run(capsys, "--fix", str(link))
    assert code == 0, err
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert target.read_text(encoding="utf-8") != COLLISION.read_text(encoding="utf-8")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_fix_refuses_a_read_only_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "locked.flowdrop.json"
    shutil.copy(COLLISION, path)
    os.chmod(path, 0o444)
    before = path.read_bytes()
    code, out, err = run(capsys, "--fix", str(path))
    assert code == 2
    assert "cannot fix" in err and "read-only" in err
    assert path.read_bytes() == before
    assert "CMP-9" in out  # what it found is still reported


def test_a_reader_that_goes_away_ends_the_report_quietly(tmp_path: Path) -> None:
    many = tmp_path / "many"
    many.mkdir()
    for index in range(300):
        shutil.copy(COLLISION, many / f"w{index}.flowdrop.json")
    command = f"{sys.executable} -m flowdrop_lsp check {many} | head -1"
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command}"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert done.stdout.count("\n") == 1
    assert done.returncode == 1  # the findings' exit code, not a crash
