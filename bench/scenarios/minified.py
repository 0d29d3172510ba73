"""The minified scenarios of the main benchmark: the same document on one line (as API exports
write it) and label edits in it, by ours only, against the very same edits (same leaves, same
characters) in the pretty-printed document, in the same run — the ratio the target is about.

Each edit is sent two ways: as the character typed (what most clients send), and as the whole
line it was typed on (what a line-diffing client sends: on a minified document, its line is the
whole document, megabytes in every didChange). Every step's published findings are compared,
positions left out, with its pretty-printed twin's: they must be the same findings.

This module is the `minified` scenario (the character, one line); `TWIN`, `LINES` and
`TWIN_LINES` are the others (bench/run.py lists them all)."""

from __future__ import annotations

import argparse
import json
import random

from harness.paths import parse_sizes
from harness.session import Document, Plan, Sample, SessionInfo
from harness.stats import cell, failures, fmt_failures, fmt_size, percentile, values

from scenarios.json_workflow import load_document

NAME = "minified"
SERVERS = ["ours-incremental"]


def make_label_plan(
    doc: Document, round_no: int, n_edits: int, seed: int, whole_line: bool = False
) -> Plan:
    """Label edits (one character before a leaf label's closing quote), the same leaves and
    characters in either layout of the document; with `whole_line`, each sent as the whole
    line it is typed on (that line's content replaced by itself with the character)."""
    rng = random.Random(f"{seed}/{doc.size}/minified/{round_no}")
    colon = ":" if doc.minified else ": "
    text = doc.text
    plan: Plan = []
    for _ in range(n_edits):
        leaf = rng.choice(doc.leaves)
        s = text.index('"id"' + colon + json.dumps(leaf, ensure_ascii=False) + ",")
        q = text.index('"label"' + colon + '"', s) + len('"label"' + colon + '"')
        end_q = text.index('"', q)  # generated labels hold no escaped quote
        typed = rng.choice("xyzq")
        if whole_line:
            line_start = text.rfind("\n", 0, end_q) + 1
            line_end = text.find("\n", end_q)
            line_end = len(text) if line_end < 0 else line_end
            line = text[line_start:end_q] + typed + text[end_q:line_end]
            plan.append(("label", [(line_start, line_end, line)]))
        else:
            plan.append(("label", [(end_q, end_q, typed)]))
        text = text[:end_q] + typed + text[end_q:]  # each edit is against the text left before
    return plan


def make_minified_label_plan(doc: Document, round_no: int, n_edits: int, seed: int) -> Plan:
    return make_label_plan(doc, round_no, n_edits, seed)


class LabelScenario:
    """One layout × one way of sending the edits, as bench/run.py runs a scenario."""

    SERVERS = SERVERS

    def __init__(self, name: str, minified: bool, whole_line: bool) -> None:
        self.NAME, self.minified, self.whole_line = name, minified, whole_line

    def sizes(self, cfg: argparse.Namespace) -> list[int]:
        return parse_sizes(cfg.minified_sizes)

    def load(self, size: int, seed: int) -> Document:
        return load_document(size, seed, minified=self.minified)

    def rounds(self, cfg: argparse.Namespace, edit_rounds: dict[int, int], size: int) -> int:
        return edit_rounds.get(size, cfg.rounds)

    def plan(
        self, cfg: argparse.Namespace, doc: Document, round_no: int, edits: dict[int, int]
    ) -> Plan:
        return make_label_plan(
            doc, round_no, edits.get(doc.size, cfg.edits), cfg.seed, self.whole_line
        )

    def think(self, cfg: argparse.Namespace) -> float | None:
        return None  # the edit cycle's --think

    def section(self, samples, infos, servers) -> list[str]:  # type: ignore[no-untyped-def]
        return []  # rows of the minified section


TWIN = LabelScenario("minified-twin", minified=False, whole_line=False)
LINES = LabelScenario("minified-lines", minified=True, whole_line=True)
TWIN_LINES = LabelScenario("minified-twin-lines", minified=False, whole_line=True)
# (minified scenario, its pretty-printed twin, how the edits are sent)
PAIRS = [("minified", TWIN.NAME, "the character typed"), (LINES.NAME, TWIN_LINES.NAME, "its line")]


# ---- what bench/run.py asks of a scenario run after the edit cycle
_SELF = LabelScenario(NAME, minified=True, whole_line=False)
sizes, load, rounds, plan, think = _SELF.sizes, _SELF.load, _SELF.rounds, _SELF.plan, _SELF.think


def same_findings(samples: list[Sample], size: int, scenario: str, twin: str) -> tuple[int, int]:
    """(steps whose published findings equal the twin's same step, steps compared), round by
    round, the open included."""
    mine = {
        (s.round, s.step): s.content
        for s in samples
        if s.scenario == scenario and s.size == size and s.content
    }
    other = {
        (s.round, s.step): s.content
        for s in samples
        if s.scenario == twin and s.size == size and s.content
    }
    common = sorted(set(mine) & set(other))
    return sum(mine[k] == other[k] for k in common), len(common)


def ratio_p50(samples: list[Sample], size: int, scenario: str, twin: str) -> float | None:
    a = percentile(values(samples, SERVERS[0], size, "label", scenario), 0.5)
    b = percentile(values(samples, SERVERS[0], size, "label", twin), 0.5)
    return a / b if a is not None and b else None


def top_level_ratio_p50(samples: list[Sample], size: int) -> float | None:
    """Top-level edits in the minified document (scenarios/minified_header.py) against the
    label edits in the pretty-printed one, same run: what a one-line export's `name` costs."""
    a = percentile(values(samples, SERVERS[0], size, "top_level", "minified-header"), 0.5)
    b = percentile(values(samples, SERVERS[0], size, "label", TWIN.NAME), 0.5)
    return a / b if a is not None and b else None


def section(samples, infos: list[SessionInfo], servers: list[str]) -> list[str]:
    mini = [s for s in samples if s.scenario.startswith("minified")]
    if not mini:
        return []
    out = [
        "",
        "## Minified (one-line) documents, ms: p50 / p90 (n)",
        "",
        "The same document written on one line (as API exports are) and pretty-printed, the "
        "same label edits in both (same leaves, same characters), sent as the character typed "
        "and as the whole line it was typed on (a line-diffing client; on one line, the whole "
        "document). Findings: each step's published diagnostics, positions left out, equal to "
        "the pretty-printed twin's same step. The top level's row: one character typed into the "
        "workflow's `name`, `id`, `description` or `metadata` of the one-line document, against "
        "the pretty-printed label edits.",
        "",
        "| server | nodes | edits sent as | minified | pretty-printed, same edits | minified / pretty (p50) | findings equal | didOpen, minified | failures |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    server = SERVERS[0]
    for size in sorted({s.size for s in mini}):
        for scenario, twin, sent_as in PAIRS:
            fails = failures(samples, server, size, scenario)
            for status, count in failures(samples, server, size, twin).items():
                fails[status] = fails.get(status, 0) + count
            equal, compared = same_findings(samples, size, scenario, twin)
            ratio = ratio_p50(samples, size, scenario, twin)
            out.append(
                f"| {server} | {fmt_size(size)} | {sent_as} | "
                f"{cell(values(samples, server, size, 'label', scenario))} | "
                f"{cell(values(samples, server, size, 'label', twin))} | "
                f"{f'{ratio:.2f}×' if ratio is not None else '–'} | "
                f"{equal}/{compared} steps | "
                f"{cell(values(samples, server, size, 'open', scenario))} | "
                f"{fmt_failures(fails)} |"
            )
        top_level = values(samples, server, size, "top_level", "minified-header")
        if top_level:
            ratio = top_level_ratio_p50(samples, size)
            out.append(
                f"| {server} | {fmt_size(size)} | the character, at the top level (`name`, "
                f"`id`, `description`, `metadata`) | {cell(top_level)} | "
                f"{cell(values(samples, server, size, 'label', TWIN.NAME))} (label edits) | "
                f"{f'{ratio:.2f}×' if ratio is not None else '–'} | – | – | "
                f"{fmt_failures(failures(samples, server, size, 'minified-header'))} |"
            )
        unnamed = values(samples, server, size, "label", "minified-unnamed")
        if unnamed:
            out.append(
                f"| {server} | {fmt_size(size)} | the character, named `.json` (judged by "
                f"content) | {cell(unnamed)} | – | – | – | – | "
                f"{fmt_failures(failures(samples, server, size, 'minified-unnamed'))} |"
            )
    return out
