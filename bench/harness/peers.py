"""The servers a benchmark starts, and how each is configured: ours (`flowdrop-lsp serve`),
the pygls transport floor (bench/floor_server.py), vscode-json-language-server (JSON peer) and
yaml-language-server (YAML peer), plus the checks that a peer really validates against our
schema. A new peer is one more spec here; which peers a scenario runs is the scenario's.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from harness.paths import BENCH_DIR, CACHE, REPO, make_log
from harness.session import ServerSpec, open_once

PROJECT_SCHEMA = REPO / "flowdrop_lsp" / "schemas" / "workflow.schema.json"


# --------------------------------------------------------------------------- ours and the floor
def default_server() -> str:
    """Our executable: the repository's venv, else beside this Python, else on PATH."""
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


def ours_beside_python() -> list[str]:
    """`flowdrop-lsp serve` installed beside this Python, else through `-m`."""
    installed = shutil.which("flowdrop-lsp", path=str(Path(sys.executable).parent))
    return [installed, "serve"] if installed else [sys.executable, "-m", "flowdrop_lsp", "serve"]


def ours_module() -> list[str]:
    """`flowdrop-lsp serve` from the package this Python imports (no installed script)."""
    return [sys.executable, "-m", "flowdrop_lsp", "serve"]


def floor_command() -> list[str]:
    return [sys.executable, str(BENCH_DIR / "floor_server.py")]


# --------------------------------------------------------------------------- JSON peers
JSON_SERVERS = ["ours-incremental", "ours-full", "floor", "vscode-json", "vscode-json-push"]
JSON_SERVER_VERSION = "4.10.0"

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


def _install(script: str, what: str, log) -> None:
    log(f"installing {what} (bench/{script})")
    r = subprocess.run(["bash", str(BENCH_DIR / script)], capture_output=True, text=True)
    if r.returncode != 0:
        log(f"install failed: {r.stderr.strip()[-500:]}")


def json_server_binary(install: bool = True) -> Path | None:
    b = CACHE / "json-server" / "node_modules" / ".bin" / "vscode-json-language-server"
    if not b.exists() and install:
        _install("install-json-server.sh", "vscode-langservers-extracted", make_log("bench"))
    return b if b.exists() else None


def json_server_version() -> str:
    pkg = CACHE / "json-server" / "node_modules" / "vscode-langservers-extracted" / "package.json"
    return json.loads(pkg.read_text())["version"] if pkg.exists() else "not installed"


def schema_path() -> tuple[Path, bool]:
    """(schema to associate with *.flowdrop.json, is it the project's own)."""
    if PROJECT_SCHEMA.exists():
        return PROJECT_SCHEMA, True
    p = CACHE / "fallback-workflow.schema.json"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(FALLBACK_SCHEMA, indent=2))
    return p, False


# Our settings in the single-document benchmarks: one file is measured, so the sites of the
# workspace (the repository holds real ones) are not read up front, only the open file's own
# folder (`flowdrop.diagnostics.scope: open`); the site scenario measures the whole-site reading.
SINGLE_DOCUMENT: dict[str, Any] = {"diagnostics": {"scope": "open"}}


def json_specs(names: list[str], ours: str) -> dict[str, ServerSpec]:
    """The servers of the JSON benchmark (bench/run.py), by name."""
    specs: dict[str, ServerSpec] = {}
    for n in names:
        if n == "ours-incremental":
            specs[n] = ServerSpec(n, [ours, "serve"], init_options={}, settings=SINGLE_DOCUMENT)
        elif n == "ours-full":
            specs[n] = ServerSpec(
                n,
                [ours, "serve"],
                init_options={"fullRecompute": True},
                settings={"fullRecompute": True, **SINGLE_DOCUMENT},
            )
        elif n == "floor":
            specs[n] = ServerSpec(n, floor_command())
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
            raise SystemExit(f"unknown server {n!r}; known: {', '.join(JSON_SERVERS)}")
    return specs


async def check_json_schema(spec: ServerSpec) -> str:
    """Does vscode-json really validate against the schema? Open a tiny document whose
    node id is a number and expect a diagnostic on it."""
    d = CACHE / "docs"
    d.mkdir(parents=True, exist_ok=True)
    p = d / "schema-check.flowdrop.json"
    text = '{\n  "nodes": [\n    {"id": 42, "type": "universalNode"}\n  ],\n  "edges": []\n}\n'
    p.write_text(text)
    try:
        pub = await open_once(spec, p.as_uri(), text, timeout=30)
        hits = [x for x in pub.diagnostics if x["range"]["start"]["line"] == 2]
        if hits:
            return f"OK ({hits[0]['message']!r} on the numeric node id)"
        return f"FAILED: no diagnostic on the numeric node id (got {pub.count})"
    except Exception as e:  # noqa: BLE001
        return f"FAILED: {type(e).__name__}: {e}"


# --------------------------------------------------------------------------- YAML peers
YLS_VERSION = "1.25.0"
YAML_SERVERS = ["ours-yaml", "yaml-ls", "yaml-ls-push"]
#: The documents yaml-language-server associates with our schema (bench/generate_yaml.py's names).
YAML_GLOB = "flowdrop_workflow.flowdrop_workflow.*.yml"


def yls_package_dir(install: bool = True) -> Path | None:
    d = CACHE / "yaml-server" / "node_modules" / "yaml-language-server"
    ok = (d / "package.json").exists() and json.loads((d / "package.json").read_text()).get(
        "version"
    ) == YLS_VERSION
    if not ok and install:
        _install("install-yaml-server.sh", "yaml-language-server", make_log("yaml-bench"))
        ok = (d / "package.json").exists()
    return d if ok else None


def yls_version() -> str:
    pkg = CACHE / "yaml-server" / "node_modules" / "yaml-language-server" / "package.json"
    return json.loads(pkg.read_text())["version"] if pkg.exists() else "not installed"


def yls_settings() -> dict:
    return {
        "yaml": {
            "validate": True,
            "schemas": {PROJECT_SCHEMA.as_uri(): [YAML_GLOB]},
            "schemaStore": {"enable": False},
            "hover": False,
            "completion": False,
        },
        "http": {},
        "[yaml]": {},
        "editor": {},
    }


def yaml_specs(names: list[str], ours: str) -> dict[str, ServerSpec]:
    """The servers of the YAML benchmark (bench/yaml_bench.py), by name."""
    specs: dict[str, ServerSpec] = {}
    pkg = yls_package_dir() if any(n.startswith("yaml-ls") for n in names) else None
    for n in names:
        if n == "ours-yaml":
            specs[n] = ServerSpec(n, [ours, "serve"], init_options={}, settings=SINGLE_DOCUMENT)
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


def wrapper_proof() -> str:
    """The line yaml_nodelay.js wrote to the stderr of the last yaml-ls session."""
    logs = sorted((CACHE / "logs").glob("yaml-ls-[0-9]*.stderr"), key=lambda p: p.stat().st_mtime)
    for p in reversed(logs):
        for ln in p.read_text(errors="replace").splitlines():
            if ln.startswith("yaml_nodelay:"):
                return ln
    return "no yaml_nodelay line found"
