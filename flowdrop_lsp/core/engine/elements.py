"""The elements of `nodes` and `edges` as the engine keeps them: each with what was read from
it and the anchor its spans move with (`Element`), the shared stand-in for items that are not
objects (`PLAIN`), one array's elements with their current offsets (`ElementList`), and what
re-reads an element's current text for what the fast path left for later (`ElementSource`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.element_facts import MemberSpans, StringOffsets
from flowdrop_lsp.core.domain.model import DataString, Edge, Node
from flowdrop_lsp.core.domain.tree_reading import (
    _Spans,
    data_strings,
    list_item_spans,
    read_edge,
    read_node,
)
from flowdrop_lsp.core.engine.rendering import render
from flowdrop_lsp.core.engine.string_offsets import KeptOffsets
from flowdrop_lsp.core.findings import Finding, TextEdit
from flowdrop_lsp.core.operations import Operation
from flowdrop_lsp.core.syntax.reader import WorkflowReader
from flowdrop_lsp.core.syntax.tree import (
    JObject,
    JsonValue,
    JString,
    OpaqueValue,
    child_at,
    to_python,
)
from flowdrop_lsp.core.text.changes import unchanged_ends
from flowdrop_lsp.core.text.positions import EditableText, Span
from flowdrop_lsp.core.text.shifts import PendingShift

ARRAYS = ("nodes", "edges")
KIND = {"nodes": "node", "edges": "edge"}


class ElementSource:
    """Re-reads an element from its current text, for what the fast path left for later: its
    model's spans, the string values in a node's `data`, the items of a list there. (It holds
    the document's buffer, reader and settings, never the document: no cycle through it.)"""

    __slots__ = ("buffer", "reader", "settings", "_last_read", "_kept_offsets")

    def __init__(self, buffer: EditableText, reader: WorkflowReader, settings: Settings) -> None:
        self.buffer, self.reader, self.settings = buffer, reader, settings
        # The last element text re-read and its value: a rule locating the label, then the
        # name, then the entry of one definition re-reads the same text three times otherwise.
        self._last_read: tuple[str, int, JsonValue | None] | None = None
        # Where the characters of the strings asked for lately are written, moved by the edits
        # made since (a finding in a template being typed asks after every keystroke).
        self._kept_offsets = KeptOffsets()

    def reread_value(self, text: str, column: int) -> JsonValue | None:
        last = self._last_read
        if last is not None and last[1] == column and (last[0] is text or last[0] == text):
            return last[2]
        value = self.reader.reread_value(text, column)
        self._last_read = (text, column, value)
        return value

    def text(self, owner: ElementList, index: int) -> tuple[str, int]:
        """The current text of item `index` of `owner`, and the column it starts at (when the
        format cares)."""
        start = owner.start(index)
        column = self.buffer.position(start)[1] if self.reader.needs_column else 0
        return self.buffer.slice(start, owner.end(index)), column

    def spans(self, element: Element) -> Any:
        """The spans of an element read by the fast path, re-read from its current text (in the
        coordinates it was created in, so that they move with it like any other)."""
        text, column = self.text(element.owner, element.index)
        value, _ = self.reader.reread_element(text, column, element.owner.name)
        assert value is not None
        spans = _Spans(element.created_start, element)
        if element.owner.name == "nodes":
            return read_node(element.index, value, self.settings, text, spans).spans
        return read_edge(element.index, value, self.settings, spans).spans

    def strings(self, element: Element, values: frozenset[str]) -> tuple[DataString, ...]:
        """The string values in a node's `data` equal to one of `values`, re-read from its
        current text (spans in the coordinates it was created in, like `spans`). A text that
        cannot hold one is decided without parsing (the usual case)."""
        text, column = self.text(element.owner, element.index)
        if not self.reader.may_hold(text, values):
            return ()
        spans = _Spans(element.created_start, element)
        return data_strings(self.reread_value(text, column), spans, values)

    def items(self, element: Element, path: tuple[str | int, ...]) -> tuple[Span, ...]:
        """The spans of the items of the list at `path` below a node's `data`, re-read from its
        current text (like `strings`)."""
        text, column = self.text(element.owner, element.index)
        spans = _Spans(element.created_start, element)
        return list_item_spans(self.reread_value(text, column), spans, path)

    def _at(
        self, element: Element, path: tuple[str | int, ...]
    ) -> tuple[str, int, JsonValue | None, JObject | None]:
        """The element's current text, its column, the value at `path` and (a member's) the
        mapping holding it."""
        text, column = self.text(element.owner, element.index)
        value = self.reread_value(text, column)
        parent: JObject | None = None
        for step in path:
            parent = value if isinstance(value, JObject) else None
            value = child_at(value, step)
        return text, column, value, parent

    def locate(self, element: Element, path: tuple[str | int, ...]) -> MemberSpans | None:
        _text, _column, value, parent = self._at(element, path)
        spans = _Spans(element.created_start, element)
        found = spans(value)
        if found is None:
            return None
        last = path[-1] if path else None
        member = parent.member(last) if parent is not None and isinstance(last, str) else None
        key = spans(member.key) if member is not None else None
        return MemberSpans(key, found)

    def strings_offsets(
        self, element: Element, paths: tuple[tuple[str | int, ...], ...]
    ) -> tuple[StringOffsets | None, ...]:
        """Where each character of the strings at `paths` is written (ElementEditor), from one
        re-read of the element's current text; in the coordinates it was created in, anchored
        to it, like `locate`'s spans. A string asked for before is not mapped again when the
        edits since were within its characters or beside it (engine/string_offsets.py)."""
        text, column = self.text(element.owner, element.index)
        root = self.reread_value(text, column)
        base = element.created_start
        found: list[StringOffsets | None] = []
        for path in paths:
            value = root
            for step in path:
                value = child_at(value, step)
            offsets = (
                self._kept_offsets.offsets(
                    (element.owner.name, element.index, path),
                    text,
                    column,
                    value,
                    self.reader.string_offsets,
                )
                if isinstance(value, JString)
                else None
            )
            if value is None or offsets is None:
                found.append(None)
                continue
            span = Span(value.start + base, value.end + base, element)
            found.append(StringOffsets(span, offsets.shifted(base)))
        return tuple(found)

    def member_removal(
        self, element: Element, path: tuple[str | int, ...], key: str
    ) -> tuple[Span, str] | None:
        text, column, value, _parent = self._at(element, path)
        if not isinstance(value, JObject) or value.member(key) is None:
            return None
        if self._repeated(element, value):
            return None
        removed = self.reader.member_removal(text, column, value, key)
        if removed is None:
            return None
        start, end, written = removed
        base = element.created_start
        return Span(start + base, end + base, element), written

    def member_insertion(
        self, element: Element, path: tuple[str | int, ...], key: str, new: Any
    ) -> tuple[Span, str] | None:
        text, column, value, _parent = self._at(element, path)
        if not isinstance(value, JObject) or self._repeated(element, value):
            return None
        inserted = self.reader.member_insertion(text, column, value, key, new)
        if inserted is None:
            return None
        start, end, written = inserted
        base = element.created_start
        return Span(start + base, end + base, element), written

    def _repeated(self, element: Element, value: JsonValue) -> bool:
        """Whether `value` (read from the element's text) is a mapping YAML aliases repeat
        elsewhere: editing it would change every place that repeats it."""
        start = element.owner.start(element.index)
        return self.reader.repeated(start + value.start, start + value.end)

    def members_insertion(
        self,
        element: Element,
        path: tuple[str | int, ...],
        members: tuple[tuple[str, Any], ...],
    ) -> tuple[Span, str] | None:
        """The members inserted one after the other into the element's text (each re-read, so
        each is written into the mapping as the one before left it), as one edit: the stretch
        where the text before and after differ."""
        text, column, value, _parent = self._at(element, path)
        if not isinstance(value, JObject) or self._repeated(element, value) or not members:
            return None
        current = text
        for key, new in members:
            obj = self.reader.reread_value(current, column)
            for step in path:
                obj = child_at(obj, step)
            if not isinstance(obj, JObject):
                return None
            inserted = self.reader.member_insertion(current, column, obj, key, new)
            if inserted is None:
                return None
            start, end, written = inserted
            current = current[:start] + written + current[end:]
        same_start, same_end = unchanged_ends(text, current)
        base = element.created_start
        span = Span(same_start + base, len(text) - same_end + base, element)
        return span, current[same_start : len(current) - same_end]

    def item_removal(self, element: Element) -> Span | None:
        """Deleting the element with one separator: from the end of the element before it to
        its own end, or (the first) from its start to the next one's start. The same spans serve
        JSON (`, {…}`) and YAML block sequences (the next item's content moves onto the dash);
        the only element is never removed. Anchored to the element, as its own spans are."""
        owner, index = element.owner, element.index
        if len(owner) < 2 or owner.elements[index] is not element:
            return None
        start, end = owner.start(index), owner.end(index)
        if index > 0:
            start = owner.end(index - 1)
        else:
            end = owner.start(1)
        shift = element.offset()
        return Span(start - shift, end - shift, element)


class Element:
    """One element of `nodes` or `edges`: what was read from it, and the anchor its spans move
    with. Its spans were made when `created_start` was its start offset."""

    __slots__ = (
        "owner",
        "index",
        "created_start",
        "model",
        "findings",
        "schema",
        "broken",
        "spans",
        "shaped",
    )

    def __init__(self, owner: ElementList, index: int, created_start: int) -> None:
        self.owner = owner
        self.index = index
        self.created_start = created_start
        self.model: Node | Edge | None = None
        self.findings: list[Finding] = []
        self.schema: list[tuple[list[Any], str, Span]] = []
        # A syntax problem inside (or right at its end: cut short by the array's ']'): the
        # element may be half-typed, and then what follows it decides where it ends (an edit
        # just after it is re-read with it).
        self.broken = False
        # The model's spans when it was read by the fast path: re-read from the element's text
        # when first asked for (`get`; the element is its model's `detail`, so that a million
        # elements need no SpanDetail and callback each).
        self.spans: Any = None
        # Whether it looks like a FlowDrop node (edge) (core.syntax.shape): judged when it is
        # read inside the sniffed window (the first SNIFFED_ITEMS), else when first asked for.
        self.shaped: bool | None = None

    def offset(self) -> int:
        starts = self.owner.starts
        if starts.marks:
            return starts.value(self.index) - self.created_start
        # No shift pending (a document just read): the graph asks this for every element it
        # adds, several times, so the common case is inlined.
        return starts.items[self.index] - self.created_start

    def get(self) -> Any:
        """The spans of the model read whole by the fast path (model.SpanSource)."""
        spans = self.spans
        if spans is None:
            spans = self.spans = self.owner.source.spans(self)
        return spans

    def strings(self, values: frozenset[str]) -> tuple[DataString, ...]:
        """The string values in the node's `data` equal to one of `values` (model.StringFinder)."""
        return self.owner.source.strings(self, values)

    def items(self, path: tuple[str | int, ...]) -> tuple[Span, ...]:
        """The spans of the items of the list at `path` below `data` (model.ItemFinder)."""
        return self.owner.source.items(self, path)

    # model.ElementEditor: what a rule's finding or fix needs of the element's text.
    def locate(self, path: tuple[str | int, ...]) -> MemberSpans | None:
        return self.owner.source.locate(self, path)

    def string_offsets(self, path: tuple[str | int, ...]) -> StringOffsets | None:
        return self.owner.source.strings_offsets(self, (path,))[0]

    def strings_offsets(
        self, paths: tuple[tuple[str | int, ...], ...]
    ) -> tuple[StringOffsets | None, ...]:
        return self.owner.source.strings_offsets(self, paths)

    def member_removal(self, path: tuple[str | int, ...], key: str) -> tuple[Span, str] | None:
        return self.owner.source.member_removal(self, path, key)

    def member_insertion(
        self, path: tuple[str | int, ...], key: str, value: Any
    ) -> tuple[Span, str] | None:
        return self.owner.source.member_insertion(self, path, key, value)

    def position(self) -> int:
        return self.index

    def members_insertion(
        self, path: tuple[str | int, ...], members: tuple[tuple[str, Any], ...]
    ) -> tuple[Span, str] | None:
        return self.owner.source.members_insertion(self, path, members)

    def item_removal(self) -> Span | None:
        return self.owner.source.item_removal(self)

    def render(self, operations: Sequence[Operation]) -> tuple[TextEdit, ...] | None:
        return render(self.owner.source, self, operations)

    def value(self) -> Any:
        source = self.owner.source
        text, column = source.text(self.owner, self.index)
        return to_python(source.reread_value(text, column))

    @property
    def has_findings(self) -> bool:
        return bool(self.findings or self.schema)

    def release(self) -> None:
        """Drop what was read from the element. Its model (through the lazy-span callbacks) and
        its findings (through their anchored spans) point back at it: clearing them breaks those
        cycles, so that reference counting frees a discarded analysis at once."""
        self.model = None
        self.findings = []
        self.schema = []
        self.spans = None


class PlainItem:
    """An item of `nodes`/`edges` that is not an object (a number, a string, an array…), read
    without syntax problems (JSON). It is no node or edge, and its one finding (FD-SCHEMA
    "… is not of type 'object'") depends on its text alone, so it is made from that text when
    findings are collected, and only for the first ones (the rest are counted: the cap). One
    shared instance, PLAIN, stands for every such item: a million numbers in `edges` cost a
    list slot each, not an element, a model and a finding each."""

    __slots__ = ()
    model: None = None
    broken = False
    has_findings = False

    def release(self) -> None:
        """Nothing was read from it."""


PLAIN = PlainItem()


def is_plain(value: JsonValue) -> bool:
    """Whether an item read from `nodes`/`edges` is not an object."""
    if isinstance(value, OpaqueValue):
        return not isinstance(value.value, dict)
    return not isinstance(value, JObject)


class ElementList:
    """The elements of one array, in order, with their current start and end offsets, and the
    syntax findings between them (`gaps`: a stray comma, a missing one; absolute spans)."""

    def __init__(self, name: str, source: ElementSource) -> None:
        self.name = name
        self.source = source  # what re-reads its elements' text
        self.elements: list[Element | PlainItem] = []
        self.plain = 0  # how many of `elements` are PLAIN
        self.broken = 0  # how many of `elements` are broken (half-typed)
        self.starts = PendingShift([])
        self.ends = PendingShift([])
        self.gaps: list[Finding] = []

    def __len__(self) -> int:
        return len(self.elements)

    def start(self, index: int) -> int:
        return self.starts.value(index)

    def end(self, index: int) -> int:
        return self.ends.value(index)

    def shift_from(self, index: int, delta: int) -> None:
        """Move elements `index`… by `delta`."""
        if delta:
            self.starts.shift_from(index, delta)
            self.ends.shift_from(index, delta)

    def release(self) -> None:
        """Release every element and forget them (each element's `owner` points back here)."""
        for element in self.elements:
            element.release()
        self.elements = []
        self.plain = 0
        self.broken = 0
