"""Smoke test of bench/navigation_bench.py: a tiny run (300 nodes, a few requests) must answer
every definition and reference with a location and report numbers. No timing is asserted:
timing belongs in the benchmark itself."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_navigation_bench_smoke() -> None:
    sys.path.insert(0, str(REPO / "bench"))
    spec = importlib.util.spec_from_file_location(
        "flowdrop_navigation_bench", REPO / "bench" / "navigation_bench.py"
    )
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = asyncio.run(bench.run(nodes=300, rounds=1, requests=4, seed=7))
    rows = result["rows"]
    assert set(rows) == {"definition", "references", "after edit", "floor"}
    assert rows["definition"]["n"] == 4 and rows["references"]["n"] == 4
    assert all(row["p50_ms"] > 0 for row in rows.values())
    assert "target met" in bench.report(result)
