"""An unchanged `check` answered from its recording (cli/replay.py, issue 28): the same output
and exit code as a cold run, always — after random edits, deletions, renames, new files and
settings — and never for a run that changes files, reads standard input, or whose inputs were
written too recently to be told apart from a later edit."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

import flowdrop_lsp.cli.main as cli_main
from tests.support.cli import run
from tests.support.site import copy_site

WORKFLOW_GLOB = "flowdrop_workflow.flowdrop_workflow.*.yml"


def _age(folder: Path, seconds: float = 100.0) -> None:
    """Every file below `folder` last written `seconds` ago (a recording trusts no file written
    in the two seconds before it), each at its own time."""
    past = time.time() - seconds
    for number, path in enumerate(sorted(p for p in folder.rglob("*") if p.is_file())):
        stamp = past - number * 0.001
        os.utime(path, (stamp, stamp))


@pytest.fixture
def site(workdir: Path) -> Path:
    """The real site in `config/sync` of the working directory, a cache folder beside it, every
    file written long enough ago for a recording to trust it."""
    sync = copy_site(workdir, "config/sync")
    (workdir / ".flowdrop_lsp_cache").mkdir()
    _age(workdir)
    return sync


def _forbid_checking(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> int:
        raise AssertionError("checked again: the run was not answered from its recording")

    monkeypatch.setattr(cli_main, "run_check", refuse)


def test_an_unchanged_run_is_replayed_exactly(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for args in (("config/sync",), ("--format", "json", "config/sync")):
        first = run(capsys, *args)
        assert first[0] == 0 and first[1]
        with monkeypatch.context() as patched:
            _forbid_checking(patched)
            assert run(capsys, *args) == first
    assert len(list((site.parents[1] / ".flowdrop_lsp_cache" / "runs").iterdir())) == 2


def test_after_random_changes_a_replay_equals_a_cold_run(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(29)
    root = site.parents[1]
    replays = 0
    for step in range(12):
        workflows = sorted(site.glob(WORKFLOW_GLOB))
        change = rng.choice(["edit", "delete", "rename", "add", "settings", "node type", "none"])
        target = rng.choice(workflows)
        before = {p: p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}
        if change == "edit":  # a label typed into (a CMP-9 or R-rule may come or go)
            text = target.read_text(encoding="utf-8")
            target.write_text(text.replace("label: '", "label: 'x ", 1), encoding="utf-8")
        elif change == "delete":  # a callee may go: FD-CALL in its callers
            target.unlink()
        elif change == "rename":
            target.rename(target.with_name(target.name.replace(".yml", "_moved.yml")))
        elif change == "add":
            (site / f"flowdrop_workflow.flowdrop_workflow.copy_{step}.yml").write_text(
                target.read_text(encoding="utf-8"), encoding="utf-8"
            )
        elif change == "settings":
            (root / "flowdrop-lsp.toml").write_text(
                f'ignore = ["{rng.choice(["FD-TOOL-ROUTE", "FD-CONFIG-NAME", "R6.c"])}"]\n',
                encoding="utf-8",
            )
        elif change == "node type":
            node_type = rng.choice(sorted(site.glob("flowdrop_node_type.*.yml")))
            node_type.write_text(
                node_type.read_text(encoding="utf-8").replace(
                    "required: false", "required: true", 1
                ),
                encoding="utf-8",
            )
        # Only what this step wrote is re-dated (still old enough to be trusted): the rest
        # keeps its stat, so a replay is taken unless the inputs really differ.
        stamp = time.time() - 100.0 + step
        for path in root.rglob("*"):
            changed = path.is_file() and before.get(path) != path.stat().st_mtime_ns
            if changed and ".flowdrop_lsp_cache" not in path.parts:
                os.utime(path, (stamp, stamp))
        recorded = run(capsys, "config/sync")
        replayed = run(capsys, "config/sync")
        cold = run(capsys, "--no-cache", "config/sync")
        assert replayed == recorded == cold, f"step {step}: {change} of {target.name}"
        replays += change == "none"
    assert replays, "no step left the site unchanged: choose another seed"


def test_a_file_written_just_now_is_not_trusted(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = sorted(site.glob(WORKFLOW_GLOB))[0]
    target.write_text(target.read_text(encoding="utf-8"), encoding="utf-8")  # mtime: now
    run(capsys, "config/sync")
    assert not (site.parents[1] / ".flowdrop_lsp_cache" / "runs").exists()


@pytest.mark.parametrize(
    "args",
    [
        ("--fix", "config/sync"),
        ("--diff", "config/sync"),
        ("--no-cache", "config/sync"),
        ("-v", "config/sync"),
        ("--fi", "config/sync"),  # argparse's abbreviation of --fix: never taken as anything
    ],
)
def test_runs_that_change_or_say_more_are_never_recorded(
    site: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    run(capsys, *args)
    run(capsys, *args)
    assert not (site.parents[1] / ".flowdrop_lsp_cache" / "runs").exists()


def test_settings_naming_node_types_elsewhere_are_not_recorded(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = site.parents[1]
    (root / "flowdrop-lsp.toml").write_text('node-types = ["config/sync"]\n', encoding="utf-8")
    _age(root)
    run(capsys, "config/sync")
    assert not (root / ".flowdrop_lsp_cache" / "runs").exists()


def test_without_a_cache_folder_nothing_is_written(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy_site(workdir)  # in `sync`, no cache folder yet
    _age(workdir)
    run(capsys, "--no-cache", "sync")
    assert sorted(p.name for p in workdir.iterdir()) == ["sync"]


def test_only_the_latest_recordings_are_kept(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import flowdrop_lsp.cli.replay as replay

    monkeypatch.setattr(replay, "KEPT_RUNS", 2)
    runs = site.parents[1] / ".flowdrop_lsp_cache" / "runs"
    for selected in ("CMP-9", "R6.c", "FD-CALL"):
        run(capsys, "--select", selected, "config/sync")
    assert len(list(runs.iterdir())) == 2


def test_the_first_run_in_a_folder_records_into_the_cache_it_creates(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    copy_site(workdir)  # in `sync`, no cache folder yet
    _age(workdir)
    first = run(capsys, "sync")
    assert len(list((workdir / ".flowdrop_lsp_cache" / "runs").iterdir())) == 1
    with monkeypatch.context() as patched:
        _forbid_checking(patched)
        assert run(capsys, "sync") == first


def test_inside_a_repositorys_site_the_cache_goes_to_the_repositorys_top(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run from inside `config/sync` (no settings file): the cache folder is made at the top of
    the repository, never among the config Drupal imports, and the replay finds it there."""
    (tmp_path / ".git").mkdir()
    sync = copy_site(tmp_path, "config/sync")
    _age(tmp_path)
    monkeypatch.chdir(sync)
    monkeypatch.delenv("FLOWDROP_LSP_CACHE_DIR", raising=False)
    first = run(capsys, ".")
    assert not (sync / ".flowdrop_lsp_cache").exists()
    assert len(list((tmp_path / ".flowdrop_lsp_cache" / "runs").iterdir())) == 1
    with monkeypatch.context() as patched:
        _forbid_checking(patched)
        assert run(capsys, ".") == first
