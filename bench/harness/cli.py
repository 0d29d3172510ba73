"""Timing `flowdrop-lsp check` in a fresh process (startup included), as a user runs it: the
CLI side of a benchmark (bench/pathological.py; the next "site" scenario checks a folder)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path


def timed_check(
    paths: list[Path], timeout: float, *, fmt: str = "json"
) -> tuple[float, subprocess.CompletedProcess[str] | None]:
    """(wall seconds, the finished process), or (timeout, None) when it did not finish."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "flowdrop_lsp", "check", "--format", fmt, *map(str, paths)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return timeout, None
    return time.perf_counter() - started, done
