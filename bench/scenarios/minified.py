"""The minified scenario of the main benchmark: the same document on one line (as API exports
write it) and label edits in it, by ours only, to compare with its label edits of the
pretty-printed document in the same run. Its plan, its settings and its report section."""

from __future__ import annotations

import argparse
import json
import random

from harness.paths import parse_sizes
from harness.session import Document, Plan, SessionInfo
from harness.stats import cell, failures, fmt_failures, fmt_size, values
from scenarios.json_workflow import load_document

NAME = "minified"
SERVERS = ["ours-incremental"]


def make_minified_label_plan(doc: Document, round_no: int, n_edits: int, seed: int) -> Plan:
    """Label edits (one character before a leaf label's closing quote) in a one-line
    document."""
    rng = random.Random(f"{seed}/{doc.size}/minified/{round_no}")
    plan: Plan = []
    for _ in range(n_edits):
        leaf = rng.choice(doc.leaves)
        s = doc.text.index('{"id":' + json.dumps(leaf, ensure_ascii=False) + ",")
        q = doc.text.index('"label":"', s) + len('"label":"')
        end_q = doc.text.index('"', q)  # generated labels hold no escaped quote
        plan.append(("label", [(end_q, end_q, rng.choice("xyzq"))]))
    # Each edit is against the text left by the previous one: offsets after an earlier
    # insertion move by one.
    shifted: Plan = []
    done: list[int] = []
    for kind, [(a, _b, ch)] in plan:
        a2 = a + sum(1 for x in done if x <= a)
        shifted.append((kind, [(a2, a2, ch)]))
        done.append(a)
    return shifted


# ---- what bench/run.py asks of a scenario run after the edit cycle
def sizes(cfg: argparse.Namespace) -> list[int]:
    return parse_sizes(cfg.minified_sizes)


def load(size: int, seed: int) -> Document:
    return load_document(size, seed, minified=True)


def rounds(cfg: argparse.Namespace, edit_rounds: dict[int, int], size: int) -> int:
    return edit_rounds.get(size, cfg.rounds)


def plan(cfg: argparse.Namespace, doc: Document, round_no: int, edits: dict[int, int]) -> Plan:
    return make_minified_label_plan(doc, round_no, edits.get(doc.size, cfg.edits), cfg.seed)


def think(cfg: argparse.Namespace) -> float | None:
    return None  # the edit cycle's --think


def section(samples, infos: list[SessionInfo], servers: list[str]) -> list[str]:
    mini = [s for s in samples if s.scenario == "minified"]
    if not mini:
        return []
    out = [
        "",
        "## Minified (one-line) documents, ms: p50 / p90 (n)",
        "",
        "The same document written on one line (as API exports are); label edits as above.",
        "",
        "| server | nodes | label +1 char, minified | minified, named `.json` (judged by content) | label +1 char, pretty-printed | didOpen, minified | failures |",
        "|---|---|---|---|---|---|---|",
    ]
    for size in sorted({s.size for s in mini}):
        for server in SERVERS:
            fails = failures(samples, server, size, "minified")
            for status, count in failures(samples, server, size, "minified-unnamed").items():
                fails[status] = fails.get(status, 0) + count
            out.append(
                f"| {server} | {fmt_size(size)} | "
                f"{cell(values(samples, server, size, 'label', 'minified'))} | "
                f"{cell(values(samples, server, size, 'label', 'minified-unnamed'))} | "
                f"{cell(values(samples, server, size, 'label'))} | "
                f"{cell(values(samples, server, size, 'open', 'minified'))} | "
                f"{fmt_failures(fails)} |"
            )
    return out
