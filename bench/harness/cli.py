"""Timing `flowdrop-lsp check` in a fresh process (startup included), as a user runs it: the
CLI side of a benchmark (bench/pathological.py; bench/scenarios/site.py checks a folder)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path


def timed_check(
    paths: list[Path],
    timeout: float,
    *,
    fmt: str = "json",
    args: Sequence[str] = (),
    cwd: Path | None = None,
) -> tuple[float, subprocess.CompletedProcess[str] | None]:
    """(wall seconds, the finished process), or (timeout, None) when it did not finish.
    `args`: more options for `check` (e.g. `--jobs 1`)."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "flowdrop_lsp", "check", "--format", fmt, *args]
            + [str(p) for p in paths],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd,
        )
    except subprocess.TimeoutExpired:
        return timeout, None
    return time.perf_counter() - started, done


def check_options() -> set[str]:
    """The long options `flowdrop-lsp check --help` lists (what this build supports)."""
    done = subprocess.run(
        [sys.executable, "-m", "flowdrop_lsp", "check", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return {word.rstrip(",=") for word in done.stdout.split() if word.startswith("--")}
