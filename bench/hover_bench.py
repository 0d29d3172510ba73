#!/usr/bin/env python3
"""Hover and inlay-hint latency of flowdrop-lsp on a large workflow (part of `make bench`).

One run, one generated workflow (bench/generate.py, 10k nodes by default: 8 MB of JSON), one
server process each: ours (hover on a tool, a consumer, a toolbox and on nothing, inlay hints
for 60 visible lines, code lenses) and the pygls floor (the same hover, not handled). The
scenario is bench/scenarios/hover.py; this file owns the command line.

A sample is the time from writing the request to reading its answer in full. Percentiles and
the ratios to the floor come from this run only; the target is hover p50 ≤ 10 ms at 10k nodes.

    python bench/hover_bench.py                   # 10k nodes, 40 rounds
    python bench/hover_bench.py --nodes 1000 --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate
from scenarios.hover import KINDS, report, run

__all__ = ["KINDS", "generate", "main", "report", "run"]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--seed", type=int, default=generate.DEFAULT_SEED)
    parser.add_argument("--raw", type=Path, help="write the samples as JSON here")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results = asyncio.run(run(args.nodes, args.rounds, args.seed))
    print(report(results))
    if args.raw:
        args.raw.write_text(json.dumps(results, indent=1))
    return 1 if results.get("problems") else 0


if __name__ == "__main__":
    sys.exit(main())
