"""The analysis engine: one workflow document, kept analysed as it is edited.

`WorkflowDocument(text)` reads the whole text once; `apply_edit(start, end, new_text)` then
updates only what the edit touched:

- the text and its line starts (core.text.positions.EditableText: cost independent of document size);
- the elements of `nodes` / `edges` the edit falls in: an edit inside one element re-reads that
  element alone; an edit between or across elements re-reads just that stretch of the array;
  everything after it moves by the edit's length without being touched (its spans are anchored
  to its element, see text.Span);
- the tool graph (graph.ToolGraph) by removing the old and adding the new elements, and the
  per-consumer rules (CMP-9, CMP-10) for only the consumers the change can reach.

A syntax error inside `nodes`/`edges` stays local (JSON): the stretch it is in is re-read as a
whole read reads it, so a half-typed element becomes an element (what the tolerant parser
recovers of it, with its FD-SYNTAX finding, anchored to it) and a stray comma a finding between
elements (`ElementList.gaps`); the next edits there re-read that stretch again. An edit that
breaks the structure above the elements (an array no longer closed by its ']', a token running
past it), an edit outside the arrays' interiors, or any syntax error in YAML falls back to
re-reading everything; once the structure is whole again, the next edit is incremental again.
`analyze()` is this engine reading a text from scratch, so the CLI, the server and the
incremental path share every line of analysis; `stats` says what the last change re-did.
"""

from __future__ import annotations

import gc
from bisect import bisect_right
from collections.abc import Container, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.graph import ToolGraph
from flowdrop_lsp.core.domain.model import (
    DataString,
    Edge,
    Node,
    _Spans,
    data_strings,
    list_item_spans,
    looks_like_workflow,
    read_edge,
    read_edge_value,
    read_node,
    read_node_value,
)
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import FINDINGS_PER_GROUP, RuleContext, cap_with_summary
from flowdrop_lsp.core.rules.document import SCHEMA, not_workflow_finding, syntax_findings
from flowdrop_lsp.core.rules.registry import CONSUMER_RULES, EDGE_RULES, GRAPH_RULES
from flowdrop_lsp.core.syntax.json.parser import ARRAY_CUT_SHORT, OBJECT_CUT_SHORT, JOpaque
from flowdrop_lsp.core.syntax.json.scanner import ScannedArray
from flowdrop_lsp.core.syntax.reader import REGION_CONTEXT, WorkflowReader, reader_for
from flowdrop_lsp.core.syntax.schema import (
    document_is_valid,
    element_problems,
    items_that_may_be_invalid,
    path_text,
    root_problems,
)
from flowdrop_lsp.core.syntax.shape import SNIFFED_ITEMS, flowdrop_shaped
from flowdrop_lsp.core.syntax.tree import JArray, JObject, JsonValue, SyntaxProblem, to_python
from flowdrop_lsp.core.text.positions import EditableText, PendingShift, Span

ARRAYS = ("nodes", "edges")
_KIND = {"nodes": "node", "edges": "edge"}


@dataclass
class ChangeStats:
    """What the last change re-did (for `flowdrop.stats` and the recompute-count tests)."""

    full_reread: bool = True
    elements_reread: int = 0
    consumers_recomputed: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "fullReread": self.full_reread,
            "elementsReread": self.elements_reread,
            "consumersRecomputed": self.consumers_recomputed,
        }


@dataclass(frozen=True)
class _Plan:
    """The elements [first, stop) of `array` an edit touches (old offsets); `inside_one` when
    it falls strictly inside one element without syntax problems."""

    array: str
    first: int
    stop: int
    inside_one: bool


class ElementSource:
    """Re-reads an element from its current text, for what the fast path left for later: its
    model's spans, the string values in a node's `data`, the items of a list there. (It holds
    the document's buffer, reader and settings, never the document: no cycle through it.)"""

    __slots__ = ("buffer", "reader", "settings")

    def __init__(self, buffer: EditableText, reader: WorkflowReader, settings: Settings) -> None:
        self.buffer, self.reader, self.settings = buffer, reader, settings

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
        return data_strings(self.reader.reread_value(text, column), spans, values)

    def items(self, element: Element, path: tuple[str | int, ...]) -> tuple[Span, ...]:
        """The spans of the items of the list at `path` below a node's `data`, re-read from its
        current text (like `strings`)."""
        text, column = self.text(element.owner, element.index)
        spans = _Spans(element.created_start, element)
        return list_item_spans(self.reader.reread_value(text, column), spans, path)


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


def _is_plain(value: JsonValue) -> bool:
    """Whether an item read from `nodes`/`edges` is not an object."""
    if isinstance(value, JOpaque):
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


def _shift_span(span: Span, at: int, delta: int) -> Span:
    return Span(span.start + delta, span.end + delta) if span.start >= at else span


def _shift_finding(finding: Finding, at: int, delta: int) -> Finding:
    """A root-level finding (absolute spans) after an edit of length `delta` before `at`."""
    return finding.map_spans(lambda span: _shift_span(span, at, delta))


def resolve_finding(finding: Finding) -> Finding:
    """The finding with every span made absolute in the current text."""
    return finding.map_spans(lambda span: span.resolve() if span.base is not None else span)


def apply_settings(findings: Iterable[Finding], settings: Settings) -> tuple[Finding, ...]:
    """Drop ignored rules, apply per-rule severities, and sort by position."""
    kept = []
    for finding in findings:
        if finding.code in settings.ignore:
            continue
        severity = settings.severity.get(finding.code)
        kept.append(
            replace(finding, severity=severity)
            if severity and severity != finding.severity
            else finding
        )
    kept.sort(key=Finding.sort_key)
    return tuple(kept)


class WorkflowDocument:
    def __init__(
        self,
        text: str,
        settings: Settings | None = None,
        *,
        allow_comments: bool = False,
        syntax: str = "json",
        freeze_after_read: bool = False,
    ) -> None:
        self.settings = settings or Settings()
        # See `_load`: only for an owner that calls `close()` when it drops the document.
        self.freeze_after_read = freeze_after_read
        # The only part that knows the format (core.syntax.reader): "json" (JSONC with
        # `allow_comments`) or "yaml" (Drupal config).
        self.reader = reader_for(syntax, allow_comments)
        self.buffer = EditableText(text)
        self._source = ElementSource(self.buffer, self.reader, self.settings)
        self._stats = ChangeStats()
        self.incremental_failures: list[str] = []
        self._load()

    # ----- reading ----------------------------------------------------------------------------
    @property
    def text(self) -> str:
        return self.buffer.text

    def _load(self) -> None:
        """Read the whole text from scratch, without the cyclic garbage collector: a large
        document allocates millions of objects, and the collector would walk them again and
        again (half the time of a large read, measured) while finding nothing to free.

        With `freeze_after_read`, everything is then frozen (gc.freeze): the collector never
        walks the analysis again, where otherwise its first collection after the read walks
        it whole (a pause of 100-300 ms at 10k nodes). Frozen objects are only freed by
        reference counting, which is why the analysis is released explicitly (`close`, and
        before a re-read): its cycles broken, it needs no collector. Anything else frozen in
        passing is handed back to the collector (gc.unfreeze, a constant-time list splice) at
        the next re-read or close."""
        if self.freeze_after_read:
            gc.unfreeze()
        collecting = gc.isenabled()
        gc.disable()
        try:
            self._read_whole_text()
        finally:
            if collecting:
                gc.enable()
            if self.freeze_after_read:
                gc.freeze()
            elif gc.get_freeze_count() == 0:
                # Not frozen (the CLI): hand what was read straight to the oldest generation
                # (freeze + unfreeze: two list splices). Left in the youngest, it would be walked
                # whole by the next young collection, again by the middle one, then by a full
                # one; from the oldest it is walked only by a full collection, which still
                # frees whatever cyclic garbage it holds. (Skipped when something is frozen:
                # unfreeze would hand that back to the collector too.)
                gc.freeze()
                gc.unfreeze()

    def _read_whole_text(self) -> None:
        self._release_analysis()  # the previous analysis, if any: freed now, not by the collector
        text = self.buffer.text
        reading = self.reader.read(text)
        parsed = reading.parsed
        root = parsed.root
        # A whole, schema-valid document (the usual case) needs no per-element validation.
        self._all_valid = reading.fast and document_is_valid(to_python(root))
        self._stale = False
        self._is_workflow = looks_like_workflow(root)
        self.graph = ToolGraph(self.settings)
        self.context = RuleContext(self.graph, self.settings, CONSUMER_RULES)
        self.lists = {name: ElementList(name, self._source) for name in ARRAYS}
        self.array_spans: dict[str, list[int]] = {}
        self.root_findings: list[Finding] = []
        self._with_findings: set[Element] = set()
        self._findings: tuple[Finding, ...] | None = None
        problems = list(parsed.problems)
        arrays_ok = True
        arrays_closed = True  # (JSON) each by its own ']'
        if self._is_workflow:
            assert isinstance(root, JObject)
            for name in ARRAYS:
                value = root.get(name)
                if isinstance(value, ScannedArray):  # the fast path: no JOpaque per item
                    self.array_spans[name] = [value.start, value.end]
                    self._read_scanned(self.lists[name], value, text)
                elif isinstance(value, JArray):
                    self.array_spans[name] = [value.start, value.end]
                    self._read_elements(self.lists[name], 0, value.items, text, 0, problems)
                    arrays_closed = arrays_closed and _closed(value, text, problems)
                else:
                    arrays_ok = False
            # Problems between the elements belong to their array: an edit there re-reads them.
            for name, (array_start, array_end) in self.array_spans.items():
                inside = [p for p in problems if array_start < p.start < array_end]
                if inside:
                    self.lists[name].gaps = list(syntax_findings(inside))
                    problems = [p for p in problems if not array_start < p.start < array_end]
            for path, message, start, end in [] if self._all_valid else root_problems(root, text):
                self.root_findings.append(
                    Finding(
                        SCHEMA, Severity.ERROR, f"{path_text(path)}: {message}", Span(start, end)
                    )
                )
            add = self.graph.add
            for name in ARRAYS:  # all nodes before any edge: endpoints resolve as they are added
                for element in self.lists[name].elements:
                    if element is not PLAIN:
                        add(element.model)
            self.context.refresh_all()
        elif parsed.root is not None or not any(p.kind == "syntax" for p in parsed.problems):
            self.root_findings.append(not_workflow_finding(parsed.root, len(text)))
        self.root_findings.extend(syntax_findings(problems))
        # A syntax error inside the arrays stays local (JSON): `_apply` re-reads broken
        # stretches. Anything else broken (YAML, an array not closed by its ']') is re-read whole.
        self.incremental = (
            reading.local_edits
            and self._is_workflow
            and arrays_ok
            and (
                not any(p.kind == "syntax" for p in parsed.problems)
                or (self.reader.local_syntax_errors and arrays_closed)
            )
        )
        self._stats = ChangeStats(
            True, sum(len(lst) for lst in self.lists.values()), sorted(self.context.recomputed)
        )
        self.context.recomputed.clear()
        self._all_valid = False  # elements re-read by later edits are validated one by one
        self.buffer.release()

    def close(self) -> None:
        """Free the analysis now, by reference counting: break the cycles it is made of (an
        element and its owner list, its model's callbacks, its anchored findings; the graph's
        nodes hold those callbacks too), so that no cyclic collection is needed to reclaim the
        millions of objects a large document's analysis can hold. The document is unusable
        afterwards."""
        self._release_analysis()
        # The graph's nodes hold the callbacks too (a cycle through this document).
        self.lists = {name: ElementList(name, self._source) for name in ARRAYS}
        self._with_findings = set()
        self.graph = ToolGraph(self.settings)
        self.context = RuleContext(self.graph, self.settings, CONSUMER_RULES)
        self._findings = ()
        self._stale = False
        if self.freeze_after_read:
            gc.unfreeze()

    def _release_analysis(self) -> None:
        for owner in getattr(self, "lists", {}).values():
            owner.release()

    def _item_text(self, owner: ElementList, index: int) -> tuple[str, int]:
        return self._source.text(owner, index)

    def _read_scanned(self, owner: ElementList, array: ScannedArray, text: str) -> None:
        """A whole read's `nodes` or `edges` from the fast path (values read whole by the C
        scanner, spans in flat arrays): an element for each object, PLAIN for anything else."""
        elements = owner.elements
        starts, ends = array.starts, array.ends
        # One schema error must not cost a validation per element: only the elements of a
        # block that fails as a whole are validated one by one (with their errors).
        suspects: Container[int] = (
            () if self._all_valid else items_that_may_be_invalid(_KIND[owner.name], array.values)
        )
        plain = 0
        for index, value in enumerate(array.values):
            if type(value) is not dict:  # the C scanner makes exactly dicts of objects
                elements.append(PLAIN)
                plain += 1
                continue
            element = Element(owner, index, starts[index])
            self._read_whole_element(
                element, value, starts[index], ends[index], text, 0, index in suspects
            )
            elements.append(element)
        owner.plain = plain
        owner.starts = PendingShift(starts)
        owner.ends = PendingShift(ends)
        self._after_reading(elements)

    def _read_whole_element(
        self,
        element: Element,
        value: Any,
        start: int,
        end: int,
        text: str,
        offset: int,
        validate: bool,
    ) -> None:
        """Read an element whose Python `value` the fast path read whole (spans on demand);
        `[start, end)` is where it is in `text`, whose offset 0 is document offset `offset`."""
        kind = _KIND[element.owner.name]
        span = Span(start + offset, end + offset, element)
        if kind == "node":
            element.model = read_node_value(
                element.index, value, span, self.settings, element, element.strings, element.items
            )
        else:
            element.model = read_edge_value(element.index, value, span, self.settings, element)
        if validate:
            for path, message, problem_start, problem_end in element_problems(
                kind, JOpaque(start, end, value), text
            ):
                element.schema.append(
                    (path, message, Span(problem_start + offset, problem_end + offset, element))
                )

    def _after_reading(self, created: list[Element | PlainItem]) -> None:
        """The per-edge rules of elements just read (now that their offsets are known: lazy
        spans), and which of them have findings."""
        for element in created:
            if isinstance(element, Element):
                if isinstance(element.model, Edge):
                    for _rule, check in EDGE_RULES:
                        element.findings.extend(check(element.model, self.settings))
                if element.has_findings:
                    self._with_findings.add(element)

    def _read_elements(
        self,
        owner: ElementList,
        first_index: int,
        values: list[JsonValue],
        text: str,
        offset: int,
        problems: list[SyntaxProblem] | None,
    ) -> list[Element | PlainItem]:
        """Elements for `values` (parsed from `text`, whose offset 0 is document offset
        `offset`), inserted into `owner` at `first_index`. The problems inside an element move
        from `problems` to the element (so that they move with it, and go with it)."""
        created: list[Element | PlainItem] = []
        kind = _KIND[owner.name]
        inside = _problems_inside(values, problems) if problems else {}
        # An element cut short by the array's ']' has its problem just past its end, not
        # inside it; it is half-typed all the same.
        cut_short = (
            {p.start for p in problems if p.message in (OBJECT_CUT_SHORT, ARRAY_CUT_SHORT)}
            if problems
            else set()
        )
        # A non-object item's finding is made again from its text (`_plain_findings`): JSON
        # only, where an item's text alone reads as the whole read read it.
        plain_allowed = self.reader.name == "json"
        for position, value in enumerate(values):
            owned = inside.get(position)
            if plain_allowed and not owned and value.end not in cut_short and _is_plain(value):
                created.append(PLAIN)
                owner.plain += 1
                continue
            element = Element(owner, first_index + position, value.start + offset)
            if isinstance(value, JOpaque) and isinstance(value.value, dict):
                self._read_whole_element(
                    element, value.value, value.start, value.end, text, offset, not self._all_valid
                )
            else:
                if isinstance(value, JOpaque):  # read whole by the fast path: spans on demand
                    span = Span(value.start + offset, value.end + offset, element)
                    if kind == "node":
                        element.model = read_node_value(
                            element.index, value.value, span, self.settings, element
                        )
                    else:
                        element.model = read_edge_value(
                            element.index, value.value, span, self.settings, element
                        )
                else:
                    spans = _Spans(offset, element)
                    if kind == "node":
                        element.model = read_node(
                            element.index,
                            value,
                            self.settings,
                            text,
                            spans,
                            element.strings,
                            element.items,
                        )
                    else:
                        element.model = read_edge(element.index, value, self.settings, spans)
                if not self._all_valid:
                    for path, message, start, end in element_problems(kind, value, text):
                        element.schema.append(
                            (path, message, Span(start + offset, end + offset, element))
                        )
            element.broken = value.end in cut_short
            if owned:
                element.broken = element.broken or any(p.kind == "syntax" for p in owned)
                element.findings.extend(
                    _anchor_finding(f, offset, element) for f in syntax_findings(owned)
                )
            created.append(element)
        if inside and problems is not None:
            taken = {id(p) for owned in inside.values() for p in owned}
            problems[:] = [p for p in problems if id(p) not in taken]
        owner.elements[first_index:first_index] = created
        starts = [v.start + offset for v in values]
        ends = [v.end + offset for v in values]
        owner.starts.replace(first_index, first_index, starts)
        owner.ends.replace(first_index, first_index, ends)
        self._after_reading(created)
        return created

    def _plain_findings(self, owner: ElementList) -> list[Finding]:
        """The FD-SCHEMA findings of `owner`'s PLAIN items, made from their text: of the first
        FINDINGS_PER_GROUP + 1 only, the last one carrying the count of all the others left
        out (`extra` "capped"), which the cap (`cap_with_summary`) merges into its summary.
        Only the first ones by position can be kept by the cap, so the rest are never made."""
        elements = owner.elements
        wanted = min(owner.plain, FINDINGS_PER_GROUP + 1)
        made: list[Finding] = []
        index = -1
        while len(made) < wanted:
            index = elements.index(PLAIN, index + 1)  # a C-speed scan
            text, column = self._item_text(owner, index)
            value, _ = self.reader.reread_element(text, column, owner.name)
            assert value is not None
            start = owner.start(index)
            for _path, message, problem_start, problem_end in element_problems(
                _KIND[owner.name], value, text
            ):
                made.append(
                    Finding(
                        SCHEMA,
                        Severity.ERROR,
                        f"{path_text([owner.name, index])}: {message}",
                        Span(start + problem_start, start + problem_end),
                    )
                )
        if owner.plain > FINDINGS_PER_GROUP:
            made[-1] = replace(made[-1], extra=(("capped", owner.plain - FINDINGS_PER_GROUP),))
        return made

    # ----- findings ---------------------------------------------------------------------------
    def findings(self) -> tuple[Finding, ...]:
        """Every finding of the current text, spans absolute, settings applied, sorted."""
        self._fresh()
        if self._findings is None:
            found: list[Finding] = list(self.root_findings)
            for owner in self.lists.values():
                found.extend(owner.gaps)
                if owner.plain:
                    found.extend(self._plain_findings(owner))
            for element in self._with_findings:
                found.extend(element.findings)
                for path, message, span in element.schema:
                    where = path_text([element.owner.name, element.index, *path])
                    found.append(Finding(SCHEMA, Severity.ERROR, f"{where}: {message}", span))
            if self._is_workflow:
                for _rule, check in GRAPH_RULES:
                    found.extend(check(self.context))
            # Capped after resolving (positions decide which are kept), before settings (an
            # ignored code drops its summary too; a per-code severity applies to it).
            capped = cap_with_summary(found, resolve=resolve_finding)
            findings = apply_settings(capped, self.settings)
            self._findings = tuple(self.reader.write_fixes(f, self.buffer) for f in findings)
        return self._findings

    # ----- editing ----------------------------------------------------------------------------
    def apply_edit(self, start: int, end: int, new_text: str) -> None:
        """Replace `[start, end)` (code points) with `new_text` and bring the analysis up to date.

        When the edit cannot be taken incrementally, the whole text is re-read — lazily, when
        findings are next asked for, so that a burst of such edits costs one re-read."""
        self._findings = None
        self.context.recomputed.clear()
        start = max(0, min(start, len(self.buffer)))
        end = max(start, min(end, len(self.buffer)))
        usable = not self._stale and not self.settings.full_recompute and self.incremental
        plan = self._plan(start, end) if usable else None
        self.buffer.replace(start, end, new_text)
        try:
            done = plan is not None and self._apply(plan, start, end, len(new_text) - (end - start))
        except Exception as error:  # noqa: BLE001 - never worse than a whole re-read
            # An unexpected failure half-way through an incremental update must not leave a
            # wrong analysis behind: the whole text is re-read, and the failure is kept for
            # `stats` (the differential test asserts there is none).
            self.incremental_failures.append(repr(error))
            done = False
        if not done:
            self._stale = True

    def _fresh(self) -> None:
        if self._stale:
            self._load()

    @property
    def looks_like_flowdrop(self) -> bool:
        """Whether the content is FlowDrop's shape (core.config.selection.flowdrop_shaped), judged by
        the first few elements' current text: what decides whether a document that is not named
        like a workflow gets diagnostics at all."""
        self._fresh()
        if not self._is_workflow or set(self.array_spans) != set(ARRAYS):
            return False
        items: dict[str, list[Any]] = {}
        for name in ARRAYS:
            owner = self.lists[name]
            parsed = (
                self.reader.reread_element(*self._item_text(owner, i), name)
                for i in range(min(SNIFFED_ITEMS, len(owner)))
            )
            # A half-typed element says nothing about the document's shape: it is left out.
            items[name] = [
                to_python(value)
                for value, problems in parsed
                if value is not None and not any(p.kind == "syntax" for p in problems)
            ]
        return flowdrop_shaped(items["nodes"], items["edges"])

    @property
    def stats(self) -> ChangeStats:
        """What the last change re-did (a pending whole re-read is done first)."""
        self._fresh()
        return self._stats

    @property
    def is_workflow(self) -> bool:
        self._fresh()
        return self._is_workflow

    def _plan(self, start: int, end: int) -> _Plan | None:
        """Which elements of which array an edit touches, before the text changes; None when
        it is not inside an array's interior."""
        name = next((n for n, (a, b) in self.array_spans.items() if a < start and end < b), None)
        if name is None:
            return None
        owner = self.lists[name]
        first = owner.ends.bisect_right(start)  # the first element ending after `start`
        stop = owner.starts.bisect_right(end - 1)  # the first element starting at or after `end`
        inside_one = (
            stop == first + 1
            and owner.start(first) < start
            and end < owner.end(first)
            and not owner.elements[first].broken
        )
        return _Plan(name, first, stop, inside_one)

    def _apply(self, plan: _Plan, start: int, end: int, delta: int) -> bool:
        """Re-read what the edit touched in the (already edited) text; False to re-read all.

        An edit inside one whole element re-reads that element alone, when it is still one
        whole element (the usual case: a label being typed). Otherwise the stretch between the
        untouched elements around the edit is re-read as a whole read reads it, broken or not:
        a half-typed element in it becomes an element with its syntax findings, a stray comma a
        finding between elements. A broken element just before the stretch is re-read with it
        (what follows a half-typed element decides where it ends), and when what is read runs
        on into the next element (an unclosed element swallowing it), the stretch grows."""
        name, first, stop = plan.array, plan.first, plan.stop
        owner = self.lists[name]
        if plan.inside_one:
            element_start, element_end = owner.start(first), owner.end(first)
            element_text = self.buffer.slice(element_start, element_end + delta)
            column = self.buffer.position(element_start)[1] if self.reader.needs_column else 0
            value, found = self.reader.reread_element(element_text, column, name)
            if (
                value is not None
                and value.start == 0
                and value.end == len(element_text)
                and not any(p.kind == "syntax" for p in found)
            ):
                self._move_after(name, end, delta, first_in_array=stop)
                self._replace_elements(
                    owner, first, stop, [value], element_text, element_start, list(found)
                )
                return True
        while first > 0 and owner.elements[first - 1].broken:
            first -= 1
        array_start, array_end = self.array_spans[name]
        growth = 1
        while True:
            region_start = owner.end(first - 1) if first > 0 else array_start + 1
            region_end = owner.start(stop) if stop < len(owner) else array_end - 1
            new_end = region_end + delta
            region_text = self.buffer.slice(
                region_start, min(len(self.buffer), new_end + REGION_CONTEXT)
            )
            region = self.reader.reread_region(region_text, new_end - region_start, name, first > 0)
            if region is None:
                return False
            if not isinstance(region, str):
                break
            if stop == len(owner):  # …past the array's end: the structure above is broken
                return False
            stop = min(len(owner), stop + growth)
            growth *= 2
        values, problems = region[0], list(region[1])
        # The stretch's findings between elements are made again (old offsets, inclusive: a
        # missing ',' is reported at the next element's start).
        owner.gaps = [g for g in owner.gaps if not region_start <= g.span.start <= region_end]
        self._move_after(name, end, delta, first_in_array=stop)
        self._replace_elements(owner, first, stop, values, region_text, region_start, problems)
        owner.gaps.extend(_absolute(f, region_start) for f in syntax_findings(problems))
        return True

    def _move_after(self, name: str, end: int, delta: int, first_in_array: int) -> None:
        """Move everything after an edit ending at `end` (old offsets) by `delta`."""
        if not delta:
            return
        self.lists[name].shift_from(first_in_array, delta)
        self.array_spans[name][1] += delta
        for other in ARRAYS:
            if other != name and other in self.array_spans and self.array_spans[other][0] >= end:
                self.array_spans[other][0] += delta
                self.array_spans[other][1] += delta
                self.lists[other].shift_from(0, delta)
        self.root_findings = [_shift_finding(f, end, delta) for f in self.root_findings]
        for owner in self.lists.values():
            if owner.gaps:
                owner.gaps = [_shift_finding(f, end, delta) for f in owner.gaps]

    def _replace_elements(
        self,
        owner: ElementList,
        first: int,
        stop: int,
        values: list[JsonValue],
        text: str,
        offset: int,
        problems: list[SyntaxProblem],
    ) -> None:
        """Swap elements [first, stop) for new ones read from `values` (in `text`, at `offset`)."""
        old = owner.elements[first:stop]
        graph = self.graph
        affected: set[str] = set()
        for element in old:
            affected |= self._affected_by(element.model)
            if isinstance(element, Element):
                self._with_findings.discard(element)
            else:
                owner.plain -= 1
        for element in old:
            graph.remove(element.model)
        del owner.elements[first:stop]
        owner.starts.replace(first, stop, [])
        owner.ends.replace(first, stop, [])
        created = self._read_elements(owner, first, values, text, offset, problems)
        if len(created) != stop - first:
            for index in range(first + len(created), len(owner)):
                moved = owner.elements[index]
                if isinstance(moved, Element):
                    moved.index = index
        for element in created:
            graph.add(element.model)
        # …and after it, for the old ids too: a toolbox deleted may leave a consumer behind.
        for element in (*old, *created):
            affected |= self._affected_by(element.model)
        self.context.refresh(affected)
        self._stats = ChangeStats(False, len(created), sorted(self.context.recomputed))

    def _affected_by(self, model: Node | Edge | None) -> set[str]:
        """Consumers whose per-consumer findings may change with this node or edge."""
        # The node (or target) itself always: it may have just stopped being a consumer, and
        # refresh drops what was cached for it.
        if isinstance(model, Node) and model.id is not None:
            return self.graph.consumers_affected_by(model.id) | {model.id}
        if isinstance(model, Edge) and model.is_tool and model.target is not None:
            return self.graph.consumers_affected_by(model.target) | {model.target}
        return set()


def _absolute(finding: Finding, offset: int) -> Finding:
    """A finding made in a stretch's own coordinates, in the document's."""
    return finding.map_spans(lambda span: Span(span.start + offset, span.end + offset))


def _closed(array: JArray, text: str, problems: list[SyntaxProblem]) -> bool:
    """Whether an array ends with its own ']' (not unterminated, not cut short by a '}'): only
    then can what is inside it be re-read without what is around it."""
    return text[array.end - 1 : array.end] == "]" and not any(
        p.kind == "syntax" and p.start in (array.start, array.end) for p in problems
    )


def _problems_inside(
    values: list[JsonValue], problems: list[SyntaxProblem]
) -> dict[int, list[SyntaxProblem]]:
    """The problems inside each of `values` (in document order), by position in `values`. A
    missing ',' reported (empty) at an element's start is not the element's: it is between."""
    starts = [value.start for value in values]
    inside: dict[int, list[SyntaxProblem]] = {}
    for problem in problems:
        position = bisect_right(starts, problem.start) - 1
        if position < 0:
            continue
        value = values[position]
        if problem.start < value.end and not (problem.start == problem.end == value.start):
            inside.setdefault(position, []).append(problem)
    return inside


def _anchor_finding(finding: Finding, offset: int, element: Element) -> Finding:
    """A finding made in an element's own coordinates, anchored to the element."""
    return finding.map_spans(lambda span: Span(span.start + offset, span.end + offset, element))
