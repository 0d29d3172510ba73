#!/usr/bin/env python3
"""flowdrop-lsp benchmark (entry point of `make bench`).

Generates synthetic workflows (cached in bench/.cache/docs), then measures, in ONE run,
interleaved across servers and over several rounds (a fresh server process per
server × size × round; the order of servers rotates every round):

- didOpen → first publishDiagnostics,
- didChange → the publishDiagnostics for that version, for
  label      one character inserted into a label,
  add_edge   a tool edge object inserted into the edges array (leaf → toolbox),
  delete     a node object deleted together with its edges (one didChange, several
             contentChanges),
  paste      a 20-node block pasted into the nodes array,
- RSS of the server process tree 0.5 s after the open publish, and its peak (VmHWM).

Servers: ours-incremental (`flowdrop-lsp serve`), ours-full (same, initializationOptions
{"fullRecompute": true}), floor (bench/floor_server.py, pygls transport only) and
vscode-json (vscode-json-language-server with the project's JSON schema associated).

Prints a markdown report (percentiles + ratios computed from this run only) and writes
it to bench/RESULTS.md. Raw samples go to bench/.cache/last-results.json.

This file owns the run: its options, the order of sessions, the time budget. The mechanics
are bench/harness/ (client, session, peers, stats, report); what is measured and reported is
bench/scenarios/ (edits, keystrokes, minified, json_report). A scenario run after the edit
cycle is one more module in EXTRA_SCENARIOS below.

    python bench/run.py                       # full run (1k, 10k, 50k)
    python bench/run.py --quick               # 1k + 10k, 2 rounds, 6 edits
    python bench/run.py --sizes 1000,10000 --rounds 3 --servers ours-incremental,floor
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate
from harness.paths import BENCH_DIR, CACHE, REPO, make_log, parse_names, parse_sizes
from harness.peers import (
    JSON_SERVERS,
    check_json_schema,
    default_server,
    json_specs,
    schema_path,
)
from harness.report import result_record, write_raw, write_report
from harness.session import Sample, SessionInfo, rotate, run_session
from harness.stats import fmt_ms, fmt_size, percentile
from scenarios import export_open, keystrokes, minified, minified_header, minified_unnamed
from scenarios.edits import make_plan, validation_check
from scenarios.json_report import render_report
from scenarios.json_workflow import load_document

log = make_log("bench")
#: The scenarios run after the edit cycle, in this order (each: NAME, SERVERS, sizes, load,
#: rounds, plan, think, section; see scenarios/keystrokes.py).
EXTRA_SCENARIOS = [
    keystrokes,
    minified,
    minified.TWIN,
    minified.LINES,
    minified.TWIN_LINES,
    minified_unnamed,
    minified_header,
    export_open,
]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description="flowdrop-lsp benchmark",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    ap.add_argument("--sizes", default="1000,10000,50000", help="comma-separated node counts")
    ap.add_argument("--rounds", type=int, default=5, help="rounds per size (default 5)")
    ap.add_argument(
        "--large-rounds",
        type=int,
        default=3,
        help="rounds for sizes >= 50000 (default 3; capped by --rounds)",
    )
    ap.add_argument("--edits", type=int, default=12, help="didChange steps per round (default 12)")
    ap.add_argument(
        "--large-edits",
        type=int,
        default=6,
        help="didChange steps per round for sizes >= 50000 (default 6; capped by --edits)",
    )
    ap.add_argument(
        "--servers", default=",".join(JSON_SERVERS), help=f"subset of {','.join(JSON_SERVERS)}"
    )
    ap.add_argument(
        "--server",
        default=default_server(),
        help="flowdrop-lsp executable (default .venv/bin/flowdrop-lsp, else the one "
        "beside this Python, else the one on PATH)",
    )
    ap.add_argument(
        "--typing-sizes",
        default="1000,10000",
        help="sizes of the typing scenario ('' = none; default 1000,10000)",
    )
    ap.add_argument(
        "--typing-rounds", type=int, default=3, help="rounds of the typing scenario (default 3)"
    )
    ap.add_argument(
        "--keystrokes",
        type=int,
        default=0,
        help="type only the first N keystrokes (0 = the whole node object)",
    )
    ap.add_argument(
        "--type-think",
        type=float,
        default=0.05,
        help="seconds between an answer and the next keystroke (default 0.05)",
    )
    ap.add_argument(
        "--minified-sizes",
        default="10000",
        help="sizes of the minified (one-line) label-edit scenario ('' = none; default 10000)",
    )
    ap.add_argument(
        "--export-sizes",
        default="10000",
        help="sizes of the open of an export-shaped document, ours vs vscode-json "
        "(scenarios/export_open.py; '' = none; default 10000)",
    )
    ap.add_argument(
        "--push-sizes",
        default="1000",
        help="sizes at which vscode-json-push (as shipped, 500 ms debounce) runs (default 1000)",
    )
    ap.add_argument(
        "--quick",
        action="store_true",
        help="sizes 1000,10000; 2 rounds; 6 edits; typing 1 round",
    )
    ap.add_argument("--seed", type=int, default=generate.DEFAULT_SEED)
    ap.add_argument(
        "--think", type=float, default=0.1, help="seconds between a publish and the next edit"
    )
    ap.add_argument("--timeout-scale", type=float, default=1.0, help="multiply every timeout")
    ap.add_argument(
        "--session-cap",
        type=float,
        default=180,
        help="seconds one server session may take; later edits are skipped (default 180)",
    )
    ap.add_argument(
        "--budget-min",
        type=float,
        default=35,
        help="stop starting new rounds (each size keeps >= 1) once the run would exceed "
        "this many minutes (default 35; the typing and minified scenarios check it too)",
    )
    ap.add_argument(
        "--out", default=str(BENCH_DIR / "RESULTS.md"), help="report file ('' = do not write)"
    )
    ap.add_argument("--raw", default=str(CACHE / "last-results.json"), help="raw samples (JSON)")
    cfg = ap.parse_args(argv)
    cfg.argv = list(sys.argv[1:] if argv is None else argv)
    if cfg.quick:
        given = {a.split("=")[0] for a in cfg.argv}
        if "--sizes" not in given:
            cfg.sizes = "1000,10000"
        if "--rounds" not in given:
            cfg.rounds = 2
        if "--edits" not in given:
            cfg.edits = 6
        if "--typing-rounds" not in given:
            cfg.typing_rounds = 1
    return cfg


async def run_benchmark(cfg: argparse.Namespace) -> dict:
    t_start = time.perf_counter()
    sizes = parse_sizes(cfg.sizes)
    servers = parse_names(cfg.servers)
    specs = json_specs(servers, cfg.server)
    rounds = {s: (min(cfg.rounds, cfg.large_rounds) if s >= 50000 else cfg.rounds) for s in sizes}
    edits = {s: (min(cfg.edits, cfg.large_edits) if s >= 50000 else cfg.edits) for s in sizes}
    meta: dict[str, Any] = {
        "command": " ".join([Path(sys.executable).name, "bench/run.py", *cfg.argv]),
        "rounds": rounds,
        "edits": edits,
        "bytes": {},
    }
    if "vscode-json" in specs:
        schema, own = schema_path()
        meta["schema"] = (
            f"{schema.relative_to(REPO) if schema.is_relative_to(REPO) else schema}"
            + (
                ""
                if own
                else " (FALLBACK: the project schema flowdrop_lsp/schemas/workflow.schema.json does not exist yet)"
            )
        )
        meta["schema_check"] = await check_json_schema(specs["vscode-json"])
        log(f"vscode-json schema check: {meta['schema_check']}")
    if any(n.startswith("ours") for n in servers) and not Path(cfg.server).exists():
        log(f"WARNING: {cfg.server} does not exist; ours-* sessions will fail")

    samples: list[Sample] = []
    infos: list[SessionInfo] = []
    push_sizes = parse_sizes(cfg.push_sizes)
    for size in sizes:
        doc = load_document(size, cfg.seed)
        meta["bytes"][size] = len(doc.text.encode("utf-8"))
        last_round = 0.0
        for r in range(rounds[size]):
            elapsed = time.perf_counter() - t_start
            if r > 0 and elapsed + last_round > cfg.budget_min * 60:
                log(
                    f"{fmt_size(size)}: stopping after {r} rounds: the time budget "
                    f"(--budget-min {cfg.budget_min:g}) would be exceeded"
                )
                rounds[size] = r
                break
            t_round = time.perf_counter()
            plan = make_plan(doc, r, edits[size], cfg.seed)
            for name in rotate(servers, r):
                if name == "vscode-json-push" and size not in push_sizes:
                    continue
                t = time.perf_counter()
                s, info = await run_session(specs[name], doc, r, plan, cfg, check=validation_check)
                samples += s
                infos.append(info)
                ok = [x.ms for x in s if x.ms is not None and x.kind != "open"]
                op = next((x.ms for x in s if x.kind == "open"), None)
                log(
                    f"{fmt_size(size):>4} r{r} {name:<17} open {fmt_ms(op):>6} ms, edits p50 "
                    f"{fmt_ms(percentile(ok, 0.5)):>6} ms ({len(ok)}/{len(plan)} ok), "
                    f"rss {(info.rss_open or 0) / 2**20:.0f} MB, {time.perf_counter() - t:.1f} s"
                )
            last_round = time.perf_counter() - t_round
        del doc
        gc.collect()
    for scenario in EXTRA_SCENARIOS:
        names = [n for n in scenario.SERVERS if n in specs]
        for size in scenario.sizes(cfg):
            if not names:
                break
            doc = scenario.load(size, cfg.seed)
            for r in range(scenario.rounds(cfg, rounds, size)):
                if r > 0 and time.perf_counter() - t_start > cfg.budget_min * 60:
                    log(
                        f"{scenario.NAME} {fmt_size(size)}: stopping after {r} rounds (time budget)"
                    )
                    break
                plan = scenario.plan(cfg, doc, r, edits)
                for name in rotate(names, r):
                    t = time.perf_counter()
                    s, info = await run_session(
                        specs[name],
                        doc,
                        r,
                        plan,
                        cfg,
                        think=scenario.think(cfg),
                        scenario=scenario.NAME,
                        check=validation_check,
                    )
                    samples += s
                    infos.append(info)
                    ok = [x.ms for x in s if x.ms is not None and x.kind != "open"]
                    op = next((x.ms for x in s if x.kind == "open"), None)
                    log(
                        f"{scenario.NAME} {fmt_size(size):>4} r{r} {name:<17} open "
                        f"{fmt_ms(op):>6} ms, p50 "
                        f"{fmt_ms(percentile(ok, 0.5)):>6} ms p90 {fmt_ms(percentile(ok, 0.9)):>6} ms "
                        f"({len(ok)}/{len(plan)} ok), {time.perf_counter() - t:.1f} s"
                    )
            del doc
            gc.collect()
    meta["wall"] = time.perf_counter() - t_start
    report = render_report(cfg, samples, infos, sizes, servers, meta, EXTRA_SCENARIOS)
    result = result_record(meta, samples, infos, report, sizes=sizes, servers=servers)
    if cfg.out:
        write_report(Path(cfg.out), report)
    if cfg.raw:
        write_raw(cfg.raw, result)
    return result


def main(argv: list[str] | None = None) -> int:
    cfg = parse_args(argv)
    result = asyncio.run(run_benchmark(cfg))
    print(result["report"])
    if cfg.out:
        log(f"wrote {cfg.out}")
    failed = [
        f"{i['server']} {fmt_size(i['size'])} ({i['scenario']}): {i['check']}"
        for i in result["sessions"]
        if i["check"] is not None and not i["check"].startswith("OK")
    ]
    if failed:
        log("a server did not prove that it validated: " + "; ".join(failed[:5]))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
