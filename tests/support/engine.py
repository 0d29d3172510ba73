"""The engine's differential state machine (random edits; after each, the incremental analysis
must equal a from-scratch one) and the comparable views of a document it checks."""

from __future__ import annotations

import json
import random

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.engine.elements import Element
from flowdrop_lsp.core.syntax.json.parser import parse_json
from flowdrop_lsp.core.syntax.json.shapes import FULL
from flowdrop_lsp.core.syntax.tree import JArray, JObject
from tests.support.structure_edits import structure_edit

LABELS = [
    "Web Search",
    "web-search",
    "Café",
    "Caf",
    "数据",
    "データ",
    "🚀 Fetch",
    "fetch",
    "2FA Check",
    "",
    "Calc",
]


REFERENCES = ["web_search", "fetch", "Web Search", "caf", "unnamed_tool", "other"]


TYPES = ["http_request", "calculator", "toolbox", "toolbox", "agent", "my_site_thing"]


SETTINGS = Settings(edge_types=Settings().edge_types)


def make_node(rng: random.Random, number: int) -> str:
    node_type = rng.choice(TYPES)
    label = rng.choice(LABELS)
    shape = rng.randrange(3)
    if shape == 0:  # spec shorthand
        return json.dumps(
            {"id": f"n{number}", "type": node_type, "data": {"label": label}}, ensure_ascii=False
        )
    if shape == 1:  # Drupal shape
        return json.dumps(
            {
                "id": f"n{number}",
                "position": {"x": number, "y": 1},
                "data": {
                    "label": label,
                    # Strings that may refer to a tool name or label (CMP-9 points them out).
                    "config": {"k": [1, 2], "route": rng.choice(REFERENCES)},
                    "metadata": {"node_type_id": node_type},
                },
            },
            ensure_ascii=False,
            indent=2,
        )
    return json.dumps(
        {"id": f"n{number}", "type": node_type}, ensure_ascii=False
    )  # no label: type names it


def make_edge(rng: random.Random, count: int) -> str:
    source, target = f"n{rng.randrange(count + 1)}", f"n{rng.randrange(count + 1)}"
    kind = rng.randrange(4)
    if kind == 0:
        return json.dumps(
            {"source": source, "target": target, "data": {"edgeType": "tool_availability"}}
        )
    if kind == 1:
        return json.dumps(
            {
                "id": f"e{rng.randrange(99)}",
                "source": source,
                "target": target,
                "targetHandle": f"{target}-input-tool",
            }
        )
    if kind == 2:
        return json.dumps(
            {"source": source, "target": target, "targetHandle": f"{target}-input-tool_calls"}
        )
    return json.dumps({"source": source, "target": target, "data": {"edgeType": "tools"}})


def colliding_part(rng: random.Random, count: int, edges: list[str]) -> list[str]:
    """An agent (`n<count>`), a toolbox, same-named tools wired to it directly or through the
    box, and a gateway routing on the shared name; the agent's tool edges go into `edges`."""
    agent, box, gateway = count, count + 1, count + 2
    nodes = [
        json.dumps({"id": f"n{agent}", "type": "agent", "data": {"label": "Agent"}}),
        json.dumps({"id": f"n{box}", "type": "toolbox", "data": {"label": "Kit"}}),
        json.dumps(
            {
                "id": f"n{gateway}",
                "type": "switch_gateway",
                "data": {"config": {"branches": [{"value": "web_search"}, {"value": "fetch"}]}},
            }
        ),
    ]
    tool = {"data": {"edgeType": "tool_availability"}}
    edges.append(json.dumps({"source": f"n{box}", "target": f"n{agent}", **tool}))
    for number in range(count + 3, count + 3 + rng.randrange(2, 5)):
        label = rng.choice(["Web Search", "web-search", "fetch", "Fetch", "数据"])
        data: dict[str, object] = {"label": label}
        if rng.randrange(4) == 0:
            data = {"config": {"prompt": label}}  # no label: named after its type
        nodes.append(json.dumps({"id": f"n{number}", "type": "http_request", "data": data}))
        target = rng.choice([agent, box])
        edges.append(json.dumps({"source": f"n{number}", "target": f"n{target}", **tool}))
    return nodes


def make_document(rng: random.Random) -> str:
    count = rng.randrange(2, 9)
    nodes = [make_node(rng, i) for i in range(count)]
    edges = [make_edge(rng, count) for _ in range(rng.randrange(0, 12))]
    if rng.randrange(2):  # random wiring seldom collides: half the documents start with some
        nodes += colliding_part(rng, count, edges)
    return (
        '{\n  "id": "w",\n  "nodes": [\n    '
        + ",\n    ".join(nodes)
        + '\n  ],\n  "edges": [\n    '
        + ",\n    ".join(edges)
        + "\n  ]\n}\n"
    )


def elements(text: str, array: str) -> list[tuple[int, int]]:
    root = parse_json(text, shape=FULL).root
    value = root.get(array) if isinstance(root, JObject) else None
    return [(item.start, item.end) for item in value.items] if isinstance(value, JArray) else []


def value_starts(text: str, key: str) -> list[int]:
    """Where the string values of `"key": "…"` members begin (just inside the quote)."""
    marker = f'"{key}": "'
    return [i + len(marker) for i in range(len(text)) if text.startswith(marker, i)]


def comparable(document: WorkflowDocument) -> list[tuple[object, ...]]:
    return [
        (
            f.code,
            f.severity.value,
            f.message,
            f.span.start,
            f.span.end,
            tuple((r.span.start, r.span.end, r.message) for r in f.related),
            tuple(
                (
                    x.title,
                    x.preferred,
                    x.applicability,
                    tuple((e.span.start, e.span.end, e.new_text) for e in x.edits),
                )
                for x in f.fixes
            ),
            f.extra,
            f.locator_code,
            f.locator,  # `edge.N`: where the edge is now, after insertions before it too
        )
        for f in document.findings()
    ]


def graph_of(document: WorkflowDocument) -> list[tuple[object, ...]]:
    """What the document's elements put into the tool graph, element by element, in the
    current text's offsets: half-typed elements included (the tolerant read's recovery)."""
    graph: list[tuple[object, ...]] = []
    for name, owner in document.lists.items():
        for index, element in enumerate(owner.elements):
            model = element.model
            span = model.span.resolve() if model is not None else None
            read = (
                (model.id, model.type_id, model.label, model.tool_name)
                if isinstance(model, Node)
                else (model.id, model.source, model.target, model.is_tool)
                if isinstance(model, Edge)
                else None
            )
            where = (owner.start(index), owner.end(index))
            at = element.index if isinstance(element, Element) else index  # PLAIN: none kept
            graph.append((name, at, where, span, element.broken, read))
    return graph


STEPS = {"all": 0, "incremental": 0, "broken_incremental": 0}


class IncrementalEqualsScratch(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.text = ""
        self.document: WorkflowDocument | None = None
        self.rng = random.Random(0)
        self.whole_text = ""
        self.incremental_steps = 0
        # An element being typed: where the next character goes, and what is left to type.
        self.cursor = -1
        self.to_type = ""

    def edit(self, start: int, end: int, new_text: str) -> None:
        assert self.document is not None
        self.text = self.text[:start] + new_text + self.text[end:]
        self.document.apply_edit(start, end, new_text)
        if self.to_type and start <= self.cursor:  # the text being typed moves, or is gone
            if end <= self.cursor and not (start == end == self.cursor):
                self.cursor += len(new_text) - (end - start)
            else:
                self.to_type = ""

    @initialize(seed=st.integers(0, 10**6))
    def start(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.text = make_document(self.rng)
        self.whole_text = self.text
        self.document = WorkflowDocument(self.text, SETTINGS)

    @rule(data=st.data())
    def edit_a_label(self, data: st.DataObject) -> None:
        spots = value_starts(self.text, "label")
        if not spots:
            return
        at = data.draw(st.sampled_from(spots))
        close = self.text.find('"', at)
        cut = data.draw(st.integers(0, max(0, close - at)))
        new = data.draw(
            st.sampled_from(["", "x", "-", " ", "é", "🚀", "Web Search", "web", "\\u002d", "S"])
        )
        self.edit(at, at + cut, new)

    @rule(data=st.data())
    def insert_an_element(self, data: st.DataObject) -> None:
        array = data.draw(st.sampled_from(["nodes", "edges"]))
        items = elements(self.text, array)
        count = len(elements(self.text, "nodes"))
        element = (
            make_node(self.rng, count + self.rng.randrange(3))
            if array == "nodes"
            else make_edge(self.rng, count)
        )
        if not items:
            return
        where = data.draw(st.integers(0, len(items)))
        if where == len(items):
            self.edit(items[-1][1], items[-1][1], ",\n    " + element)
        else:
            self.edit(items[where][0], items[where][0], element + ",\n    ")

    @rule(data=st.data())
    def delete_elements(self, data: st.DataObject) -> None:
        array = data.draw(st.sampled_from(["nodes", "edges"]))
        items = elements(self.text, array)
        if len(items) < 2:
            return
        first = data.draw(st.integers(0, len(items) - 2))
        last = data.draw(st.integers(first, min(first + 2, len(items) - 2)))
        # Delete items first..last with the separator after them.
        self.edit(items[first][0], items[last + 1][0], "")

    @rule(data=st.data())
    def retarget_an_edge(self, data: st.DataObject) -> None:
        spots = value_starts(self.text, "target")
        if not spots:
            return
        at = data.draw(st.sampled_from(spots))
        close = self.text.find('"', at)
        count = len(elements(self.text, "nodes"))
        self.edit(at, close, f"n{data.draw(st.integers(0, count))}")

    @rule(data=st.data())
    def cut_and_paste(self, data: st.DataObject) -> None:
        items = elements(self.text, "nodes")
        if len(items) < 3:
            return
        i = data.draw(st.integers(0, len(items) - 2))
        block = self.text[items[i][0] : items[i + 1][0]]  # an element with its separator
        self.edit(items[i][0], items[i + 1][0], "")
        items = elements(self.text, "nodes")
        j = data.draw(st.integers(0, len(items) - 1))
        self.edit(items[j][0], items[j][0], block)

    @rule(data=st.data())
    def break_the_json(self, data: st.DataObject) -> None:
        self.whole_text = self.text
        at = data.draw(st.integers(0, len(self.text)))
        self.edit(
            at,
            min(len(self.text), at + data.draw(st.integers(0, 3))),
            data.draw(st.sampled_from(["", "{", '"', ",", "]", "}x"])),
        )

    @rule(data=st.data())
    def start_typing_an_element(self, data: st.DataObject) -> None:
        """A new line opened before an element (or after the last one), where a whole element
        will be typed a few characters at a time (`type_on`)."""
        array = data.draw(st.sampled_from(["nodes", "edges"]))
        items = elements(self.text, array)
        if not items:
            return
        count = len(elements(self.text, "nodes"))
        element = (
            make_node(self.rng, count + self.rng.randrange(3)).replace("\n", " ")
            if array == "nodes"
            else make_edge(self.rng, count)
        )
        where = data.draw(st.integers(0, len(items)))
        if where == len(items):
            self.edit(items[-1][1], items[-1][1], ",\n    ")
            self.cursor, self.to_type = items[-1][1] + 6, element
        else:
            self.edit(items[where][0], items[where][0], "\n    ")
            self.cursor, self.to_type = items[where][0], element + ","

    @precondition(lambda self: bool(self.to_type))
    @rule(data=st.data())
    def type_on(self, data: st.DataObject) -> None:
        typed = self.to_type[: data.draw(st.integers(1, 4))]
        at = self.cursor
        self.to_type = self.to_type[len(typed) :]
        self.edit(at, at, typed)
        self.cursor = at + len(typed)

    @rule(data=st.data())
    def half_type_an_element(self, data: st.DataObject) -> None:
        """Delete one brace, quote or comma inside the arrays, or add a stray one: the
        breakages of an element being edited."""
        spots = [
            at
            for array in ("nodes", "edges")
            for first, last in elements(self.text, array)
            for at in range(first, min(last + 2, len(self.text)))
            if self.text[at] in '{}",'
        ]
        if not spots:
            return
        at = data.draw(st.sampled_from(spots))
        if data.draw(st.booleans()):
            self.edit(at, at + 1, "")
        else:
            self.edit(at, at, data.draw(st.sampled_from([",", "{", '"', "\n    {"])))

    @rule(seed=st.integers(0, 2**32))
    def edit_the_structure(self, seed: int) -> None:
        """Spaces, tabs, control characters, line breaks of every kind, emoji or CJK typed or
        deleted where a line's structure lives (tests/support/structure_edits.py)."""
        self.whole_text = self.text
        self.edit(*structure_edit(random.Random(seed), self.text))

    @precondition(lambda self: bool(self.whole_text) and self.whole_text != self.text)
    @rule()
    def repair(self) -> None:
        assert self.document is not None
        self.edit(0, len(self.text), self.whole_text)

    @rule(data=st.data())
    def a_keystroke_sent_wide(self, data: st.DataObject) -> None:
        # A client that sends a keystroke as its whole line (a line diff) or the whole text:
        # the engine leaves out what did not change, and must end where the keystroke would.
        spots = value_starts(self.text, "label")
        if not spots:
            return
        at = data.draw(st.sampled_from(spots)) + data.draw(st.integers(0, 3))
        at = min(at, len(self.text))
        typed = self.text[:at] + data.draw(st.sampled_from(["x", "🚀", '"', "数"])) + self.text[at:]
        if data.draw(st.booleans()):
            self.edit(0, len(self.text), typed)
            return
        line_start = self.text.rfind("\n", 0, at) + 1
        line_end = self.text.find("\n", at)
        line_end = len(self.text) if line_end < 0 else line_end + 1
        grown = len(typed) - len(self.text)
        self.edit(line_start, line_end, typed[line_start : line_end + grown])

    @rule(data=st.data())
    def several_changes_at_once(self, data: st.DataObject) -> None:
        # A didChange with several content changes: applied one after the other, as LSP says.
        for _ in range(data.draw(st.integers(2, 4))):
            spots = value_starts(self.text, "label")
            if not spots:
                return
            at = data.draw(st.sampled_from(spots))
            self.edit(at, at, data.draw(st.sampled_from(["a", "-", "数"])))

    @invariant()
    def equals_a_from_scratch_analysis(self) -> None:
        if self.document is None:
            return
        assert self.document.text == self.text
        assert self.document.incremental_failures == []
        STEPS["all"] += 1
        scratch = WorkflowDocument(self.text, SETTINGS)
        expected = comparable(scratch)
        if not self.document.stats.full_reread:
            STEPS["incremental"] += 1
            STEPS["broken_incremental"] += any(f[0] == "FD-SYNTAX" for f in expected)
        assert comparable(self.document) == expected
        if scratch.incremental:  # (a document read whole has no element list to compare)
            assert graph_of(self.document) == graph_of(scratch)
