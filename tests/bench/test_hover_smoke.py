"""Smoke test of bench/hover_bench.py: a tiny run (1k nodes, 2 rounds) must time every kind of
request and get real answers (a tool's hover naming its collision, hints in the visible range).
No timing is asserted: timing belongs to the benchmark."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _load_hover_bench():
    sys.path.insert(0, str(REPO / "bench"))
    spec = importlib.util.spec_from_file_location(
        "flowdrop_hover_bench", REPO / "bench" / "hover_bench.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_hover_bench_smoke() -> None:
    bench = _load_hover_bench()
    results = asyncio.run(bench.run(1000, 2, bench.generate.DEFAULT_SEED))
    assert results["problems"] == []
    ours = results["samples"]["ours"]
    assert set(ours) == set(bench.KINDS)
    assert all(len(values) == 2 and min(values) > 0 for values in ours.values())
    assert len(results["samples"]["floor"]["hover tool"]) == 2
    assert "| hover tool |" in bench.report(results)
