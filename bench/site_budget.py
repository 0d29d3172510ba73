#!/usr/bin/env python3
"""Where a cold `check` of a site spends its CPU, stage by stage, against PyYAML's C `compose` of
the same files measured in the same process (issue 39: the profile behind the site figures of
bench/site_bench.py, which times the whole run from outside).

In one process, on the generated 1,000-workflow site (bench/site_gen.py), with the cyclic
collector paused as the engine pauses it, each stage timed in CPU seconds (`process_time`: what
the two cores must share, and less sensitive to a loaded machine than wall time) over every
workflow file: the read (the text into the syntax tree: what `compose` does), the rest of the
document (elements, models, graph), the findings, the site facts, and the analysis pickled as
a worker sends it and unpickled as the main process reads it. Then the CLI itself, in a child
process per mode: `--jobs 1 --no-cache` (all in one process) and the default (workers), wall
and CPU (its own and its workers'), so that what the CLI adds around the per-file work shows.

    python bench/site_budget.py                        # generates the site in a temporary folder
    python bench/site_budget.py --site /tmp/site1k     # a site generated before (kept)
"""

from __future__ import annotations

import argparse
import gc
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import yaml

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(0, str(BENCH_DIR.parent))

import site_gen  # noqa: E402

from flowdrop_lsp.core.config.settings import Settings  # noqa: E402
from flowdrop_lsp.core.engine.document import WorkflowDocument  # noqa: E402
from flowdrop_lsp.core.syntax.reader import reader_for  # noqa: E402
from flowdrop_lsp.core.workspace.batch import FileAnalysis, portable  # noqa: E402
from flowdrop_lsp.core.workspace.cache import dumps, loads  # noqa: E402


def cpu(run: Callable[[], object], repeats: int) -> float:
    """The least CPU seconds of `repeats` runs of `run`, the collector paused (as a read and
    a check pause it)."""
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
        gc.enable()
    return best


def stages(texts: Sequence[str], repeats: int) -> dict[str, float]:
    """Each stage's CPU seconds over every text (see the module docstring)."""
    reader = reader_for("yaml", False)
    settings = Settings()

    def compose() -> None:
        for text in texts:
            yaml.compose(text, Loader=yaml.CSafeLoader)

    def read() -> None:
        for text in texts:
            reader.read(text)

    def document() -> None:
        for text in texts:
            WorkflowDocument(text, settings, syntax="yaml", site_facts=True).close()

    def with_findings() -> None:
        for text in texts:
            made = WorkflowDocument(text, settings, syntax="yaml", site_facts=True)
            made.findings()
            made.close()

    analyses: list[FileAnalysis] = []

    def with_facts() -> None:
        analyses.clear()
        for text in texts:
            made = WorkflowDocument(text, settings, syntax="yaml", site_facts=True)
            findings = tuple(portable(finding) for finding in made.findings())
            analyses.append(FileAnalysis(findings, made.site_facts()))
            made.close()

    figures = {
        "compose": cpu(compose, repeats),
        "read": cpu(read, repeats),
        "document": cpu(document, repeats),
        "findings": cpu(with_findings, repeats),
        "facts": cpu(with_facts, repeats),
    }
    pickled: list[bytes] = []
    figures["pickle"] = cpu(lambda: pickled.__setitem__(slice(None), map(dumps, analyses)), repeats)
    figures["unpickle"] = cpu(lambda: [loads(data) for data in pickled], repeats)
    figures["pickled MB"] = sum(map(len, pickled)) / 1e6
    # Each stage alone: what it adds to the one before it.
    figures["findings"] -= figures["document"]
    figures["facts"] -= figures["document"] + figures["findings"]
    figures["document"] -= figures["read"]
    return figures


def cli(site: Path, options: Sequence[str]) -> tuple[float, float, float]:
    """Wall seconds, the CLI process's CPU and its workers' CPU of one `check --format json`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = [sys.executable, str(BENCH_DIR / "harness" / "cpu_of.py")]
    command += ["check", "--format", "json", *options, str(site)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"check failed ({done.returncode}): {done.stderr[-2000:]}")
    own = float(done.stderr.strip().splitlines()[-1])
    total = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, own, total - own


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", help="a site generated by site_gen.py (else one is made)")
    parser.add_argument("--workflows", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3, help="runs per stage (the least kept)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(args.site) if args.site else Path(scratch)
        if not args.site:
            site_gen.generate_site(args.workflows, root)
        files = sorted((root / "config" / "sync").glob(site_gen.WORKFLOW_PREFIX + "*.yml"))
        texts = [path.read_text(encoding="utf-8") for path in files]
        figures = stages(texts, args.repeats)
        base = figures["compose"]
        print(f"{len(texts)} workflow files, {sum(map(len, texts)) / 1e6:.1f} M characters")
        print("| stage (one process, CPU) | seconds | / compose |")
        print("|---|---|---|")
        for name in ("compose", "read", "document", "findings", "facts", "pickle", "unpickle"):
            print(f"| {name} | {figures[name]:.3f} | {figures[name] / base:.2f}× |")
        per_file = sum(figures[n] for n in ("read", "document", "findings", "facts", "pickle"))
        print(f"| per-file work in all | {per_file:.3f} | {per_file / base:.2f}× |")
        print(f"\npickled analyses: {figures['pickled MB']:.1f} MB")
        print("\n| CLI (`check --format json`) | wall s | / compose | own CPU s | workers' CPU s |")
        print("|---|---|---|---|---|")
        for label, options in (
            ("--jobs 1 --no-cache", ["--jobs", "1", "--no-cache"]),
            ("--no-cache (workers)", ["--no-cache"]),
        ):
            wall, own, workers = cli(root, options)
            print(f"| {label} | {wall:.2f} | {wall / base:.2f}× | {own:.2f} | {workers:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
