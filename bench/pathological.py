#!/usr/bin/env python3
"""Pathological inputs (issue 10 §3, §5): how long the CLI and one server edit take on each.

Each case is generated here (deterministic, nothing cached), written to a temporary file and
checked by `flowdrop-lsp check` in a fresh process (wall time, startup included); then the
same text is opened in-process with the engine (core.engine.document.WorkflowDocument, what the server
holds per document) and ONE edit is applied and answered as the server would: findings, then
every diagnostic converted to LSP (UTF-16 positions). Targets: CLI ≤ 5 s for any input up to
20 MB; one edit ≤ 1 s. Timings on a shared machine are noisy: compare cases within one run.

    python bench/pathological.py                 # every case at full size
    python bench/pathological.py --scale 0.05    # every case at 5 % (a smoke run)
    python bench/pathological.py --cases label_10mb,minified --profile   # cProfile top 15
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate
from harness.cli import timed_check
from harness.engine import WorkflowDocument, to_diagnostic

AGENT = generate.AGENT_TYPE
TOOLBOX = generate.TOOLBOX_TYPE


def node(node_id: str, ntype: str, label: str) -> dict:
    return {
        "id": node_id,
        "type": "universalNode",
        "data": {"label": label, "config": {}, "metadata": {"node_type_id": ntype}},
    }


def tool_edge(index: int, source: str, target: str) -> dict:
    return {
        "id": f"t{index}",
        "source": source,
        "target": target,
        "sourceHandle": f"{source}-output-tool",
        "targetHandle": f"{target}-input-tool",
    }


def compact(doc: dict) -> str:
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Case:
    """A generated document and the edit made in the server: replace the first occurrence of
    `find` (after `after`, if given) with `replace`."""

    name: str
    text: str
    find: str
    replace: str
    after: str = ""
    fix: bool = False  # also time `check --fix` on a copy (issue 38: every fix linear)


def numbers_edges(scale: float) -> Case:
    """`edges` is an array of 1M numbers (≈ 7 MB), not objects."""
    count = int(1_000_000 * scale)
    doc = {
        "nodes": [node("agent", AGENT, "Agent"), node("a", "http_request", "Search")],
        "edges": list(range(count)),
    }
    return Case("numbers_edges", compact(doc), '"Search"', '"Searcx"')


def edge_objects(scale: float) -> Case:
    """1M small edge objects (≈ 20 MB minified) between a handful of nodes."""
    count = int(1_000_000 * scale)
    nodes = [node(f"n{i}", "http_request", f"Tool {i}") for i in range(10)]
    edges = [{"source": f"n{i % 10}", "target": f"n{(i + 1) % 10}"} for i in range(count)]
    return Case("edge_objects", compact({"nodes": nodes, "edges": edges}), '"Tool 3"', '"Tool 3x"')


def toolbox_chain(scale: float, same_name: bool) -> Case:
    """A chain of 3,000 toolboxes, each with a leaf tool of its own and each wired to an agent
    of its own: agent k sees the leaves of boxes 0..k (O(N²) leaves over all agents). With
    `same_name`, every leaf is called "Search": a collision at every agent."""
    count = int(3000 * scale)
    nodes, edges = [], []
    for k in range(count):
        nodes.append(node(f"box{k}", TOOLBOX, f"Box {k}"))
        nodes.append(node(f"agent{k}", AGENT, f"Agent {k}"))
        nodes.append(node(f"leaf{k}", "http_request", "Search" if same_name else f"Search {k}"))
        edges.append(tool_edge(len(edges), f"leaf{k}", f"box{k}"))
        edges.append(tool_edge(len(edges), f"box{k}", f"agent{k}"))
        if k:
            edges.append(tool_edge(len(edges), f"box{k - 1}", f"box{k}"))
    name = "toolbox_chain_same_names" if same_name else "toolbox_chain"
    # The edit: rename leaf 1 to leaf 0's name (a new collision at all agents but the first).
    find = '"Search"' if same_name else '"Search 1"'
    return Case(
        name,
        compact({"nodes": nodes, "edges": edges}),
        find,
        '"Search 0"' if not same_name else '"Searcx"',
    )


def label_10mb(scale: float) -> Case:
    size = int(10_000_000 * scale)
    label = ("Résumé 数据 😀 " * (size // 13 + 1))[:size]
    nodes = [
        node("agent", AGENT, "Agent"),
        node("a", "http_request", label),
        node("b", "http_request", "Other"),
    ]
    return Case(
        "label_10mb",
        compact(
            {"nodes": nodes, "edges": [tool_edge(0, "a", "agent"), tool_edge(1, "b", "agent")]}
        ),
        '"Other"',
        '"Othex"',
    )


def wide_consumer(scale: float) -> Case:
    """One agent seeing 100k tools (through 100 toolboxes); the edit makes two collide."""
    count = int(100_000 * scale)
    boxes = max(1, count // 1000)
    nodes = [node("agent", AGENT, "Agent")]
    edges = []
    for b in range(boxes):
        nodes.append(node(f"box{b}", TOOLBOX, f"Box {b}"))
        edges.append(tool_edge(len(edges), f"box{b}", "agent"))
    for i in range(count):
        nodes.append(node(f"leaf{i}", "http_request", f"Tool {i}"))
        edges.append(tool_edge(len(edges), f"leaf{i}", f"box{i % boxes}"))
    return Case("wide_consumer", compact({"nodes": nodes, "edges": edges}), '"Tool 1"', '"Tool 0"')


def export_53mb(scale: float) -> Case:
    """An API export of 68,000 nodes, 53 MB (issue 38): over STORE-1's 8 MiB, so FlowDrop
    refuses it at the door, and so do we: one finding, nothing parsed."""
    count = int(68_000 * scale)
    nodes = [
        {
            "id": f"n{i}",
            "type": "universalNode",
            "position": {"x": i, "y": i},
            "data": {
                "label": f"Fetch page {i} 数据 😀",
                "config": {"url": f"https://example.org/{i}", "method": "GET", "retries": 3},
                "metadata": {"node_type_id": "http_request", "description": "x" * 600},
            },
        }
        for i in range(count)
    ]
    return Case("export_53mb", compact({"nodes": nodes, "edges": []}), '"GET"', '"PUT"')


def pairs_chain_cycle(scale: float) -> Case:
    """10,000 nodes (issue 38): 4,999 toolboxes chained into one agent, each with a tool, the
    tools colliding in pairs ("Search 0" twice, …), the last box forwarding back to the first (a
    toolbox cycle, DATA-10). A finding and a rename per colliding tool, each route as long as
    the chain: `check --fix` must stay linear."""
    count = max(2, int(4_999 * scale))
    nodes, edges = [node("agent", AGENT, "Agent")], []
    for k in range(count):
        nodes.append(node(f"b{k}", TOOLBOX, f"Box {k}"))
        nodes.append(node(f"l{k}", "http_request", f"Search {k // 2}"))
        edges.append(tool_edge(len(edges), f"l{k}", f"b{k}"))
        edges.append(tool_edge(len(edges), f"b{k}", f"b{k + 1}" if k + 1 < count else "agent"))
    edges.append(tool_edge(len(edges), f"b{count - 1}", "b0"))
    return Case(
        "pairs_chain_cycle",
        compact({"nodes": nodes, "edges": edges}),
        '"Box 1"',
        '"Box 1x"',
        fix=True,
    )


def minified(scale: float) -> list[Case]:
    """The 10k-node benchmark workflow, pretty-printed and on one line (an API export)."""
    doc = generate.build_workflow(max(50, int(10_000 * scale))).doc
    label = next(
        n["data"]["label"]
        for n in doc["nodes"][len(doc["nodes"]) // 2 :]
        if n["data"]["label"].startswith("Fetch Page")
    )
    find = json.dumps(label, ensure_ascii=False)
    edited = json.dumps(label + "x", ensure_ascii=False)
    return [
        Case("pretty_10k", generate.render(doc), find, edited),
        Case("minified_10k", compact(doc), find, edited),
    ]


CASES: dict[str, Callable[[float], list[Case]]] = {
    "numbers_edges": lambda s: [numbers_edges(s)],
    "edge_objects": lambda s: [edge_objects(s)],
    "toolbox_chain": lambda s: [toolbox_chain(s, False)],
    "toolbox_chain_same_names": lambda s: [toolbox_chain(s, True)],
    "label_10mb": lambda s: [label_10mb(s)],
    "wide_consumer": lambda s: [wide_consumer(s)],
    "minified": minified,
    "export_53mb": lambda s: [export_53mb(s)],
    "pairs_chain_cycle": lambda s: [pairs_chain_cycle(s)],
}


def run_fix(path: Path, timeout: float) -> str:
    """`check --fix` on a copy of the case: its wall time, and whether it fixed everything."""
    copy = path.with_name("fixed-" + path.name)
    copy.write_bytes(path.read_bytes())
    elapsed, done = timed_check([copy], timeout, fmt="text", args=("--fix", "--no-cache"))
    if done is None:
        return "; --fix timed out"
    left = done.stdout.strip().splitlines()[-1:] or ["?"]
    return f"; --fix {elapsed:.2f} s ({left[0]})"


def run_cli(path: Path, timeout: float) -> tuple[float, str]:
    elapsed, done = timed_check([path], timeout, args=("--no-cache",))
    if done is None:
        return elapsed, "timed out"
    try:
        findings = json.loads(done.stdout)
        count = sum(len(f.get("findings", [])) for f in findings.get("files", [findings]))
        summary = f"exit {done.returncode}, {count} findings, {len(done.stdout) / 1e6:.1f} MB out"
    except (ValueError, AttributeError):
        summary = f"exit {done.returncode}, {len(done.stdout) / 1e6:.1f} MB out"
    return elapsed, summary


def server_edit(case: Case, profile: bool) -> tuple[float, float, str]:
    """Open (not timed as the edit), then one edit answered with converted diagnostics."""
    started = time.perf_counter()
    document = WorkflowDocument(case.text)
    publish(document)
    opened = time.perf_counter() - started
    at = case.text.find(case.find, case.text.find(case.after) if case.after else 0)
    assert at >= 0, case.name
    profiler = cProfile.Profile() if profile else None
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    document.apply_edit(at, at + len(case.find), case.replace)
    found = document.findings()  # cached: publish() below reuses them
    analysed = time.perf_counter() - started
    diagnostics = publish(document)
    if profiler:
        profiler.disable()
    edit = time.perf_counter() - started
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(15)
    # Where an edit's time goes: the analysis (findings), or converting every diagnostic to
    # LSP (UTF-16 positions of each range, related location and fix edit).
    return (
        opened,
        edit,
        f"{len(diagnostics)} diagnostics ({len(found)} findings in {analysed:.3f} s, "
        f"converted in {edit - analysed:.3f} s)",
    )


def publish(document: WorkflowDocument) -> list[object]:
    return [
        to_diagnostic(f, document.buffer, "utf-16", "file:///bench", 1, "https://docs", True)
        for f in document.findings()
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--scale", type=float, default=1.0, help="size factor (1 = the issue's sizes)"
    )
    parser.add_argument(
        "--cases", default=",".join(CASES), help="comma-separated: " + ", ".join(CASES)
    )
    parser.add_argument("--timeout", type=float, default=120.0, help="CLI timeout per case (s)")
    parser.add_argument("--no-cli", action="store_true", help="only the in-process server edit")
    parser.add_argument("--profile", action="store_true", help="cProfile the server edit")
    args = parser.parse_args(argv)
    print(
        f"scale {args.scale}; CLI = fresh `flowdrop-lsp check` process; edit = one change + publish"
    )
    print(f"{'case':28} {'MB':>6} {'CLI s':>7} {'open s':>7} {'edit s':>7}  notes")
    with tempfile.TemporaryDirectory() as folder:
        for name in args.cases.split(","):
            for case in CASES[name](args.scale):
                path = Path(folder) / f"{case.name}.flowdrop.json"
                path.write_text(case.text, encoding="utf-8")
                size = path.stat().st_size / 1e6
                cli, cli_notes = (float("nan"), "") if args.no_cli else run_cli(path, args.timeout)
                if case.fix and not args.no_cli:
                    cli_notes += run_fix(path, args.timeout)
                opened, edit, notes = server_edit(case, args.profile)
                print(
                    f"{case.name:28} {size:6.1f} {cli:7.2f} {opened:7.2f} {edit:7.3f}  {cli_notes}; {notes}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
