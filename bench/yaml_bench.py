#!/usr/bin/env python3
"""flowdrop-lsp YAML benchmark (second half of `make bench`): Drupal config workflow YAML.

Documents: bench/generate_yaml.py (generate.py's graphs written as Drupal's config export
writes them, `flowdrop_workflow.flowdrop_workflow.synthetic_<n>.yml`, ≈24 lines per node,
planted CMP-9 collisions and one planted schema error `target: ''`), cached in
bench/.cache/yaml-docs/.

Servers (fresh process per server × size × round, order rotated every round, as run.py):

- ours-yaml      `flowdrop-lsp serve`, didOpen with languageId `yaml`;
- yaml-ls        yaml-language-server 1.25.0 WITHOUT its 200 ms debounce
                 (`node bench/yaml_nodelay.js <package dir> --stdio`, see bench/README.md);
- yaml-ls-push   the same server as shipped (`bin/yaml-language-server --stdio`, 200 ms
                 debounce), only at --push-sizes (default 500): the proof that the wrapper
                 removes ≈200 ms and nothing else.

yaml-language-server gets our schema (flowdrop_lsp/schemas/workflow.schema.json) the way
an editor gives it: `yaml.schemas = {<schema file URI>: ["flowdrop_workflow.flowdrop_workflow.*.yml"]}`
and `yaml.schemaStore.enable: false`, answered to its workspace/configuration pulls
(sections `yaml`, `http`, `[yaml]`, `editor`).

Before measuring a size, each server opens the document once and the run checks that it
validates: yaml-language-server must publish the planted schema error on its line, ours
must report CMP-9 on every planted collision. If a check fails the run says so in the
report and exits 1. Every measured publish must then carry the same diagnostics as that
checked open (a label edit changes none); mismatches are counted in the report.

Measured: didOpen → first publish; label edit (one character inserted before the closing
quote of a `label: '…'` scalar of a leaf near the middle of `nodes`) → the publish of that
version (ours) / the first publish after the didChange (yaml-language-server publishes
without a version); RSS of the process tree 0.5 s after the open publish.

Writes its section of bench/RESULTS.md (between `<!-- yaml-bench:begin -->` and
`<!-- yaml-bench:end -->`, appended when absent; the JSON part above is run.py's) and raw
samples to bench/.cache/last-yaml-results.json.

This file owns the run (options, order of sessions, time budget); the scenario (documents,
plan, checks, report section) is bench/scenarios/yaml_labels.py, the mechanics bench/harness/.

    python bench/yaml_bench.py                          # 500 + 5000 nodes, 5 rounds × 10 edits
    python bench/yaml_bench.py --sizes 500 --rounds 1 --edits 2 --servers ours-yaml --push-sizes ''
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate
from harness.paths import BENCH_DIR, CACHE, parse_names, parse_sizes
from harness.peers import default_server, wrapper_proof, yaml_specs, yls_version
from harness.report import YAML_SECTION, result_record, write_raw
from harness.report import write_section as _write_section
from harness.session import Sample, SessionInfo, rotate, run_session
from harness.stats import fmt_ms, fmt_size, percentile
from scenarios.yaml_labels import (
    check_validates,
    load_yaml_document,
    log,
    make_plan,
    render,
)


def write_section(path: Path, section: str) -> None:
    """Replace (or append) this benchmark's section of RESULTS.md; the rest is kept."""
    _write_section(path, section, YAML_SECTION)


# --------------------------------------------------------------------------- main
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description="flowdrop-lsp YAML benchmark",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    ap.add_argument("--sizes", default="500,5000")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--edits", type=int, default=10, help="label edits per round (default 10)")
    ap.add_argument("--servers", default="ours-yaml,yaml-ls", help="subset of ours-yaml,yaml-ls")
    ap.add_argument(
        "--push-sizes",
        default="500",
        help="sizes at which yaml-ls-push (as shipped, debounced) also runs",
    )
    ap.add_argument("--server", default=default_server(), help="flowdrop-lsp executable")
    ap.add_argument("--seed", type=int, default=generate.DEFAULT_SEED)
    ap.add_argument("--think", type=float, default=0.1)
    ap.add_argument("--timeout-scale", type=float, default=1.0)
    ap.add_argument("--session-cap", type=float, default=180)
    ap.add_argument(
        "--budget-min",
        type=float,
        default=15,
        help="stop starting rounds after this (each size keeps >= 1)",
    )
    ap.add_argument(
        "--out",
        default=str(BENCH_DIR / "RESULTS.md"),
        help="report file, YAML section replaced ('' = none)",
    )
    ap.add_argument("--raw", default=str(CACHE / "last-yaml-results.json"))
    cfg = ap.parse_args(argv)
    cfg.argv = list(sys.argv[1:] if argv is None else argv)
    return cfg


async def run_yaml_benchmark(cfg: argparse.Namespace) -> dict:
    t_start = time.perf_counter()
    (CACHE / "logs").mkdir(parents=True, exist_ok=True)
    sizes = parse_sizes(cfg.sizes)
    push_sizes = set(parse_sizes(cfg.push_sizes))
    base = parse_names(cfg.servers)
    servers_by_size = {s: base + (["yaml-ls-push"] if s in push_sizes else []) for s in sizes}
    specs = yaml_specs(sorted({n for v in servers_by_size.values() for n in v}), cfg.server)
    meta: dict[str, Any] = {
        "command": " ".join([Path(sys.executable).name, "bench/yaml_bench.py", *cfg.argv]),
        "rounds": {s: cfg.rounds for s in sizes},
        "bytes": {},
        "lines": {},
        "checks": [],
        "digests": {},
        "yls_version": yls_version(),
    }
    samples: list[Sample] = []
    infos: list[SessionInfo] = []
    failed = False
    for size in sizes:
        doc, m = load_yaml_document(size, cfg.seed)
        meta["bytes"][size] = len(doc.text.encode("utf-8"))
        meta["lines"][size] = doc.text.count("\n")
        for name in servers_by_size[size]:
            ok, why, digest = await check_validates(specs[name], doc, m)
            meta["checks"].append(f"{name} {fmt_size(size)}: {why}")
            meta["digests"][f"{name}/{size}"] = digest
            log(f"check {name} {fmt_size(size)}: {why}")
            failed |= not ok
        if failed:
            break
        last_round = 0.0
        for r in range(cfg.rounds):
            if r > 0 and time.perf_counter() - t_start + last_round > cfg.budget_min * 60:
                log(
                    f"{fmt_size(size)}: stopping after {r} rounds (--budget-min {cfg.budget_min:g})"
                )
                meta["rounds"][size] = r
                break
            t_round = time.perf_counter()
            plan = make_plan(doc, r, cfg.edits, cfg.seed)
            for name in rotate(servers_by_size[size], r):
                t = time.perf_counter()
                s, info = await run_session(specs[name], doc, r, plan, cfg)
                samples += s
                infos.append(info)
                ok_ms = [x.ms for x in s if x.ms is not None and x.kind != "open"]
                op = next((x.ms for x in s if x.kind == "open"), None)
                log(
                    f"{fmt_size(size):>4} r{r} {name:<13} open {fmt_ms(op):>6} ms, label p50 "
                    f"{fmt_ms(percentile(ok_ms, 0.5)):>6} ms ({len(ok_ms)}/{len(plan)} ok), "
                    f"rss {(info.rss_open or 0) / 2**20:.0f} MB, {time.perf_counter() - t:.1f} s"
                )
            last_round = time.perf_counter() - t_round
    meta["wall"] = time.perf_counter() - t_start
    if "yaml-ls" in specs:
        meta["wrapper"] = wrapper_proof()
    report = render(cfg, samples, infos, sizes, servers_by_size, meta)
    if failed:
        report = report.replace(
            "### Targets",
            "**VALIDATION CHECK FAILED: a server did not validate the document (see above); "
            "the run stopped.**\n\n### Targets",
            1,
        )
    meta["failed"] = failed
    result = result_record(meta, samples, infos, report)
    if cfg.out:
        write_section(Path(cfg.out), report)
    if cfg.raw:
        write_raw(cfg.raw, result)
    return result


def main(argv: list[str] | None = None) -> int:
    cfg = parse_args(argv)
    result = asyncio.run(run_yaml_benchmark(cfg))
    print(result["report"])
    if cfg.out:
        log(f"wrote the YAML section of {cfg.out}")
    if result["meta"]["failed"]:
        log("FAILED: a server did not validate the YAML document; see the checks above")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
