"""Reading elements into the engine: a whole read's `nodes`/`edges` from the fast path (values
read whole, spans on demand) or from a syntax tree (broken documents, YAML, re-read stretches),
each element's model, schema problems, syntax findings and per-edge rules; and the findings of
items that are not objects, made from their text only when asked.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Container
from dataclasses import replace
from typing import Any

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.model import Edge
from flowdrop_lsp.core.domain.tree_reading import _Spans, read_edge, read_node
from flowdrop_lsp.core.domain.value_reading import read_edge_value, read_node_value
from flowdrop_lsp.core.engine.elements import (
    KIND,
    PLAIN,
    Element,
    ElementList,
    ElementSource,
    PlainItem,
    is_plain,
)
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.base import FINDINGS_PER_GROUP
from flowdrop_lsp.core.rules.document import SCHEMA_RULE, syntax_findings
from flowdrop_lsp.core.rules.registry import EDGE_RULES
from flowdrop_lsp.core.syntax.reader import WorkflowReader
from flowdrop_lsp.core.syntax.schema import element_problems, items_that_may_be_invalid, path_text
from flowdrop_lsp.core.syntax.shape import SNIFFED_ITEMS, looks_like_edge, looks_like_node
from flowdrop_lsp.core.syntax.tree import (
    JsonValue,
    OpaqueValue,
    ScannedArray,
    SyntaxProblem,
    to_python,
)
from flowdrop_lsp.core.text.positions import Span
from flowdrop_lsp.core.text.shifts import PendingShift

# Whether an element's value looks like FlowDrop's, by array (core.syntax.shape).
SHAPED = {"nodes": looks_like_node, "edges": looks_like_edge}


class ElementReading:
    """The element-reading half of WorkflowDocument (see core.engine.document), apart so that
    each module stays readable; it reads and writes the document's state declared here."""

    reader: WorkflowReader
    settings: Settings
    _source: ElementSource
    _with_findings: set[Element]

    def _item_text(self, owner: ElementList, index: int) -> tuple[str, int]:
        return self._source.text(owner, index)

    def _sniffed(self, owner: ElementList) -> list[bool]:
        """The shape verdicts of the first SNIFFED_ITEMS items of `owner`, half-typed ones
        left out (they say nothing): what each element was judged when read. An element that
        came into the window later (items before it deleted) is judged now, once."""
        verdicts = []
        for index in range(min(SNIFFED_ITEMS, len(owner))):
            element = owner.elements[index]
            if not isinstance(element, Element):
                verdicts.append(False)  # PLAIN: not an object
            elif not element.broken:
                if element.shaped is None:
                    value, _ = self.reader.reread_element(
                        *self._item_text(owner, index), owner.name
                    )
                    element.shaped = SHAPED[owner.name](to_python(value))
                verdicts.append(element.shaped)
        return verdicts

    def _read_scanned(self, owner: ElementList, array: ScannedArray, text: str) -> None:
        """A whole read's `nodes` or `edges` from the fast path (values read whole by the C
        scanner, spans in flat arrays): an element for each object, PLAIN for anything else."""
        elements = owner.elements
        starts, ends = array.starts, array.ends
        # One schema error must not cost a validation per element: only the elements of a
        # block that fails as a whole are validated one by one (with their errors). (Blocks,
        # not the whole document first: a valid document costs the same, and one with a
        # schema error is not validated twice.)
        suspects: Container[int] = items_that_may_be_invalid(KIND[owner.name], array.values)
        plain = 0
        for index, value in enumerate(array.values):
            if type(value) is not dict:  # the C scanner makes exactly dicts of objects
                elements.append(PLAIN)
                plain += 1
                continue
            element = Element(owner, index, starts[index])
            if index < SNIFFED_ITEMS:
                element.shaped = SHAPED[owner.name](value)
            self._read_whole_element(
                element,
                value,
                starts[index],
                ends[index],
                text,
                0,
                array.item(index) if index in suspects else None,
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
        validate: OpaqueValue | None,
    ) -> None:
        """Read an element whose Python `value` the fast path read whole (spans on demand);
        `[start, end)` is where it is in `text`, whose offset 0 is document offset `offset`.
        `validate`: the element as an opaque value, when its schema problems are wanted."""
        kind = KIND[element.owner.name]
        span = Span(start + offset, end + offset, element)
        if kind == "node":
            element.model = read_node_value(
                element.index,
                value,
                span,
                self.settings,
                element,
                element.strings,
                element.items,
                element,
            )
        else:
            element.model = read_edge_value(
                element.index, value, span, self.settings, element, element
            )
        if validate is not None:
            for path, message, problem_start, problem_end in element_problems(
                kind, validate, text, self.reader.spell
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
        kind = KIND[owner.name]
        inside = _problems_inside(values, problems) if problems else {}
        # An element cut short by the array's ']' has its problem just past its end, not
        # inside it; it is half-typed all the same.
        cut_short = {p.start for p in problems if p.cut_short} if problems else set()
        # A non-object item's finding is made again from its text (`_plain_findings`): JSON
        # only, where an item's text alone reads as the whole read read it.
        plain_allowed = self.reader.plain_items_read_alone
        for position, value in enumerate(values):
            owned = inside.get(position)
            if plain_allowed and not owned and value.end not in cut_short and is_plain(value):
                created.append(PLAIN)
                owner.plain += 1
                continue
            element = Element(owner, first_index + position, value.start + offset)
            # A half-typed element (a syntax problem in it, or cut short at its end) gets its
            # syntax finding, no schema problems: its structure is not what will be typed.
            element.broken = value.end in cut_short or (
                owned is not None and any(p.kind == "syntax" for p in owned)
            )
            owner.broken += element.broken
            validate = not element.broken
            plain: Any = None  # the value as Python, made once for the shape and the schema
            if first_index + position < SNIFFED_ITEMS and not element.broken:
                if isinstance(value, OpaqueValue):
                    element.shaped = SHAPED[owner.name](value.value)
                else:
                    plain = to_python(value)
                    element.shaped = SHAPED[owner.name](plain)
            if isinstance(value, OpaqueValue) and isinstance(value.value, dict):
                self._read_whole_element(
                    element,
                    value.value,
                    value.start,
                    value.end,
                    text,
                    offset,
                    value if validate else None,
                )
            else:
                if isinstance(value, OpaqueValue):  # read whole by a fast path: spans on demand
                    span = Span(value.start + offset, value.end + offset, element)
                    if kind == "node":
                        element.model = read_node_value(
                            element.index,
                            value.value,
                            span,
                            self.settings,
                            element,
                            element.strings,
                            element.items,
                            element,
                        )
                    else:
                        element.model = read_edge_value(
                            element.index, value.value, span, self.settings, element, element
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
                            element,
                        )
                    else:
                        element.model = read_edge(
                            element.index, value, self.settings, spans, element
                        )
                if validate:
                    for path, message, start, end in element_problems(
                        kind, value, text, self.reader.spell, plain
                    ):
                        element.schema.append(
                            (path, message, Span(start + offset, end + offset, element))
                        )
            if owned:
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
            for path, message, problem_start, problem_end in element_problems(
                KIND[owner.name], value, text, self.reader.spell
            ):
                made.append(
                    SCHEMA_RULE.finding(
                        Span(start + problem_start, start + problem_end),
                        f"{path_text([owner.name, index])}: {message}",
                        # Not its index, which moves: its array and the path below it.
                        identity=(owner.name, *(str(step) for step in path)),
                    )
                )
        if owner.plain > FINDINGS_PER_GROUP:
            made[-1] = replace(made[-1], extra=(("capped", owner.plain - FINDINGS_PER_GROUP),))
        return made


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
