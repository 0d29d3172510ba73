"""The analysis engine: one workflow document, kept analysed as it is edited.

`WorkflowDocument(text)` reads the whole text once; `apply_edit(start, end, new_text)` then
updates only what the edit touched:

- the text and its line starts (core.text.positions.EditableText: cost independent of document size);
- the elements of `nodes` / `edges` the edit falls in: an edit inside one element re-reads that
  element alone; an edit between or across elements re-reads just that stretch of the array;
  everything after it moves by the edit's length without being touched (its spans are anchored
  to its element, see text.Span);
- the tool graph (graph.ToolGraph) by removing the old and adding the new elements, and the
  per-consumer rules (CMP-9, CMP-10) for only the consumers the change can reach;
- outside the arrays (the top level: `id`, `name`, `metadata`…), the top level alone, read with
  the arrays' elements left out (core.engine.header): an edit is located by its offset, so a
  one-line export's top level is no more a whole read than a pretty-printed one's.

A syntax error inside `nodes`/`edges` stays local (JSON): the stretch it is in is re-read as a
whole read reads it, so a half-typed element becomes an element (what the tolerant parser
recovers of it, with its FD-SYNTAX finding, anchored to it) and a stray comma a finding between
elements (`ElementList.gaps`); the next edits there re-read that stretch again. An edit that
breaks the structure above the elements (an array no longer closed by its ']', a token running
past it, a syntax error at the top level, the `"nodes"` key touched), an edit of the arrays'
brackets or of the lines that hold a YAML sequence in place, or any syntax error in YAML falls
back to re-reading everything; once the structure is whole again, the next edit is
incremental again.
`analyze()` is this engine reading a text from scratch, so the CLI, the server and the
incremental path share every line of analysis; `stats` says what the last change re-did.

Here: the document, its whole read and its findings. Its elements are core.engine.elements;
reading them, core.engine.element_reading; the incremental re-read, core.engine.incremental;
its top level, core.engine.header.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from flowdrop_lsp.core.collector import collector_paused
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.graph import ToolGraph
from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.domain.site_facts import SiteEdge, SiteNode, WorkflowFacts
from flowdrop_lsp.core.domain.site_reading import site_edge, site_node, workflow_header
from flowdrop_lsp.core.domain.tree_reading import looks_like_workflow
from flowdrop_lsp.core.engine.elements import ARRAYS, PLAIN, Element, ElementList, ElementSource
from flowdrop_lsp.core.engine.header import HeaderEdits
from flowdrop_lsp.core.engine.incremental import ChangeStats
from flowdrop_lsp.core.findings import Edit, Finding
from flowdrop_lsp.core.rules.base import RuleContext
from flowdrop_lsp.core.rules.capping import cap_with_summary
from flowdrop_lsp.core.rules.document import (
    element_schema_finding,
    not_workflow_finding,
    syntax_findings,
)
from flowdrop_lsp.core.rules.registry import CONSUMER_RULES, GRAPH_RULES, SCOPED_RULES
from flowdrop_lsp.core.rules.scoped import check_scoped_together
from flowdrop_lsp.core.rules.store_door import door_finding
from flowdrop_lsp.core.syntax.door import MAX_WORKFLOW_BYTES, Refusal, may_be_too_large
from flowdrop_lsp.core.syntax.reader import WholeRead, reader_for
from flowdrop_lsp.core.syntax.shape import shaped_verdict
from flowdrop_lsp.core.syntax.tree import (
    JArray,
    JObject,
    ScannedArray,
    SyntaxProblem,
)
from flowdrop_lsp.core.text.changes import unchanged_ends
from flowdrop_lsp.core.text.positions import EditableText, Span

# The open documents whose analysis is frozen (`freeze_after_read`): the permanent generation is
# handed back to the collector only when none is left (`WorkflowDocument.close`).
_FROZEN_OWNERS: weakref.WeakSet[WorkflowDocument] = weakref.WeakSet()


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


def refused_by_size(size: int, text_length: int, settings: Settings) -> tuple[Finding, ...]:
    """The findings of a text of `size` UTF-8 bytes over STORE-1's bound, told from its size
    alone (a file read as bytes: no document is made), settings applied: its one finding, the
    one a document of it would have."""
    return apply_settings((door_finding(Refusal(size), text_length),), settings)


class WorkflowDocument(HeaderEdits):
    """One workflow document kept analysed as it is edited (see the module's docstring). The
    reading of elements (core.engine.element_reading), the incremental re-read
    (core.engine.incremental) and its top level's (core.engine.header) are its other parts."""

    def __init__(
        self,
        text: str,
        settings: Settings | None = None,
        *,
        allow_comments: bool = False,
        syntax: str = "json",
        freeze_after_read: bool = False,
        site_facts: bool = False,
    ) -> None:
        self.settings = settings or Settings()
        # The file's site facts (core/domain/site_facts.py): its top level read at each whole
        # read, its nodes' and edges' from their models (kept per model: an edit re-derives
        # the facts of what it re-read only). `site_facts=True` (the CLI, checking a site)
        # only says they will be asked for.
        self.want_site_facts = site_facts
        self._site_header: WorkflowFacts | None = None
        # Each element's site facts as its model made them, resolved, and where the element
        # started then: (model, facts, resolved facts, start), by the model's identity.
        self._site_elements: dict[
            int, tuple[Node | Edge, SiteNode | SiteEdge, SiteNode | SiteEdge, int]
        ] = {}
        # See `_load`: only for an owner that calls `close()` when it drops the document.
        self.freeze_after_read = freeze_after_read
        # The only part that knows the format (core.syntax.reader): "json" (JSONC with
        # `allow_comments`) or "yaml" (Drupal config).
        self.reader = reader_for(syntax, allow_comments)
        self.buffer = EditableText(text)
        self._source = ElementSource(self.buffer, self.reader, self.settings)
        self._stats = ChangeStats()
        self.incremental_failures: list[str] = []
        self._spent: WholeRead | None = None  # the last whole read's parse, until `settle`
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
            gc.unfreeze()  # everything frozen so far is frozen again at the end of the read
            _FROZEN_OWNERS.add(self)
        # Not frozen (the CLI): what was read goes straight to the oldest generation. Left in
        # the youngest, it would be walked whole by the next young collection, again by the
        # middle one, then by a full one.
        with collector_paused(freeze=self.freeze_after_read):
            self._read_whole_text()

    def _read_whole_text(self) -> None:
        self._release_analysis()  # the previous analysis, if any: freed now, not by the collector
        text = self.buffer.text
        reading = self.reader.read(text)
        # The parse outlives the read until `settle`, for a document whose owner calls it (the
        # server, once its publish is out): freeing the values models do not keep (half of a
        # large document's) is then no part of the wait for the first findings.
        self._spent = reading if self.freeze_after_read else None
        parsed = reading.parsed
        root = parsed.root
        self._stale = False
        self._is_workflow = looks_like_workflow(root)
        self.graph = ToolGraph(self.settings)
        self.context = RuleContext(
            self.graph, self.settings, CONSUMER_RULES, repeated=self.reader.repeated
        )
        self.lists = {name: ElementList(name, self._source) for name in ARRAYS}
        self.array_spans: dict[str, list[int]] = {}
        self.array_shift = {name: [0] for name in ARRAYS}
        self.context.arrays = self.array_spans  # shared: the rules see every edit's shift
        self.context.item_at = self._item_at
        self.root_findings: list[Finding] = []
        self._with_findings: set[Element] = set()
        self._findings: tuple[Finding, ...] | None = None
        problems = list(parsed.problems)
        arrays_ok = True
        arrays_closed = True  # (JSON) each by its own ']'
        if reading.refused is not None:
            # STORE-1's door (core/syntax/door.py): nothing was parsed; its one finding, and the
            # next edit is a whole read again (the door decides again).
            self._site_header = None
            self._site_elements = {}
            self.root_findings.append(door_finding(reading.refused, len(text)))
            self.incremental = False
            self._stats = ChangeStats(True, 0, [])
            self.buffer.release()
            return
        if self._is_workflow:
            assert isinstance(root, JObject)
            for name in ARRAYS:
                value = root.get(name)
                if isinstance(value, ScannedArray):  # the fast path: no OpaqueValue per item
                    self.array_spans[name] = [value.start, value.end]
                    self._read_scanned(self.lists[name], value, text)
                elif isinstance(value, JArray):
                    self.array_spans[name] = [value.start, value.end]
                    self._read_elements(self.lists[name], 0, value.items, text, 0, problems)
                    arrays_closed = arrays_closed and (
                        self.reader.items_by_lines or _closed(value, text, problems)
                    )
                else:
                    arrays_ok = False
            # Problems between the elements belong to their array: an edit there re-reads them.
            for name, (array_start, array_end) in self.array_spans.items():
                inside = [p for p in problems if array_start < p.start < array_end]
                if inside:
                    self.lists[name].gaps = list(syntax_findings(inside))
                    problems = [p for p in problems if not array_start < p.start < array_end]
            self._read_top_level(root, text)
            self._site_elements = {}
            # All nodes before any edge (endpoints resolve as they are added), each array in
            # its order: the graph's lists take them at their end.
            self.graph.add_in_order(
                element.model
                for name in ARRAYS
                for element in self.lists[name].elements
                if element is not PLAIN
            )
            self.context.refresh_all()
        else:
            self._site_header = workflow_header(root, text)
            self._site_elements = {}
        if not self._is_workflow and (
            parsed.root is not None or not any(p.kind == "syntax" for p in parsed.problems)
        ):
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
        self.buffer.release()

    def site_facts(self) -> WorkflowFacts | None:
        """The file's site facts as its text is now (None when it is no object), spans absolute:
        the top level as it was last read (whole, or alone: core.engine.header), moved by the
        edits since; each node and edge from its current model."""
        self._fresh()
        header = self._site_header
        if header is None:
            return None
        nodes: list[SiteNode] = []
        edges: list[SiteEdge] = []
        kept = self._site_elements
        fresh: dict[int, tuple[Node | Edge, SiteNode | SiteEdge, SiteNode | SiteEdge, int]] = {}
        for name, found in (("nodes", nodes), ("edges", edges)):
            owner = self.lists.get(name)
            for element in owner.elements if owner is not None else ():
                model = element.model
                if not isinstance(model, Node | Edge):
                    continue
                start = owner.start(element.index)  # type: ignore[union-attr]
                known = kept.get(id(model))
                if known is not None and known[0] is model:
                    # The same model: its facts are as they were, moved with its text (no span
                    # resolved again: a keystroke in a 10,000-node buffer moves half of them).
                    facts, resolved, was = known[1], known[2], known[3]
                    if was != start:
                        resolved = resolved.shifted(start - was)
                else:
                    facts = (
                        site_node(model, _locator(model))
                        if isinstance(model, Node)
                        else (site_edge(model))
                    )
                    resolved = facts.resolved()
                fresh[id(model)] = (model, facts, resolved, start)
                found.append(resolved)  # type: ignore[arg-type]
        self._site_elements = fresh
        return header.resolved_with(tuple(nodes), tuple(edges))

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
        self.context = RuleContext(
            self.graph, self.settings, CONSUMER_RULES, repeated=self.reader.repeated
        )
        self._findings = ()
        self._stale = False
        if self.freeze_after_read:
            # gc.freeze is one permanent generation for the whole process: handing it back to
            # the collector would unfreeze every other open document's analysis too (its next
            # collections walking millions of objects again). Only the last frozen document
            # closing hands it back; this one's analysis was released above, by reference
            # counting, frozen or not.
            _FROZEN_OWNERS.discard(self)
            if not _FROZEN_OWNERS:
                gc.unfreeze()

    def _item_at(self, array: str, index: int) -> Node | Edge | None:
        owner = self.lists.get(array)
        if owner is None or not 0 <= index < len(owner):
            return None
        model = owner.elements[index].model
        return model if isinstance(model, Node | Edge) else None

    def _release_analysis(self) -> None:
        self._spent = None
        for owner in getattr(self, "lists", {}).values():
            owner.release()

    def settle(self) -> None:
        """Do what a whole read left for later, now that the owner is idle (the server, after
        publishing): free the parse (`_read_whole_text`), make the line index an edit needs
        (core.text.positions.EditableText). Nothing when there is nothing left."""
        self._spent = None
        self.buffer.index_lines()

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
                for problem in element.schema:
                    found.append(
                        element_schema_finding(
                            element.owner.name,
                            element.index,
                            element.model,
                            problem,
                            _spec_locator(element, problem[0]),
                            self.reader.empty_mapping,
                        )
                    )
            if self._is_workflow:
                # A whole read's per-node and per-edge rules: one walk for all of them.
                check_scoped_together(self.context, SCOPED_RULES)
                for _rule, check in GRAPH_RULES:
                    found.extend(check(self.context))
                self.context.walked.clear()
            # Capped after resolving (positions decide which are kept), before settings (an
            # ignored code drops its summary too; a per-code severity applies to it).
            capped = cap_with_summary(found, resolve=resolve_finding)
            findings = apply_settings(capped, self.settings)
            self._findings = tuple(self.reader.write_fixes(f, self.buffer) for f in findings)
        return self._findings

    # ----- editing ----------------------------------------------------------------------------
    def apply_edit(self, start: int, end: int, new_text: str) -> Edit:
        """Replace `[start, end)` (code points) with `new_text` and bring the analysis up to date;
        the edit as made: `(start, end, length of the text put there)`.

        What the replaced text and `new_text` have in common at either end is left in place
        (core.text.changes): a keystroke a client sends as its whole line, or as the whole
        text, is the one character it changes. When the edit cannot be taken incrementally, the
        whole text is re-read — lazily, when findings are next asked for, so that a burst of
        such edits costs one re-read."""
        start = max(0, min(start, len(self.buffer)))
        end = max(start, min(end, len(self.buffer)))
        if start < end and new_text:
            # (The same text again becomes an empty edit, taken like any other.)
            kept_before, kept_after = unchanged_ends(self.buffer.slice(start, end), new_text)
            start, end = start + kept_before, end - kept_after
            new_text = new_text[kept_before : len(new_text) - kept_after]
        self._findings = None
        self.context.recomputed.clear()
        usable = not self._stale and not self.settings.full_recompute and self.incremental
        plan = self._plan(start, end) if usable else None
        # Outside the arrays (the top level of a one-line export shares their line): the top
        # level alone is re-read (core.engine.header).
        header = usable and plan is None and self._header_plan(start, end)
        self.buffer.replace(start, end, new_text)
        if (plan is not None or header) and self._past_the_door(new_text):
            plan, header = None, False  # a whole read: the door decides (core/syntax/door.py)
        delta = len(new_text) - (end - start)
        try:
            if plan is not None:
                done = self._apply(plan, start, end, delta)
            else:
                done = header and self._reread_header(end, delta)
        except Exception as error:  # noqa: BLE001 - never worse than a whole re-read
            # An unexpected failure half-way through an incremental update must not leave a
            # wrong analysis behind: the whole text is re-read, and the failure is kept for
            # `stats` (the differential test asserts there is none).
            self.incremental_failures.append(repr(error))
            done = False
        if not done:
            self._stale = True
        return start, end, len(new_text)

    def _past_the_door(self, new_text: str) -> bool:
        """Whether an edit may have taken the text past STORE-1's size bound: the text's UTF-8
        bytes counted from the buffer's per-chunk counts (no encoding of the whole text), only
        when its length leaves that possible. (Its depth is checked where the elements are
        re-read: `IncrementalEdits._near_the_door`.)"""
        if not new_text or not may_be_too_large(len(self.buffer)):
            return False
        return self.buffer.units.units_before(len(self.buffer), "utf-8") > MAX_WORKFLOW_BYTES

    def _fresh(self) -> None:
        if self._stale:
            self._load()

    @property
    def looks_like_flowdrop(self) -> bool:
        """Whether the content is FlowDrop's shape (core.syntax.shape.flowdrop_shaped), judged by
        the first few elements as read (half-typed ones left out, as a from-scratch sniff leaves
        them out): what decides whether a document not named like a workflow gets diagnostics."""
        self._fresh()
        if not self._is_workflow or set(self.array_spans) != set(ARRAYS):
            return False
        # Each element was judged when it was read: nothing is read again (asked on every
        # publish of a document not named like a workflow).
        return shaped_verdict(
            self._sniffed(self.lists["nodes"]), self._sniffed(self.lists["edges"])
        )

    @property
    def stats(self) -> ChangeStats:
        """What the last change re-did (a pending whole re-read is done first)."""
        self._fresh()
        return self._stats

    @property
    def is_workflow(self) -> bool:
        self._fresh()
        return self._is_workflow


def _locator(node: Node) -> Callable[[tuple[str | int, ...]], Span | None]:
    def locate(path: tuple[str | int, ...]) -> Span | None:
        located = node.editor.locate(path) if node.editor is not None else None
        return located.value if located is not None else None

    return locate


def _spec_locator(element: Element, path: list[Any]) -> tuple[str | None, str | None]:
    """The spec's locator of a schema problem the spec names: R6.a, a node's `data.config`
    that is not an object (`R6_CONFIG_INVALID` at `node.{id}.config`)."""
    model = element.model
    if path == ["data", "config"] and isinstance(model, Node) and model.id is not None:
        return "R6_CONFIG_INVALID", f"node.{model.id}.config"
    return None, None


def _closed(array: JArray, text: str, problems: list[SyntaxProblem]) -> bool:
    """Whether an array ends with its own ']' (not unterminated, not cut short by a '}'): only
    then can what is inside it be re-read without what is around it."""
    return text[array.end - 1 : array.end] == "]" and not any(
        p.kind == "syntax" and p.start in (array.start, array.end) for p in problems
    )
