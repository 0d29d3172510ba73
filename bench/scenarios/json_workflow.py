"""The generated JSON workflows of the main benchmark (bench/generate.py, cached in
bench/.cache/docs) and the text positions its plans edit: node objects, array boundaries,
the `nodes` and `edges` sections of a pretty-printed document."""

from __future__ import annotations

import json
import random
import time

import generate
from harness.paths import CACHE, make_log
from harness.session import Document, Edit

log = make_log("bench")


def load_document(size: int, seed: int, minified: bool = False) -> Document:
    """The generated document of `size` nodes (pretty-printed, or on one line)."""
    d = CACHE / "docs"
    d.mkdir(parents=True, exist_ok=True)
    stem = f"wf-{size}-s{seed}-g{generate.GENERATOR_VERSION}" + ("-min" if minified else "")
    path, manifest = d / f"{stem}.flowdrop.json", d / f"{stem}.manifest.json"
    if path.exists() and manifest.exists():
        m = json.loads(manifest.read_text())
        text = path.read_text(encoding="utf-8")
    else:
        t = time.perf_counter()
        wf = generate.build_workflow(size, seed)
        text = (generate.render_minified if minified else generate.render)(wf.doc)
        m = {
            "leaves": wf.leaves,
            "toolboxes": wf.toolboxes,
            "agents": wf.agents,
            "collisions": wf.collisions,
            "schema_error_at": generate.schema_error_offset(text, wf.schema_error_edge),
        }
        path.write_text(text, encoding="utf-8")
        manifest.write_text(json.dumps(m))
        log(
            f"generated {path.name} ({len(text.encode()) / 1e6:.1f} MB) in {time.perf_counter() - t:.1f} s"
        )
    return Document(
        size,
        path,
        text,
        m["leaves"],
        m["toolboxes"],
        m["agents"],
        m["collisions"],
        schema_error_at=m["schema_error_at"],
        minified=minified,
    )


def indent(block: str, n: int) -> str:
    pad = " " * n
    return "\n".join(pad + line for line in block.split("\n"))


def node_start(text: str, node_id: str) -> int:
    """Offset of the '\\n' before the node object's '    {' line, or -1."""
    return text.find(f'\n    {{\n      "id": {json.dumps(node_id, ensure_ascii=False)},\n')


def object_span(text: str, start: int) -> tuple[int, int]:
    """Span to delete for the array element whose '\\n    {' starts at `start`:
    the element plus its trailing comma, or plus the preceding comma if it is last."""
    close = text.find("\n    }", start + 1)
    end = close + len("\n    }")
    if text.startswith(",", end):
        return start, end + 1
    assert text[start - 1] == ","
    return start - 1, end


def array_boundary(text: str, lo: int, hi: int, rng: random.Random) -> int:
    """A position between two elements of a top-level array lying in [lo, hi): right
    after some '\\n    },' (so the insertion is never after the last element)."""
    for _ in range(50):
        p = text.find("\n    },\n", rng.randrange(lo, hi))
        if p != -1 and p < hi:
            return p + len("\n    },")
    p = text.find("\n    },\n", lo)
    assert p != -1 and p < hi, "array has fewer than two elements"
    return p + len("\n    },")


def sections(text: str) -> tuple[int, int, int, int]:
    """(start, end) of the `nodes` array, then of the `edges` array."""
    n0 = text.index('\n  "nodes": [\n')
    n1 = text.index("\n  ],", n0)
    e0 = text.index('\n  "edges": [\n', n1)
    e1 = text.index("\n  ]", e0 + 5)
    return n0, n1, e0, e1


def apply(text: str, edits: list[Edit]) -> str:
    for s, e, new in edits:
        text = text[:s] + new + text[e:]
    return text
