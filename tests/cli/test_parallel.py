"""Output and exit codes never depend on the cache or the pool: a serial uncached run, a run
in worker processes, a run writing the cache and a run reading it print the same bytes, on the
real site and on a generated 60-file site with planted findings (every 7th workflow broken)."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowdrop_lsp.core.workspace import batch
from tests.support.cli import run, use_fake_site_rule
from tests.support.site import copy_site

MODES = (
    ("--no-cache", "--jobs", "1"),
    ("--no-cache", "--jobs", "2"),  # 15 or 60 files: the 60 go to the pool
    ("--jobs", "2"),  # cold: writes the cache
    ("--jobs", "2"),  # warm: reads it
)


@pytest.mark.parametrize("copies", [0, 3], ids=["real-site", "60-files"])
@pytest.mark.parametrize("output", ["text", "json", "sarif"])
def test_serial_parallel_and_cached_runs_print_the_same(
    copies: int,
    output: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    use_fake_site_rule(monkeypatch)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FLOWDROP_LSP_CACHE_DIR", str(tmp_path / "cache"))
    copy_site(tmp_path, copies=copies, broken_every=7)
    runs = [run(capsys, "sync", "--format", output, *mode) for mode in MODES]
    assert all(r == runs[0] for r in runs[1:])
    assert runs[0][0] == 1  # errors found (the stand-in rule's, the planted breaks)
    if copies:
        assert "FD-SYNTAX" in runs[0][1]


def test_a_cold_run_of_many_files_uses_the_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pools: list[int] = []
    real = batch.ProcessPoolExecutor

    def counting(workers: int, **kwargs: object) -> object:
        pools.append(workers)
        return real(workers, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "ProcessPoolExecutor", counting)
    monkeypatch.chdir(tmp_path)
    copy_site(tmp_path, copies=2)
    run(capsys, "sync", "--no-cache", "--jobs", "2")
    assert pools == [2]
    run(capsys, "sync", "--no-cache", "--jobs", "1")
    one = next((tmp_path / "sync").glob("flowdrop_workflow*"))
    run(capsys, f"sync/{one.name}", "--no-cache", "--jobs", "2")
    assert pools == [2], "--jobs 1, or few files: no pool"
