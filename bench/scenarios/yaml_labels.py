"""The YAML scenario (bench/yaml_bench.py): Drupal config-export YAML of the main benchmark's
graphs, label edits in it, the check that each server validates it (yaml-language-server: the
planted `target: ''`; ours: CMP-9 on every planted collision), and its section of RESULTS.md."""

from __future__ import annotations

import json
import random
import re
import time

import generate
import generate_yaml
from harness.paths import BENCH_DIR, CACHE, REPO, make_log
from harness.peers import YAML_GLOB
from harness.report import YAML_SECTION, machine_info, package_version
from harness.session import Document, Plan, Sample, ServerSpec, diag_digest, open_once
from harness.stats import cell, failures, fmt_failures, fmt_ms, fmt_size, percentile, values

from scenarios.edits import KIND_TITLES

log = make_log("yaml-bench")
#: "Flat" per-keystroke cost: 5k / 500 within the noise band of these 2 cores.
FLAT_LIMIT = 1.3

#: Where the YAML documents live. NOT under bench/.cache: yaml-language-server matches
#: `yaml.schemas` globs with picomatch without `dot: true`, so a document anywhere below a
#: dot-directory (bench/.cache/…) gets no schema and no validation at all.
DOCS_DIR = BENCH_DIR / "yaml-docs"  # git-ignored by bench/.gitignore


def load_yaml_document(size: int, seed: int) -> tuple[Document, dict]:
    # One folder per size: a Drupal workflow's folder is its site (flowdrop-lsp reads the other
    # workflows beside it), and each document is measured alone.
    folder = DOCS_DIR / str(size)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / generate_yaml.file_name(size)
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


def make_plan(doc: Document, round_no: int, n_edits: int, seed: int) -> Plan:
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


# --------------------------------------------------------------------------- checks
async def check_validates(spec: ServerSpec, doc: Document, m: dict) -> tuple[bool, str, str | None]:
    """Open the document once; (validates?, explanation, digest of that publish)."""
    try:
        pub = await open_once(
            spec,
            doc.uri,
            doc.text,
            language_id="yaml",
            timeout=60 + doc.size / 50,
            root=str(REPO),
            settle=0.3,  # the server's post-`initialized` configuration pull first
            stderr_path=CACHE / "logs" / f"check-{spec.name}-{doc.size}.stderr",
            cwd=str(REPO),
        )
        diags = pub.diagnostics
        digest = diag_digest(diags)
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


# --------------------------------------------------------------------------- report
def vals(samples: list[Sample], server: str, size: int, kind: str) -> list[float]:
    return values(samples, server, size, kind)


def render(cfg, samples, infos, sizes, servers_by_size, meta) -> str:
    def p(server, size, kind, q=0.5):
        return percentile(vals(samples, server, size, kind), q)

    def rss(server, size):
        xs = [i.rss_open for i in infos if i.server == server and i.size == size and i.rss_open]
        return percentile(xs, 0.5) if xs else None

    big, small = max(sizes), min(sizes)
    out = [YAML_SECTION[0], "", "## YAML: Drupal config workflows (`bench/yaml_bench.py`)", ""]
    out += [ln for ln in machine_info(cfg.server) if not ln.startswith("- Packages")]
    out += [
        f"- Packages: flowdrop-lsp {package_version('flowdrop-lsp')}, pygls {package_version('pygls')}, "
        f"PyYAML {package_version('PyYAML')}; yaml-language-server {meta.get('yls_version', 'not installed')}",
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
        f"- yaml-language-server: schema `flowdrop_lsp/schemas/workflow.schema.json` via `yaml.schemas` → `{YAML_GLOB}`, "
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
            fails = failures(samples, server, size)
            out.append(
                f"| {server} | {fmt_size(size)} | "
                + f"{cell(o)} | {cell(lab)}"
                + f" | {f'{r / 2**20:.0f} MB' if r else '–'}"
                + f" | {f'{max(peak) / 2**20:.0f} MB' if peak else '–'}"
                + f" | {f'{min(nd)}–{max(nd)}' if nd else '–'}"
                + f" | {same}/{len(mine)}"
                + f" | {fmt_failures(fails)} |"
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
                    f"| {fmt_size(s)} | {KIND_TITLES[kind]} | {fmt_ms(a)} | {fmt_ms(b)} | {diff} |"
                )
    errs = [i for i in infos if i.error or i.note]
    if errs:
        out += ["", "### Failures and truncated sessions", ""]
        out += [
            f"- {i.server} {fmt_size(i.size)} round {i.round}: {(i.error or i.note)[:400]}"
            for i in errs[:20]
        ]
    out += ["", YAML_SECTION[1]]
    return "\n".join(out) + "\n"
