"""What every report says about the run (machine, versions), and where reports go: the
sections of bench/RESULTS.md and the raw samples as JSON.

RESULTS.md is shared: bench/run.py writes the file and keeps the sections the other
benchmarks wrote between their markers; each of those replaces only its own section.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import importlib.metadata as md
import json
import os
import platform
import subprocess
from dataclasses import asdict
from pathlib import Path

from harness.peers import json_server_version

#: The markers around bench/yaml_bench.py's section of RESULTS.md.
YAML_SECTION = ("<!-- yaml-bench:begin -->", "<!-- yaml-bench:end -->")
#: The markers around bench/site_bench.py's section.
SITE_SECTION = ("<!-- site-bench:begin -->", "<!-- site-bench:end -->")
#: Sections other benchmarks own in RESULTS.md (run.py keeps them when it rewrites the file).
SITE_OPEN_SECTION = ("<!-- site-open-bench:begin -->", "<!-- site-open-bench:end -->")
KEPT_SECTIONS = [YAML_SECTION, SITE_SECTION, SITE_OPEN_SECTION]


def package_version(dist: str) -> str:
    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return "not installed"


def cmd_out(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "n/a"


def machine_info(ours: str) -> list[str]:
    """The report's header lines: date, machine, Pythons, Node, package versions."""
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
        cmd_out([str(Path(ours).parent / "python"), "--version"]) if Path(ours).exists() else "n/a"
    )
    pkgs = ", ".join(
        f"{d} {package_version(d)}"
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
    return [
        f"- Date: {_dt.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"- Machine: {os.cpu_count()} CPUs (nproc {cmd_out(['nproc'])}), {cpu}{mem}; {platform.platform()}",
        f"- Python (harness): {platform.python_version()}; Python (ours): {ours_py}; Node: {cmd_out(['node', '--version'])}",
        f"- Packages: {pkgs}; vscode-langservers-extracted {json_server_version()}",
    ]


def write_report(path: Path, report: str) -> None:
    """Write the main report, keeping the sections the other benchmarks own (KEPT_SECTIONS)."""
    kept = ""
    if path.exists():
        old = path.read_text(encoding="utf-8")
        for begin, end in KEPT_SECTIONS:
            if begin in old and end in old:
                kept += old[old.index(begin) : old.index(end) + len(end)] + "\n"
    path.write_text(report + ("\n" + kept if kept else ""), encoding="utf-8")


def write_section(path: Path, section: str, markers: tuple[str, str]) -> None:
    """Replace the section between `markers` (the section includes them), or append it."""
    begin, end = markers
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if begin in old and end in old:
        a, b = old.index(begin), old.index(end) + len(end)
        new = old[:a] + section.rstrip("\n") + old[b:]
    else:
        new = (old.rstrip("\n") + "\n\n" if old else "") + section
    path.write_text(new if new.endswith("\n") else new + "\n", encoding="utf-8")


def result_record(meta: dict, samples: list, infos: list, report: str, **extra) -> dict:
    """What a benchmark run returns (and, but for the report, writes as raw JSON)."""
    return {
        "meta": meta,
        **extra,
        "samples": [asdict(s) for s in samples],
        "sessions": [asdict(i) for i in infos],
        "report": report,
    }


def write_raw(path: str, result: dict) -> None:
    """The raw samples and sessions (everything but the rendered report) as JSON."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(
        json.dumps({k: v for k, v in result.items() if k != "report"}, default=str)
    )
