"""Top-level edits in the minified document: one character typed into the workflow's `name`,
`id` and `description` (before the arrays) and its `metadata` (after them), on the one line of
an API export. Such an edit is outside `nodes` and `edges`: the engine re-reads the top level
alone (core/engine/header.py), where it once re-read the whole document (an outside driver
typing into the `id` at offset 9 measured 308× the pretty-printed label edit). Reported in the
minified section against the pretty-printed label edits of the same run (`minified-twin`)."""

from __future__ import annotations

import argparse
import json
import random

from harness.session import Document, Plan

from scenarios import minified

NAME = "minified-header"
SERVERS = ["ours-incremental"]
KIND = "top_level"
# The top-level string values typed into, in turn (generate.py writes each of them).
MEMBERS = ['"name":"', '"id":"', '"description":"', '"generator":"']


def make_top_level_plan(doc: Document, round_no: int, n_edits: int, seed: int) -> Plan:
    """One character typed before the closing quote of a top-level value, each edit against
    the text left by the one before."""
    rng = random.Random(f"{seed}/{doc.size}/minified-header/{round_no}")
    text = doc.text
    after_arrays = text.rindex("]")  # `metadata` follows the arrays
    plan: Plan = []
    for number in range(n_edits):
        member = MEMBERS[number % len(MEMBERS)]
        at = text.index(member, after_arrays if member == '"generator":"' else 0) + len(member)
        end_q = text.index('"', at)  # generated top-level values hold no escaped quote
        typed = rng.choice("xyzq")
        plan.append((KIND, [(end_q, end_q, typed)]))
        text = text[:end_q] + typed + text[end_q:]
        after_arrays += len(typed) * (member != '"generator":"')
    assert json.loads(text)  # still the document, one character longer per edit
    return plan


def sizes(cfg: argparse.Namespace) -> list[int]:
    return minified.sizes(cfg)


def load(size: int, seed: int) -> Document:
    return minified.load(size, seed)


def rounds(cfg: argparse.Namespace, edit_rounds: dict[int, int], size: int) -> int:
    return minified.rounds(cfg, edit_rounds, size)


def plan(cfg: argparse.Namespace, doc: Document, round_no: int, edits: dict[int, int]) -> Plan:
    return make_top_level_plan(doc, round_no, edits.get(doc.size, cfg.edits), cfg.seed)


def think(cfg: argparse.Namespace) -> float | None:
    return minified.think(cfg)


def section(samples, infos, servers) -> list[str]:  # type: ignore[no-untyped-def]
    return []  # a row of the minified section
