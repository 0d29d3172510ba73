"""The site scenario: a Drupal site of 1,000 workflows (bench/site_gen.py) checked by the CLI
and indexed by the server, against PyYAML's C `compose` reading the same files in one process,
measured in the same run.

Figures (targets from issue 19, on 2 cores; `compose` = the median of the compose baseline):

- CLI cold (`check --format json`, fresh `--cache-dir`): ≤ 1.0× compose;
- CLI warm (the same again, cache unchanged): ≤ 0.15× compose;
- CLI single-threaded, no cache (`--jobs 1 --no-cache` where the build has them; today's CLI
  as it is): no target, the reference for the claim "about 3.4× compose";
- server: `initialized` → the publishDiagnostics of the last workflow file: ≤ 1.5× compose;
- server: a contract edit in an open callee (an `input_ports` name renamed) → a publish for
  one of its callers: ≤ 100 ms (p50 over the edits);
- server RSS (VmRSS of its process tree) with the whole site indexed: ≤ 400 MB.

The work must really be done: every CLI run reports the planted FD-SCHEMA error and the same
findings as the others; the server must publish every workflow file (counted) and the planted
error in the planted file. A feature the build under test lacks (a CLI flag its `--help` does
not list; a server that publishes nothing for unopened files after `initialized`; callers not
re-published) is reported "n/a" with the reason, never guessed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import site_gen
from harness.cli import check_options, timed_check
from harness.paths import make_log
from harness.report import machine_info, package_version

from scenarios.site_server import Figure, measure_server

NAME = "site"
MARKERS = ("<!-- site-bench:begin -->", "<!-- site-bench:end -->")
TARGETS = {"cli_cold": 1.0, "cli_warm": 0.15, "server_all": 1.5, "edit_ms": 100.0, "rss_mb": 400.0}

log = make_log("site-bench")

# Run in a fresh process: read + compose every file, `repeats` times; prints the seconds.
COMPOSE_SCRIPT = r"""
import gc, json, sys, time, yaml
paths = sys.stdin.read().split("\n")
out = []
for _ in range(int(sys.argv[1])):
    t = time.perf_counter()
    for p in paths:
        with open(p, encoding="utf-8") as f:
            yaml.compose(f.read(), Loader=yaml.CSafeLoader)
    out.append(time.perf_counter() - t)
    gc.collect()
print(json.dumps(out))
"""


# --------------------------------------------------------------------------- baseline, CLI
def compose_times(files: list[Path], repeats: int) -> list[float]:
    done = subprocess.run(
        [sys.executable, "-c", COMPOSE_SCRIPT, str(repeats)],
        input="\n".join(map(str, files)),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def _findings(done: subprocess.CompletedProcess[str] | None) -> list[dict] | None:
    if done is None or done.returncode not in (0, 1):
        return None
    try:
        return json.loads(done.stdout)
    except ValueError:
        return None


def _finding_key(f: dict) -> tuple:
    return (f.get("path"), f.get("code"), (f.get("range") or {}).get("start", {}).get("line"))


def cli_plan(options: set[str]) -> dict[str, list[str] | None]:
    """The arguments of each CLI figure, None when the build lacks what it needs."""
    single: list[str] = []
    if "--jobs" in options:
        single += ["--jobs", "1"]
    if "--no-cache" in options:
        single += ["--no-cache"]
    return {
        "cli_cold": ["--cache-dir", "{cache}"] if "--cache-dir" in options else [],
        "cli_warm": ["--cache-dir", "{cache}"] if "--cache-dir" in options else None,
        "cli_single": single,
    }


def measure_cli(
    site: site_gen.Site,
    rounds: int,
    compose_repeats: int,
    timeout: float,
    figures: dict[str, Figure],
    checks: list[str],
) -> None:
    """Each round: the compose baseline, then CLI cold, warm, single-threaded."""
    options = check_options()
    plan = cli_plan(options)
    missing = [o for o in ("--cache-dir", "--no-cache", "--jobs") if o not in options]
    if plan["cli_warm"] is None:
        figures[
            "cli_warm"
        ].na = "n/a (not supported by this build: `check --help` lists no --cache-dir)"
    # Today's CLI has neither cache nor jobs: its plain run is both "cold" and "single".
    same_as_cold = plan["cli_single"] == [] and plan["cli_cold"] == []
    if same_as_cold:
        figures["cli_single"].notes.append(
            "the same runs as CLI cold (this build has no cache or jobs)"
        )
    if missing:
        figures["cli_cold"].notes.append(f"this build lacks {', '.join(missing)}")
    expected: set[tuple] | None = None
    first: list[dict] | None = None
    planted = str(site.planted) if site.planted else None
    with tempfile.TemporaryDirectory(prefix="flowdrop-site-cwd-") as cwd:
        for r in range(rounds):
            figures["compose"].values += compose_times(site.files, compose_repeats)
            log(f"compose round {r + 1}: {figures['compose'].values[-compose_repeats:]}")
            cache = Path(cwd) / f"cache-{r}"
            for name in ("cli_cold", "cli_warm", "cli_single"):
                argv = plan[name]
                if argv is None or (name == "cli_single" and same_as_cold):
                    continue
                args = [a.replace("{cache}", str(cache)) for a in argv]
                secs, done = timed_check([site.sync], timeout, args=args, cwd=Path(cwd))
                found = _findings(done)
                if found is None:
                    err = (done.stderr[-300:] if done else f"timeout after {timeout:.0f} s").strip()
                    checks.append(f"FAILED: {name} round {r + 1}: no JSON report ({err})")
                    continue
                keys = {_finding_key(f) for f in found}
                if planted and not any(
                    f.get("path", "").endswith(site.planted.name)
                    and f.get("code") == site_gen.PLANTED_CODE
                    for f in found
                ):
                    checks.append(
                        f"FAILED: {name} round {r + 1}: the planted {site_gen.PLANTED_CODE} is missing"
                    )
                if expected is None:
                    expected, first = keys, found
                elif keys != expected:
                    checks.append(
                        f"FAILED: {name} round {r + 1}: findings differ from the first run's ({len(keys)} vs {len(expected)})"
                    )
                figures[name].values.append(secs)
                log(f"{name} round {r + 1}: {secs:.2f} s, {len(found)} findings")
                if same_as_cold and name == "cli_cold":
                    figures["cli_single"].values.append(secs)
    if first is not None:
        checks.append(compare_with_corpus(site, first, timeout))
    if expected is not None:
        checks.append(
            f"OK: every CLI run reported the same {len(expected)} findings, the planted {site_gen.PLANTED_CODE} among them"
        )


# --------------------------------------------------------------------------- the server
def _codes_by_original(found: list[dict]) -> dict[str, list[str]]:
    """Each file's finding codes, under the name of the corpus file it copies."""
    out: dict[str, list[str]] = {}
    for f in found:
        name = re.sub(r"_c\d{4}(\.yml)$", r"\1", Path(f.get("path", "")).name)
        out.setdefault(name, []).append(f.get("code", ""))
    return {k: sorted(v) for k, v in out.items()}


def site_differences(site: site_gen.Site, found: list[dict], corpus_found: list[dict]) -> list[str]:
    """The generated files whose findings differ from their original's (codes, in order)."""
    real = _codes_by_original(corpus_found)
    per_file: dict[str, list[str]] = {}
    for f in found:
        per_file.setdefault(Path(f.get("path", "")).name, []).append(f.get("code", ""))
    diffs = []
    for p in site.files:
        original = re.sub(r"_c\d{4}(\.yml)$", r"\1", p.name)
        got, want = sorted(per_file.get(p.name, [])), real.get(original, [])
        if got != want:
            diffs.append(f"{p.name}: {got} (its original: {want})")
    return diffs


def compare_with_corpus(site: site_gen.Site, found: list[dict], timeout: float) -> str:
    """The generated site must report what the real site reports, copy by copy, plus the
    planted error (and what it entails) in the planted file only."""
    _, done = timed_check([site_gen.CORPUS], timeout)
    corpus_found = _findings(done)
    if corpus_found is None:
        return "FAILED: the CLI gave no JSON report for the real site (tests/corpus/atelier-cms)"
    diffs = site_differences(site, found, corpus_found)
    planted = site.planted.name if site.planted else None
    other = [d for d in diffs if not planted or not d.startswith(planted + ":")]
    errors = sum(1 for f in found if f.get("severity") == "error")
    if other:
        return f"FAILED: {len(other)} generated files report other findings than their original: {other[:3]}"
    return (
        f"OK: every generated file reports what its original reports in the real site "
        f"({len(corpus_found)} findings there, {len(found)} here; errors: {errors}, "
        f"all in the planted file: {diffs[0] if diffs else 'none'})"
    )


async def run(
    workflows: int = 1000,
    rounds: int = 3,
    compose_repeats: int = 2,
    *,
    out: Path | None = None,
    cli_timeout: float = 300.0,
    start_timeout: float = 20.0,
    index_timeout: float = 600.0,
    edits: int = 5,
    edit_timeout: float = 10.0,
    keep: bool = False,
) -> dict[str, Any]:
    began = time.time()
    tmp = None
    if out is None:
        tmp = out = Path(tempfile.mkdtemp(prefix="flowdrop-site-"))
    try:
        site = site_gen.generate_site(out / f"site-{workflows}", workflows)
        checks: list[str] = []
        n_files = site_gen.verify_yaml(site)
        checks.append(
            f"OK: all {n_files} generated files load with PyYAML ({len(site.workflows)} workflows, "
            f"{len(site.node_types)} node types, {site.bytes / 1e6:.1f} MB)"
        )
        figures = {
            n: Figure(n)
            for n in ("compose", "cli_cold", "cli_warm", "cli_single", "server_all", "server_again")
        }
        figures["edit_ms"] = Figure("edit_ms", unit="ms")
        figures["rss_mb"] = Figure("rss_mb", unit="MB")
        log(f"site: {site.sync} ({len(site.workflows)} workflows)")
        measure_cli(site, rounds, compose_repeats, cli_timeout, figures, checks)
        await measure_server(
            site,
            figures,
            checks,
            start_timeout=start_timeout,
            index_timeout=index_timeout,
            edits=edits,
            edit_timeout=edit_timeout,
        )
        return {
            "workflows": len(site.workflows),
            "node_types": len(site.node_types),
            "files": n_files,
            "bytes": site.bytes,
            "rounds": rounds,
            "figures": {k: vars(v) for k, v in figures.items()},
            "checks": checks,
            "wall_s": time.time() - began,
            "site": str(site.sync) if keep else None,
        }
    finally:
        if tmp is not None and not keep:
            shutil.rmtree(tmp, ignore_errors=True)


def verdicts(result: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(target, limit, this run, met / MISSED / n/a) for each target."""
    f = {k: Figure(**v) for k, v in result["figures"].items()}
    base = f["compose"].median
    rows = []
    for key, label in (
        ("cli_cold", "CLI cold / compose"),
        ("cli_warm", "CLI warm (unchanged) / compose"),
        ("server_all", "server: `initialized` → every file published / compose"),
    ):
        fig, limit = f[key], TARGETS[key]
        if fig.median is None or not base:
            rows.append((label, f"≤ {limit}×", fig.na or "n/a", "n/a"))
            continue
        ratio = fig.median / base
        rows.append(
            (
                label,
                f"≤ {limit}×",
                f"**{ratio:.2f}×** ({fig.median:.2f} s / {base:.2f} s)",
                "met" if ratio <= limit else "MISSED",
            )
        )
    for key, label, unit in (
        ("edit_ms", "contract edit in an open callee → a caller re-published, p50", "ms"),
        ("rss_mb", "server RSS, whole site indexed", "MB"),
    ):
        fig, limit = f[key], TARGETS[key]
        if fig.median is None:
            rows.append((label, f"≤ {limit:.0f} {unit}", fig.na or "n/a", "n/a"))
        else:
            rows.append(
                (
                    label,
                    f"≤ {limit:.0f} {unit}",
                    f"**{fig.median:.0f} {unit}**",
                    "met" if fig.median <= limit else "MISSED",
                )
            )
    return rows


def report(result: dict[str, Any], command: str = "python bench/site_bench.py") -> str:
    f = {k: Figure(**v) for k, v in result["figures"].items()}
    base = f["compose"].median
    lines = [
        MARKERS[0],
        "",
        "## Site: 1,000 Drupal config workflows, CLI and server (`bench/site_bench.py`)",
        "",
        *machine_info(str(Path(sys.executable))),
        f"- PyYAML {package_version('PyYAML')} (C loader: compose baseline)",
        f"- Command: `{command}`",
        f"- Site (bench/site_gen.py): {result['workflows']} workflows + {result['node_types']} node types = "
        f"{result['files']} files, {result['bytes'] / 1e6:.1f} MB (copies of tests/corpus/atelier-cms with new ids, "
        "calls resolving; one planted FD-SCHEMA)",
        f"- Rounds: {result['rounds']} (CLI, interleaved with the compose baseline); server: one fresh process",
        f"- Wall time: {result['wall_s'] / 60:.1f} min",
        "",
        "Baseline: one process reads every workflow and node-type file and runs "
        "`yaml.compose(text, Loader=yaml.CSafeLoader)` on it; ratios are against its median in this "
        "run. CLI: `python -m flowdrop_lsp check --format json config/sync` in a fresh process, wall "
        "clock. Server: `initialized` (workspace folder = the site's root) → the first "
        "publishDiagnostics of the last workflow file, no file opened.",
        "",
        "### Targets (this run)",
        "",
        "| target | limit | this run | |",
        "|---|---|---|---|",
        *(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in verdicts(result)),
        "",
        "### Figures",
        "",
        "| figure | median | best | runs | ratio to compose (median) | notes |",
        "|---|---|---|---|---|---|",
    ]
    titles = {
        "compose": "PyYAML C compose, all files, one process",
        "cli_cold": "CLI cold (fresh cache)",
        "cli_warm": "CLI warm (second run, cache unchanged)",
        "cli_single": "CLI single-threaded, no cache (`--jobs 1 --no-cache` if supported)",
        "server_all": "server: `initialized` → every workflow file published",
        "server_again": "server restarted, site unchanged: `initialized` → every workflow published",
        "edit_ms": "server: contract edit → a caller re-published",
        "rss_mb": "server RSS, site indexed",
    }
    for key, fig in f.items():
        if fig.median is None:
            lines.append(f"| {titles[key]} | {fig.na or 'n/a'} | | 0 | | {'; '.join(fig.notes)} |")
            continue
        fmt = (
            (lambda v: f"{v:.2f} s") if fig.unit == "s" else (lambda v, u=fig.unit: f"{v:.0f} {u}")
        )
        ratio = f"{fig.median / base:.2f}×" if fig.unit == "s" and base else ""
        lines.append(
            f"| {titles[key]} | {fmt(fig.median)} | {fmt(fig.best)} | {len(fig.values)} | {ratio} | "
            f"{'; '.join(fig.notes)} |"
        )
    lines += [
        "",
        "### Checks (the work was really done)",
        "",
        *(f"- {c}" for c in result["checks"]),
        "",
        MARKERS[1],
    ]
    return "\n".join(lines) + "\n"


def failed(result: dict[str, Any]) -> bool:
    return any(c.startswith("FAILED") for c in result["checks"])
