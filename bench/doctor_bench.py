#!/usr/bin/env python3
"""The Doctor as FlowDrop's editor drives it (issue 37): `flowdrop-lsp doctor` started as a
process on a copy of the real site (tests/corpus/atelier-cms), asked over HTTP exactly as the
editor asks — the whole draft posted after every edit.

Measured, in one run, fresh process per round:
- a 10,000-node draft (bench/generate.py's workflow): its first diagnose, then the same draft
  with one node changed (a label typed) and with one node moved; the ratio one-node/first (the
  goal: at most 1/10);
- each of the real site's workflows (its JSON exports): first diagnose and after one node
  moved, against the editor's 800 ms debounce.

Every answer is checked: the 10k draft's planted CMP-9 collisions are reported, and a real
workflow's answer equals its first one after the move (ids stable).

    python bench/doctor_bench.py [--rounds 3] [--nodes 10000]
"""

from __future__ import annotations

import argparse
import copy
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import build_workflow
from harness.paths import REPO, make_log

log = make_log("doctor")
CORPUS = REPO / "tests" / "corpus" / "atelier-cms"


class Doctor:
    """One `flowdrop-lsp doctor` process on a site."""

    def __init__(self, site: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "flowdrop_lsp", "doctor", "--port", "0", str(site)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        self.url = first.strip().rsplit(" ", 1)[-1]
        if not self.url.startswith("http://"):
            raise RuntimeError(f"unexpected first line: {first!r}")

    def diagnose(self, workflow_id: str, draft: dict[str, Any]) -> tuple[float, list[Any]]:
        body = json.dumps(draft).encode()
        request = urllib.request.Request(
            f"{self.url}/workflow/{workflow_id}/diagnose",
            data=body,
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=300) as answer:
            payload = json.loads(answer.read())
        elapsed = time.perf_counter() - start
        assert payload["success"], payload
        return elapsed, payload["data"]["problems"]

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def big_round(site: Path, nodes: int) -> dict[str, float]:
    draft = build_workflow(nodes).doc
    draft.setdefault("id", "bench_big")
    doctor = Doctor(site)
    try:
        first, problems = doctor.diagnose("bench_big", draft)
        assert any(p["code"] == "CMP-9" for p in problems), "the planted collisions"
        typed = copy.deepcopy(draft)
        middle = typed["nodes"][len(typed["nodes"]) // 2]
        middle["data"]["label"] = str(middle["data"].get("label", "")) + " x"
        one_label, _ = doctor.diagnose("bench_big", typed)
        moved = copy.deepcopy(typed)
        moved["nodes"][7].setdefault("position", {"x": 0, "y": 0})["x"] = 12345
        one_move, after = doctor.diagnose("bench_big", moved)
        _, again = doctor.diagnose("bench_big", copy.deepcopy(moved))
        assert [p["id"] for p in after] == [p["id"] for p in again]
    finally:
        doctor.close()
    return {"first": first, "one label": one_label, "one move": one_move}


def site_round(site: Path) -> dict[str, tuple[float, float]]:
    doctor = Doctor(site)
    times: dict[str, tuple[float, float]] = {}
    try:
        for path in sorted((CORPUS / "json").glob("*.flowdrop.json")):
            draft = json.loads(path.read_text("utf-8"))
            workflow_id = draft.get("id") or path.name.split(".")[0]
            first, problems = doctor.diagnose(workflow_id, draft)
            moved = copy.deepcopy(draft)
            moved["nodes"][0].setdefault("position", {"x": 0, "y": 0})["x"] = 4242
            again, after = doctor.diagnose(workflow_id, moved)
            assert after == problems, workflow_id
            times[workflow_id] = (first, again)
    finally:
        doctor.close()
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--nodes", type=int, default=10_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        shutil.copytree(CORPUS / "config", site / "config")
        big: list[dict[str, float]] = []
        real: list[dict[str, tuple[float, float]]] = []
        for round_number in range(args.rounds):
            log(f"round {round_number + 1}/{args.rounds}")
            big.append(big_round(site, args.nodes))
            real.append(site_round(site))
    print(f"## The Doctor (`flowdrop-lsp doctor`, over HTTP), {args.rounds} rounds\n")
    print(f"{args.nodes:,}-node draft | median ms | ratio to the first diagnose")
    print("---|---|---")
    first = statistics.median(r["first"] for r in big)
    for key in ("first", "one label", "one move"):
        value = statistics.median(r[key] for r in big)
        print(f"| {key} | {value * 1000:.0f} | {value / first:.3f}")
    print("\nthe real site's workflows | median ms, first | median ms, after a node moved")
    print("---|---|---")
    for workflow_id in real[0]:
        a = statistics.median(r[workflow_id][0] for r in real)
        b = statistics.median(r[workflow_id][1] for r in real)
        print(f"| {workflow_id} | {a * 1000:.1f} | {b * 1000:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
