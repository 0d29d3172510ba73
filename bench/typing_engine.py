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

`--template` types inside a 200-line Twig prompt template instead (issue 27: its expression
is parsed again on every keystroke), and in the same run the same characters into a label: the
ratio of the two medians is what the issue asks to stay near 1.

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

import generate
import generate_yaml
from harness.engine import WorkflowDocument

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


# What is typed inside a template: prose (most of a prompt), and a Twig print (every prefix of
# it is typed: `{`, `{{`, `{{ l`… leave the template broken until its `}}`).
TYPED_PROSE = " and then a few more words of plain instructions"
TYPED_PRINT = " {{ live_state|default('none') }}"


def prompt_template(lines: int) -> str:
    """A prompt template like a real site's: prose with prints and guarded sections."""
    out = []
    for i in range(lines):
        if i % 20 == 0:
            out.append(f"{{% if section_{i} is defined and section_{i} %}}")
        elif i % 20 == 19:
            out.append("{% endif %}")
        elif i % 7 == 0:
            out.append(f"Context {i}: {{{{ context_{i}|default('') }}}} — use it wisely.")
        else:
            out.append(f"Line {i} of the instructions: call the tools one at a time, never guess.")
    return "\n".join(out)


def with_template(nodes: int, yaml: bool, lines: int) -> str:
    """The generated workflow with a prompt template node of `lines` lines in the middle."""
    import json

    import yaml as pyyaml

    text = generate_yaml.build(nodes).text if yaml else generate.generate_text(nodes)
    data = pyyaml.safe_load(text) if yaml else json.loads(text)
    template_node = {
        "id": "prompt_template.1",
        "type": "prompt_template",
        "data": {"label": "Prompt", "config": {"template": prompt_template(lines)}},
    }
    data["nodes"].insert(nodes // 2, template_node)
    if not yaml:
        return json.dumps(data, indent=2, ensure_ascii=False)

    class Block(str):
        pass

    def block(dumper: pyyaml.SafeDumper, value: Block) -> pyyaml.ScalarNode:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")

    pyyaml.SafeDumper.add_representer(Block, block)
    template_node["data"]["config"]["template"] = Block(prompt_template(lines))  # type: ignore[index]
    return pyyaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def type_at(document: WorkflowDocument, at: int, typed: str) -> list[float]:
    times = []
    for char in typed:
        started = time.perf_counter()
        document.apply_edit(at, at, char)
        document.findings()
        times.append(time.perf_counter() - started)
        at += 1
    assert document.incremental_failures == [], document.incremental_failures
    return times


def run_template(nodes: int, yaml: bool, lines: int = 200) -> dict[str, float]:
    """Typing prose, then a Twig print, inside the template's line 101, and the same prose
    into the label of the node after it: each in a fresh document, per keystroke p50 each."""
    syntax = "yaml" if yaml else "json"
    text = with_template(nodes, yaml, lines)
    line = "Line 101 of the instructions"
    results: dict[str, float] = {"nodes": nodes}
    for name, typed in (("prose", TYPED_PROSE), ("print", TYPED_PRINT)):
        inside = WorkflowDocument(text, syntax=syntax)
        inside.findings()
        times = type_at(inside, text.index(line) + len(line), typed)
        results[f"{name}_p50_ms"] = statistics.median(times) * 1000
        results[f"{name}_p90_ms"] = statistics.quantiles(times, n=10)[8] * 1000
    labelled = WorkflowDocument(text, syntax=syntax)
    labelled.findings()
    label_key = "label: " if yaml else '"label": "'
    at = text.index(label_key, text.index("prompt_template.1") + 200) + len(label_key) + 2
    results["label_p50_ms"] = statistics.median(type_at(labelled, at, TYPED_PROSE)) * 1000
    results["prose_ratio"] = results["prose_p50_ms"] / results["label_p50_ms"]
    results["print_ratio"] = results["print_p50_ms"] / results["label_p50_ms"]
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, action="append")
    parser.add_argument("--check", action="store_true", help="compare with from-scratch reads")
    parser.add_argument("--yaml", action="store_true", help="a Drupal config YAML workflow")
    parser.add_argument(
        "--template", action="store_true", help="type inside a 200-line prompt template"
    )
    args = parser.parse_args()
    if args.template:
        for nodes in args.nodes or [1000, 10000]:
            r = run_template(nodes, args.yaml)
            print(
                f"{'yaml' if args.yaml else 'json'} {r['nodes']:>6} nodes, per keystroke p50: "
                f"a label {r['label_p50_ms']:.2f} ms; inside a 200-line template, prose "
                f"{r['prose_p50_ms']:.2f} ms ({r['prose_ratio']:.2f}x), a Twig print "
                f"{r['print_p50_ms']:.2f} ms ({r['print_ratio']:.2f}x; p90 "
                f"{r['print_p90_ms']:.2f} ms)",
                flush=True,
            )
        return 0
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
