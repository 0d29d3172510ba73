"""Edits of a workflow's top level (its `id`, `name`, `metadata`, a member added or removed)
re-read the top level alone (core/engine/header.py), one-line documents like pretty-printed ones,
and give exactly what a whole read of the edited text gives: findings, the graph, the site facts,
the content verdict. An edit that changes the structure around the arrays (a quote deleted, the
`"nodes"` key touched, a bracket) is a whole read. So in YAML (Drupal config), off the lines that
hold a sequence in place.

A keystroke anywhere in a one-line 10,000-node export (the project's generator's, and one shaped
like an API export, generated here) never re-reads the whole text: neither the edit, nor the
findings or the content verdict asked after it."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule

from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.syntax.json.parser import parse_json
from flowdrop_lsp.core.syntax.json.shapes import FULL
from flowdrop_lsp.core.syntax.tree import JArray, JObject, JString
from tests.support.drupal import workflow
from tests.support.engine import SETTINGS, IncrementalEqualsScratch, comparable, make_document

BENCH = Path(__file__).resolve().parents[3] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))
from generate import build_workflow, render_minified  # noqa: E402

# ----- the state machine: the top level edited among the elements' edits ---------------------

LAYOUTS = {
    "pretty": lambda doc: json.dumps(doc, indent=2, ensure_ascii=False) + "\n",
    # One line with `": "` (the base machine's label and target edits find their values)…
    "one line": lambda doc: json.dumps(doc, ensure_ascii=False),
    # …and as API exports write it.
    "minified": lambda doc: json.dumps(doc, ensure_ascii=False, separators=(",", ":")),
}
VALUES = [
    '""',
    '" "',
    "1",
    "null",
    '"1.0"',
    '"1.0.0"',
    "{}",
    "[]",
    '"Named"',
    '{"a": [1, {"b": 2}]}',
]
MEMBERS = [
    '"label": "Named"',
    '"label": ""',
    '"name": " "',
    '"schema_version": "1.0"',
    '"description": 3',
    '"id": "again"',
    '"extra": {"deep": [[1]]}',
    '"input_ports": [{"name": "a", "node_id": "n0", "port": "p"}]',
    '"output_ports": {}',
    '"parameter_schema": {"required": ["q"]}',
    '"dependencies": {"config": ["flowdrop_node_type.x"], "module": ["m"]}',
]
TYPED = ["x", " ", "é", "🚀", "-", "\\u0041", '"', ",", ":", "{", "}", "[", "]", "\n", ""]
HEADER_STEPS = {"top level": 0, "top level incremental": 0}


def top_level(text: str) -> tuple[JObject | None, list[tuple[int, int]]]:
    """The root (None unless an object) and the spans of its `nodes` and `edges` arrays."""
    root = parse_json(text, shape=FULL).root
    if not isinstance(root, JObject):
        return None, []
    arrays = [root.get(name) for name in ("nodes", "edges")]
    return root, [(a.start, a.end) for a in arrays if isinstance(a, JArray)]


def outside(offset: int, arrays: list[tuple[int, int]]) -> bool:
    return all(not start <= offset < end for start, end in arrays)


class HeaderEditsEqualScratch(IncrementalEqualsScratch):
    """The engine's differential machine (tests/support/engine.py) on documents with a top level
    before and after the arrays, pretty-printed or on one line, with edits there too."""

    @initialize(seed=st.integers(0, 10**6), layout=st.sampled_from(sorted(LAYOUTS)))
    def start(self, seed: int, layout: str) -> None:
        self.rng = random.Random(seed)
        body = json.loads(make_document(self.rng))
        doc: dict[str, Any] = {"id": f"wf-{seed}", "name": "Synthetic"}
        if self.rng.randrange(2):
            doc["description"] = "A workflow"
        doc["nodes"], doc["edges"] = body["nodes"], body["edges"]
        doc["metadata"] = {"version": "1.0.0", "generator": "tests"}
        if self.rng.randrange(2):
            doc["schema_version"] = "1.0.0"
        self.text = LAYOUTS[layout](doc)
        self.whole_text = self.text
        self.document = WorkflowDocument(self.text, SETTINGS)
        self.at_top_level = False

    def edit_top_level(self, start: int, end: int, new_text: str) -> None:
        _root, arrays = top_level(self.text)
        self.at_top_level = bool(arrays) and all(
            end <= array_start or start >= array_end for array_start, array_end in arrays
        )
        self.edit(start, end, new_text)

    @rule(data=st.data())
    def type_into_a_top_level_value(self, data: st.DataObject) -> None:
        root, _arrays = top_level(self.text)
        values = [m.value for m in root.members if isinstance(m.value, JString)] if root else []
        if not values:
            return
        value = data.draw(st.sampled_from(values))
        at = data.draw(st.integers(value.start + 1, value.end - 1))
        cut = data.draw(st.integers(0, value.end - 1 - at))
        self.edit_top_level(at, at + cut, data.draw(st.sampled_from(["x", " ", "é", "🚀", ""])))

    @rule(data=st.data())
    def replace_a_top_level_value(self, data: st.DataObject) -> None:
        root, _arrays = top_level(self.text)
        members = [
            m
            for m in (root.members if root else [])
            if m.value is not None and m.key.value not in ("nodes", "edges")
        ]
        if not members:
            return
        value = data.draw(st.sampled_from(members)).value
        assert value is not None
        self.edit_top_level(value.start, value.end, data.draw(st.sampled_from(VALUES)))

    @rule(data=st.data())
    def add_a_top_level_member(self, data: st.DataObject) -> None:
        root, arrays = top_level(self.text)
        if root is None or not root.members:
            return
        member = data.draw(st.sampled_from(MEMBERS))
        if data.draw(st.booleans()):  # first
            at = root.members[0].key.start
            self.edit_top_level(at, at, member + ", ")
        else:  # after a member (an array's included)
            after = data.draw(st.sampled_from(root.members))
            if after.value is None:
                return
            self.edit_top_level(after.value.end, after.value.end, ", " + member)

    @rule(data=st.data())
    def delete_a_top_level_member(self, data: st.DataObject) -> None:
        root, _arrays = top_level(self.text)
        if root is None or len(root.members) < 2:
            return
        index = data.draw(st.integers(0, len(root.members) - 2))
        member, following = root.members[index], root.members[index + 1]
        if member.key.value in ("nodes", "edges"):
            self.whole_text = self.text  # (a whole read: the array goes with it)
        self.edit_top_level(member.key.start, following.key.start, "")

    @rule(data=st.data())
    def break_the_top_level(self, data: st.DataObject) -> None:
        """A character typed or deleted anywhere outside the arrays: a quote, a comma, a
        bracket, a line break — what changes the structure around them, or does not."""
        _root, arrays = top_level(self.text)
        spots = [at for at in range(len(self.text) + 1) if outside(at, arrays)]
        at = data.draw(st.sampled_from(spots))
        cut = data.draw(st.integers(0, 2))
        if not outside(min(at + cut, len(self.text)) - 1, arrays):
            cut = 0
        self.whole_text = self.text
        self.edit_top_level(at, min(len(self.text), at + cut), data.draw(st.sampled_from(TYPED)))

    @rule(data=st.data())
    def touch_an_array_key(self, data: st.DataObject) -> None:
        root, _arrays = top_level(self.text)
        members = [m for m in (root.members if root else []) if m.key.value in ("nodes", "edges")]
        if not members:
            return
        key = data.draw(st.sampled_from(members)).key
        self.whole_text = self.text
        choice = data.draw(st.integers(0, 3))
        if choice == 0:  # renamed
            self.edit_top_level(key.end - 2, key.end - 1, "z")
        elif choice == 1:  # a space inside the quotes
            self.edit_top_level(key.start + 1, key.start + 1, " ")
        elif choice == 2:  # a space between the key and its `[` (still the same array)
            self.edit_top_level(key.end, key.end, " ")
        else:  # its quote deleted
            self.edit_top_level(key.end - 1, key.end, "")

    @invariant()
    def the_top_level_is_as_a_whole_read_reads_it(self) -> None:
        if self.document is None:
            return
        scratch = WorkflowDocument(self.text, SETTINGS)
        assert self.document.site_facts() == scratch.site_facts()
        assert self.document.looks_like_flowdrop == scratch.looks_like_flowdrop
        assert self.document.is_workflow == scratch.is_workflow
        if self.at_top_level:
            HEADER_STEPS["top level"] += 1
            HEADER_STEPS["top level incremental"] += not self.document.stats.full_reread
            self.at_top_level = False


@pytest.mark.hypothesis
def test_top_level_edits_equal_a_whole_read(request: pytest.FixtureRequest) -> None:
    examples = 300 if request.config.getoption("--slow") else 30
    run = settings(
        max_examples=examples,
        stateful_step_count=20,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )(HeaderEditsEqualScratch)
    run.TestCase().runTest()
    print(HEADER_STEPS)
    # The comparison proves something only if many top-level edits were re-read alone (most
    # keep the structure) and some were not (a quote, a bracket, a key touched).
    steps = HEADER_STEPS["top level"]
    assert HEADER_STEPS["top level incremental"] > steps * 0.2, HEADER_STEPS
    assert HEADER_STEPS["top level incremental"] < steps, HEADER_STEPS


# ----- named cases -------------------------------------------------------------------------


def small_export() -> str:
    return outside_shaped_export(12, errors=2)


def edited(document: WorkflowDocument, at: int, end: int, new: str) -> str:
    document.apply_edit(at, end, new)
    return document.text


def assert_like_a_whole_read(document: WorkflowDocument, site_facts: bool = True) -> None:
    scratch = WorkflowDocument(document.text)
    assert comparable(document) == comparable(scratch)
    if site_facts:  # (at 10,000 nodes, seconds: every element's spans are read for them)
        assert document.site_facts() == scratch.site_facts()
    assert document.looks_like_flowdrop == scratch.looks_like_flowdrop
    assert document.incremental_failures == []


def test_a_name_emptied_and_a_value_mistyped_at_the_top_level_are_found_without_a_whole_read() -> (
    None
):
    document = WorkflowDocument(small_export())
    text = document.text
    name = text.index('"name":"') + len('"name":"')
    edited(document, name, text.index('"', name), "")  # STORE-2: the name emptied
    assert not document.stats.full_reread
    assert [f.code for f in document.findings()].count("STORE-2") == 1
    assert_like_a_whole_read(document)
    at = len(document.text) - 1  # the root's closing brace, after the arrays
    edited(document, at, at, ',"schema_version":2')  # STORE-8: no version
    assert not document.stats.full_reread
    assert "STORE-8" in [f.code for f in document.findings()]
    assert_like_a_whole_read(document)
    at = document.text.index('"name":""') + len('"name":')
    edited(document, at, at + 2, "7")  # FD-SCHEMA: a name that is no string
    assert not document.stats.full_reread
    assert "FD-SCHEMA" in [f.code for f in document.findings()]
    assert_like_a_whole_read(document)


@pytest.mark.parametrize(
    "where",
    ["the id's closing quote", "the nodes key", "the edges key's colon", "the nodes bracket"],
)
def test_an_edit_that_changes_the_structure_around_the_arrays_is_a_whole_read(where: str) -> None:
    document = WorkflowDocument(small_export())
    text = document.text
    at = {
        "the id's closing quote": text.index('","name"'),
        "the nodes key": text.index('"nodes"') + 3,
        "the edges key's colon": text.index('"edges":') + len('"edges"'),
        "the nodes bracket": text.index('"nodes":[') + len('"nodes":'),
    }[where]
    edited(document, at, at + 1, "")
    assert document.stats.full_reread
    assert_like_a_whole_read(document)
    edited(document, at, at, text[at])  # put back
    assert_like_a_whole_read(document)


def test_a_member_added_and_removed_at_the_top_level_is_read_alone() -> None:
    document = WorkflowDocument(small_export())
    at = document.text.index(',"nodes":')
    member = ',"label":"Renamed","input_ports":[{"name":"q","node_id":"http_request.000001"}]'
    edited(document, at, at, member)
    assert not document.stats.full_reread
    assert_like_a_whole_read(document)
    facts = document.site_facts()
    assert facts is not None and facts.label == "Renamed" and len(facts.input_ports) == 1
    edited(document, at, at + len(member), "")
    assert not document.stats.full_reread
    assert_like_a_whole_read(document)


def test_a_label_edit_after_a_top_level_edit_moves_the_top_level_findings_with_it() -> None:
    # The top level re-read alone anchors its spans anew: an edit in `nodes` afterwards still
    # moves what follows it (`metadata`, a schema finding there) exactly.
    document = WorkflowDocument(small_export())
    at = document.text.index('"metadata":{"version"') + len('"metadata":')
    edited(document, at, len(document.text) - 1, "[1]")  # no object: FD-SCHEMA after `edges`
    assert not document.stats.full_reread
    label = document.text.index('"label":"') + len('"label":"')
    edited(document, label, label, "typed ")
    assert not document.stats.full_reread
    assert "FD-SCHEMA" in [f.code for f in document.findings()]
    assert_like_a_whole_read(document)


# ----- one-line 10,000-node documents: a keystroke anywhere is never a whole read -----------


def outside_shaped_export(count: int, errors: int = 10, seed: int = 1) -> str:
    """A workflow shaped like an API export written by another tool (70 % tools, 10 % toolboxes,
    20 % agents; `errors` planted: half unknown edge types, half dangling edges), on one line
    without a space (`"label":"…"`): the keys the project's generator writes in another order,
    its labels ASCII, a top level of `id`, `name`, the arrays and `metadata`."""
    rng = random.Random(seed)
    kinds = ["http_request"] * 7 + ["toolbox"] + ["agent"] * 2
    nodes = []
    for index in range(count):
        kind = kinds[index % len(kinds)]
        config: dict[str, Any] = (
            {"model": "gpt-4o-mini", "temperature": 0.2}
            if kind == "agent"
            else {"passthrough": True}
            if kind == "toolbox"
            else {"method": "GET", "url": f"https://api.example.com/v1/{index}", "timeout": 30}
        )
        nodes.append(
            {
                "id": f"{kind}.{index:06d}",
                "type": kind,
                "position": {"x": float(index * 40), "y": float(rng.randrange(100) * 80)},
                "data": {
                    "label": f"{kind.title()} events #{index}",
                    "config": config,
                    "metadata": {"category": "tools", "version": "1.0.0"},
                },
            }
        )
    agents = [n["id"] for n in nodes if n["type"] == "agent"]
    boxes = [n["id"] for n in nodes if n["type"] == "toolbox"]
    edges = []
    for node in nodes:
        if node["type"] == "agent":
            continue
        target = rng.choice(agents if node["type"] == "toolbox" or not boxes else agents + boxes)
        edges.append((node["id"], target, "tool_availability"))
    for planted in range(errors):
        source = nodes[rng.randrange(count)]["id"]
        if planted % 2:
            edges.append((source, f"missing.{planted:04d}", "tool_availability"))
        else:
            edges.append((source, rng.choice(agents), "toolz"))
    doc = {
        "id": f"wf-{count}",
        "name": f"Synthetic workflow {count}",
        "nodes": nodes,
        "edges": [
            {
                "id": f"e{index:07d}",
                "source": source,
                "target": target,
                "sourceHandle": f"{source}-output-tools",
                "targetHandle": f"{target}-input-tools",
                "data": {"edgeType": kind},
            }
            for index, (source, target, kind) in enumerate(edges)
        ],
        "metadata": {"version": "1.0.0", "generator": "tests"},
    }
    return json.dumps(doc, separators=(",", ":"))


def inside(text: str, marker: str, start: int = 0) -> int:
    """Just inside the string value after `marker`, the first after `start`."""
    return text.index(marker, start) + len(marker)


def keystroke_spots(text: str) -> dict[str, tuple[int, str]]:
    """Where a one-line export is typed into, and what: its top level (as the outside driver
    types into the `id` at offset 9: it looks for a `"label": "` with a space), a label, an
    edge's end."""
    middle = len(text) // 2
    return {
        "the top-level id": (inside(text, '"id":"') + 3, "X"),
        "the name": (inside(text, '"name":"'), "X"),
        "before the nodes key": (text.index(',"nodes":') + 1, " "),
        "a label in the middle": (inside(text, '"label":"', middle), "X"),
        "an edge's target": (inside(text, '"target":"', text.index('"edges":')), "X"),
        "the metadata after the arrays": (inside(text, '"version":"', text.rindex("]")), "X"),
    }


def whole_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The whole reads done from now on (each one's text length)."""
    done: list[int] = []
    read: Callable[[WorkflowDocument], None] = WorkflowDocument._read_whole_text

    def counted(document: WorkflowDocument) -> None:
        done.append(len(document.buffer))
        read(document)

    monkeypatch.setattr(WorkflowDocument, "_read_whole_text", counted)
    return done


@pytest.mark.parametrize("made_by", ["the project's generator", "another tool"])
def test_a_keystroke_anywhere_in_a_one_line_10k_export_is_never_a_whole_read(
    made_by: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if made_by == "another tool":
        text = outside_shaped_export(10_000)
    else:
        text = render_minified(build_workflow(10_000).doc)
    assert "\n" not in text.rstrip("\n")
    document = WorkflowDocument(text, freeze_after_read=True)
    try:
        document.findings()
        reads = whole_reads(monkeypatch)
        spots = keystroke_spots(text)
        for where, (at, character) in spots.items():
            for typed in (character, ""):  # a character typed, then deleted
                document.apply_edit(at, at + (not typed), typed)
                document.findings()
                assert document.looks_like_flowdrop, where  # what an unnamed file is judged by
                assert not document.stats.full_reread, where
                assert reads == [], where
        assert document.text == text
        # Two characters left typed (the top level's, then a label's after it moved)…
        for where in ("the top-level id", "a label in the middle"):
            at = spots[where][0] + (where != "the top-level id")
            document.apply_edit(at, at, "Z")
            assert not document.stats.full_reread and reads == [], where
        # …and what it holds then is what a whole read of the same text holds.
        monkeypatch.undo()
        assert_like_a_whole_read(document, site_facts=False)
    finally:
        document.close()


# ----- YAML (Drupal config): the top level's own lines --------------------------------------

YAML_BASE = workflow("'Web Search'", "'web-search'", '"Calc 🤖"') + (
    "metadata:\n  created: 1\n"
    "input_ports:\n  -\n    name: q\n    node_id: http_request.1\n    port: x\n"
    "schema_version: 1.0.0\n"
)
YAML_TYPED = st.sampled_from(
    [
        "x",
        " ",
        "''",
        "'a b'",
        "",
        "'",
        '"',
        ":",
        "#",
        "-",
        "|",
        "&a ",
        "*a",
        "!!str ",
        "{",
        "}",
        "[1]",
        "\n",
        "  ",
        "\t",
        "\n  - y",
        "\nextra: 1",
        "\n  extra: 1",
        "\nlabel: ''",
        "数据",
        "\r\n",
        "\u2028",
    ]
)


def test_yaml_top_level_edits_equal_a_whole_read() -> None:
    """Anywhere outside the sequences, their keys' lines and the lines after them included
    (where an edit must be read whole): what is typed there gives what a whole read gives, and
    most such edits are read alone."""
    steps = {"top level": 0, "top level incremental": 0}

    @settings(deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def typed_at_the_top_level(data: st.DataObject) -> None:
        document = WorkflowDocument(YAML_BASE, syntax="yaml")
        text = YAML_BASE
        for _ in range(data.draw(st.integers(1, 10))):
            fresh = WorkflowDocument(text, syntax="yaml")
            spans = list(fresh.array_spans.values())
            spots = [at for at in range(len(text) + 1) if all(not a <= at < b for a, b in spans)]
            start = data.draw(st.sampled_from(spots))
            end = min(len(text), start + data.draw(st.sampled_from([0, 0, 1, 2, 6])))
            if any(start < b and end > a for a, b in spans):
                end = start
            new = "".join(data.draw(st.lists(YAML_TYPED, min_size=1, max_size=2)))
            text = text[:start] + new + text[end:]
            document.apply_edit(start, end, new)
            scratch = WorkflowDocument(text, syntax="yaml")
            assert comparable(document) == comparable(scratch)
            assert document.site_facts() == scratch.site_facts()
            assert document.looks_like_flowdrop == scratch.looks_like_flowdrop
            if fresh.incremental:
                steps["top level"] += 1
                steps["top level incremental"] += not document.stats.full_reread
        assert document.incremental_failures == []

    typed_at_the_top_level()
    print(steps)
    assert steps["top level incremental"] > steps["top level"] * 0.2, steps


@pytest.mark.parametrize(
    ("marker", "typed", "taken_as"),
    [
        ("label: 'Research", "x", "the top level"),  # a value before the sequences
        ("created: 1", "0", "the top level"),  # after them
        ("schema_version: 1.0.0", ".1", "the top level"),  # STORE-8
        ("nodes:", " # the nodes", "a whole read"),  # a sequence's key line
        ("edges:", "", "a whole read"),  # …the line that ends `nodes`, the key of `edges`
        ("metadata:", " ", "the items"),  # the line that ends `edges`: its last item's read
    ],
)
def test_a_yaml_top_level_edit_is_read_alone_off_the_sequences_lines(
    marker: str, typed: str, taken_as: str
) -> None:
    document = WorkflowDocument(YAML_BASE, syntax="yaml")
    at = YAML_BASE.index(marker) + len(marker) - (not typed)
    document.apply_edit(at, at + (not typed), typed)
    stats = document.stats
    assert taken_as == (
        "a whole read"
        if stats.full_reread
        else "the items"
        if stats.elements_reread
        else "the top level"
    )
    scratch = WorkflowDocument(document.text, syntax="yaml")
    assert comparable(document) == comparable(scratch)
    assert document.site_facts() == scratch.site_facts()
