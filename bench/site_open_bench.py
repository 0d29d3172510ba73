#!/usr/bin/env python3
"""Opening a large Drupal workflow inside a site being indexed (part of `make bench`): ours (scope
`workspace` and `open`) against yaml-language-server, first open and re-open, same run. The
scenario is bench/scenarios/site_open.py; this file owns the command line.

    python bench/site_open_bench.py                  # 5k nodes, 3 rounds
    python bench/site_open_bench.py --server /other/checkout/.venv/bin/flowdrop-lsp
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate
from harness.paths import BENCH_DIR
from harness.report import write_section
from scenarios.site_open import SECTION, report, run


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=generate.DEFAULT_SEED)
    parser.add_argument(
        "--server",
        default=str(Path(sys.executable).with_name("flowdrop-lsp")),
        help="flowdrop-lsp executable (default: beside this Python)",
    )
    parser.add_argument("--out", default=str(BENCH_DIR / "RESULTS.md"), help="'' = print only")
    parser.add_argument("--raw", type=Path, help="write the samples as JSON here")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results = asyncio.run(run(args.server, args.nodes, args.rounds, args.seed))
    section = report(results)
    print(section)
    if args.out:
        write_section(Path(args.out), section, SECTION)
    if args.raw:
        args.raw.write_text(json.dumps(results, indent=1))
    return 1 if results["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
