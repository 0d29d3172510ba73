#!/usr/bin/env python3
"""A Drupal site of N workflows made from the vendored corpus (bench/scenarios/site.py's documents).

tests/corpus/atelier-cms/config/sync holds a real site: 15 workflows and 90 node types. The
generated site is copy 0 (that site as it is: its ids, so the node types that call its
workflows resolve) plus copies 1, 2, … of the 15 workflows with new ids (`<id>_c0001`), until
there are N workflows; the node types are written once. Calls keep resolving: a copy of a
callee (the three brand specialists, `aincient_weather`, `reason`: the workflows a node type's
`executor_plugin` names) gets its own calling node type
(`flowdrop_workflow_executor_flowdrop_workflow_<id>_c0001`, executor plugin naming the copy),
and the copy of a caller (`brand_studio`) uses those: every occurrence of the calling type's id
(`node_type_id`, the node ids and handles and edge ids that embed it, `dependencies.config`) is
renamed the same way. The last copy may be partial; callees come first in a copy, so a caller
in it always has its callees.

One finding is planted (`plant=True`): in one copy of `workshop_one_ai_call` (no finding of its
own), the first edge's `target:` is emptied (`target: ''`), an FD-SCHEMA error (the schema
says minLength 1); the server's diagnostics for that file must carry it.

Deterministic: the same N gives the same bytes (uuids are uuid5 of the copy and the original).

    python bench/site_gen.py --workflows 1000 --out /tmp/site   # writes /tmp/site/config/sync
"""

from __future__ import annotations

import argparse
import re
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
CORPUS = BENCH_DIR.parent / "tests" / "corpus" / "atelier-cms" / "config" / "sync"
WORKFLOW_PREFIX = "flowdrop_workflow.flowdrop_workflow."
NODE_TYPE_PREFIX = "flowdrop_node_type.flowdrop_node_type."
EXECUTOR_PREFIX = "flowdrop_workflow_executor_flowdrop_workflow_"
EXECUTOR_PLUGIN = "flowdrop_workflow_executor:flowdrop_workflow:"
PLANT_IN = "workshop_one_ai_call"  # the real site reports nothing in it
PLANTED_CODE = "FD-SCHEMA"
_UUID_NS = uuid.UUID("6f1c0d3e-5a7b-4c2d-9e8f-0a1b2c3d4e5f")
_ID_CHAR = "A-Za-z0-9_"


@dataclass
class Site:
    """A generated site and what the scenario needs to know about it."""

    root: Path  # the Drupal project (a workspace folder)
    sync: Path  # root/config/sync: every file below
    workflows: list[Path] = field(default_factory=list)
    node_types: list[Path] = field(default_factory=list)
    #: each copied callee workflow file -> the copied caller files that call it
    callers: dict[Path, list[Path]] = field(default_factory=dict)
    planted: Path | None = None  # the file with the planted FD-SCHEMA error
    planted_line: int | None = None  # 0-based line of `target: ''`

    @property
    def files(self) -> list[Path]:
        return self.workflows + self.node_types

    @property
    def bytes(self) -> int:
        return sum(p.stat().st_size for p in self.files)


def suffix(copy: int) -> str:
    return f"_c{copy:04d}"


def _workflow_id(text: str) -> str:
    m = re.search(r"^id: (\S+)$", text, re.M)
    assert m, "a workflow without a top-level id"
    return m.group(1)


def _callees(corpus: Path) -> set[str]:
    """The workflow ids a node type's executor_plugin names (and that the corpus holds)."""
    out = set()
    for p in corpus.glob(NODE_TYPE_PREFIX + EXECUTOR_PREFIX + "*.yml"):
        m = re.search(rf"^executor_plugin: '?{re.escape(EXECUTOR_PLUGIN)}([{_ID_CHAR}]+)'?$",
                      p.read_text(encoding="utf-8"), re.M)  # fmt: skip
        if m and (corpus / f"{WORKFLOW_PREFIX}{m.group(1)}.yml").exists():
            out.add(m.group(1))
    return out


def _new_uuid(text: str, copy: int) -> str:
    """The top-level uuid replaced by one derived from the copy and the original."""

    def repl(m: re.Match[str]) -> str:
        return "uuid: " + str(uuid.uuid5(_UUID_NS, f"{copy}:{m.group(1)}"))

    return re.sub(r"\Auuid: (\S+)", repl, text, count=1)


def _rename_calls(text: str, callees: set[str], copy: int) -> str:
    """Every calling node type id (and so every id, handle, edge id and dependency embedding
    it) renamed to the copy's calling type."""
    if not callees or EXECUTOR_PREFIX not in text:
        return text
    names = "|".join(sorted((re.escape(c) for c in callees), key=len, reverse=True))
    pattern = re.compile(rf"({re.escape(EXECUTOR_PREFIX)}(?:{names}))(?![{_ID_CHAR}])")
    return pattern.sub(lambda m: m.group(1) + suffix(copy), text)


def copy_workflow(text: str, callees: set[str], copy: int) -> tuple[str, str]:
    """(new id, new text) of one workflow's copy."""
    wid = _workflow_id(text)
    if copy == 0:
        return wid, text
    new_id = wid + suffix(copy)
    text = _new_uuid(text, copy)
    text = re.sub(rf"^id: {re.escape(wid)}$", f"id: {new_id}", text, count=1, flags=re.M)
    return new_id, _rename_calls(text, callees, copy)


def copy_executor_type(text: str, callee: str, copy: int) -> tuple[str, str]:
    """(new id, new text) of the node type calling `callee`'s copy."""
    old_id = EXECUTOR_PREFIX + callee
    new_id = old_id + suffix(copy)
    text = _new_uuid(text, copy)
    text = re.sub(rf"^id: {re.escape(old_id)}$", f"id: {new_id}", text, count=1, flags=re.M)
    text = re.sub(
        rf"^executor_plugin: '{re.escape(EXECUTOR_PLUGIN + callee)}'$",
        f"executor_plugin: '{EXECUTOR_PLUGIN}{callee}{suffix(copy)}'",
        text,
        count=1,
        flags=re.M,
    )
    return new_id, text


def _plant(text: str) -> tuple[str, int]:
    """Empty the first edge's `target:`; (new text, its 0-based line)."""
    m = re.search(r"^edges:\n(?:.*\n)*?(    target: )(\S+)$", text, re.M)
    assert m, "no edge target to plant the error on"
    line = text.count("\n", 0, m.start(1))
    return text[: m.end(1)] + "''" + text[m.end(2) :], line


def generate_site(
    out: Path, workflows: int = 1000, corpus: Path = CORPUS, plant: bool = True
) -> Site:
    """Write a site of `workflows` workflow files to out/config/sync (emptied first)."""
    sync = out / "config" / "sync"
    sync.mkdir(parents=True, exist_ok=True)
    for old in sync.glob("*.yml"):
        old.unlink()
    site = Site(out, sync)
    callees = _callees(corpus)
    originals = sorted(corpus.glob(WORKFLOW_PREFIX + "*.yml"))
    texts = {_workflow_id(t): t for t in (p.read_text(encoding="utf-8") for p in originals)}
    # Callees first: a partial last copy never holds a caller without its callees.
    order = sorted(texts, key=lambda w: (w not in callees, w))
    executor_texts = {
        c: (corpus / f"{NODE_TYPE_PREFIX}{EXECUTOR_PREFIX}{c}.yml").read_text(encoding="utf-8")
        for c in callees
    }
    for p in sorted(corpus.glob(NODE_TYPE_PREFIX + "*.yml")):
        dest = sync / p.name
        dest.write_bytes(p.read_bytes())
        site.node_types.append(dest)

    copies = -(-workflows // len(order))
    plant_copy = copies // 2 if plant else -1
    for copy in range(copies):
        done_callees: dict[str, Path] = {}
        for wid in order[: min(len(order), workflows - copy * len(order))]:
            new_id, text = copy_workflow(texts[wid], callees, copy)
            dest = sync / f"{WORKFLOW_PREFIX}{new_id}.yml"
            if wid == PLANT_IN and copy == plant_copy:
                text, site.planted_line = _plant(text)
                site.planted = dest
            dest.write_text(text, encoding="utf-8")
            site.workflows.append(dest)
            if wid in callees:
                done_callees[wid] = dest
                site.callers[dest] = []
                if copy:
                    type_id, type_text = copy_executor_type(executor_texts[wid], wid, copy)
                    type_dest = sync / f"{NODE_TYPE_PREFIX}{type_id}.yml"
                    type_dest.write_text(type_text, encoding="utf-8")
                    site.node_types.append(type_dest)
            for callee, callee_path in done_callees.items():
                if EXECUTOR_PREFIX + callee + suffix(copy) * bool(copy) in text and wid != callee:
                    site.callers[callee_path].append(dest)
    return site


def verify_yaml(site: Site) -> int:
    """Every file loads with PyYAML (the C loader when there is one); the number of files."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for p in site.files:
        doc = yaml.load(p.read_text(encoding="utf-8"), Loader=loader)  # a safe loader
        if not isinstance(doc, dict) or "id" not in doc:
            raise ValueError(f"{p.name}: not a config entity")
        if (
            p.name
            != f"{(WORKFLOW_PREFIX if p in site.workflows else NODE_TYPE_PREFIX)}{doc['id']}.yml"
        ):
            raise ValueError(f"{p.name}: file name and id differ ({doc['id']})")
    return len(site.files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workflows", type=int, default=1000)
    parser.add_argument("--out", required=True, help="the site's root (config/sync below it)")
    parser.add_argument("--no-plant", action="store_true", help="no planted FD-SCHEMA error")
    args = parser.parse_args(argv)
    site = generate_site(Path(args.out), args.workflows, plant=not args.no_plant)
    n = verify_yaml(site)
    print(
        f"{site.sync}: {len(site.workflows)} workflows, {len(site.node_types)} node types "
        f"({n} files, {site.bytes / 1e6:.1f} MB); planted: {site.planted and site.planted.name}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
