"""In-process profile of opening a large workflow document (issue 10 §2).

Generates a document with bench/generate.py, then, in this one process, times what an open
costs up to the first findings: `WorkflowDocument(text)` plus `findings()`, plus the first full
garbage collection afterwards (the pause a server pays soon after a big open, when the
collector walks everything the read allocated). Reports wall times, the tracemalloc peak of the
open (optional: tracing slows the read itself), RSS growth, and optionally a cProfile top 20.

    python bench/open_profile.py --nodes 10000 --repeat 3
    python bench/open_profile.py --nodes 50000 --repeat 1 --memory
    python bench/open_profile.py --nodes 10000 --profile

Figures on a shared machine are noisy: compare runs interleaved, in the same session.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import generate_text
from harness.engine import WorkflowDocument


def _rss_mib() -> float:
    """Current resident set size (Linux /proc), in MiB."""
    try:
        fields = Path("/proc/self/statm").read_text().split()
        return int(fields[1]) * resource.getpagesize() / 2**20
    except OSError:
        return float("nan")


def open_once(text: str, freeze: bool) -> tuple[dict[str, float], WorkflowDocument]:
    """Time one open up to its first findings, then the first full collection."""
    started = time.perf_counter()
    document = WorkflowDocument(text, freeze_after_read=freeze)
    opened = time.perf_counter()
    findings = document.findings()
    first_findings = time.perf_counter()
    gc.collect()
    collected = time.perf_counter()
    return {
        "construct_ms": (opened - started) * 1000,
        "first_findings_ms": (first_findings - started) * 1000,
        "first_full_gc_ms": (collected - first_findings) * 1000,
        "findings": float(len(findings)),
    }, document


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--freeze",
        choices=("off", "on", "both"),
        default="both",
        help="freeze_after_read (as the server opens): off, on, or both interleaved",
    )
    parser.add_argument("--memory", action="store_true", help="tracemalloc peak of one open")
    parser.add_argument("--profile", action="store_true", help="cProfile top 20 of one open")
    args = parser.parse_args(argv)

    text = generate_text(args.nodes)
    print(
        f"document: {args.nodes} nodes, {len(text):,} code points, "
        f"{len(text.encode()):,} bytes UTF-8"
    )
    gc.collect()
    rss_before = _rss_mib()
    modes = {"off": [False], "on": [True], "both": [False, True]}[args.freeze]
    for run in range(args.repeat):
        for freeze in modes:
            figures, document = open_once(text, freeze)
            rss_after = _rss_mib()
            print(
                f"run {run + 1} freeze {'on ' if freeze else 'off'}: construct "
                f"{figures['construct_ms']:.0f} ms, first findings "
                f"{figures['first_findings_ms']:.0f} ms, first full gc "
                f"{figures['first_full_gc_ms']:.0f} ms, findings {figures['findings']:.0f}, "
                f"RSS +{rss_after - rss_before:.0f} MiB"
            )
            document.close()
            del document
            gc.collect()
    if args.memory:
        tracemalloc.start()
        document = WorkflowDocument(text)
        document.findings()
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"tracemalloc: held {current / 2**20:.1f} MiB, peak {peak / 2**20:.1f} MiB")
        del document
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        document = WorkflowDocument(text)
        document.findings()
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(20)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
