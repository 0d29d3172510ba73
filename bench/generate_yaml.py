#!/usr/bin/env python3
"""Drupal config export of bench/generate.py's workflows (YAML), for the YAML benchmark.

The graph is generate.build_workflow's (same seed, same planted CMP-9 collisions); it is
written the way Drupal's config export writes a `flowdrop_workflow` config entity
(Symfony YAML dumper, `Yaml::dump($data, PHP_INT_MAX, 2)`):

- block mappings and block sequences, 2-space indentation, a sequence item that is a
  mapping written as a lone ``-`` line followed by its keys one level deeper::

      nodes:
        -
          id: http_request.17
          position:
            x: 0
            'y': 150

- strings single-quoted when Symfony's ``Escaper::requiresSingleQuoting`` (whitespace or
  one of ``' " : { } [ ] , & * # ?`` anywhere, or a leading ``- ? | < > = ! % @ ```), when
  they read as another type (``y``, ``yes``, ``null``, numbers, …) or are empty, else plain;
  an empty mapping as ``{  }``; keys quoted by the same rule (so ``'y':``),
- Drupal's config keys first: ``uuid``, ``langcode``, ``status``, ``dependencies``, ``id``,
  ``label``, ``description``, then ``nodes``, ``edges``, ``metadata``.

One schema error is planted so that a schema-driven validator provably validates: the first
data edge (agent → agent, irrelevant to CMP-9) gets ``target: ''``, which
flowdrop_lsp/schemas/workflow.schema.json forbids (``minLength: 1``).

File name: ``flowdrop_workflow.flowdrop_workflow.synthetic_<n>.yml``.

CLI:  python bench/generate_yaml.py --nodes 5000 --out-dir DIR [--seed 20240601]
"""

from __future__ import annotations

import argparse
import re
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate

#: Bump when the output changes, so cached documents are regenerated.
YAML_GENERATOR_VERSION = 1

_RESERVED = {"null", "~", "true", "false", "y", "n", "yes", "no", "on", "off"}
_NEEDS_SINGLE = re.compile(
    r"""[\s'":{}\[\],&*#?]|\A[\-?|<>=!%@`\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]"""
)
_NUMERIC = re.compile(r"\A[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\Z")
_DIGITS = re.compile(r"\A[0-9]+[_0-9]*\Z")
_HEX = re.compile(r"\A0x[0-9a-fA-F_]+\Z")
_TIMESTAMP = re.compile(r"\A\d{4}-\d\d?-\d\d?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def scalar(value: object) -> str:
    """One scalar as Symfony's Inline::dump writes it (the subset this data needs)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        r = repr(value)
        return r if ("." in r or "e" in r or "inf" in r or "nan" in r) else r + ".0"
    s = str(value)
    if _CONTROL.search(s):
        raise ValueError(f"control characters are not generated: {s!r}")
    if (
        s == ""
        or s.lower() in _RESERVED
        or _NEEDS_SINGLE.search(s)
        or _NUMERIC.match(s)
        or _DIGITS.match(s)
        or _HEX.match(s)
        or _TIMESTAMP.match(s)
    ):
        return "'" + s.replace("'", "''") + "'"
    return s


def _dump(value: object, indent: int, out: list[str]) -> None:
    pad = " " * indent
    if isinstance(value, dict):
        for k, v in value.items():
            key = scalar(k)
            if isinstance(v, (dict, list)) and v:
                out.append(f"{pad}{key}:")
                _dump(v, indent + 2, out)
            elif isinstance(v, (dict, list)):
                out.append(f"{pad}{key}: {{  }}")
            else:
                out.append(f"{pad}{key}: {scalar(v)}")
    elif isinstance(value, list):
        for v in value:
            if isinstance(v, (dict, list)) and v:
                out.append(f"{pad}-")
                _dump(v, indent + 2, out)
            elif isinstance(v, (dict, list)):
                out.append(f"{pad}- {{  }}")
            else:
                out.append(f"{pad}- {scalar(v)}")
    else:  # pragma: no cover
        raise TypeError(type(value))


def dump(doc: dict) -> str:
    out: list[str] = []
    _dump(doc, 0, out)
    return "\n".join(out) + "\n"


@dataclass
class YamlWorkflow:
    text: str
    wf: generate.Workflow
    error_edge: str  # id of the edge whose target is ''


def file_name(n_nodes: int) -> str:
    return f"flowdrop_workflow.flowdrop_workflow.synthetic_{n_nodes}.yml"


def build(n_nodes: int, seed: int = generate.DEFAULT_SEED) -> YamlWorkflow:
    wf = generate.build_workflow(n_nodes, seed)
    doc = wf.doc
    edges = [dict(e) for e in doc["edges"]]
    bad = next(e for e in edges if e["data"]["metadata"]["edgeType"] == "data")
    bad["target"] = ""
    drupal = {
        "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"flowdrop-bench/{n_nodes}/{seed}")),
        "langcode": "en",
        "status": True,
        "dependencies": {},
        "id": doc["id"],
        "label": doc["name"],
        "description": doc["description"],
        "nodes": doc["nodes"],
        "edges": edges,
        "metadata": doc["metadata"],
    }
    return YamlWorkflow(dump(drupal), wf, bad["id"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--nodes", type=int, required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--seed", type=int, default=generate.DEFAULT_SEED)
    args = ap.parse_args(argv)
    y = build(args.nodes, args.seed)
    p = Path(args.out_dir) / file_name(args.nodes)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(y.text, encoding="utf-8")
    lines = y.text.count("\n")
    print(
        f"{p}: {args.nodes} nodes, {lines} lines ({lines / args.nodes:.1f}/node), "
        f"{len(y.text.encode())} bytes, {len(y.wf.collisions)} planted collisions, "
        f"schema error: edge {y.error_edge} target ''",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
