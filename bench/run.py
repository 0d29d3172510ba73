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

    python bench/run.py                       # full run (1k, 10k, 50k)
    python bench/run.py --quick               # 1k + 10k, 2 rounds, 6 edits
    python bench/run.py --sizes 1000,10000 --rounds 3 --servers ours-incremental,floor
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as _dt
import gc
import hashlib
import importlib.metadata as md
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
CACHE = BENCH_DIR / ".cache"
sys.path.insert(0, str(BENCH_DIR))

import generate  # noqa: E402
from lsp_driver import LspClient, LspError, ServerDied, ServerTimeout  # noqa: E402

ALL_SERVERS = ["ours-incremental", "ours-full", "floor", "vscode-json", "vscode-json-push"]
# The scenarios beyond the edit cycle, and who runs them.
TYPING_SERVERS = ["ours-incremental", "vscode-json"]
MINIFIED_SERVERS = ["ours-incremental"]
# Typed one keystroke at a time into the nodes array (the first keystroke is Enter plus the
# editor's auto-indent); CJK and an emoji (two UTF-16 code units) as in real labels.
TYPED_NODE = '{"id": "typed_tool.1", "type": "calculator", "data": {"label": "Typed 工具 🔧"}},'
EDIT_KINDS = ["label", "add_edge", "delete", "paste"]
STRUCTURAL = ["add_edge", "delete", "paste"]
EDIT_CYCLE = ["label", "add_edge", "label", "delete", "label", "paste"]
KIND_TITLES = {
    "open": "didOpen",
    "label": "label +1 char",
    "add_edge": "add tool edge",
    "delete": "delete node+edges",
    "paste": "paste 20 nodes",
    "structural": "structural (all)",
    "keystroke": "keystroke",
}
JSON_SERVER_VERSION = "4.10.0"
PROJECT_SCHEMA = REPO / "flowdrop_lsp" / "schemas" / "workflow.schema.json"

# Used only when the project's schema does not exist yet (written to bench/.cache).
FALLBACK_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "FlowDrop workflow (bench fallback schema)",
    "type": "object",
    "required": ["nodes", "edges"],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "nodes": {"type": "array", "items": {"$ref": "#/$defs/node"}},
        "edges": {"type": "array", "items": {"$ref": "#/$defs/edge"}},
    },
    "$defs": {
        "node": {
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": {"type": "string", "minLength": 1},
                "type": {"type": "string"},
                "position": {"type": "object"},
                "data": {
                    "type": "object",
                    "properties": {
                        "label": {"type": "string"},
                        "config": {"type": "object"},
                        "metadata": {"type": "object"},
                    },
                },
            },
        },
        "edge": {
            "type": "object",
            "required": ["source", "target"],
            "properties": {
                "id": {"type": "string"},
                "source": {"type": "string"},
                "target": {"type": "string"},
                "sourceHandle": {"type": "string"},
                "targetHandle": {"type": "string"},
                "data": {"type": "object"},
            },
        },
    },
}


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- documents
@dataclass
class Document:
    size: int
    path: Path
    text: str
    leaves: list[str]
    toolboxes: list[str]
    agents: list[str]
    collisions: list
    language_id: str = "json"  # languageId sent with didOpen (bench/yaml_bench.py: "yaml")
    schema_error_at: int | None = None  # offset of the planted schema error (generate.py)
    minified: bool = False

    @property
    def schema_error_line(self) -> int | None:
        if self.schema_error_at is None:
            return None
        return self.text.count("\n", 0, self.schema_error_at)

    @property
    def uri(self) -> str:
        return self.path.as_uri()


def load_document(size: int, seed: int, minified: bool = False) -> Document:
    """The generated document of `size` nodes (pretty-printed, or on one line)."""
    d = CACHE / "docs"
    d.mkdir(parents=True, exist_ok=True)
    stem = f"wf-{size}-s{seed}-g{generate.GENERATOR_VERSION}" + ("-min" if minified else "")
    path, manifest = d / f"{stem}.flowdrop.json", d / f"{stem}.manifest.json"
    if path.exists() and manifest.exists():
        m = json.loads(manifest.read_text())
        text = path.read_text(encoding="utf-8")
    else:
        t = time.perf_counter()
        wf = generate.build_workflow(size, seed)
        text = (generate.render_minified if minified else generate.render)(wf.doc)
        m = {
            "leaves": wf.leaves,
            "toolboxes": wf.toolboxes,
            "agents": wf.agents,
            "collisions": wf.collisions,
            "schema_error_at": generate.schema_error_offset(text, wf.schema_error_edge),
        }
        path.write_text(text, encoding="utf-8")
        manifest.write_text(json.dumps(m))
        log(
            f"generated {path.name} ({len(text.encode()) / 1e6:.1f} MB) in {time.perf_counter() - t:.1f} s"
        )
    return Document(
        size,
        path,
        text,
        m["leaves"],
        m["toolboxes"],
        m["agents"],
        m["collisions"],
        schema_error_at=m["schema_error_at"],
        minified=minified,
    )


# --------------------------------------------------------------------------- edit plans
Edit = tuple[int, int, str]


def _indent(block: str, n: int) -> str:
    pad = " " * n
    return "\n".join(pad + line for line in block.split("\n"))


def _node_start(text: str, node_id: str) -> int:
    """Offset of the '\\n' before the node object's '    {' line, or -1."""
    return text.find(f'\n    {{\n      "id": {json.dumps(node_id, ensure_ascii=False)},\n')


def _object_span(text: str, start: int) -> tuple[int, int]:
    """Span to delete for the array element whose '\\n    {' starts at `start`:
    the element plus its trailing comma, or plus the preceding comma if it is last."""
    close = text.find("\n    }", start + 1)
    end = close + len("\n    }")
    if text.startswith(",", end):
        return start, end + 1
    assert text[start - 1] == ","
    return start - 1, end


def _array_boundary(text: str, lo: int, hi: int, rng: random.Random) -> int:
    """A position between two elements of a top-level array lying in [lo, hi): right
    after some '\\n    },' (so the insertion is never after the last element)."""
    for _ in range(50):
        p = text.find("\n    },\n", rng.randrange(lo, hi))
        if p != -1 and p < hi:
            return p + len("\n    },")
    p = text.find("\n    },\n", lo)
    assert p != -1 and p < hi, "array has fewer than two elements"
    return p + len("\n    },")


def _sections(text: str) -> tuple[int, int, int, int]:
    n0 = text.index('\n  "nodes": [\n')
    n1 = text.index("\n  ],", n0)
    e0 = text.index('\n  "edges": [\n', n1)
    e1 = text.index("\n  ]", e0 + 5)
    return n0, n1, e0, e1


def _apply(text: str, edits: list[Edit]) -> str:
    for s, e, new in edits:
        text = text[:s] + new + text[e:]
    return text


def make_plan(
    doc: Document, round_no: int, n_edits: int, seed: int
) -> list[tuple[str, list[Edit]]]:
    """The same edit sequence for every server in a round; offsets are code points, each
    edit of a step against the text left by the previous one."""
    rng = random.Random(f"{seed}/{doc.size}/{round_no}")
    text = doc.text
    deleted: set[str] = set()
    plan: list[tuple[str, list[Edit]]] = []
    kinds = [EDIT_CYCLE[i % len(EDIT_CYCLE)] for i in range(n_edits)]

    def live_leaf() -> str:
        while True:
            leaf = rng.choice(doc.leaves)
            if leaf not in deleted:
                return leaf

    for counter, kind in enumerate(kinds, start=1):
        edits: list[Edit]
        if kind == "label":
            leaf = live_leaf()
            s = _node_start(text, leaf)
            q = text.index('"label": "', s) + len('"label": "')
            end_q = text.index('"', q)
            edits = [(end_q, end_q, rng.choice("xyzq"))]
        elif kind == "add_edge":
            leaf, box = live_leaf(), rng.choice(doc.toolboxes)
            edge = generate.tool_edge(f"bench_r{round_no}_e{counter}", leaf, box)
            block = _indent(json.dumps(edge, indent=2, ensure_ascii=False), 4)
            _, _, e0, e1 = _sections(text)
            at = _array_boundary(text, e0, e1, rng)
            edits = [(at, at, "\n" + block + ",")]
        elif kind == "delete":
            for _ in range(100):
                leaf = live_leaf()
                s = _node_start(text, leaf)
                spans = [_object_span(text, s)]
                q = json.dumps(leaf, ensure_ascii=False)
                for key in ("source", "target"):
                    needle = f'\n      "{key}": {q},\n'
                    p = text.find(needle)
                    while p != -1:
                        spans.append(_object_span(text, text.rfind("\n    {\n", 0, p)))
                        p = text.find(needle, p + 1)
                spans = sorted(set(spans), reverse=True)  # from the end: offsets stay valid
                if all(a[0] >= b[1] for a, b in zip(spans, spans[1:], strict=False)):
                    break
            deleted.add(leaf)
            edits = [(a, b, "") for a, b in spans]
        elif kind == "paste":
            nodes = []
            for j in range(20):
                template, ntype = generate.LEAF_TEMPLATES[
                    rng.randrange(len(generate.LEAF_TEMPLATES))
                ]
                nid = f"{ntype}.{900000 + round_no * 10000 + counter * 20 + j}"
                label = f"Pasted {counter}-{j} " + template.format(i=f"p{round_no}")
                cfg = generate._leaf_config(ntype, j, rng)
                nodes.append(generate._node(nid, ntype, label, cfg, 2000 + 300 * j, 150 * counter))
            block = ",\n".join(
                _indent(json.dumps(n, indent=2, ensure_ascii=False), 4) for n in nodes
            )
            n0, n1, _, _ = _sections(text)
            at = _array_boundary(text, n0, n1, rng)
            edits = [(at, at, "\n" + block + ",")]
        else:  # pragma: no cover
            raise ValueError(kind)
        text = _apply(text, edits)
        plan.append((kind, edits))
    # The plan must leave valid JSON behind.
    json.loads(text)
    return plan


def make_typing_plan(doc: Document, round_no: int, seed: int) -> list[tuple[str, list[Edit]]]:
    """TYPED_NODE typed into the nodes array between two elements near the middle, one
    didChange per keystroke (most of them leave the JSON broken)."""
    rng = random.Random(f"{seed}/{doc.size}/typing/{round_no}")
    n0, n1, _, _ = _sections(doc.text)
    middle = n0 + (n1 - n0) // 2
    at = _array_boundary(doc.text, middle, n1, rng)
    keys = ["\n    ", *TYPED_NODE]
    plan: list[tuple[str, list[Edit]]] = []
    for key in keys:
        plan.append(("keystroke", [(at, at, key)]))
        at += len(key)
    json.loads(_apply(doc.text, [e for _, es in plan for e in es]))  # whole again at the end
    return plan


def make_minified_label_plan(
    doc: Document, round_no: int, n_edits: int, seed: int
) -> list[tuple[str, list[Edit]]]:
    """Label edits (one character before a leaf label's closing quote) in a one-line
    document."""
    rng = random.Random(f"{seed}/{doc.size}/minified/{round_no}")
    plan: list[tuple[str, list[Edit]]] = []
    for _ in range(n_edits):
        leaf = rng.choice(doc.leaves)
        s = doc.text.index('{"id":' + json.dumps(leaf, ensure_ascii=False) + ",")
        q = doc.text.index('"label":"', s) + len('"label":"')
        end_q = doc.text.index('"', q)  # generated labels hold no escaped quote
        plan.append(("label", [(end_q, end_q, rng.choice("xyzq"))]))
    # Each edit is against the text left by the previous one: offsets after an earlier
    # insertion move by one.
    shifted: list[tuple[str, list[Edit]]] = []
    done: list[int] = []
    for kind, [(a, _b, ch)] in plan:
        a2 = a + sum(1 for x in done if x <= a)
        shifted.append((kind, [(a2, a2, ch)]))
        done.append(a)
    return shifted


# --------------------------------------------------------------------------- servers
@dataclass
class ServerSpec:
    name: str
    cmd: list[str]
    init_options: Any = None
    settings: Any = field(default_factory=dict)
    did_change_configuration: Any = None
    pull: bool = False  # timed through textDocument/diagnostic (no push debounce)


def json_server_binary(install: bool = True) -> Path | None:
    b = CACHE / "json-server" / "node_modules" / ".bin" / "vscode-json-language-server"
    if not b.exists() and install:
        log("installing vscode-langservers-extracted (bench/install-json-server.sh)")
        r = subprocess.run(
            ["bash", str(BENCH_DIR / "install-json-server.sh")], capture_output=True, text=True
        )
        if r.returncode != 0:
            log(f"install failed: {r.stderr.strip()[-500:]}")
    return b if b.exists() else None


def schema_path() -> tuple[Path, bool]:
    """(schema to associate with *.flowdrop.json, is it the project's own)."""
    if PROJECT_SCHEMA.exists():
        return PROJECT_SCHEMA, True
    p = CACHE / "fallback-workflow.schema.json"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(FALLBACK_SCHEMA, indent=2))
    return p, False


def build_specs(names: list[str], ours: str) -> dict[str, ServerSpec]:
    specs: dict[str, ServerSpec] = {}
    for n in names:
        if n == "ours-incremental":
            specs[n] = ServerSpec(n, [ours, "serve"], init_options={}, settings={})
        elif n == "ours-full":
            specs[n] = ServerSpec(
                n,
                [ours, "serve"],
                init_options={"fullRecompute": True},
                settings={"fullRecompute": True},
            )
        elif n == "floor":
            specs[n] = ServerSpec(n, [sys.executable, str(BENCH_DIR / "floor_server.py")])
        elif n in ("vscode-json", "vscode-json-push"):
            b = json_server_binary()
            schema, _ = schema_path()
            json_settings = {
                "json": {
                    "validate": {"enable": True},
                    "schemas": [{"fileMatch": ["*.flowdrop.json"], "url": schema.as_uri()}],
                }
            }
            specs[n] = ServerSpec(
                n,
                [str(b) if b else "vscode-json-language-server-not-installed", "--stdio"],
                init_options={"handledSchemaProtocols": ["file"], "provideFormatter": False},
                settings=json_settings,
                did_change_configuration=json_settings,
                # vscode-json: pull diagnostics, validated when asked; vscode-json-push: as
                # shipped, publishing 500 ms after the last change (the proof that pulling
                # removes the wait and nothing else).
                pull=n == "vscode-json",
            )
        else:
            raise SystemExit(f"unknown server {n!r}; known: {', '.join(ALL_SERVERS)}")
    return specs


# --------------------------------------------------------------------------- measuring
def diag_digest(diags: list[dict]) -> str:
    norm = sorted(
        json.dumps(
            [d.get("range"), d.get("severity"), d.get("code"), d.get("message")],
            sort_keys=True,
            ensure_ascii=False,
        )
        for d in diags
    )
    return hashlib.sha1("\n".join(norm).encode()).hexdigest()[:12]


@dataclass
class Sample:
    server: str
    size: int
    round: int
    step: int  # 0 = didOpen
    kind: str  # open | label | add_edge | delete | paste
    ms: float | None  # None: timeout / failure
    version_sent: int
    version_got: int | None = None
    n_diags: int | None = None
    digest: str | None = None
    status: str = "ok"  # ok | timeout | died | error | skipped
    scenario: str = "edits"  # edits | typing | minified


@dataclass
class SessionInfo:
    server: str
    size: int
    round: int
    rss_open: int | None = None
    rss_end: int | None = None
    peak: int | None = None
    error: str | None = None
    note: str | None = None
    check: str | None = None  # does the open's answer prove the server validated? (OK/FAILED)
    scenario: str = "edits"


def validation_check(server: str, doc: Document, diagnostics: list[dict]) -> str | None:
    """Does the answer to the open prove that the server validated the document? vscode-json
    must report the planted schema error on its line; ours must report it (FD-SCHEMA) and CMP-9
    on the planted collisions. None: nothing to check (floor, or no planted error)."""
    line = doc.schema_error_line
    if line is None or server == "floor":
        return None
    on_line = [d for d in diagnostics if d.get("range", {}).get("start", {}).get("line") == line]
    if server.startswith("vscode-json"):
        hits = [d for d in on_line if "minimum length" in d.get("message", "")]
        if hits:
            return f'OK: {hits[0]["message"]!r} on the planted `"target": ""` (line {line + 1}; {len(diagnostics)} diagnostics)'
        return f"FAILED: no minLength error on line {line + 1} ({len(diagnostics)} diagnostics)"
    schema = [d for d in on_line if d.get("code") == "FD-SCHEMA"]
    cmp9 = [d for d in diagnostics if d.get("code") == "CMP-9"]
    if schema and len(cmp9) >= len(doc.collisions):
        return (
            f'OK: FD-SCHEMA on the planted `"target": ""` (line {line + 1}) and '
            f"{len(cmp9)} CMP-9 for {len(doc.collisions)} planted collisions ({len(diagnostics)} diagnostics)"
        )
    return (
        f"FAILED: FD-SCHEMA on line {line + 1}: {len(schema)}, CMP-9: {len(cmp9)} "
        f"(planted collisions: {len(doc.collisions)})"
    )


async def run_session(
    spec: ServerSpec,
    doc: Document,
    round_no: int,
    plan,
    cfg: argparse.Namespace,
    *,
    think: float | None = None,
    scenario: str = "edits",
) -> tuple[list[Sample], SessionInfo]:
    logs = CACHE / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    think = cfg.think if think is None else think
    scale = cfg.timeout_scale
    open_timeout = (30 + 3 * doc.size / 1000) * scale
    edit_timeout = (15 + 1.0 * doc.size / 1000) * scale
    client = LspClient(
        spec.cmd,
        settings=spec.settings,
        init_options=spec.init_options,
        did_change_configuration=spec.did_change_configuration,
        stderr_path=logs / f"{spec.name}-{doc.size}-{scenario}-r{round_no}.stderr",
        cwd=str(REPO),
        name=spec.name,
        pull_diagnostics=spec.pull,
    )
    samples: list[Sample] = []
    info = SessionInfo(spec.name, doc.size, round_no, scenario=scenario)
    gc.collect()
    gc.freeze()
    step = 0
    kind = "open"
    t_session = time.perf_counter()
    try:
        try:
            await client.start()
        except OSError as e:
            info.error = f"cannot start {spec.cmd[0]}: {e}"
            samples.append(
                Sample(
                    spec.name,
                    doc.size,
                    round_no,
                    0,
                    "open",
                    None,
                    1,
                    status="error",
                    scenario=scenario,
                )
            )
            return samples, info
        await client.initialize(timeout=30 * scale, root=str(REPO))
        # Let the server finish its post-`initialized` work (configuration pull, …) first.
        await asyncio.sleep(0.3)
        pub = await client.open(
            doc.uri, doc.text, version=1, language_id=doc.language_id, timeout=open_timeout
        )
        samples.append(
            Sample(
                spec.name,
                doc.size,
                round_no,
                0,
                "open",
                pub.elapsed * 1e3,
                1,
                pub.version,
                pub.count,
                diag_digest(pub.diagnostics),
                scenario=scenario,
            )
        )
        info.check = validation_check(spec.name, doc, pub.diagnostics)
        await asyncio.sleep(0.5)
        info.rss_open = client.rss_bytes()
        for step, (kind, edits) in enumerate(plan, start=1):
            if time.perf_counter() - t_session > cfg.session_cap:
                info.note = f"session cap ({cfg.session_cap:.0f} s) reached: {len(plan) - step + 1} edits not run"
                for s2, (k2, _) in enumerate(plan[step - 1 :], start=step):
                    samples.append(
                        Sample(
                            spec.name,
                            doc.size,
                            round_no,
                            s2,
                            k2,
                            None,
                            s2 + 1,
                            status="capped",
                            scenario=scenario,
                        )
                    )
                log(f"  {spec.name} {doc.size} r{round_no}: {info.note}")
                break
            await asyncio.sleep(think)
            pub = await client.change(doc.uri, edits, timeout=edit_timeout)
            samples.append(
                Sample(
                    spec.name,
                    doc.size,
                    round_no,
                    step,
                    kind,
                    pub.elapsed * 1e3,
                    client.version(doc.uri),
                    pub.version,
                    pub.count,
                    diag_digest(pub.diagnostics),
                    scenario=scenario,
                )
            )
        info.rss_end, info.peak = client.rss_and_peak()
        # VmHWM is updated lazily by the kernel: never report a peak below a sample.
        info.peak = max(info.peak, info.rss_end, info.rss_open or 0)
    except (ServerTimeout, ServerDied, LspError, OSError, ConnectionError) as e:
        status = (
            "timeout"
            if isinstance(e, ServerTimeout)
            else "died"
            if isinstance(e, ServerDied)
            else "error"
        )
        info.error = f"{type(e).__name__}: {e}"
        if step == 0 and not samples:
            samples.append(
                Sample(
                    spec.name,
                    doc.size,
                    round_no,
                    0,
                    "open",
                    None,
                    1,
                    status=status,
                    scenario=scenario,
                )
            )
        else:
            samples.append(
                Sample(
                    spec.name,
                    doc.size,
                    round_no,
                    step,
                    kind,
                    None,
                    step + 1,
                    status=status,
                    scenario=scenario,
                )
            )
        for s2, (k2, _) in enumerate(plan[step:], start=step + 1):
            samples.append(
                Sample(
                    spec.name,
                    doc.size,
                    round_no,
                    s2,
                    k2,
                    None,
                    s2 + 1,
                    status="skipped",
                    scenario=scenario,
                )
            )
        with contextlib.suppress(Exception):
            info.rss_end, info.peak = client.rss_and_peak()
        tail = _stderr_tail(logs / f"{spec.name}-{doc.size}-{scenario}-r{round_no}.stderr")
        if tail:
            info.error += f" | stderr: {tail}"
        log(f"  {spec.name} {doc.size} r{round_no}: {info.error}")
        client.kill()  # a stuck server is not waited for
    finally:
        gc.unfreeze()
        with contextlib.suppress(Exception):
            await client.stop(timeout=5)
    return samples, info


def _stderr_tail(p: Path, n: int = 300) -> str:
    try:
        data = p.read_bytes()[-n:]
    except OSError:
        return ""
    return data.decode("utf-8", "replace").strip().replace("\n", " ⏎ ")


async def check_json_schema(spec: ServerSpec) -> str:
    """Does vscode-json really validate against the schema? Open a tiny document whose
    node id is a number and expect a diagnostic on it."""
    d = CACHE / "docs"
    d.mkdir(parents=True, exist_ok=True)
    p = d / "schema-check.flowdrop.json"
    text = '{\n  "nodes": [\n    {"id": 42, "type": "universalNode"}\n  ],\n  "edges": []\n}\n'
    p.write_text(text)
    client = LspClient(
        spec.cmd,
        settings=spec.settings,
        init_options=spec.init_options,
        did_change_configuration=spec.did_change_configuration,
        name=spec.name,
        pull_diagnostics=spec.pull,
    )
    try:
        await client.start()
        await client.initialize(timeout=30)
        pub = await client.open(p.as_uri(), text, timeout=30)
        hits = [x for x in pub.diagnostics if x["range"]["start"]["line"] == 2]
        if hits:
            return f"OK ({hits[0]['message']!r} on the numeric node id)"
        return f"FAILED: no diagnostic on the numeric node id (got {pub.count})"
    except Exception as e:  # noqa: BLE001
        return f"FAILED: {type(e).__name__}: {e}"
    finally:
        with contextlib.suppress(Exception):
            await client.stop(timeout=5)


# --------------------------------------------------------------------------- statistics
def percentile(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    k = (len(s) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def values(
    samples: list[Sample], server: str, size: int, kind: str, scenario: str = "edits"
) -> list[float]:
    kinds = STRUCTURAL if kind == "structural" else [kind]
    return [
        s.ms
        for s in samples
        if s.server == server
        and s.size == size
        and s.kind in kinds
        and s.ms is not None
        and s.scenario == scenario
    ]


def failures(
    samples: list[Sample], server: str, size: int, scenario: str = "edits"
) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in samples:
        if s.server == server and s.size == size and s.status != "ok" and s.scenario == scenario:
            out[s.status] = out.get(s.status, 0) + 1
    return out


def fmt_ms(v: float | None) -> str:
    if v is None:
        return "–"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def fmt_size(n: int) -> str:
    return f"{n // 1000}k" if n % 1000 == 0 else str(n)


def ratio_rows(samples, infos, sizes, servers) -> list[tuple[str, str, str]]:
    def p50(server, size, kind):
        if server not in servers or size not in sizes:
            return None
        return percentile(values(samples, server, size, kind), 0.5)

    def rss(server, size):
        xs = [
            i.rss_open
            for i in infos
            if i.server == server and i.size == size and i.rss_open and i.scenario == "edits"
        ]
        return percentile(xs, 0.5) if xs else None

    def row(title, a, b, unit="ms"):
        if a is None or b is None or b == 0:
            return (title, "n/a", "not measured in this run")
        if unit == "MB":
            detail = f"{a / 2**20:.0f} MB / {b / 2**20:.0f} MB"
        else:
            detail = f"{fmt_ms(a)} ms / {fmt_ms(b)} ms"
        v = a / b
        return (title, f"{v:.3g}×" + (f" (1/{1 / v:.0f})" if v < 0.1 else ""), detail)

    oi, of = "ours-incremental", "ours-full"
    rows = [
        row(
            "label edit, 10k: ours-incremental / ours-full",
            p50(oi, 10000, "label"),
            p50(of, 10000, "label"),
        ),
        row(
            "label edit, 10k: ours-incremental / vscode-json",
            p50(oi, 10000, "label"),
            p50("vscode-json", 10000, "label"),
        ),
        row(
            "label edit, ours-incremental: 50k / 1k",
            p50(oi, 50000, "label"),
            p50(oi, 1000, "label"),
        ),
        row(
            "structural edits (all), 10k: ours-incremental / ours-full",
            p50(oi, 10000, "structural"),
            p50(of, 10000, "structural"),
        ),
    ]
    for k in STRUCTURAL:
        rows.append(
            row(
                f"  {KIND_TITLES[k]}, 10k: ours-incremental / ours-full",
                p50(oi, 10000, k),
                p50(of, 10000, k),
            )
        )
    rows += [
        row(
            "label edit, 1k: ours-incremental / floor",
            p50(oi, 1000, "label"),
            p50("floor", 1000, "label"),
        ),
        row(
            "didOpen, 10k: ours-incremental / vscode-json",
            p50(oi, 10000, "open"),
            p50("vscode-json", 10000, "open"),
        ),
        row(
            "RSS after open, 50k: ours-incremental / vscode-json",
            rss(oi, 50000) if oi in servers and 50000 in sizes else None,
            rss("vscode-json", 50000) if "vscode-json" in servers and 50000 in sizes else None,
            unit="MB",
        ),
    ]
    return rows


@dataclass(frozen=True)
class Target:
    title: str
    limit: float  # the value must be <= limit
    limit_text: str
    value: float | None
    detail: str

    @property
    def verdict(self) -> str:
        if self.value is None:
            return "not measured"
        return "met" if self.value <= self.limit else "MISSED"


def target_rows(samples, infos) -> list[Target]:
    """The issue's targets, each computed from this run's samples only."""

    def pct(server, size, kind, q, scenario="edits"):
        return percentile(values(samples, server, size, kind, scenario), q)

    def rss(server, size):
        xs = [
            i.rss_open
            for i in infos
            if i.server == server and i.size == size and i.rss_open and i.scenario == "edits"
        ]
        return percentile(xs, 0.5) if xs else None

    def ratio(title, limit, limit_text, a, b, unit="ms"):
        if a is None or b is None or b == 0:
            return Target(title, limit, limit_text, None, "–")
        if unit == "MB":
            detail = f"{a / 2**20:.0f} MB / {b / 2**20:.0f} MB"
        else:
            detail = f"{fmt_ms(a)} ms / {fmt_ms(b)} ms"
        return Target(title, limit, limit_text, a / b, detail)

    oi, vj = "ours-incremental", "vscode-json"
    rows = []
    for size in (10000, 50000):
        rows.append(
            ratio(
                f"didOpen p50, {fmt_size(size)}: ours / vscode-json",
                0.5,
                "≤ 0.5",
                pct(oi, size, "open", 0.5),
                pct(vj, size, "open", 0.5),
            )
        )
    rows.append(
        ratio(
            "RSS after open, 50k: ours / vscode-json",
            0.5,
            "≤ 0.5",
            rss(oi, 50000),
            rss(vj, 50000),
            "MB",
        )
    )
    rows.append(
        ratio(
            "label edit p50, 10k: ours / vscode-json",
            0.1,
            "≤ 0.1",
            pct(oi, 10000, "label", 0.5),
            pct(vj, 10000, "label", 0.5),
        )
    )
    for q, limit, text in ((0.5, 0.1, "≤ 0.1 (1/10)"), (0.9, 0.2, "≤ 0.2 (1/5)")):
        rows.append(
            ratio(
                f"typing p{round(q * 100)}, 10k: ours / vscode-json",
                limit,
                text,
                pct(oi, 10000, "keystroke", q, "typing"),
                pct(vj, 10000, "keystroke", q, "typing"),
            )
        )
    typing_1k = pct(oi, 1000, "keystroke", 0.5, "typing")
    rows.append(
        Target(
            "typing p50, 1k: ours (ms)",
            10.0,
            "≤ 10 ms",
            typing_1k,
            f"{fmt_ms(typing_1k)} ms" if typing_1k is not None else "–",
        )
    )
    rows.append(
        ratio(
            "label edit p50, 10k: ours minified / ours pretty-printed",
            3.0,
            "≤ 3",
            pct(oi, 10000, "label", 0.5, "minified"),
            pct(oi, 10000, "label", 0.5),
        )
    )
    return rows


def fmt_ratio(v: float) -> str:
    return f"{v:.3g}×" + (f" (1/{1 / v:.0f})" if v < 0.1 else "")


def consistency(samples: list[Sample]) -> list[str]:
    """ours-incremental and ours-full got the same edits: their diagnostics must match."""
    edits = [s for s in samples if s.scenario == "edits"]
    a = {(s.size, s.round, s.step): s for s in edits if s.server == "ours-incremental" and s.digest}
    b = {(s.size, s.round, s.step): s for s in edits if s.server == "ours-full" and s.digest}
    common = sorted(set(a) & set(b))
    if not common:
        return []
    bad = [k for k in common if a[k].digest != b[k].digest]
    lines = [f"{len(common)} steps compared, {len(bad)} differ."]
    for k in bad[:10]:
        lines.append(
            f"- {fmt_size(k[0])} round {k[1]} step {k[2]} ({a[k].kind}): incremental {a[k].n_diags} "
            f"diagnostics, full {b[k].n_diags}"
        )
    return lines


# --------------------------------------------------------------------------- report
def _version(dist: str) -> str:
    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return "not installed"


def _cmd_out(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "n/a"


def machine_info(ours: str) -> list[str]:
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = ""
    with contextlib.suppress(OSError, IndexError, ValueError):
        kb = int(Path("/proc/meminfo").read_text().split("MemTotal:")[1].split()[0])
        mem = f", {kb / 2**20:.1f} GiB RAM"
    ours_py = (
        _cmd_out([str(Path(ours).parent / "python"), "--version"]) if Path(ours).exists() else "n/a"
    )
    pkgs = ", ".join(
        f"{d} {_version(d)}"
        for d in [
            "flowdrop-lsp",
            "pygls",
            "lsprotocol",
            "jsonschema",
            "jsonschema-rs",
            "tree-sitter",
            "tree-sitter-json",
            "orjson",
        ]
    )
    jpkg = CACHE / "json-server" / "node_modules" / "vscode-langservers-extracted" / "package.json"
    jver = json.loads(jpkg.read_text())["version"] if jpkg.exists() else "not installed"
    return [
        f"- Date: {_dt.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"- Machine: {os.cpu_count()} CPUs (nproc {_cmd_out(['nproc'])}), {cpu}{mem}; {platform.platform()}",
        f"- Python (harness): {platform.python_version()}; Python (ours): {ours_py}; Node: {_cmd_out(['node', '--version'])}",
        f"- Packages: {pkgs}; vscode-langservers-extracted {jver}",
    ]


def render_report(cfg, samples, infos, sizes, servers, meta) -> str:
    out = ["# flowdrop-lsp benchmark results", ""]
    out += machine_info(cfg.server)
    out += [
        f"- Command: `{meta['command']}`",
        f"- Sizes: {', '.join(fmt_size(s) for s in sizes)}; rounds × edits per round: "
        + ", ".join(f"{fmt_size(s)}: {meta['rounds'][s]}×{meta['edits'][s]}" for s in sizes)
        + f" (edit cycle: {', '.join(EDIT_CYCLE)});"
        f" think time {cfg.think * 1e3:.0f} ms; fresh server process per server × size × round,"
        " server order rotated each round",
        "- Document bytes: "
        + ", ".join(f"{fmt_size(s)} = {meta['bytes'][s] / 1e6:.1f} MB" for s in sizes),
        f"- vscode-json schema: {meta.get('schema', 'n/a')}; schema check: {meta.get('schema_check', 'n/a')}",
        f"- Wall time of this run: {meta['wall'] / 60:.1f} min",
        "",
        "Times are ms from writing the didOpen/didChange to reading the diagnostics for it: ours"
        " (and floor, vscode-json-push) the publishDiagnostics carrying that version; vscode-json the"
        " answer to the `textDocument/diagnostic` request sent right after the notification (pull"
        " mode: the server registers no validation timer and validates when asked, so its 500 ms"
        " push debounce is not counted). Every generated document carries exactly one schema error"
        " (bench/generate.py), and each session's open must report it (below), so the peer's figures"
        " are of real validation. On 2 noisy cores treat differences under 1.3× as noise; compare"
        " ratios from one run only.",
        "",
        "## Targets (this run)",
        "",
        "| target | limit | this run | |",
        "|---|---|---|---|",
    ]
    for t in target_rows(samples, infos):
        value = (
            "–"
            if t.value is None
            else (f"{fmt_ms(t.value)} ms" if t.title.endswith("(ms)") else fmt_ratio(t.value))
        )
        out.append(f"| {t.title} | {t.limit_text} | **{value}** ({t.detail}) | {t.verdict} |")
    out += ["", "## Validation checks (the open of every session)", ""]
    out += validation_lines(infos)
    out += [
        "",
        "## Ratios (p50, this run)",
        "",
        "| ratio | value | p50 values |",
        "|---|---|---|",
    ]
    for title, val, detail in ratio_rows(samples, infos, sizes, servers):
        out.append(f"| {title} | {val} | {detail} |")
    out += ["", "## Latency, ms: p50 / p90 (n)", ""]
    cols = ["open", "label", "add_edge", "delete", "paste", "structural"]
    out.append(
        "| server | nodes | "
        + " | ".join(KIND_TITLES[c] for c in cols)
        + " | RSS after open | peak RSS | diagnostics | failures |"
    )
    out.append("|---|---|" + "---|" * (len(cols) + 4))
    for size in sizes:
        for server in servers:
            cells = []
            for c in cols:
                xs = values(samples, server, size, c)
                if xs:
                    cells.append(
                        f"{fmt_ms(percentile(xs, 0.5))} / {fmt_ms(percentile(xs, 0.9))} ({len(xs)})"
                    )
                else:
                    cells.append("–")
            mine = [
                i for i in infos if i.server == server and i.size == size and i.scenario == "edits"
            ]
            if not mine:
                continue
            rss = [i.rss_open for i in mine if i.rss_open]
            peak = [i.peak for i in mine if i.peak]
            nd = [
                s.n_diags
                for s in samples
                if s.server == server
                and s.size == size
                and s.n_diags is not None
                and s.scenario == "edits"
            ]
            fails = failures(samples, server, size)
            out.append(
                f"| {server} | {fmt_size(size)} | "
                + " | ".join(cells)
                + f" | {f'{percentile(rss, 0.5) / 2**20:.0f} MB' if rss else '–'}"
                + f" | {f'{max(peak) / 2**20:.0f} MB' if peak else '–'}"
                + f" | {f'{min(nd)}–{max(nd)}' if nd else '–'}"
                + f" | {', '.join(f'{v} {k}' for k, v in fails.items()) or '–'} |"
            )
    out += typing_section(samples, infos, servers)
    out += minified_section(samples, infos)
    out += push_section(samples)
    cons = consistency(samples)
    if cons:
        out += [
            "",
            "## Consistency: ours-incremental vs ours-full (same edits, same diagnostics?)",
            "",
        ] + cons
    errs = [i for i in infos if i.error or i.note]
    if errs:
        out += ["", "## Failures and truncated sessions", ""]
        for i in errs[:30]:
            out.append(
                f"- {i.server} {fmt_size(i.size)} round {i.round}: {(i.error or i.note)[:400]}"
            )
    return "\n".join(out) + "\n"


def validation_lines(infos: list[SessionInfo]) -> list[str]:
    """One line per server × size × scenario: OK when every session's open proved validation."""
    groups: dict[tuple[str, int, str], list[str]] = {}
    for i in infos:
        if i.check is not None:
            groups.setdefault((i.server, i.size, i.scenario), []).append(i.check)
    if not groups:
        return ["(nothing checked in this run)"]
    out = []
    for (server, size, scenario), checks in groups.items():
        failed = [c for c in checks if not c.startswith("OK")]
        shown = failed[0] if failed else checks[0]
        out.append(
            f"- {server} {fmt_size(size)} ({scenario}): {len(checks) - len(failed)}/{len(checks)}"
            f" sessions OK; {shown}"
        )
    return out


def _cell(xs: list[float]) -> str:
    if not xs:
        return "–"
    return f"{fmt_ms(percentile(xs, 0.5))} / {fmt_ms(percentile(xs, 0.9))} ({len(xs)})"


def typing_section(samples, infos, servers) -> list[str]:
    typed = [s for s in samples if s.scenario == "typing"]
    if not typed:
        return []
    out = [
        "",
        f"## Typing a node object ({len(TYPED_NODE) + 1} keystrokes), ms: p50 / p90 (n)",
        "",
        "Typed into the nodes array near the middle, one didChange per keystroke, each waiting"
        " for the diagnostics of its own version; most keystrokes leave the JSON broken."
        f" Text: `{TYPED_NODE}`.",
        "",
        "| server | nodes | keystroke | didOpen | failures |",
        "|---|---|---|---|---|",
    ]
    for size in sorted({s.size for s in typed}):
        for server in [x for x in TYPING_SERVERS if x in servers]:
            fails = failures(samples, server, size, "typing")
            out.append(
                f"| {server} | {fmt_size(size)} | "
                f"{_cell(values(samples, server, size, 'keystroke', 'typing'))} | "
                f"{_cell(values(samples, server, size, 'open', 'typing'))} | "
                f"{', '.join(f'{v} {k}' for k, v in fails.items()) or '–'} |"
            )
    return out


def minified_section(samples, infos) -> list[str]:
    mini = [s for s in samples if s.scenario == "minified"]
    if not mini:
        return []
    out = [
        "",
        "## Minified (one-line) documents, ms: p50 / p90 (n)",
        "",
        "The same document written on one line (as API exports are); label edits as above.",
        "",
        "| server | nodes | label +1 char, minified | label +1 char, pretty-printed | didOpen, minified | failures |",
        "|---|---|---|---|---|---|",
    ]
    for size in sorted({s.size for s in mini}):
        for server in MINIFIED_SERVERS:
            fails = failures(samples, server, size, "minified")
            out.append(
                f"| {server} | {fmt_size(size)} | "
                f"{_cell(values(samples, server, size, 'label', 'minified'))} | "
                f"{_cell(values(samples, server, size, 'label'))} | "
                f"{_cell(values(samples, server, size, 'open', 'minified'))} | "
                f"{', '.join(f'{v} {k}' for k, v in fails.items()) or '–'} |"
            )
    return out


def push_section(samples) -> list[str]:
    push = [s for s in samples if s.server == "vscode-json-push" and s.scenario == "edits"]
    if not push:
        return []
    out = [
        "",
        "## vscode-json: pull (what we compare with) vs push as shipped, p50 ms",
        "",
        "The same server; push publishes 500 ms after the last change (its built-in delay)."
        " The difference should be ≈500 ms: the pull figures are the work without the wait.",
        "",
        "| nodes | kind | vscode-json-push | vscode-json (pull) | difference |",
        "|---|---|---|---|---|",
    ]
    for size in sorted({s.size for s in push}):
        for kind in ("open", "label"):
            a = percentile(values(samples, "vscode-json-push", size, kind), 0.5)
            b = percentile(values(samples, "vscode-json", size, kind), 0.5)
            diff = f"{a - b:+.0f} ms" if a is not None and b is not None else "–"
            out.append(
                f"| {fmt_size(size)} | {KIND_TITLES[kind]} | {fmt_ms(a)} | {fmt_ms(b)} | {diff} |"
            )
    return out


YAML_BEGIN, YAML_END = "<!-- yaml-bench:begin -->", "<!-- yaml-bench:end -->"


def write_report(path: Path, report: str) -> None:
    """Write the JSON report, keeping bench/yaml_bench.py's section when the file has one."""
    kept = ""
    if path.exists():
        old = path.read_text(encoding="utf-8")
        if YAML_BEGIN in old and YAML_END in old:
            kept = old[old.index(YAML_BEGIN) : old.index(YAML_END) + len(YAML_END)] + "\n"
    path.write_text(report + ("\n" + kept if kept else ""), encoding="utf-8")


# --------------------------------------------------------------------------- main
def default_server() -> str:
    candidates = [
        REPO / ".venv" / "bin" / "flowdrop-lsp",
        Path(sys.executable).parent / "flowdrop-lsp",
    ]
    which = shutil.which("flowdrop-lsp")
    if which:
        candidates.append(Path(which))
    for c in candidates:
        if c.exists():
            return str(c)
    return str(candidates[0])


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
        "--servers", default=",".join(ALL_SERVERS), help=f"subset of {','.join(ALL_SERVERS)}"
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


def _sizes(text: str) -> list[int]:
    return [int(x) for x in str(text).split(",") if x.strip()]


async def run_benchmark(cfg: argparse.Namespace) -> dict:
    t_start = time.perf_counter()
    sizes = [int(s) for s in str(cfg.sizes).split(",") if s.strip()]
    servers = [s.strip() for s in str(cfg.servers).split(",") if s.strip()]
    specs = build_specs(servers, cfg.server)
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
    push_sizes = _sizes(cfg.push_sizes)
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
            order = servers[r % len(servers) :] + servers[: r % len(servers)]
            for name in order:
                if name == "vscode-json-push" and size not in push_sizes:
                    continue
                t = time.perf_counter()
                s, info = await run_session(specs[name], doc, r, plan, cfg)
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
    for scenario, scenario_sizes, scenario_servers in (
        ("typing", _sizes(cfg.typing_sizes), TYPING_SERVERS),
        ("minified", _sizes(cfg.minified_sizes), MINIFIED_SERVERS),
    ):
        names = [n for n in scenario_servers if n in specs]
        for size in scenario_sizes:
            if not names:
                break
            doc = load_document(size, cfg.seed, minified=scenario == "minified")
            n_rounds = cfg.typing_rounds if scenario == "typing" else rounds.get(size, cfg.rounds)
            for r in range(n_rounds):
                if r > 0 and time.perf_counter() - t_start > cfg.budget_min * 60:
                    log(f"{scenario} {fmt_size(size)}: stopping after {r} rounds (time budget)")
                    break
                if scenario == "typing":
                    plan = make_typing_plan(doc, r, cfg.seed)
                    if cfg.keystrokes:
                        plan = plan[: cfg.keystrokes]
                else:
                    plan = make_minified_label_plan(doc, r, edits.get(size, cfg.edits), cfg.seed)
                order = names[r % len(names) :] + names[: r % len(names)]
                for name in order:
                    t = time.perf_counter()
                    s, info = await run_session(
                        specs[name],
                        doc,
                        r,
                        plan,
                        cfg,
                        think=cfg.type_think if scenario == "typing" else None,
                        scenario=scenario,
                    )
                    samples += s
                    infos.append(info)
                    ok = [x.ms for x in s if x.ms is not None and x.kind != "open"]
                    log(
                        f"{scenario} {fmt_size(size):>4} r{r} {name:<17} p50 "
                        f"{fmt_ms(percentile(ok, 0.5)):>6} ms p90 {fmt_ms(percentile(ok, 0.9)):>6} ms "
                        f"({len(ok)}/{len(plan)} ok), {time.perf_counter() - t:.1f} s"
                    )
            del doc
            gc.collect()
    meta["wall"] = time.perf_counter() - t_start
    report = render_report(cfg, samples, infos, sizes, servers, meta)
    result = {
        "meta": meta,
        "sizes": sizes,
        "servers": servers,
        "samples": [asdict(s) for s in samples],
        "sessions": [asdict(i) for i in infos],
        "report": report,
    }
    if cfg.out:
        write_report(Path(cfg.out), report)
    if cfg.raw:
        Path(cfg.raw).parent.mkdir(parents=True, exist_ok=True)
        Path(cfg.raw).write_text(
            json.dumps({k: v for k, v in result.items() if k != "report"}, default=str)
        )
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
