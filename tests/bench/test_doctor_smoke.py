"""Smoke test of bench/doctor_bench.py: one tiny round (500 nodes) over HTTP must answer every
request it times and print its tables. No timing is asserted: timing belongs to the benchmark."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_doctor_bench_smoke() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "doctor_bench.py"),
            "--rounds",
            "1",
            "--nodes",
            "500",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "500-node draft | median ms" in done.stdout
    assert "| one label |" in done.stdout
    assert "| aincient_weather |" in done.stdout
