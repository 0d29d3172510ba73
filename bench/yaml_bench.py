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

    python bench/yaml_bench.py                          # 500 + 5000 nodes, 5 rounds × 10 edits
    python bench/yaml_bench.py --sizes 500 --rounds 1 --edits 2 --servers ours-yaml --push-sizes ''
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
CACHE = BENCH_DIR / ".cache"
sys.path.insert(0, str(BENCH_DIR))

import generate  # noqa: E402
import generate_yaml  # noqa: E402
import run  # noqa: E402
from lsp_driver import LspClient  # noqa: E402
from run import Document, Sample, ServerSpec, SessionInfo, fmt_ms, fmt_size, percentile  # noqa: E402

YLS_VERSION = "1.25.0"
YAML_SERVERS = ["ours-yaml", "yaml-ls", "yaml-ls-push"]
SCHEMA = REPO / "flowdrop_lsp" / "schemas" / "workflow.schema.json"
GLOB = "flowdrop_workflow.flowdrop_workflow.*.yml"
BEGIN, END = "<!-- yaml-bench:begin -->", "<!-- yaml-bench:end -->"
#: "Flat" per-keystroke cost: 5k / 500 within the noise band of these 2 cores.
FLAT_LIMIT = 1.3


def log(msg: str) -> None:
    print(f"[yaml-bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- documents
#: Where the YAML documents live. NOT under bench/.cache: yaml-language-server matches
#: `yaml.schemas` globs with picomatch without `dot: true`, so a document anywhere below a
#: dot-directory (bench/.cache/…) gets no schema and no validation at all.
DOCS_DIR = BENCH_DIR / "yaml-docs"  # git-ignored by bench/.gitignore


def load_yaml_document(size: int, seed: int) -> tuple[Document, dict]:
    DOCS_DIR.mkdir(parents=True, exist_ok=True)
    path = DOCS_DIR / generate_yaml.file_name(size)
    manifest = CACHE / "yaml-docs" / f"synthetic_{size}.manifest.json"
    stamp = f"s{seed}-g{generate.GENERATOR_VERSION}-y{generate_yaml.YAML_GENERATOR_VERSION}"
    m = json.loads(manifest.read_text()) if manifest.exists() else {}
    if path.exists() and m.get("stamp") == stamp:
        text = path.read_text(encoding="utf-8")
    else:
        t = time.perf_counter()
        y = generate_yaml.build(size, seed)
        text = y.text
        line = next(i for i, ln in enumerate(text.split("\n")) if ln == "    target: ''")
        m = {
            "stamp": stamp,
            "leaves": y.wf.leaves,
            "toolboxes": y.wf.toolboxes,
            "agents": y.wf.agents,
            "collisions": y.wf.collisions,
            "error_edge": y.error_edge,
            "error_line": line,  # 0-based
        }
        path.write_text(text, encoding="utf-8")
        manifest.parent.mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps(m))
        log(
            f"generated {path.name} ({len(text.encode()) / 1e6:.2f} MB) in {time.perf_counter() - t:.1f} s"
        )
    doc = Document(
        size, path, text, m["leaves"], m["toolboxes"], m["agents"], m["collisions"], "yaml"
    )
    return doc, m


def _node_start(text: str, node_id: str) -> int:
    p = text.find(f"\n  -\n    id: {generate_yaml.scalar(node_id)}\n")
    if p < 0:
        raise ValueError(f"node {node_id} not found")
    return p


def label_edit(text: str, node_id: str, ch: str) -> tuple[int, int, str]:
    """Insert `ch` before the closing quote of the node's `label: '…'` (code points)."""
    s = _node_start(text, node_id)
    nxt = text.find("\n  -\n", s + 1)
    q = text.index("\n      label: '", s) + len("\n      label: '")
    if nxt != -1 and q > nxt:
        raise ValueError(f"node {node_id} has no single-quoted label")
    end = text.index("'", q)
    assert text[end + 1] == "\n" and "'" not in text[q:end], text[q - 20 : end + 5]
    return (end, end, ch)


def make_plan(doc: Document, round_no: int, n_edits: int, seed: int) -> list[tuple[str, list]]:
    """`n_edits` label edits, each on a leaf from the middle fifth of `nodes` (never a
    planted collision, so the diagnostics stay the same)."""
    rng = random.Random(f"yaml/{seed}/{doc.size}/{round_no}")
    planted = {x for c in doc.collisions for x in c[:2]}
    leaves = [x for x in doc.leaves if x not in planted]
    mid = leaves[len(leaves) * 2 // 5 : len(leaves) * 3 // 5] or leaves
    text = doc.text
    plan = []
    for _ in range(n_edits):
        e = label_edit(text, rng.choice(mid), rng.choice("xyzq"))
        text = text[: e[0]] + e[2] + text[e[1] :]
        plan.append(("label", [e]))
    return plan


# --------------------------------------------------------------------------- servers
def yls_package_dir(install: bool = True) -> Path | None:
    d = CACHE / "yaml-server" / "node_modules" / "yaml-language-server"
    ok = (d / "package.json").exists() and json.loads((d / "package.json").read_text()).get(
        "version"
    ) == YLS_VERSION
    if not ok and install:
        log("installing yaml-language-server (bench/install-yaml-server.sh)")
        r = subprocess.run(
            ["bash", str(BENCH_DIR / "install-yaml-server.sh")], capture_output=True, text=True
        )
        if r.returncode != 0:
            log(f"install failed: {r.stderr.strip()[-500:]}")
        ok = (d / "package.json").exists()
    return d if ok else None


def yls_settings() -> dict:
    return {
        "yaml": {
            "validate": True,
            "schemas": {SCHEMA.as_uri(): [GLOB]},
            "schemaStore": {"enable": False},
            "hover": False,
            "completion": False,
        },
        "http": {},
        "[yaml]": {},
        "editor": {},
    }


def build_specs(names: list[str], ours: str) -> dict[str, ServerSpec]:
    specs: dict[str, ServerSpec] = {}
    pkg = yls_package_dir() if any(n.startswith("yaml-ls") for n in names) else None
    for n in names:
        if n == "ours-yaml":
            specs[n] = ServerSpec(n, [ours, "serve"], init_options={}, settings={})
        elif n == "yaml-ls":
            cmd = ["node", str(BENCH_DIR / "yaml_nodelay.js"), str(pkg), "--stdio"]
            specs[n] = ServerSpec(n, cmd, init_options=None, settings=yls_settings())
        elif n == "yaml-ls-push":
            b = (
                (pkg / "bin" / "yaml-language-server")
                if pkg
                else Path("yaml-language-server-not-installed")
            )
            specs[n] = ServerSpec(
                n, [str(b), "--stdio"], init_options=None, settings=yls_settings()
            )
        else:
            raise SystemExit(f"unknown server {n!r}; known: {', '.join(YAML_SERVERS)}")
    return specs


# --------------------------------------------------------------------------- checks
async def check_validates(spec: ServerSpec, doc: Document, m: dict) -> tuple[bool, str, str | None]:
    """Open the document once; (validates?, explanation, digest of that publish)."""
    client = LspClient(
        spec.cmd,
        settings=spec.settings,
        init_options=spec.init_options,
        stderr_path=CACHE / "logs" / f"check-{spec.name}-{doc.size}.stderr",
        cwd=str(REPO),
        name=spec.name,
    )
    try:
        await client.start()
        await client.initialize(timeout=30, root=str(REPO))
        await asyncio.sleep(0.3)
        pub = await client.open(doc.uri, doc.text, language_id="yaml", timeout=60 + doc.size / 50)
        diags = pub.diagnostics
        digest = run.diag_digest(diags)
        if spec.name == "ours-yaml":
            lines = doc.text.split("\n")
            want = {
                i
                for i, ln in enumerate(lines)
                if re.fullmatch(r"      label: '(Web Search|web-search) c\d+'", ln)
            }
            got = {d["range"]["start"]["line"] for d in diags if d.get("code") == "CMP-9"}
            if want and want <= got:
                return (
                    True,
                    f"OK: CMP-9 on all {len(want)} planted collision labels ({len(diags)} diagnostics)",
                    digest,
                )
            return (
                False,
                f"FAILED: CMP-9 on lines {sorted(got)[:8]}, planted collisions on {sorted(want)[:8]}",
                digest,
            )
        line = m["error_line"]
        hits = [d for d in diags if d["range"]["start"]["line"] == line]
        if hits:
            return (
                True,
                f"OK: {hits[0]['message']!r} on the planted `target: ''` (line {line + 1}; {len(diags)} diagnostics)",
                digest,
            )
        return (
            False,
            f"FAILED: no diagnostic on the planted `target: ''` (line {line + 1}); got {len(diags)}: {[d['message'] for d in diags[:3]]}",
            digest,
        )
    except Exception as e:  # noqa: BLE001
        return False, f"FAILED: {type(e).__name__}: {e}", None
    finally:
        with contextlib.suppress(Exception):
            await client.stop(timeout=5)


def wrapper_proof() -> str:
    """The line yaml_nodelay.js wrote to the stderr of the last yaml-ls session."""
    logs = sorted((CACHE / "logs").glob("yaml-ls-[0-9]*.stderr"), key=lambda p: p.stat().st_mtime)
    for p in reversed(logs):
        for ln in p.read_text(errors="replace").splitlines():
            if ln.startswith("yaml_nodelay:"):
                return ln
    return "no yaml_nodelay line found"


# --------------------------------------------------------------------------- report
def vals(samples: list[Sample], server: str, size: int, kind: str) -> list[float]:
    return run.values(samples, server, size, kind)


def render(cfg, samples, infos, sizes, servers_by_size, meta) -> str:
    def p(server, size, kind, q=0.5):
        return percentile(vals(samples, server, size, kind), q)

    def rss(server, size):
        xs = [i.rss_open for i in infos if i.server == server and i.size == size and i.rss_open]
        return percentile(xs, 0.5) if xs else None

    big, small = max(sizes), min(sizes)
    out = [BEGIN, "", "## YAML: Drupal config workflows (`bench/yaml_bench.py`)", ""]
    out += [ln for ln in run.machine_info(cfg.server) if not ln.startswith("- Packages")]
    out += [
        f"- Packages: flowdrop-lsp {run._version('flowdrop-lsp')}, pygls {run._version('pygls')}, "
        f"PyYAML {run._version('PyYAML')}; yaml-language-server {meta.get('yls_version', 'not installed')}",
        f"- Command: `{meta['command']}`",
        "- Documents (bench/generate_yaml.py): "
        + ", ".join(
            f"{fmt_size(s)} nodes = {meta['bytes'][s] / 1e6:.2f} MB, {meta['lines'][s]:,} lines"
            for s in sizes
        )
        + "; file `flowdrop_workflow.flowdrop_workflow.synthetic_<n>.yml`, languageId `yaml`",
        "- Rounds × label edits: "
        + ", ".join(f"{fmt_size(s)}: {meta['rounds'][s]}×{cfg.edits}" for s in sizes)
        + f"; think time {cfg.think * 1e3:.0f} ms; fresh process per server × size × round, order rotated",
        f"- yaml-language-server: schema `flowdrop_lsp/schemas/workflow.schema.json` via `yaml.schemas` → `{GLOB}`, "
        "`yaml.schemaStore.enable: false` (workspace/configuration); `yaml-ls` = no debounce "
        f"(bench/yaml_nodelay.js; its stderr: `{meta.get('wrapper', 'n/a')}`), `yaml-ls-push` = as shipped (200 ms debounce)",
        "- Validation checks (one open per server and size before measuring):",
    ]
    for line in meta["checks"]:
        out.append(f"  - {line}")
    out.append(f"- Wall time: {meta['wall'] / 60:.1f} min")
    out += [
        "",
        "Times: ms from writing didOpen/didChange to reading the publish for it (ours: the publish"
        " carrying that version; yaml-language-server publishes without a version: the first publish"
        " after the notification).",
        "",
        "### Targets (p50, this run)",
        "",
        "| target | limit | this run | |",
        "|---|---|---|---|",
    ]

    def target(title, a, b, limit, limit_txt, unit="ms"):
        if a is None or b is None or not b:
            out.append(f"| {title} | {limit_txt} | not measured | – |")
            return
        r = a / b
        ok = r <= limit
        frac = f" (1/{1 / r:.0f})" if r < 0.1 else ""
        out.append(
            f"| {title} | {limit_txt} | **{r:.3g}×{frac}** ({fmt_ms(a)} {unit} / {fmt_ms(b)} {unit}) | "
            f"{'met' if ok else 'MISSED'} |"
        )
        meta.setdefault("targets", []).append({"title": title, "ratio": r, "met": ok})

    target(
        f"label edit at {fmt_size(big)}: ours / yaml-ls (no debounce)",
        p("ours-yaml", big, "label"),
        p("yaml-ls", big, "label"),
        0.1,
        "≤ 0.1",
    )
    target(
        f"didOpen at {fmt_size(big)}: ours / yaml-ls (no debounce)",
        p("ours-yaml", big, "open"),
        p("yaml-ls", big, "open"),
        1.0,
        "≤ 1",
    )
    target(
        f"label edit, ours: {fmt_size(big)} / {fmt_size(small)} (flat)",
        p("ours-yaml", big, "label"),
        p("ours-yaml", small, "label"),
        FLAT_LIMIT,
        f"≤ {FLAT_LIMIT} (noise band)",
    )
    out += ["", "### Latency, ms: p50 / p90 (n)", ""]
    out.append(
        "| server | nodes | didOpen | label +1 char | RSS after open | peak RSS | diagnostics | same as checked open | failures |"
    )
    out.append("|---|---|---|---|---|---|---|---|---|")
    for size in sizes:
        for server in servers_by_size[size]:
            o, lab = vals(samples, server, size, "open"), vals(samples, server, size, "label")
            r = rss(server, size)
            peak = [i.peak for i in infos if i.server == server and i.size == size and i.peak]
            mine = [s for s in samples if s.server == server and s.size == size and s.digest]
            nd = [s.n_diags for s in mine if s.n_diags is not None]
            ref = meta["digests"].get(f"{server}/{size}")
            same = sum(1 for s in mine if s.digest == ref)
            fails = run.failures(samples, server, size)
            out.append(
                f"| {server} | {fmt_size(size)} | "
                + (
                    f"{fmt_ms(percentile(o, 0.5))} / {fmt_ms(percentile(o, 0.9))} ({len(o)})"
                    if o
                    else "–"
                )
                + " | "
                + (
                    f"{fmt_ms(percentile(lab, 0.5))} / {fmt_ms(percentile(lab, 0.9))} ({len(lab)})"
                    if lab
                    else "–"
                )
                + f" | {f'{r / 2**20:.0f} MB' if r else '–'}"
                + f" | {f'{max(peak) / 2**20:.0f} MB' if peak else '–'}"
                + f" | {f'{min(nd)}–{max(nd)}' if nd else '–'}"
                + f" | {same}/{len(mine)}"
                + f" | {', '.join(f'{v} {k}' for k, v in fails.items()) or '–'} |"
            )
    out += [
        "",
        "### Label edit by position in the session, ms: median over rounds (ours-yaml / yaml-ls)",
        "",
        "A one-off cost that lands on the same edit of every fresh session (deferred work after the"
        " open) shows up here, not in the p50.",
        "",
        "| nodes | " + " | ".join(f"edit {i}" for i in range(1, cfg.edits + 1)) + " |",
        "|---|" + "---|" * cfg.edits,
    ]
    for size in sizes:
        cells = []
        for i in range(1, cfg.edits + 1):
            per = []
            for server in ("ours-yaml", "yaml-ls"):
                xs = [
                    x.ms
                    for x in samples
                    if x.server == server and x.size == size and x.step == i and x.ms is not None
                ]
                per.append(fmt_ms(percentile(xs, 0.5)))
            cells.append(" / ".join(per))
        out.append(f"| {fmt_size(size)} | " + " | ".join(cells) + " |")
    push_sizes = [s for s in sizes if "yaml-ls-push" in servers_by_size[s]]
    if push_sizes:
        out += ["", "### The no-debounce wrapper: same server with and without it", ""]
        out.append(
            "| nodes | kind | yaml-ls-push (200 ms debounce) p50 | yaml-ls (wrapper) p50 | difference |"
        )
        out.append("|---|---|---|---|---|")
        for s in push_sizes:
            for kind in ("open", "label"):
                a, b = p("yaml-ls-push", s, kind), p("yaml-ls", s, kind)
                diff = f"{a - b:+.0f} ms" if a is not None and b is not None else "–"
                out.append(
                    f"| {fmt_size(s)} | {run.KIND_TITLES[kind]} | {fmt_ms(a)} | {fmt_ms(b)} | {diff} |"
                )
    errs = [i for i in infos if i.error or i.note]
    if errs:
        out += ["", "### Failures and truncated sessions", ""]
        out += [
            f"- {i.server} {fmt_size(i.size)} round {i.round}: {(i.error or i.note)[:400]}"
            for i in errs[:20]
        ]
    out += ["", END]
    return "\n".join(out) + "\n"


def write_section(path: Path, section: str) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if BEGIN in old and END in old:
        a, b = old.index(BEGIN), old.index(END) + len(END)
        new = old[:a] + section.rstrip("\n") + old[b:]
    else:
        new = (old.rstrip("\n") + "\n\n" if old else "") + section
    path.write_text(new if new.endswith("\n") else new + "\n", encoding="utf-8")


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
    ap.add_argument("--server", default=run.default_server(), help="flowdrop-lsp executable")
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
    sizes = [int(s) for s in str(cfg.sizes).split(",") if s.strip()]
    push_sizes = {int(s) for s in str(cfg.push_sizes).split(",") if s.strip()}
    base = [s.strip() for s in str(cfg.servers).split(",") if s.strip()]
    servers_by_size = {s: base + (["yaml-ls-push"] if s in push_sizes else []) for s in sizes}
    specs = build_specs(sorted({n for v in servers_by_size.values() for n in v}), cfg.server)
    pkg = CACHE / "yaml-server" / "node_modules" / "yaml-language-server" / "package.json"
    meta: dict[str, Any] = {
        "command": " ".join([Path(sys.executable).name, "bench/yaml_bench.py", *cfg.argv]),
        "rounds": {s: cfg.rounds for s in sizes},
        "bytes": {},
        "lines": {},
        "checks": [],
        "digests": {},
        "yls_version": json.loads(pkg.read_text())["version"] if pkg.exists() else "not installed",
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
            names = servers_by_size[size]
            order = names[r % len(names) :] + names[: r % len(names)]
            for name in order:
                t = time.perf_counter()
                s, info = await run.run_session(specs[name], doc, r, plan, cfg)
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
    result = {
        "meta": meta,
        "samples": [asdict(s) for s in samples],
        "sessions": [asdict(i) for i in infos],
        "report": report,
    }
    if cfg.out:
        write_section(Path(cfg.out), report)
    if cfg.raw:
        Path(cfg.raw).parent.mkdir(parents=True, exist_ok=True)
        Path(cfg.raw).write_text(
            json.dumps({k: v for k, v in result.items() if k != "report"}, default=str)
        )
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
