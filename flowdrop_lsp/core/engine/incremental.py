"""The incremental re-read: which elements an edit touches (`_plan`), re-reading them alone or
the stretch of the array around them (`_apply`), moving everything after the edit by its length
without touching it, and refreshing the per-consumer rules only for the consumers the change can
reach. See core.engine.document for the whole picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flowdrop_lsp.core.domain.graph import ToolGraph
from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.engine.element_reading import ElementReading
from flowdrop_lsp.core.engine.elements import ARRAYS, Element, ElementList
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.base import RuleContext
from flowdrop_lsp.core.rules.document import syntax_findings
from flowdrop_lsp.core.syntax.door import REFUSED_DEPTH
from flowdrop_lsp.core.syntax.reader import REGION_CONTEXT
from flowdrop_lsp.core.syntax.tree import JsonValue, SyntaxProblem
from flowdrop_lsp.core.text.positions import EditableText, Span

# Where the elements of `nodes`/`edges` sit (under the root and the array), and how near the
# door's depth a re-read stretch sends the edit to a whole read (`_near_the_door`).
_ELEMENT_LEVEL = 2
_DOOR_MARGIN = 8


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
class EditPlan:
    """The elements [first, stop) of `array` an edit touches (old offsets); `inside_one` when
    it falls strictly inside one element without syntax problems."""

    array: str
    first: int
    stop: int
    inside_one: bool
    # (Items of lines) Where the line after the sequence starts (old offsets): its end.
    tail: int = -1


class IncrementalEdits(ElementReading):
    """The incremental half of WorkflowDocument (see core.engine.document), apart so that each
    module stays readable; it reads and writes the document's state declared here."""

    buffer: EditableText
    graph: ToolGraph
    context: RuleContext
    lists: dict[str, ElementList]
    array_spans: dict[str, list[int]]
    array_shift: dict[str, list[int]]
    root_findings: list[Finding]
    _stats: ChangeStats

    def _plan(self, start: int, end: int) -> EditPlan | None:
        """Which elements of which array an edit touches, before the text changes; None when
        it is not inside an array's interior."""
        by_lines = self.reader.items_by_lines
        name = next((n for n, (a, b) in self.array_spans.items() if a < start and end < b), None)
        tail = -1
        if by_lines:
            # Items of lines have no closing bracket: the sequence runs on over the blank lines
            # after its content, up to the line that ends it (an edit there is never planned).
            for n, (a, b) in self.array_spans.items():
                tail = self._sequence_tail(b)
                if a < start and (end < tail or end == tail == len(self.buffer)):
                    name = n
                    break
        if name is None:
            return None
        owner = self.lists[name]
        first = owner.ends.bisect_right(start)  # the first element ending after `start`
        stop = owner.starts.bisect_right(end - 1)  # the first element starting at or after `end`
        if owner.broken and not by_lines:
            stop = self._past_moved_broken(owner, stop, end)
        inside_one = (
            stop == first + 1
            and owner.start(first) < start
            and end < owner.end(first)
            and not owner.elements[first].broken
        )
        return EditPlan(name, first, stop, inside_one, tail)

    def _past_moved_broken(self, owner: ElementList, stop: int, end: int) -> int:
        """(JSON) `stop`, or past the last broken element that starts after the edit on the
        line where it ends: a half-typed element is read by its column (a '{' first on a line
        no deeper than the element may be the next element, core.syntax.json.recovery), and
        the edit moves it to another one."""
        line_end = self.buffer.line_end(self.buffer.line_of(end))
        for index in range(owner.starts.bisect_right(line_end) - 1, stop - 1, -1):
            if owner.elements[index].broken:
                return index + 1
        return stop

    def _sequence_tail(self, content_end: int) -> int:
        """(Items of lines) The start of the line after the blank lines that follow a sequence's
        content ending at `content_end`: the end of the text when they run to it, `content_end`
        when that cannot be told."""
        size = len(self.buffer)
        after = self.buffer.slice(content_end, min(size, content_end + 4096))
        blank = len(after) - len(after.lstrip(" \t\r\n"))
        if content_end + blank == size:
            return size
        if blank == len(after):
            return content_end
        return content_end + after.rfind("\n", 0, blank) + 1

    def _apply(self, plan: EditPlan, start: int, end: int, delta: int) -> bool:
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
            if self._near_the_door(element_text):
                return False
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
        if self.reader.items_by_lines:
            return self._reread_items(plan, end, delta)
        while first > 0 and owner.elements[first - 1].broken:
            first -= 1
        array_start, array_end = self.array_spans[name]
        growth = 1
        while True:
            region_start = owner.end(first - 1) if first > 0 else array_start + 1
            column = self.buffer.position(region_start)[1]
            region_end = owner.start(stop) if stop < len(owner) else array_end - 1
            new_end = region_end + delta
            region_text = self.buffer.slice(
                region_start, min(len(self.buffer), new_end + REGION_CONTEXT)
            )
            if self._near_the_door(region_text):
                return False
            region = self.reader.reread_region(
                region_text, new_end - region_start, name, first > 0, column
            )
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

    def _reread_items(self, plan: EditPlan, end: int, delta: int) -> bool:
        """(Items of lines: YAML block sequences.) Re-read the whole items around the edit: from
        the `-` of the element before the first one touched (a line typed after an element may
        continue it) to the `-` of the first element the edit left whole with its `-` line, or
        to the sequence's end. A broken item stays in its lines, so nothing past them is read;
        False (re-read all) when the stretch does not hold just items any more."""
        name, owner = plan.array, self.lists[plan.array]
        if not len(owner):
            return False
        array_start = self.array_spans[name][0]
        column = self.buffer.position(array_start)[1]
        first, stop = max(plan.first - 1, 0), plan.stop
        region_start = array_start if first == 0 else self._item_dash(owner.start(first), column)
        while region_start is None and first > 0:  # an item whose `-` is off the column
            first -= 1
            region_start = (
                array_start if first == 0 else self._item_dash(owner.start(first), column)
            )
        if region_start is None:
            return False
        while True:
            if stop == len(owner):
                if plan.tail <= array_start:
                    return False
                region_end = plan.tail + delta  # the line that ends the sequence, untouched
                break
            dash = self._item_dash(owner.start(stop) + delta, column)
            if dash is not None and dash >= end + delta:
                region_end = dash
                break
            stop += 1  # the edit reached the element's `-` line: it is re-read too
        region_text = self.buffer.slice(region_start, region_end)
        if self._near_the_door(region_text):
            return False
        region = self.reader.reread_items(region_text, column)
        if region is None:
            return False
        values, problems = region[0], list(region[1])
        # The stretch's findings between items (a `-` off the items' column) are made again,
        # the one of the `-` that ends it too: the edit left that `-` at the column (old
        # offsets: the stretch ended at `region_end - delta`).
        owner.gaps = [
            g for g in owner.gaps if not region_start <= g.span.start <= region_end - delta
        ]
        self._move_after(name, end, delta, first_in_array=stop)
        if stop == len(owner):  # the sequence ends with the stretch's content
            self.array_spans[name][1] = region_start + len(region_text.rstrip(" \t\r\n"))
        self._replace_elements(owner, first, stop, values, region_text, region_start, problems)
        owner.gaps.extend(_absolute(f, region_start) for f in syntax_findings(problems))
        return True

    def _near_the_door(self, text: str) -> bool:
        """Whether the elements of `text` (re-read after an edit) may nest near STORE-1's depth
        bound: then the whole text is read again, and the door decides (core/syntax/door.py),
        so that an edit is judged as a read from scratch judges its result. The elements sit
        two levels down (the root, `nodes`/`edges`); the margin covers what a stretch read
        alone counts short (YAML's levels above the item, a stretch's unbalanced context)."""
        return _ELEMENT_LEVEL + self.reader.depth(text) >= REFUSED_DEPTH - _DOOR_MARGIN

    def _item_dash(self, element_start: int, column: int) -> int | None:
        """The offset of the `-` of the item whose element starts at `element_start` (current
        text), when the reader can tell it."""
        line = self.buffer.line_of(element_start)
        from_offset = self.buffer.line_start(max(0, line - 4))
        at = self.reader.item_start(self.buffer.slice(from_offset, element_start), column)
        return None if at is None else from_offset + at

    def _move_after(self, name: str, end: int, delta: int, first_in_array: int) -> None:
        """Move everything after an edit ending at `end` (old offsets) by `delta`."""
        if not delta:
            return
        # Whatever follows this array's region moves by `delta` (the top level's keys after it:
        # core.engine.document's `_TopLevelShift`).
        self.array_shift[name][0] += delta
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
            owner.broken -= element.broken
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


def _shift_span(span: Span, at: int, delta: int) -> Span:
    return Span(span.start + delta, span.end + delta) if span.start >= at else span


def _shift_finding(finding: Finding, at: int, delta: int) -> Finding:
    """A root-level finding (absolute spans) after an edit of length `delta` before `at`."""
    return finding.map_spans(lambda span: _shift_span(span, at, delta))
