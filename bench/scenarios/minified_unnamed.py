"""The minified document under a name that is not a workflow's (`wf-10000-…-min.json`, as an
API export lands on disk): the server judges it by content, so this measures that the verdict
costs nothing per edit (issue 18 §7: it once re-read the document on every publish, 70× a label
edit). Same plan as the minified scenario; its column is in the minified section."""

from __future__ import annotations

import argparse
from dataclasses import replace

from harness.session import Document, Plan

from scenarios import minified

NAME = "minified-unnamed"
SERVERS = ["ours-incremental"]


def sizes(cfg: argparse.Namespace) -> list[int]:
    return minified.sizes(cfg)


def load(size: int, seed: int) -> Document:
    doc = minified.load(size, seed)
    # Only the name the server is told differs: `.json`, not `.flowdrop.json`.
    return replace(doc, path=doc.path.with_name(doc.path.name.replace(".flowdrop.json", ".json")))


def rounds(cfg: argparse.Namespace, edit_rounds: dict[int, int], size: int) -> int:
    return minified.rounds(cfg, edit_rounds, size)


def plan(cfg: argparse.Namespace, doc: Document, round_no: int, edits: dict[int, int]) -> Plan:
    return minified.plan(cfg, doc, round_no, edits)


def think(cfg: argparse.Namespace) -> float | None:
    return minified.think(cfg)


def section(samples, infos, servers) -> list[str]:  # type: ignore[no-untyped-def]
    return []  # a column of the minified section
