#!/usr/bin/env python3
"""Navigation benchmark (part of `make bench`): textDocument/definition and references at 10k
nodes, against a floor measured in the same run.

One server process per round (`flowdrop-lsp serve`, stdio, bench/lsp_driver.py's client), the
synthetic workflow of bench/generate.py opened once. Then, interleaved:

- definition    from a random edge's `target` to its node,
- references    of a random edge's `source` (declaration included),
- after edit    a one-character label edit, then a definition: the first request of a new
                version (it would pay for any index built per version; ours is the graph's,
                kept up to date by the edit itself),
- floor         the bench floor server (bench/floor_server.py: pygls transport, no parsing)
                answering textDocument/definition (MethodNotFound): what any request costs.

Targets (docs/performance.md): definition and references p50 ≤ 10 ms at 10k nodes. Ratios are
against the floor of the same run (machines differ; a shared machine's absolute times are noisy).

    python bench/navigation_bench.py                    # 10k nodes, 3 rounds × 40 requests
    python bench/navigation_bench.py --nodes 1000 --rounds 1 --requests 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))

import generate  # noqa: E402
from lsp_driver import LspClient, LspError, offset_to_position  # noqa: E402

URI = "file:///bench/navigation.flowdrop.json"
TARGET_MS = 10.0
_ENDPOINT = re.compile(r'"(source|target)": "([^"]+)"')


def server_command() -> list[str]:
    installed = shutil.which("flowdrop-lsp", path=str(Path(sys.executable).parent))
    return [installed, "serve"] if installed else [sys.executable, "-m", "flowdrop_lsp", "serve"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def endpoint_positions(text: str, kind: str, rng: random.Random, count: int) -> list[dict]:
    """Positions inside `count` random edge endpoints of `kind` ("source"/"target")."""
    found = [m for m in _ENDPOINT.finditer(text) if m.group(1) == kind]
    chosen = rng.sample(found, min(count, len(found)))
    return [offset_to_position(text, m.start(2) + len(m.group(2)) // 2) for m in chosen]


async def timed(client: LspClient, method: str, params: dict) -> tuple[float, object]:
    start = time.perf_counter()
    result = await client.request(method, params, timeout=120)
    return (time.perf_counter() - start) * 1000, result


async def measure_ours(text: str, requests: int, seed: int) -> dict[str, list[float]]:
    client = LspClient(server_command(), name="ours", cwd=str(REPO))
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
            elapsed, found = await timed(
                client, "textDocument/definition", {"textDocument": document, "position": target}
            )
            assert found, f"no definition at {target}"
            samples["definition"].append(elapsed)
            elapsed, found = await timed(
                client,
                "textDocument/references",
                {
                    "textDocument": document,
                    "position": source,
                    "context": {"includeDeclaration": True},
                },
            )
            assert found, f"no references at {source}"
            samples["references"].append(elapsed)
        # A label edit, then the first definition of the new version.
        for target in targets[: max(3, requests // 4)]:
            current = client.text(URI)
            label = current.index('"label": "') + len('"label": "')
            await client.change(URI, [(label, label, "x")], timeout=120)
            # The edit is on a node's line: the edges' positions (other lines) stay valid.
            elapsed, found = await timed(
                client, "textDocument/definition", {"textDocument": document, "position": target}
            )
            assert found, "no definition after an edit"
            samples["after edit"].append(elapsed)
    finally:
        await client.stop()
    return samples


async def measure_floor(requests: int) -> list[float]:
    client = LspClient(
        [sys.executable, str(BENCH_DIR / "floor_server.py")], name="floor", cwd=str(REPO)
    )
    await client.start()
    samples = []
    try:
        await client.initialize(timeout=60)
        params = {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}
        for _ in range(requests):
            start = time.perf_counter()
            with contextlib.suppress(LspError):  # MethodNotFound is the expected answer
                await client.request("textDocument/definition", params, timeout=60)
            samples.append((time.perf_counter() - start) * 1000)
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
            "p90_ms": percentile(values, 0.9),
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--seed", type=int, default=generate.DEFAULT_SEED)
    parser.add_argument("--json", help="also write the results as JSON to this file")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args.nodes, args.rounds, args.requests, args.seed))
    print(report(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
