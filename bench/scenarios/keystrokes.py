"""The typing scenario of the main benchmark: a node object typed into the nodes array one
keystroke at a time, each keystroke a didChange timed to the diagnostics of its own version
(most keystrokes leave the JSON broken). Its plan, its settings and its report section."""

from __future__ import annotations

import argparse
import json
import random

from harness.paths import parse_sizes
from harness.session import Document, Plan, SessionInfo
from harness.stats import cell, failures, fmt_failures, fmt_size, values

from scenarios.json_workflow import apply, array_boundary, load_document, sections

NAME = "typing"
SERVERS = ["ours-incremental", "vscode-json"]
# Typed one keystroke at a time into the nodes array (the first keystroke is Enter plus the
# editor's auto-indent); CJK and an emoji (two UTF-16 code units) as in real labels.
TYPED_NODE = '{"id": "typed_tool.1", "type": "calculator", "data": {"label": "Typed 工具 🔧"}},'


def make_typing_plan(doc: Document, round_no: int, seed: int) -> Plan:
    """TYPED_NODE typed into the nodes array between two elements near the middle, one
    didChange per keystroke (most of them leave the JSON broken)."""
    rng = random.Random(f"{seed}/{doc.size}/typing/{round_no}")
    n0, n1, _, _ = sections(doc.text)
    middle = n0 + (n1 - n0) // 2
    at = array_boundary(doc.text, middle, n1, rng)
    keys = ["\n    ", *TYPED_NODE]
    plan: Plan = []
    for key in keys:
        plan.append(("keystroke", [(at, at, key)]))
        at += len(key)
    json.loads(apply(doc.text, [e for _, es in plan for e in es]))  # whole again at the end
    return plan


# ---- what bench/run.py asks of a scenario run after the edit cycle
def sizes(cfg: argparse.Namespace) -> list[int]:
    return parse_sizes(cfg.typing_sizes)


def load(size: int, seed: int) -> Document:
    return load_document(size, seed)


def rounds(cfg: argparse.Namespace, edit_rounds: dict[int, int], size: int) -> int:
    return cfg.typing_rounds


def plan(cfg: argparse.Namespace, doc: Document, round_no: int, edits: dict[int, int]) -> Plan:
    steps = make_typing_plan(doc, round_no, cfg.seed)
    return steps[: cfg.keystrokes] if cfg.keystrokes else steps


def think(cfg: argparse.Namespace) -> float | None:
    return cfg.type_think


def section(samples, infos: list[SessionInfo], servers: list[str]) -> list[str]:
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
        for server in [x for x in SERVERS if x in servers]:
            fails = failures(samples, server, size, "typing")
            out.append(
                f"| {server} | {fmt_size(size)} | "
                f"{cell(values(samples, server, size, 'keystroke', 'typing'))} | "
                f"{cell(values(samples, server, size, 'open', 'typing'))} | "
                f"{fmt_failures(fails)} |"
            )
    return out
