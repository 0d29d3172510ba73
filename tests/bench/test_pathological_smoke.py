"""Smoke run of bench/pathological.py's issue-38 cases (the 53 MB export refused at STORE-1's
door, the 10,000-node toolbox chain with a cycle and `--fix`), at a small scale: the harness
runs, times `check` and `check --fix` in fresh processes, and the server's edit publishes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_the_door_and_chain_cases_run(capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(REPO / "bench"))
    spec = importlib.util.spec_from_file_location(
        "flowdrop_bench_pathological", REPO / "bench" / "pathological.py"
    )
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # (its dataclasses look their module up)
    spec.loader.exec_module(bench)
    assert bench.main(["--scale", "0.02", "--cases", "export_53mb,pairs_chain_cycle"]) == 0
    out = capsys.readouterr().out
    [export] = [line for line in out.splitlines() if line.startswith("export_53mb")]
    [chain] = [line for line in out.splitlines() if line.startswith("pairs_chain_cycle")]
    assert "exit 0" in export or "exit 1" in export
    assert "--fix " in chain and "timed out" not in chain
    assert "diagnostics" in chain
