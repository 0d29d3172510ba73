"""Where the benchmark's files are, and the one log line format of every benchmark."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent.parent
REPO = BENCH_DIR.parent
CACHE = BENCH_DIR / ".cache"
LOGS = CACHE / "logs"  # servers' stderr, one file per session


def make_log(prefix: str) -> Callable[[str], None]:
    """A logger writing `[prefix HH:MM:SS] msg` to stderr (stdout holds the report)."""

    def log(msg: str) -> None:
        print(f"[{prefix} {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)

    return log


def parse_sizes(text: str) -> list[int]:
    """`"1000,10000"` → [1000, 10000]; `""` → [] (a scenario switched off)."""
    return [int(x) for x in str(text).split(",") if x.strip()]


def parse_names(text: str) -> list[str]:
    return [s.strip() for s in str(text).split(",") if s.strip()]
