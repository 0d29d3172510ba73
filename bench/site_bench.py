#!/usr/bin/env python3
"""Site benchmark (part of `make bench`): a 1,000-workflow Drupal site generated from the vendored
corpus (bench/site_gen.py), checked by the CLI (cold, warm, single-threaded) and indexed by the
server, against PyYAML's C `compose` reading the same files in one process, in the same run.

The scenario (documents, what is run, the checks, the report) is bench/scenarios/site.py; this
file owns the command line. Targets (docs/performance.md, issue 19): CLI cold ≤ 1.0× compose,
warm ≤ 0.15×, server publishing every file ≤ 1.5× after `initialized`, a callee's contract edit
re-publishing its callers ≤ 100 ms, server RSS with the site indexed ≤ 400 MB.

    python bench/site_bench.py                              # 1,000 workflows, 3 rounds
    python bench/site_bench.py --workflows 30 --rounds 1 --no-write
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness.paths import BENCH_DIR
from harness.report import KEPT_SECTIONS, write_section
from scenarios.site import MARKERS, failed, report, run

__all__ = ["main", "report", "run"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workflows", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3, help="CLI rounds (each with the baseline)")
    parser.add_argument("--compose-repeats", type=int, default=2, help="baseline runs per round")
    parser.add_argument("--edits", type=int, default=5, help="contract edits of the open callee")
    parser.add_argument(
        "--start-timeout",
        type=float,
        default=20.0,
        help="seconds after `initialized` to wait for the first sign of indexing",
    )
    parser.add_argument("--index-timeout", type=float, default=600.0)
    parser.add_argument("--edit-timeout", type=float, default=10.0)
    parser.add_argument("--cli-timeout", type=float, default=300.0)
    parser.add_argument("--out", help="generate the site here (kept); default: a temporary folder")
    parser.add_argument("--results", default=str(BENCH_DIR / "RESULTS.md"))
    parser.add_argument("--no-write", action="store_true", help="print the section only")
    parser.add_argument("--json", help="also write the results as JSON to this file")
    args = parser.parse_args(argv)
    assert MARKERS in KEPT_SECTIONS
    result = asyncio.run(
        run(
            args.workflows,
            args.rounds,
            args.compose_repeats,
            out=Path(args.out) if args.out else None,
            cli_timeout=args.cli_timeout,
            start_timeout=args.start_timeout,
            index_timeout=args.index_timeout,
            edits=args.edits,
            edit_timeout=args.edit_timeout,
            keep=bool(args.out),
        )
    )
    command = "python bench/site_bench.py" + "".join(f" {a}" for a in (argv or sys.argv[1:]))
    section = report(result, command)
    print(section)
    if not args.no_write:
        write_section(Path(args.results), section, MARKERS)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 1 if failed(result) else 0


if __name__ == "__main__":
    sys.exit(main())
