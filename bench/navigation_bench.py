#!/usr/bin/env python3
"""Navigation benchmark (part of `make bench`): textDocument/definition and references at 10k
nodes, against a floor measured in the same run.

The scenario (what is opened, which requests, the report) is bench/scenarios/navigation.py;
this file owns the command line. Targets (docs/performance.md): definition and references p50 ≤ 10 ms at
10k nodes. Ratios are against the floor of the same run (machines differ; a shared machine's
absolute times are noisy).

    python bench/navigation_bench.py                    # 10k nodes, 3 rounds × 40 requests
    python bench/navigation_bench.py --nodes 1000 --rounds 1 --requests 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate
from scenarios.navigation import report, run

__all__ = ["generate", "main", "report", "run"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--seed", type=int, default=generate.DEFAULT_SEED)
    parser.add_argument("--json", help="also write the results as JSON to this file")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args.nodes, args.rounds, args.requests, args.seed))
    print(report(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
