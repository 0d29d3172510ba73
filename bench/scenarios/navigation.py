"""The navigation scenario (bench/navigation_bench.py): textDocument/definition and references
on the main benchmark's generated workflow, timed against the pygls floor of the same run,
and its report.

One server process per round (`flowdrop-lsp serve`, stdio, bench/harness/client.py), the
synthetic workflow of bench/generate.py opened once. Then, interleaved:

- definition    from a random edge's `target` to its node,
- references    of a random edge's `source` (declaration included),
- after edit    a one-character label edit, then a definition: the first request of a new
                version (it would pay for any index built per version; ours is the graph's,
                kept up to date by the edit itself),
- floor         the bench floor server (bench/floor_server.py: pygls transport, no parsing)
                answering textDocument/definition (MethodNotFound): what any request costs.
"""

from __future__ import annotations

import random
import re
import statistics

import generate
from harness.client import LspClient, offset_to_position
from harness.paths import REPO
from harness.peers import floor_command, ours_beside_python
from harness.session import timed_request
from harness.stats import nearest_rank

URI = "file:///bench/navigation.flowdrop.json"
TARGET_MS = 10.0
_ENDPOINT = re.compile(r'"(source|target)": "([^"]+)"')


def endpoint_positions(text: str, kind: str, rng: random.Random, count: int) -> list[dict]:
    """Positions inside `count` random edge endpoints of `kind` ("source"/"target")."""
    found = [m for m in _ENDPOINT.finditer(text) if m.group(1) == kind]
    chosen = rng.sample(found, min(count, len(found)))
    return [offset_to_position(text, m.start(2) + len(m.group(2)) // 2) for m in chosen]


#: Generous: a request that is slow is measured, not given up on.
REQUEST_TIMEOUT = 120


async def measure_ours(text: str, requests: int, seed: int) -> dict[str, list[float]]:
    client = LspClient(ours_beside_python(), name="ours", cwd=str(REPO))
    await client.start()
    samples: dict[str, list[float]] = {"definition": [], "references": [], "after edit": []}
    try:
        await client.initialize(timeout=120)
        await client.open(URI, text, timeout=600)
        rng = random.Random(seed)
        targets = endpoint_positions(text, "target", rng, requests)
        sources = endpoint_positions(text, "source", rng, requests)
        document = {"uri": URI}
        # One untimed request first (imports and caches on the server's first request).
        await client.request(
            "textDocument/definition", {"textDocument": document, "position": targets[0]}
        )
        for target, source in zip(targets, sources, strict=False):
            elapsed, found = await timed_request(
                client,
                "textDocument/definition",
                {"textDocument": document, "position": target},
                timeout=REQUEST_TIMEOUT,
            )
            assert found, f"no definition at {target}"
            samples["definition"].append(elapsed)
            elapsed, found = await timed_request(
                client,
                "textDocument/references",
                {
                    "textDocument": document,
                    "position": source,
                    "context": {"includeDeclaration": True},
                },
                timeout=REQUEST_TIMEOUT,
            )
            assert found, f"no references at {source}"
            samples["references"].append(elapsed)
        # A label edit, then the first definition of the new version.
        for target in targets[: max(3, requests // 4)]:
            current = client.text(URI)
            label = current.index('"label": "') + len('"label": "')
            await client.change(URI, [(label, label, "x")], timeout=120)
            # The edit is on a node's line: the edges' positions (other lines) stay valid.
            elapsed, found = await timed_request(
                client,
                "textDocument/definition",
                {"textDocument": document, "position": target},
                timeout=REQUEST_TIMEOUT,
            )
            assert found, "no definition after an edit"
            samples["after edit"].append(elapsed)
    finally:
        await client.stop()
    return samples


async def measure_floor(requests: int) -> list[float]:
    client = LspClient(floor_command(), name="floor", cwd=str(REPO))
    await client.start()
    samples = []
    try:
        await client.initialize(timeout=60)
        params = {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}
        for _ in range(requests):
            # MethodNotFound is the expected answer: the floor has no definition.
            elapsed, _answer = await timed_request(
                client, "textDocument/definition", params, timeout=60, answer_errors=True
            )
            samples.append(elapsed)
    finally:
        await client.stop()
    return samples


async def run(nodes: int, rounds: int, requests: int, seed: int) -> dict:
    text = generate.generate_text(nodes, seed)
    ours: dict[str, list[float]] = {}
    floor: list[float] = []
    for number in range(rounds):
        # Alternate which server goes first, so that neither always meets a warmer machine.
        if number % 2:
            floor += await measure_floor(requests)
        for kind, values in (await measure_ours(text, requests, seed + number)).items():
            ours.setdefault(kind, []).extend(values)
        if not number % 2:
            floor += await measure_floor(requests)
    floor_p50 = statistics.median(floor)
    rows = {
        kind: {
            "n": len(values),
            "p50_ms": statistics.median(values),
            "p90_ms": nearest_rank(values, 0.9),
            "ratio_to_floor": statistics.median(values) / floor_p50,
        }
        for kind, values in {**ours, "floor": floor}.items()
    }
    return {"nodes": nodes, "bytes": len(text.encode()), "rounds": rounds, "rows": rows}


def report(result: dict) -> str:
    lines = [
        f"Navigation at {result['nodes']} nodes ({result['bytes'] / 1e6:.1f} MB), "
        f"{result['rounds']} rounds; p50 target ≤ {TARGET_MS:.0f} ms for definition and references",
        "",
        "| request | n | p50 ms | p90 ms | p50 / floor p50 |",
        "|---|---|---|---|---|",
    ]
    for kind, row in result["rows"].items():
        lines.append(
            f"| {kind} | {row['n']} | {row['p50_ms']:.2f} | {row['p90_ms']:.2f} "
            f"| {row['ratio_to_floor']:.1f} |"
        )
    verdict = all(result["rows"][k]["p50_ms"] <= TARGET_MS for k in ("definition", "references"))
    lines += ["", f"target met: {'yes' if verdict else 'NO'}"]
    return "\n".join(lines)
