#!/usr/bin/env python3
"""Typing a new node into a large document, keystroke by keystroke, in-process (issue 10 §1).

The issue's scenario without a server: a new line is opened in the middle of `nodes`, then the
80 characters of one tool node (`{"id": …, "type": …, "data": {"label": …}},`) are typed one at
a time; after each keystroke `WorkflowDocument.apply_edit` + `findings()` (what the server does
before it publishes). Most of these keystrokes leave the document broken JSON. Prints p50/p90/max
per size, and how many keystrokes took a whole re-read.

    python bench/typing_engine.py                 # 1k and 10k nodes
    python bench/typing_engine.py --nodes 1000 --check

`--check` also compares the findings after every keystroke with a from-scratch analysis (slow:
one whole read per keystroke). Timings on a shared machine are noisy: compare runs made on the
same machine at the same time, and prefer the ratio to the whole-read time printed alongside.

`--yaml` does the same in a Drupal config YAML workflow (bench/generate_yaml.py): Enter at the
end of the middle node item, then a new node item typed one character at a time (its `-` line,
its keys, a quoted label), each keystroke followed by `findings()`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate  # noqa: E402
import generate_yaml  # noqa: E402
from harness.engine import WorkflowDocument  # noqa: E402

# 80 keystrokes, as in the issue.
TYPED = '{"id": "typed_tool.1", "type": "calculator", "data": {"label": "Typed Tool 8"}},'
assert len(TYPED) == 80, len(TYPED)
# The same node as Drupal writes it, after Enter at the end of the item before it.
TYPED_YAML = (
    "\n  -\n    id: typed_tool.1\n    data:\n      label: 'Typed Tool 8'\n"
    "      metadata:\n        node_type_id: calculator"
)


def comparable(document: WorkflowDocument) -> list[tuple[object, ...]]:
    return [(f.code, f.message, f.span.start, f.span.end) for f in document.findings()]


def run(nodes: int, check: bool, yaml: bool = False) -> dict[str, float]:
    syntax = "yaml" if yaml else "json"
    text = generate_yaml.build(nodes).text if yaml else generate.generate_text(nodes)
    started = time.perf_counter()
    document = WorkflowDocument(text, syntax=syntax)
    document.findings()
    whole_read = time.perf_counter() - started
    middle = document.lists["nodes"].end(nodes // 2)
    if yaml:  # at the end of the middle node item's last line
        assert text[middle] == "\n", repr(text[middle - 20 : middle + 5])
        at, typed = middle, TYPED_YAML
    else:  # a new line after the `},` that ends the middle node
        assert text[middle] == ","
        at = middle + 1
        opening = "\n    "
        document.apply_edit(at, at, opening)
        document.findings()
        at += len(opening)
        typed = TYPED
    times: list[float] = []
    full_rereads = 0
    for char in typed:
        started = time.perf_counter()
        document.apply_edit(at, at, char)
        document.findings()
        times.append(time.perf_counter() - started)
        full_rereads += document.stats.full_reread
        at += 1
        if check:
            expected = comparable(WorkflowDocument(document.text, syntax=syntax))
            assert comparable(document) == expected, (at, document.text[at - 80 : at])
    assert document.incremental_failures == [], document.incremental_failures
    deciles = statistics.quantiles(times, n=10)
    return {
        "nodes": nodes,
        "keystrokes": len(typed),
        "whole_read_ms": whole_read * 1000,
        "p50_ms": statistics.median(times) * 1000,
        "p90_ms": deciles[8] * 1000,
        "max_ms": max(times) * 1000,
        "full_rereads": full_rereads,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, action="append")
    parser.add_argument("--check", action="store_true", help="compare with from-scratch reads")
    parser.add_argument("--yaml", action="store_true", help="a Drupal config YAML workflow")
    args = parser.parse_args()
    for nodes in args.nodes or [1000, 10000]:
        result = run(nodes, args.check, args.yaml)
        print(
            f"{'yaml' if args.yaml else 'json'} "
            f"{result['nodes']:>6} nodes: whole read {result['whole_read_ms']:.0f} ms; "
            f"per keystroke p50 {result['p50_ms']:.1f} ms, p90 {result['p90_ms']:.1f} ms, "
            f"max {result['max_ms']:.1f} ms; "
            f"{result['full_rereads']}/{result['keystrokes']} whole re-reads",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
