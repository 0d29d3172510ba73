"""The document's top level, everything but the elements of `nodes` and `edges`: read at each
whole read (`_read_top_level`), and re-read alone after an edit there (`_reread_header`).

An API export is one line: its `id`, `name` and `metadata` share the line of its 10,000
elements, so an edit there is told from the arrays by its offset, never by its line. Such an
edit re-reads the root with the arrays' elements left out — the reader reads the text around
them with an empty array in each one's place (`WorkflowReader.read_around_arrays`) — and what
that read finds is mapped back into the document's offsets: the top level's schema and syntax
findings, the members the rules read (`RuleContext.top_level`), the file's site header. Nothing
in the arrays is read or touched: an array after the edit moves by its length (its elements'
spans are anchored to them), and the graph and its rules' results stay as they are (no rule
about the graph reads the top level but through `top_level`, asked afresh on every run).

It is taken only when that read is what a whole read of the edited text reads around the
arrays (`_header_plan`, `_reread_header`): the arrays whole (no half-typed element, no stray
comma between elements: their text then reads alone as it reads in place), the edit outside
them (their brackets included), and the text around them read without a syntax error or an
alias, with `nodes` and `edges` still the root's members, each at its array's place. In YAML
(Drupal config) the sequences' items also read by the lines around them — their key's line
(its column, its properties), the line that ends them (its indentation closes the last item)
— so an edit must keep off those lines too (`_lines_around`); a flow `[]` then stands where
the first `-` stood. Anything else (a quote deleted, the `"nodes"` key renamed, a bracket
touched, the line of `edges:` in YAML) is a whole read.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from flowdrop_lsp.core.domain.site_facts import WorkflowFacts
from flowdrop_lsp.core.domain.site_reading import workflow_header
from flowdrop_lsp.core.engine.elements import ARRAYS
from flowdrop_lsp.core.engine.incremental import ChangeStats, IncrementalEdits
from flowdrop_lsp.core.rules.base import TOP_LEVEL_KEYS, TopMember
from flowdrop_lsp.core.rules.document import SCHEMA_RULE, syntax_findings
from flowdrop_lsp.core.syntax.schema import path_text, root_problems
from flowdrop_lsp.core.syntax.tree import JArray, JObject, JsonValue, SyntaxProblem, to_python
from flowdrop_lsp.core.text.positions import Span

# An offset of the text read into the document's offsets (a whole read's: the same).
ToDocument = Callable[[int], int]


def _same(offset: int) -> int:
    return offset


class TopLevelShift:
    """How far a top-level token has moved: the sum of the edits made inside the arrays that
    start before it (each array's running total, kept by the incremental re-read)."""

    __slots__ = ("_totals",)

    def __init__(self, totals: list[list[int]]) -> None:
        self._totals = totals

    def offset(self) -> int:
        return sum(total[0] for total in self._totals)


class _AroundArrays:
    """The offsets of a text read with each array's elements left out (`[]` in its place), in
    the document's: past each left-out array, what it held is added back."""

    __slots__ = ("_after", "_added")

    def __init__(self, places: list[int], removed: list[int]) -> None:
        self._after = [place + 2 for place in places]  # just past each `[]`
        self._added = [0]
        for count in removed:
            self._added.append(self._added[-1] + count)

    def __call__(self, offset: int) -> int:
        return offset + self._added[bisect_right(self._after, offset)]


class HeaderEdits(IncrementalEdits):
    """The top-level part of WorkflowDocument (see core.engine.document), apart so that each
    module stays readable; it reads and writes the document's state declared here and in
    core.engine.incremental."""

    _site_header: WorkflowFacts | None

    # ----- reading ----------------------------------------------------------------------------
    def _read_top_level(self, root: JObject, text: str, to_document: ToDocument = _same) -> None:
        """What the rules and the site read of the top level of `root` (read from `text`, whose
        offsets `to_document` turns into the document's): its schema findings outside the
        elements, the members named in `TOP_LEVEL_KEYS`, the file's site header."""
        for path, message, start, end in root_problems(root, text, self.reader.spell):
            self.root_findings.append(
                SCHEMA_RULE.finding(
                    Span(to_document(start), to_document(end)),
                    f"{path_text(path)}: {message}",
                    identity=tuple(str(step) for step in path),
                )
            )
        span = partial(self._top_level_span, to_document=to_document)
        self._site_header = workflow_header(root, text, span)
        self.context.top_level = self._top_members(root, span)

    def _top_members(
        self, root: JObject, span: Callable[[JsonValue], Span]
    ) -> dict[str, TopMember]:
        """The members of the top level the rules read (`TOP_LEVEL_KEYS`), spans anchored."""
        found: dict[str, TopMember] = {}
        for key in TOP_LEVEL_KEYS:
            member = root.member(key)
            if member is None:
                continue
            value = member.value
            key_span = span(member.key)
            found[key] = TopMember(
                to_python(value) if value is not None else None,
                key_span,
                span(value) if value is not None else key_span,
            )
        return found

    def _top_level_span(self, value: JsonValue, to_document: ToDocument = _same) -> Span:
        """The span of a top-level token (not inside `nodes` or `edges`): it moves with the
        edits made inside the arrays before it (the only edits not re-read whole)."""
        start, end = to_document(value.start), to_document(value.end)
        before = [
            self.array_shift[name]
            for name, (array_start, _end) in self.array_spans.items()
            if array_start < start
        ]
        return Span(start, end, TopLevelShift(before) if before else None)

    # ----- re-reading -------------------------------------------------------------------------
    def _header_plan(self, start: int, end: int) -> bool:
        """Whether an edit of `[start, end)` (old offsets) may be taken by re-reading the top
        level alone: outside both arrays, brackets included, both whole; (items of lines)
        off the lines that hold an array in place (`_lines_around`)."""
        if set(self.array_spans) != set(ARRAYS):
            return False
        for name, (array_start, array_end) in self.array_spans.items():
            if start < array_end and end > array_start:
                return False  # it touches the array
            owner = self.lists[name]
            if owner.broken or owner.gaps:
                return False  # a broken stretch may read otherwise once its line moves
            if self.reader.items_by_lines:
                around = self._lines_around(array_start, array_end)
                if around is None or (end >= around[0] and start <= around[1]):
                    return False
        return True

    def _lines_around(self, start: int, end: int) -> tuple[int, int] | None:
        """(Items of lines) The lines a sequence's items are read by besides their own: from
        its key's line (the last one before the first item but blank and comment lines: its
        column and properties) to the line that ends it (after the blank lines that follow its
        content: its indentation closes the last item), as `[first offset, last offset]`; None
        when they cannot be told. An edit there is read whole: the items may read otherwise,
        and an empty array standing in for them would not show it."""
        buffer = self.buffer
        key_line = buffer.line_of(start) - 1
        while key_line >= 0 and _blank_or_comment(
            buffer.slice(buffer.line_start(key_line), buffer.line_end(key_line))
        ):
            key_line -= 1
        tail = self._sequence_tail(end)
        if key_line < 0 or (tail == end and tail != len(buffer)):
            return None  # no key before it, or more blank text after it than is looked at
        return buffer.line_start(key_line), buffer.line_end(buffer.line_of(tail))

    def _reread_header(self, end: int, delta: int) -> bool:
        """Re-read the top level after an edit outside the arrays (planned by `_header_plan`,
        ending at `end` in old offsets, `delta` longer); False to re-read all."""
        arrays = sorted(
            (start + delta, stop + delta, name) if start >= end else (start, stop, name)
            for name, (start, stop) in self.array_spans.items()
        )
        pieces: list[str] = []
        places: list[int] = []
        at = 0
        for start, stop, _name in arrays:
            pieces.append(self.buffer.slice(at, start))
            places.append(sum(map(len, pieces)) + 2 * (len(pieces) - 1))
            at = stop
        pieces.append(self.buffer.slice(at, len(self.buffer)))
        reading = self.reader.read_around_arrays(pieces)
        if reading is None or reading.refused is not None or not reading.local_edits:
            return False  # (aliases: every edit is a whole read, as a whole read says)
        if self._near_the_door("[]".join(pieces)):
            return False  # the door decides, on the whole text
        root, problems = reading.parsed.root, reading.parsed.problems
        if not isinstance(root, JObject) or any(p.kind == "syntax" for p in problems):
            return False
        for place, (_start, _stop, name) in zip(places, arrays, strict=True):
            value = root.get(name)
            if not (isinstance(value, JArray) and value.start == place and value.end == place + 2):
                return False  # the arrays are no longer the root's `nodes` and `edges`
        to_document = _AroundArrays(places, [stop - start - 2 for start, stop, _ in arrays])
        # Everything after the edit moves: the arrays (and their elements) wholly after it.
        for name in ARRAYS:
            span = self.array_spans[name]
            if span[0] >= end:
                span[0] += delta
                span[1] += delta
                self.lists[name].shift_from(0, delta)
        # The top level is read afresh: its spans start unmoved by the arrays' edits.
        self.array_shift = {name: [0] for name in ARRAYS}
        self.root_findings = []
        self._read_top_level(root, "[]".join(pieces), to_document)
        self.root_findings.extend(syntax_findings(_moved(p, to_document) for p in problems))
        self._stats = ChangeStats(False, 0, [])
        return True


def _blank_or_comment(line: str) -> bool:
    content = line.strip(" \t")
    return not content or content.startswith("#")


def _moved(problem: SyntaxProblem, to_document: ToDocument) -> SyntaxProblem:
    """A problem found in the text around the arrays, in the document's offsets."""
    related = problem.related_start
    return replace(
        problem,
        start=to_document(problem.start),
        end=to_document(problem.end),
        related_start=to_document(related) if related >= 0 else related,
        related_end=to_document(problem.related_end) if related >= 0 else problem.related_end,
    )
