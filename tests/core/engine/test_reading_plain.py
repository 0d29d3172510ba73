"""Items of `nodes`/`edges` that are not objects (a number, a string, an array…) cost no element,
model or finding each (engine.PLAIN): their FD-SCHEMA findings are made from their text when
findings are collected, for the first ones only (the cap counts the rest). What is checked:
the findings are exactly those of a from-scratch read after every edit (the incremental state
machine with non-object items inserted, edited, turned into objects and back, past the cap),
positions stay exact with emoji and CJK before them, and no element is made for such an item.
(No timing: bench/pathological.py.)"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import rule, run_state_machine_as_test

from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.engine.elements import PLAIN, Element
from flowdrop_lsp.core.rules.base import FINDINGS_PER_GROUP
from flowdrop_lsp.core.text.positions import EditableText
from tests.support.engine import IncrementalEqualsScratch, elements

CAP = FINDINGS_PER_GROUP
NON_OBJECTS = ["7", "-2.5e3", '"🎉 ラベル"', "true", "null", "[1, {}]", '"text"', "[]", "1E400"]


def schema_findings(document: WorkflowDocument) -> list[tuple[str, int, int, object]]:
    return [
        (f.message, f.span.start, f.span.end, f.extra)
        for f in document.findings()
        if f.code == "FD-SCHEMA"
    ]


class WithNonObjectItems(IncrementalEqualsScratch):
    """The engine's state machine, plus edits that put non-object items into the arrays."""

    @rule(data=st.data())
    def insert_non_object_items(self, data: st.DataObject) -> None:
        array = data.draw(st.sampled_from(["nodes", "edges"]))
        items = elements(self.text, array)
        if not items:
            return
        # Sometimes enough of them to pass the cap (its summary then counts the rest).
        count = data.draw(st.sampled_from([1, 2, CAP + 3]))
        block = ", ".join(data.draw(st.sampled_from(NON_OBJECTS)) for _ in range(count))
        where = data.draw(st.integers(0, len(items)))
        if where == len(items):
            self.edit(items[-1][1], items[-1][1], ", " + block)
        else:
            self.edit(items[where][0], items[where][0], block + ", ")

    @rule(data=st.data())
    def edit_a_non_object_item(self, data: st.DataObject) -> None:
        """Change an item that is not an object: another value, an object, a broken value."""
        spots = [
            (start, end)
            for array in ("nodes", "edges")
            for start, end in elements(self.text, array)
            if self.text[start] != "{"
        ]
        if not spots:
            return
        start, end = data.draw(st.sampled_from(spots))
        new = data.draw(st.sampled_from([*NON_OBJECTS, "{}", '{"id": "n1"}', "1x", '"', "{"]))
        inside = data.draw(st.booleans()) and end - start > 2
        if inside:  # a keystroke inside it (a digit typed into a number, a character in a string)
            self.edit(start + 1, start + 1, data.draw(st.sampled_from(["4", "é", "🚀", ","])))
        else:
            self.edit(start, end, new)

    @rule(data=st.data())
    def turn_an_object_into_a_number(self, data: st.DataObject) -> None:
        array = data.draw(st.sampled_from(["nodes", "edges"]))
        objects = [(s, e) for s, e in elements(self.text, array) if self.text[s] == "{"]
        if not objects:
            return
        start, end = data.draw(st.sampled_from(objects))
        self.edit(start, end, "42")


@pytest.mark.hypothesis
def test_incremental_equals_from_scratch_with_non_object_items(request) -> None:
    examples = 200 if request.config.getoption("--slow") else 25
    # (run_state_machine_as_test: the parent class may already carry a @settings decorator.)
    run_state_machine_as_test(
        WithNonObjectItems,
        settings=settings(
            max_examples=examples,
            stateful_step_count=15,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        ),
    )


def test_a_non_object_item_makes_no_element() -> None:
    text = json.dumps({"nodes": [{"id": "a"}, 5, "x"], "edges": list(range(1000))})
    document = WorkflowDocument(text)
    assert document.lists["edges"].elements == [PLAIN] * 1000
    assert [type(e) for e in document.lists["nodes"].elements] == [
        Element,
        type(PLAIN),
        type(PLAIN),
    ]
    assert document.lists["edges"].plain == 1000 and document.lists["nodes"].plain == 2
    found = schema_findings(document)
    assert len(found) == 2 + CAP + 1
    assert found[-1][3] == (("capped", 1000 - CAP),)


def test_the_count_follows_edits_past_the_cap() -> None:
    text = json.dumps({"nodes": [], "edges": list(range(CAP + 25))})
    document = WorkflowDocument(text)
    # Turn item 3 into an object, then remove items 10..19 (with their separators).
    at = text.index(", 3,") + 2
    document.apply_edit(at, at + 1, '{"source": "a"}')
    text = text[:at] + '{"source": "a"}' + text[at + 1 :]
    first, last = text.index(", 10,") + 2, text.index(", 20,") + 2
    document.apply_edit(first, last, "")
    text = text[:first] + text[last:]
    assert not document.stats.full_reread
    assert document.text == text
    assert schema_findings(document) == schema_findings(WorkflowDocument(text))
    capped = [f for f in schema_findings(document) if f[3]]
    # 125 numbers, one made an object (its own finding: `target` missing), 10 deleted: 114
    # numbers plus that object's finding, 100 listed.
    assert capped[0][3] == (("capped", 114 + 1 - CAP),)


def test_positions_after_emoji_and_cjk_are_exact() -> None:
    text = '{"nodes": [{"id": "🎉", "data": {"label": "数据🚀"}}], "edges": ["🎉🎉", 12, "ラ"]}'
    document = WorkflowDocument(text)
    found = [f for f in document.findings() if f.code == "FD-SCHEMA"]
    assert [text[f.span.start : f.span.end] for f in found] == ['"🎉🎉"', "12", '"ラ"']
    buffer = EditableText(text)
    # Four emoji (🎉 🚀 🎉🎉) before `12`, two UTF-16 code units each: it starts four units
    # later than its code-point column.
    start = found[1].span.start
    assert buffer.position(start, "utf-16")[1] == buffer.position(start)[1] + 4
    assert found[0].message == "edges[0]: \"🎉🎉\" is not of type 'object'"


def test_yaml_items_stay_elements() -> None:
    """YAML reads a scalar item by its indentation and style: it keeps its element (re-read
    from its text alone it might read differently)."""
    text = "id: w\nnodes:\n  - 5\n  - |\n    block\nedges: []\n"
    document = WorkflowDocument(text, syntax="yaml")
    assert document.lists["nodes"].plain == 0
    assert all(isinstance(e, Element) for e in document.lists["nodes"].elements)
    assert [f.message for f in document.findings() if f.code == "FD-SCHEMA"] == [
        "nodes[0]: 5 is not of type 'object'",
        "nodes[1]: \"block\\n\" is not of type 'object'",  # YAML's double-quoted escape
    ]
