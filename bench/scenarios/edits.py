"""The edit cycle of the main benchmark: the same sequence of didChange steps for every server
in a round (a label typed into, a tool edge added, a node deleted with its edges, 20 nodes
pasted), and the check that a session's open proves the server validated."""

from __future__ import annotations

import json
import random

import generate
from harness.session import Document, Edit, Plan

from scenarios.json_workflow import (
    apply,
    array_boundary,
    indent,
    node_start,
    object_span,
    sections,
)

NAME = "edits"
EDIT_KINDS = ["label", "add_edge", "delete", "paste"]
EDIT_CYCLE = ["label", "add_edge", "label", "delete", "label", "paste"]
KIND_TITLES = {
    "open": "didOpen",
    "label": "label +1 char",
    "add_edge": "add tool edge",
    "delete": "delete node+edges",
    "paste": "paste 20 nodes",
    "structural": "structural (all)",
    "keystroke": "keystroke",
    "top_level": "top-level +1 char",
}


def make_plan(doc: Document, round_no: int, n_edits: int, seed: int) -> Plan:
    """The same edit sequence for every server in a round; offsets are code points, each
    edit of a step against the text left by the previous one."""
    rng = random.Random(f"{seed}/{doc.size}/{round_no}")
    text = doc.text
    deleted: set[str] = set()
    plan: Plan = []
    kinds = [EDIT_CYCLE[i % len(EDIT_CYCLE)] for i in range(n_edits)]

    def live_leaf() -> str:
        while True:
            leaf = rng.choice(doc.leaves)
            if leaf not in deleted:
                return leaf

    for counter, kind in enumerate(kinds, start=1):
        edits: list[Edit]
        if kind == "label":
            leaf = live_leaf()
            s = node_start(text, leaf)
            q = text.index('"label": "', s) + len('"label": "')
            end_q = text.index('"', q)
            edits = [(end_q, end_q, rng.choice("xyzq"))]
        elif kind == "add_edge":
            leaf, box = live_leaf(), rng.choice(doc.toolboxes)
            edge = generate.tool_edge(f"bench_r{round_no}_e{counter}", leaf, box)
            block = indent(json.dumps(edge, indent=2, ensure_ascii=False), 4)
            _, _, e0, e1 = sections(text)
            at = array_boundary(text, e0, e1, rng)
            edits = [(at, at, "\n" + block + ",")]
        elif kind == "delete":
            for _ in range(100):
                leaf = live_leaf()
                s = node_start(text, leaf)
                spans = [object_span(text, s)]
                q = json.dumps(leaf, ensure_ascii=False)
                for key in ("source", "target"):
                    needle = f'\n      "{key}": {q},\n'
                    p = text.find(needle)
                    while p != -1:
                        spans.append(object_span(text, text.rfind("\n    {\n", 0, p)))
                        p = text.find(needle, p + 1)
                spans = sorted(set(spans), reverse=True)  # from the end: offsets stay valid
                if all(a[0] >= b[1] for a, b in zip(spans, spans[1:], strict=False)):
                    break
            deleted.add(leaf)
            edits = [(a, b, "") for a, b in spans]
        elif kind == "paste":
            nodes = []
            for j in range(20):
                template, ntype = generate.LEAF_TEMPLATES[
                    rng.randrange(len(generate.LEAF_TEMPLATES))
                ]
                nid = f"{ntype}.{900000 + round_no * 10000 + counter * 20 + j}"
                label = f"Pasted {counter}-{j} " + template.format(i=f"p{round_no}")
                cfg = generate._leaf_config(ntype, j, rng)
                nodes.append(generate._node(nid, ntype, label, cfg, 2000 + 300 * j, 150 * counter))
            block = ",\n".join(
                indent(json.dumps(n, indent=2, ensure_ascii=False), 4) for n in nodes
            )
            n0, n1, _, _ = sections(text)
            at = array_boundary(text, n0, n1, rng)
            edits = [(at, at, "\n" + block + ",")]
        else:  # pragma: no cover
            raise ValueError(kind)
        text = apply(text, edits)
        plan.append((kind, edits))
    # The plan must leave valid JSON behind.
    json.loads(text)
    return plan


def validation_check(server: str, doc: Document, diagnostics: list[dict]) -> str | None:
    """Does the answer to the open prove that the server validated the document? vscode-json
    must report the planted schema error on its line; ours must report it (FD-SCHEMA) and CMP-9
    on the planted collisions. None: nothing to check (floor, or no planted error)."""
    line = doc.schema_error_line
    if line is None or server == "floor":
        return None
    on_line = [d for d in diagnostics if d.get("range", {}).get("start", {}).get("line") == line]
    if server.startswith("vscode-json"):
        hits = [d for d in on_line if "minimum length" in d.get("message", "")]
        if hits:
            return f'OK: {hits[0]["message"]!r} on the planted `"target": ""` (line {line + 1}; {len(diagnostics)} diagnostics)'
        return f"FAILED: no minLength error on line {line + 1} ({len(diagnostics)} diagnostics)"
    schema = [d for d in on_line if d.get("code") == "FD-SCHEMA"]
    cmp9 = [d for d in diagnostics if d.get("code") == "CMP-9"]
    if schema and len(cmp9) >= len(doc.collisions):
        return (
            f'OK: FD-SCHEMA on the planted `"target": ""` (line {line + 1}) and '
            f"{len(cmp9)} CMP-9 for {len(doc.collisions)} planted collisions ({len(diagnostics)} diagnostics)"
        )
    return (
        f"FAILED: FD-SCHEMA on line {line + 1}: {len(schema)}, CMP-9: {len(cmp9)} "
        f"(planted collisions: {len(doc.collisions)})"
    )
