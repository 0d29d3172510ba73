"""DATA-10 on a long cycle (a chain of toolboxes closed on itself): named by its ends, as
CMP-5 names a long execution cycle, with at most 20 related locations."""

from __future__ import annotations

import json

from flowdrop_lsp.core.analysis import analyze
from tests.support.builders import node, tool_edge

TOOLBOX = "flowdrop_node_processor_toolbox"


def test_a_cycle_of_a_thousand_toolboxes_is_named_by_its_ends() -> None:
    count = 1000
    nodes = [node(f"b{k}", TOOLBOX, label=f"Box {k}") for k in range(count)]
    edges = [tool_edge(f"b{k}", f"b{(k + 1) % count}") for k in range(count)]
    [finding] = [
        f
        for f in analyze(json.dumps({"nodes": nodes, "edges": edges})).findings
        if f.code == "DATA-10"
    ]
    assert finding.message == (
        'toolboxes forward tools in a cycle: "Box 0" (b0) → "Box 1" (b1) → "Box 2" (b2) → '
        '"Box 3" (b3) → … 995 more … → "Box 999" (b999) → "Box 0" (b0)'
    )
    assert len(finding.related) == 20


def test_a_short_cycle_is_named_whole() -> None:
    nodes = [node(f"b{k}", TOOLBOX, label=f"Box {k}") for k in range(3)]
    edges = [tool_edge(f"b{k}", f"b{(k + 1) % 3}") for k in range(3)]
    [finding] = [
        f
        for f in analyze(json.dumps({"nodes": nodes, "edges": edges})).findings
        if f.code == "DATA-10"
    ]
    assert finding.message.endswith('"Box 2" (b2) → "Box 0" (b0)')
    assert len(finding.related) == 2
