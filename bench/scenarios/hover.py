"""The hover scenario (bench/hover_bench.py): hover, inlay hints and code lenses of ours on
the main benchmark's generated workflow, the same hover sent to the pygls floor, the check
that the answers are real, and its report.

- ours: `flowdrop-lsp serve`, the document opened once, then — interleaved, in a shuffled
  order every round — `textDocument/hover` on a tool's label (a planted CMP-9 collision three
  toolbox hops from its agent), on that agent's label (its whole flattened set as a table), on
  a toolbox's label, `textDocument/inlayHint` for a 60-line visible range in the middle of
  `nodes`, and `textDocument/codeLens` (one lens per agent: 2,000 at 10k nodes); plus a hover
  where there is nothing (the document's first character): the cost of a request that finds
  nothing, with our server's own lookup.
- floor: bench/floor_server.py (pygls transport only, no hover feature), sent the same hover
  requests: its "method not found" answer is the round trip of one request through pygls.
"""

from __future__ import annotations

import random
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import generate
from harness.client import LspClient, offset_to_position
from harness.peers import floor_command, ours_module
from harness.session import timed_request
from harness.stats import nearest_rank

TARGET_P50_MS = 10.0
KINDS = [
    "hover tool",
    "hover consumer",
    "hover toolbox",
    "inlay hints (60 lines)",
    "code lens (every agent)",
    "hover nothing",
]
VISIBLE_LINES = 60

#: What an editor says about hover and inlay hints (beside the client's own capabilities).
EDITOR_CAPABILITIES = {"hover": {"contentFormat": ["markdown", "plaintext"]}, "inlayHint": {}}


@dataclass
class Requests:
    """The requests of one run: kind → (method, params)."""

    uri: str
    by_kind: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)


def _label_offset(text: str, node_id: str) -> int:
    """A code-point offset inside the label string of node `node_id` (found by text search,
    independently of the server)."""
    at = text.index(f'"id": "{node_id}"')
    return text.index('"label": "', at) + len('"label": "') + 2


def plan_requests(workflow: generate.Workflow, text: str, uri: str) -> Requests:
    tool, _direct, agent = workflow.collisions[0]
    # The toolbox the planted tool is wired into (the deepest of its chain).
    box = next(e["target"] for e in workflow.doc["edges"] if e["source"] == tool)
    requests = Requests(uri)
    doc = {"uri": uri}
    for kind, node_id in (("hover tool", tool), ("hover consumer", agent), ("hover toolbox", box)):
        position = offset_to_position(text, _label_offset(text, node_id))
        requests.by_kind[kind] = (
            "textDocument/hover",
            {"textDocument": doc, "position": position},
        )
    requests.by_kind["hover nothing"] = (
        "textDocument/hover",
        {"textDocument": doc, "position": {"line": 0, "character": 0}},
    )
    middle = offset_to_position(text, text.index('"nodes"') + len(text) // 4)["line"]
    requests.by_kind["inlay hints (60 lines)"] = (
        "textDocument/inlayHint",
        {
            "textDocument": doc,
            "range": {
                "start": {"line": middle, "character": 0},
                "end": {"line": middle + VISIBLE_LINES, "character": 0},
            },
        },
    )
    requests.by_kind["code lens (every agent)"] = ("textDocument/codeLens", {"textDocument": doc})
    return requests


async def timed(client: LspClient, method: str, params: dict[str, Any]) -> tuple[float, Any]:
    """Milliseconds from writing the request to reading its answer, and the answer (an error
    answer counts: the floor server has no hover)."""
    return await timed_request(client, method, params, timeout=60, answer_errors=True)


def check_answers(answers: dict[str, Any]) -> list[str]:
    """What is wrong with our server's answers (they must be real hovers and hints)."""
    problems = []
    for kind in ("hover tool", "hover consumer", "hover toolbox"):
        answer = answers.get(kind)
        value = (
            (answer or {}).get("contents", {}).get("value", "") if isinstance(answer, dict) else ""
        )
        if not value:
            problems.append(f"{kind}: no hover ({answer!r})")
    if "collides" not in str(answers.get("hover tool")):
        problems.append("hover tool: the planted collision is not shown")
    if not answers.get("inlay hints (60 lines)"):
        problems.append("inlay hints: none in the visible range")
    if not answers.get("code lens (every agent)"):
        problems.append("code lens: none")
    if answers.get("hover nothing") is not None:
        problems.append("hover nothing: answered something")
    return problems


async def run(nodes: int, rounds: int, seed: int) -> dict[str, Any]:
    workflow = generate.build_workflow(nodes, seed)
    text = generate.render(workflow.doc)
    results: dict[str, Any] = {"nodes": nodes, "bytes": len(text.encode()), "rounds": rounds}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"synthetic-{nodes}.flowdrop.json"
        path.write_text(text, encoding="utf-8")  # the servers never read it: the buffer is sent
        uri = path.as_uri()
        requests = plan_requests(workflow, text, uri)
        servers = {"ours": ours_module(), "floor": floor_command()}
        samples: dict[str, dict[str, list[float]]] = {}
        for name, command in servers.items():
            client = LspClient(
                command, name=name, cwd=folder, extra_capabilities=EDITOR_CAPABILITIES
            )
            await client.start()
            try:
                await client.initialize(root=folder)
                opened = await client.open(uri, text, timeout=300)
                results[f"{name} didOpen ms"] = round(opened.elapsed * 1000, 1)
                kinds = KINDS if name == "ours" else ["hover tool"]
                answers = {}
                for kind in kinds:  # one warm-up each, kept to check the answers
                    _ms, answers[kind] = await timed(client, *requests.by_kind[kind])
                if name == "ours":
                    results["problems"] = check_answers(answers)
                rng = random.Random(seed)
                per_kind: dict[str, list[float]] = {kind: [] for kind in kinds}
                for _ in range(rounds):
                    order = list(kinds)
                    rng.shuffle(order)
                    for kind in order:
                        ms, _answer = await timed(client, *requests.by_kind[kind])
                        per_kind[kind].append(ms)
                samples[name] = per_kind
            finally:
                await client.stop()
    results["samples"] = samples
    return results


def report(results: dict[str, Any]) -> str:
    floor = statistics.median(results["samples"]["floor"]["hover tool"])
    lines = [
        f"### Hover and inlay hints at {results['nodes']:,} nodes "
        f"({results['bytes'] / 1e6:.1f} MB), {results['rounds']} rounds",
        "",
        f"floor (pygls round trip, request not handled): p50 {floor:.2f} ms",
        "",
        "| request | p50 ms | p90 ms | max ms | p50 / floor | target p50 ≤ 10 ms |",
        "|---|---|---|---|---|---|",
    ]
    for kind, values in results["samples"]["ours"].items():
        p50 = statistics.median(values)
        verdict = "met" if p50 <= TARGET_P50_MS else "MISSED"
        lines.append(
            f"| {kind} | {p50:.2f} | {nearest_rank(values, 0.9):.2f} | {max(values):.2f} "
            f"| {p50 / floor:.1f} | {verdict if kind.startswith('hover') else '-'} |"
        )
    problems = results.get("problems") or []
    lines += ["", "Answers checked: " + ("; ".join(problems) if problems else "all real (ok)")]
    return "\n".join(lines)
