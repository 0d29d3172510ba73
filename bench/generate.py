#!/usr/bin/env python3
"""Deterministic generator of synthetic FlowDrop workflow documents for benchmarks.

Shape: editor-export / Drupal JSON (see docs/domain.md §5):

    node  {"id": "http_request.17", "type": "universalNode", "position": {...},
           "data": {"label": ..., "config": {...}, "metadata": {"node_type_id": ...}}}
    edge  {"id", "source", "target", "sourceHandle": "<src>-output-tool",
           "targetHandle": "<tgt>-input-tool", "data": {"metadata": {"edgeType": "tool"}}}

Mix: ≈70 % leaf tools, 10 % toolboxes (chains up to 3 hops), 20 % agents; some
data edges (``-output-message`` → ``-input-message``) between agents; some labels
with CJK / emoji / accents; a few genuine CMP-9 collisions ("Web Search cK" and
"web-search cK" reaching the same agent, one of them through a toolbox chain).
Pretty-printed with indent 2, ≈780 bytes per node (like shared docs/performance.md).

CLI:  python bench/generate.py --nodes 10000 --out FILE [--seed 20240601]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: Bump when the output changes, so cached documents are regenerated.
GENERATOR_VERSION = 2
DEFAULT_SEED = 20240601

AGENT_TYPE = "flowdrop_node_processor_reason"
TOOLBOX_TYPE = "flowdrop_node_processor_toolbox"

# (label template, node type). The ASCII part of each template sanitizes to a
# distinct prefix and every label carries the node's unique index, so labels never
# collide by accident; only the planted collisions below do.
LEAF_TEMPLATES: list[tuple[str, str]] = [
    ("Fetch Page {i}", "http_request"),
    ("Get User (Admin) {i}", "http_request"),
    ("天気予報 Weather {i}", "http_request"),
    ("🔎 Lookup {i}", "http_request"),
    ("Calculator {i}", "calculator"),
    ("Ωmega Calc {i}", "calculator"),
    ("HTML to Markdown {i}", "html_to_markdown"),
    ("Résumé Parser {i}", "html_to_markdown"),
    ("数据 Export {i} 📦", "html_to_markdown"),
    ("Summarize Text {i}", "text_summarizer"),
]
AGENT_TEMPLATES = [
    "Research Agent {i}",
    "研究エージェント {i}",
    "Support Bot {i} 🤖",
    "Planner {i}",
]
TOOLBOX_TEMPLATES = ["Tool Box {i}", "Web Tools {i}", "ツール箱 {i}"]

LEAF_TYPES = sorted({t for _, t in LEAF_TEMPLATES})

MODELS = ["gpt-4o-mini", "claude-3-5-sonnet", "llama-3.1-70b", "mistral-large"]


@dataclass
class Workflow:
    """The document plus the role lists the benchmark needs (no re-parsing)."""

    doc: dict
    agents: list[str] = field(default_factory=list)
    toolboxes: list[str] = field(default_factory=list)
    leaves: list[str] = field(default_factory=list)
    collisions: list[tuple[str, str, str]] = field(default_factory=list)  # (leaf, leaf, agent)
    schema_error_edge: str = ""  # id of the data edge whose target is "" (the planted error)


def _leaf_config(ntype: str, i: int, rng: random.Random) -> dict:
    if ntype == "http_request":
        return {
            "url": f"https://api.example.com/v1/resources/{i}",
            "method": rng.choice(["GET", "POST"]),
            "format": "json",
            "timeout": rng.choice([10, 30, 60]),
            "tool_exposed": True,
        }
    if ntype == "calculator":
        return {
            "expression": f"(a * {i}) + b / {rng.randint(2, 99)}",
            "precision": rng.randint(2, 8),
            "tool_exposed": True,
        }
    if ntype == "html_to_markdown":
        return {
            "strip_images": rng.random() < 0.5,
            "heading_style": rng.choice(["atx", "setext"]),
            "tool_exposed": True,
        }
    return {
        "max_sentences": rng.randint(2, 9),
        "style": rng.choice(["bullet", "paragraph"]),
        "description": "Summarizes text.",
        "tool_exposed": True,
    }


def _node(node_id: str, ntype: str, label: str, config: dict, x: int, y: int) -> dict:
    return {
        "id": node_id,
        "type": "universalNode",
        "position": {"x": x, "y": y},
        "data": {"label": label, "config": config, "metadata": {"node_type_id": ntype}},
    }


def tool_edge(edge_id: str, source: str, target: str) -> dict:
    return {
        "id": edge_id,
        "source": source,
        "target": target,
        "sourceHandle": f"{source}-output-tool",
        "targetHandle": f"{target}-input-tool",
        "data": {"metadata": {"edgeType": "tool"}},
    }


def data_edge(edge_id: str, source: str, target: str) -> dict:
    return {
        "id": edge_id,
        "source": source,
        "target": target,
        "sourceHandle": f"{source}-output-message",
        "targetHandle": f"{target}-input-message",
        "data": {"metadata": {"edgeType": "data"}},
    }


def build_workflow(n_nodes: int, seed: int = DEFAULT_SEED) -> Workflow:
    if n_nodes < 20:
        raise ValueError("need at least 20 nodes")
    rng = random.Random(seed * 1_000_003 + n_nodes)
    n_agents = round(n_nodes * 0.2)
    n_toolboxes = round(n_nodes * 0.1)
    n_leaves = n_nodes - n_agents - n_toolboxes

    counters: dict[str, int] = {}

    def new_id(ntype: str) -> str:
        counters[ntype] = counters.get(ntype, 0) + 1
        return f"{ntype}.{counters[ntype]}"

    wf = Workflow(doc={})
    nodes: list[dict] = []
    edges: list[dict] = []
    edge_no = 0

    def add_edge(factory, source: str, target: str) -> None:
        nonlocal edge_no
        edge_no += 1
        edges.append(factory(f"e{edge_no}", source, target))

    # Agents.
    for _ in range(n_agents):
        i = len(nodes) + 1
        nid = new_id(AGENT_TYPE)
        label = rng.choice(AGENT_TEMPLATES).format(i=i)
        config = {
            "model": rng.choice(MODELS),
            "temperature": round(rng.random(), 2),
            "max_tokens": rng.choice([512, 1024, 2048]),
            "systemPrompt": f"You are agent {i}. Use your tools.",
            "parameters": {"tool": {"connectable": True}},
        }
        nodes.append(_node(nid, AGENT_TYPE, label, config, 1200, 150 * len(wf.agents)))
        wf.agents.append(nid)

    # Toolboxes: depth 1 feeds agents, depth 2 feeds a depth-1 toolbox, depth 3 a
    # depth-2 toolbox: a leaf behind a depth-3 toolbox is 3 toolbox hops from its agent.
    depth_of: dict[str, int] = {}
    consumers_of_toolbox: dict[str, list[str]] = {}  # toolbox -> agents reached
    by_depth: dict[int, list[str]] = {1: [], 2: [], 3: []}
    for k in range(n_toolboxes):
        i = len(nodes) + 1
        nid = new_id(TOOLBOX_TYPE)
        frac = k / max(1, n_toolboxes)
        depth = 1 if frac < 0.5 or not by_depth[1] else (2 if frac < 0.8 or not by_depth[2] else 3)
        label = rng.choice(TOOLBOX_TEMPLATES).format(i=i)
        config = {"description": f"Bundle of tools number {i}, shared by several agents."}
        nodes.append(_node(nid, TOOLBOX_TYPE, label, config, 900 - 300 * (depth - 1), 150 * k))
        depth_of[nid] = depth
        by_depth[depth].append(nid)
        if depth == 1:
            targets = rng.sample(wf.agents, 2 if rng.random() < 0.2 else 1)
            for t in targets:
                add_edge(tool_edge, nid, t)
            consumers_of_toolbox[nid] = targets
        else:
            parent = rng.choice(by_depth[depth - 1])
            add_edge(tool_edge, nid, parent)
            consumers_of_toolbox[nid] = list(consumers_of_toolbox[parent])
        wf.toolboxes.append(nid)

    # Leaves: 60 % into a toolbox, 40 % straight to an agent; 5 % have a second target.
    leaf_label: dict[str, str] = {}
    leaf_targets: dict[str, list[str]] = {}
    for k in range(n_leaves):
        i = len(nodes) + 1
        template, ntype = LEAF_TEMPLATES[rng.randrange(len(LEAF_TEMPLATES))]
        nid = new_id(ntype)
        label = template.format(i=i)
        nodes.append(_node(nid, ntype, label, _leaf_config(ntype, i, rng), 0, 150 * k))
        n_targets = 2 if rng.random() < 0.05 else 1
        targets: list[str] = []
        while len(targets) < n_targets:
            t = rng.choice(wf.toolboxes) if rng.random() < 0.6 else rng.choice(wf.agents)
            if t not in targets:
                targets.append(t)
        for t in targets:
            add_edge(tool_edge, nid, t)
        wf.leaves.append(nid)
        leaf_label[nid] = label
        leaf_targets[nid] = targets

    # Data edges between agents (≈ one per two agents).
    for _ in range(n_agents // 2):
        a, b = rng.sample(wf.agents, 2)
        add_edge(data_edge, a, b)

    # Planted CMP-9 collisions: relabel a leaf wired into a deep toolbox chain and a
    # leaf wired straight to an agent that chain reaches.
    node_by_id = {n["id"]: n for n in nodes}
    n_collisions = 2 + n_nodes // 2000
    deep_boxes = by_depth[3] or by_depth[2] or by_depth[1]
    used: set[str] = set()
    behind_box: dict[str, list[str]] = {}
    direct_to_agent: dict[str, list[str]] = {}
    for leaf, targets in leaf_targets.items():
        if len(targets) != 1:
            continue
        t = targets[0]
        (behind_box if t in depth_of else direct_to_agent).setdefault(t, []).append(leaf)
    boxes = [b for b in deep_boxes if behind_box.get(b)]
    rng.shuffle(boxes)
    c = 0
    for box in boxes:
        if c >= n_collisions:
            break
        agent = consumers_of_toolbox[box][0]
        directs = [x for x in direct_to_agent.get(agent, []) if x not in used]
        deeps = [x for x in behind_box[box] if x not in used]
        if not directs or not deeps:
            continue
        c += 1
        a, b = deeps[0], directs[0]
        used.update((a, b))
        node_by_id[a]["data"]["label"] = f"Web Search c{c}"
        node_by_id[b]["data"]["label"] = f"web-search c{c}"
        wf.collisions.append((a, b, agent))

    # The one planted schema error (bench/generate_yaml.py plants the same one in YAML).
    bad = next(e for e in edges if e["data"]["metadata"]["edgeType"] == "data")
    bad["target"] = ""
    wf.schema_error_edge = bad["id"]

    wf.doc = {
        "id": f"synthetic_{n_nodes}",
        "name": f"Synthetic workflow, {n_nodes} nodes",
        "description": "Generated by bench/generate.py for the flowdrop-lsp benchmark.",
        "nodes": nodes,
        "edges": edges,
        "metadata": {
            "version": "1.0.0",
            "generator": f"bench/generate.py v{GENERATOR_VERSION}",
            "seed": seed,
        },
    }
    return wf


def render(doc: dict) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def render_minified(doc: dict) -> str:
    """The document on one line, as API exports write it."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"


def schema_error_offset(text: str, edge_id: str) -> int:
    """Code-point offset of the planted empty `target` value in a rendered document
    (pretty-printed or minified)."""
    for id_member, target in (('"id": ', '"target": ""'), ('"id":', '"target":""')):
        at = text.find(id_member + json.dumps(edge_id, ensure_ascii=False) + ",")
        if at != -1:
            return text.index(target, at) + len(target) - 2
    raise ValueError(f"edge {edge_id} not found")


def generate_text(n_nodes: int, seed: int = DEFAULT_SEED) -> str:
    return render(build_workflow(n_nodes, seed).doc)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--nodes", type=int, required=True)
    ap.add_argument("--out", required=True, help="output file ('-' for stdout)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = ap.parse_args(argv)
    wf = build_workflow(args.nodes, args.seed)
    text = render(wf.doc)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        size = len(text.encode("utf-8"))
        print(
            f"{args.out}: {args.nodes} nodes, {len(wf.doc['edges'])} edges, {size} bytes "
            f"({size / args.nodes:.0f} B/node), {len(wf.collisions)} planted collisions, "
            f'schema error: edge {wf.schema_error_edge} target ""',
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
