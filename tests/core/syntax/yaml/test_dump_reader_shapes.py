"""A whole read of Drupal's dump shape keeps the elements of `nodes`/`edges` as the JSON parser
shapes them (core.syntax.json.shapes, `ElementShapes`): what the analysis locates with spans,
the other block collections of an element read whole into `YamlOpaque` values.

Compared with the same text read with spans everywhere: every value the shaped read keeps as
a tree is the same (type, span, value); every opaque value stands exactly where a block
collection is that the shape does not list, with that collection's span and plain value, and
re-reads (`expanded`) into that collection's tree; the problems and whether edits can stay
local are the same. Then the engine: a document's findings, fixes included, are the same
whichever read it had (a config key located by a re-read, a schema error inside a value read
whole)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.syntax import reader as seam
from flowdrop_lsp.core.syntax.json.shapes import EDGE_SHAPE, NODE_SHAPE
from flowdrop_lsp.core.syntax.tree import (
    JArray,
    JObject,
    JsonValue,
    OpaqueValue,
    to_python,
)
from flowdrop_lsp.core.syntax.yaml.dump_reader import ElementShapes
from flowdrop_lsp.core.syntax.yaml.opaque import YamlOpaque
from flowdrop_lsp.core.syntax.yaml.reader import read_dumped
from flowdrop_lsp.core.workspace.batch import portable
from flowdrop_lsp.core.workspace.site import read_workflow_facts
from tests.support.builders import CORPUS_CONFIG
from tests.support.trees import shape

TESTS = Path(__file__).resolve().parents[3]
YAML_FILES = sorted(p for p in TESTS.rglob("*.yml") if "node_modules" not in p.parts)
SHAPES = ElementShapes({"nodes": NODE_SHAPE, "edges": EDGE_SHAPE}, YamlOpaque)


def _reads(text: str) -> tuple[Any, Any] | None:
    shaped = read_dumped(text, shapes=SHAPES)
    full = read_dumped(text)
    assert (shaped is None) == (full is None)
    if shaped is None or full is None:
        return None
    assert shaped[0].problems == full[0].problems
    assert shaped[1] == full[1]  # whether edits can stay local
    return shaped[0].root, full[0].root


def _agree(shaped: JsonValue | None, full: JsonValue | None, spec: Any, text: str) -> int:
    """Assert that `shaped` is `full` as `spec` shapes it (None: with spans everywhere; a dict:
    a mapping whose unlisted block collections are opaque); the count of opaque values."""
    if isinstance(shaped, OpaqueValue):
        assert spec is _UNLISTED, f"an opaque value where the shape lists the member: {shaped}"
        assert isinstance(full, JObject | JArray)
        assert text[full.start] not in "{[", "an inline empty collection is read with its span"
        assert (shaped.start, shaped.end) == (full.start, full.end)
        assert shaped.value == to_python(full)
        assert shape(shaped.expanded(text)) == shape(full)
        return 1
    if spec is _UNLISTED and isinstance(full, JObject | JArray) and text[full.start] not in "{[":
        raise AssertionError(
            f"a block collection the shape does not list was read as a tree: {full}"
        )
    if not isinstance(full, JObject | JArray):
        assert shape(shaped) == shape(full)
        return 0
    assert shaped is not None and type(shaped) is type(full)
    assert (shaped.start, shaped.end) == (full.start, full.end)
    count = 0
    if isinstance(full, JArray):
        assert isinstance(shaped, JArray) and len(shaped.items) == len(full.items)
        item_spec = spec[0] if isinstance(spec, list) else None
        for mine, theirs in zip(shaped.items, full.items, strict=True):
            count += _agree(mine, theirs, item_spec, text)
        return count
    assert isinstance(shaped, JObject) and len(shaped.members) == len(full.members)
    for member, other in zip(shaped.members, full.members, strict=True):
        assert shape(member.key) == shape(other.key)
        below = None
        if isinstance(spec, dict):
            below = spec.get(other.key.value, spec.get(_REST, _UNLISTED))
            below = below if below is _UNLISTED or isinstance(below, dict | list) else None
        count += _agree(member.value, other.value, below, text)
    return count


_UNLISTED = object()
_REST = object()
# The root: `nodes` and `edges` shaped, every other member read with spans.
_ROOT = {"nodes": [NODE_SHAPE], "edges": [EDGE_SHAPE], _REST: None}


def assert_shaped_as_said(text: str) -> int:
    reads = _reads(text)
    if reads is None:
        return 0
    return _agree(reads[0], reads[1], _ROOT, text)


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.name)
def test_every_yaml_file_of_the_tests_is_shaped_as_said(path: Path) -> None:
    assert_shaped_as_said(path.read_text(encoding="utf-8"))


def test_the_real_site_s_workflows_keep_their_configs_whole() -> None:
    opaque = sum(
        assert_shaped_as_said(p.read_text(encoding="utf-8"))
        for p in sorted(CORPUS_CONFIG.glob("flowdrop_workflow.*.yml"))
    )
    assert opaque > 100  # every node's config, position, ... (the point of it)


# ------------------------------------------------------------------ generated workflows
LEAVES = ["plain", "'q''s'", '"tab\\t😀"', "12", "-3", "1.5", "true", "null", "on", "0x1F",
          "2026-01-01", "2026-13-01", "{  }", "[]", "日本語 ラベル", "|-\n{indent}  line 😀\n"
          "\n{indent}  # not a comment", "|\n{indent}  a\n{indent}  b"]  # fmt: skip
KEYS = ["id", "label", "type", "x", "config", "metadata", "node_type_id", "edgeType",
        "'quoted'", "1", "é", "日本", "position", "data", "source", "targetHandle"]  # fmt: skip


def _block(rnd: random.Random, indent: int, depth: int) -> str:
    """A block mapping or sequence at `indent`, in the dumper's layout."""
    pad = " " * indent
    out = ""
    sequence = depth > 0 and rnd.random() < 0.3
    keys = rnd.sample(KEYS, rnd.randint(1, 4))
    for key in keys if not sequence else range(rnd.randint(1, 3)):
        head = f"{pad}-" if sequence else f"{pad}{key}:"
        if depth < 4 and rnd.random() < 0.45:
            out += head + "\n" + _block(rnd, indent + (2 if not sequence else 2), depth + 1)
        else:
            leaf = rnd.choice(LEAVES).replace("{indent}", pad)
            out += f"{head} {leaf}\n"
    return out


def _workflow(rnd: random.Random) -> str:
    out = "id: generated\nlabel: 'A 😀 workflow'\n"
    for name in ("nodes", "edges"):
        out += f"{name}:\n"
        for _ in range(rnd.randint(1, 3)):
            out += "  -\n" + _block(rnd, 4, 1)
    return out + "metadata:\n  x:\n    y: 1\n"


def test_generated_workflows_are_shaped_as_said() -> None:
    rnd = random.Random(39)
    read = opaque = 0
    for _ in range(400):
        text = _workflow(rnd)
        found = assert_shaped_as_said(text)
        read += _reads(text) is not None
        opaque += found
    assert read > 300 and opaque > 300  # most are in the dump shape, and have whole values


# ------------------------------------------------------------------ the engine's findings
def _findings(text: str, monkeypatch: pytest.MonkeyPatch, shaped: bool) -> list[object]:
    with monkeypatch.context() as patch:
        if not shaped:
            patch.setattr(seam, "_ELEMENT_SHAPES", None)
        document = WorkflowDocument(text, Settings(), syntax="yaml", site_facts=True)
        found = [portable(finding) for finding in document.findings()]
        facts = document.site_facts()
        document.close()
        alone = read_workflow_facts(text, "yaml")  # the site index's own read of a file
    return [found, facts, alone]


PLANTED = [
    ("        maxTokens: 8192", "        maxTokes: 8192"),  # a config key located by a re-read
    ("      config:\n", "      config:\n        workflow_id: aincient_nowhere\n"),  # a call's
    ("    position:\n      x:", "    position:\n      x: 'left'\n      z:"),  # schema, inside
]


@pytest.mark.parametrize(
    "name", ["aincient_image_agent", "aincient_weather", "aincient_brand_specialist_colour"]
)
def test_a_document_s_findings_and_facts_are_the_same_whichever_read(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (CORPUS_CONFIG / f"flowdrop_workflow.flowdrop_workflow.{name}.yml").read_text(
        encoding="utf-8"
    )
    planted = text
    for before, after in PLANTED:
        planted = planted.replace(before, after, 1)
    for version in (text, planted):
        assert read_dumped(version) is not None, "in the dump shape"
        assert _findings(version, monkeypatch, True) == _findings(version, monkeypatch, False)
    assert _findings(planted, monkeypatch, True)[0] != _findings(text, monkeypatch, True)[0]
