"""What the analysis reports: findings, their related locations and their fixes.

Plain frozen data in code-point spans; the CLI and the LSP layer each translate them once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from flowdrop_lsp.core.operations import Choice, Operation, operation_json
from flowdrop_lsp.core.text.positions import Span


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"

    @property
    def rank(self) -> int:
        return ("error", "warning", "info", "hint").index(self.value)


@dataclass(frozen=True, slots=True)
class TextEdit:
    span: Span
    new_text: str


class Applicability(str, Enum):
    """How far a fix can be trusted, as Ruff's: a SAFE fix (a rename, an id, an entry added)
    keeps what the workflow does and is applied by `check --fix` and the editor's fix-all; an
    UNSAFE one (it removes a node, an edge, a branch or a setting, or changes what runs) only
    with `--unsafe-fixes`, or one by one in the editor, and is never preferred."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True, slots=True)
class Fix:
    """One way to fix a finding: what it does to the workflow (`operations`, core.operations)
    and the text edits that render them in the document's format (core.engine.rendering).
    `preferred`: the one fix `--fix` and fix-all apply (always a safe one)."""

    title: str
    edits: tuple[TextEdit, ...]
    preferred: bool = False
    applicability: Applicability = Applicability.SAFE
    # Offered to be chosen, never applied in bulk (not even a lone unsafe fix under
    # `--unsafe-fixes`): one of two repairs that undo each other across files (a renamed
    # contract name renamed back in the callee, or followed in the call type).
    chosen_only: bool = False
    # What the fix does to the workflow (core.operations), which `edits` render in the
    # document's format (`ElementEditor.render`): what the Doctor sends to FlowDrop's editor.
    # A fix outside the graph (Drupal's `dependencies`) holds a `TextOnly`. Every rule's fix has
    # operations (tests/core/test_fix_operations.py); a fix made without (a test's) is text
    # alone.
    operations: tuple[Operation, ...] = ()
    # Why the fix changes the workflow in a way that loses something the author wrote (a node,
    # an edge, a setting removed): the Doctor's `destructive`, asked before it is applied.
    destructive: str | None = None
    # A value the person picks first (the Doctor's `params.choices`): the operations hold
    # `operations.PICKED` where it goes, and there are no edits. Such a fix is a finding's
    # `choices`, never among its `fixes`: only FlowDrop's editor can ask.
    choice: Choice | None = None

    def __post_init__(self) -> None:
        if self.preferred and self.applicability != Applicability.SAFE:
            raise ValueError(f"a preferred fix must be safe: {self.title!r}")

    def operations_json(self) -> list[dict[str, Any]]:
        """The operations as `check --format json` writes them (core.operations)."""
        return [operation_json(op) for op in self.operations]

    @property
    def is_safe(self) -> bool:
        return self.applicability == Applicability.SAFE


@dataclass(frozen=True, slots=True)
class RelatedLocation:
    """Another place the finding is about: in the same file, or (`path`, an absolute path) in
    another file of the site, its span then an offset range into that file's text."""

    span: Span
    message: str
    path: str | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: `node` is the id of the node it is about, when there is one. `extra` holds
    rule-specific facts for machine consumers (CMP-9: `tool_name`, and `consumers`: one
    read-only dict per consumer with `consumer`, `colliding_with` and `route`).

    `locator_code` and `locator` are the FlowDrop spec's own names for the problem, when the
    spec has one (VAL-LAUNCH: the runtime refuses a workflow with `code`, `message`,
    `locator`): the locator code, e.g. `R6_CONFIG_REQUIRED`, and the locator, e.g.
    `node.fetch.config.url` or `edge.3` (an edge by its position in `edges`). `code` stays the
    rule's code. `identity` says what the message would otherwise be the only one to say
    (see the field)."""

    code: str
    severity: Severity
    message: str
    span: Span
    node: str | None = None
    related: tuple[RelatedLocation, ...] = ()
    fixes: tuple[Fix, ...] = ()
    extra: tuple[tuple[str, Any], ...] = field(default=())
    # The spec's locator code and locator (VAL-LAUNCH: the runtime refuses a workflow with a
    # code, a message and a locator such as `node.fetch.config.url` or `edge.3`).
    locator_code: str | None = None
    locator: str | None = None
    # What tells this finding apart from its rule's others on the same node and locator, which
    # the message alone said before: the path under a config key, an edge's ends, a branch's or
    # a port's name. Never shown; part of the finding's fingerprint (core/config/baseline.py),
    # so that rewording the message keeps a baselined finding baselined. No element's index
    # (it moves when a node or edge is inserted above); an index inside one node's config
    # list (a mapper's outputs) is the only name such an item has, and stays.
    identity: tuple[str, ...] = ()
    # Fixes that cost a re-read of the text to make (a member's removal) may be given as a
    # callable, made only for the findings kept (`map_spans`: the engine resolves the findings
    # it keeps after capping floods of one rule; thousands left out never pay for theirs). It
    # is called once (`later`), and its fixes join `fixes`.
    later_fixes: Callable[[], tuple[Fix, ...]] | None = field(
        default=None, compare=False, repr=False
    )
    # Remedies only FlowDrop's editor offers: a fix with a `Fix.choice` (a value the person
    # picks from a list, such as one of the site's node types); never rendered as text.
    choices: tuple[Fix, ...] = ()

    def map_spans(self, change: Callable[[Span], Span]) -> Finding:
        """This finding with `change` applied to every span it holds (its own, its related
        locations', its fixes' edits'); fixes given for later are made now."""
        fixes = self.fixes
        if self.later_fixes is not None:
            fixes = (*fixes, *self.later_fixes())
        return replace(
            self,
            later_fixes=None,
            span=change(self.span),
            related=tuple(
                RelatedLocation(change(r.span), r.message) if r.path is None else r
                for r in self.related
            ),
            fixes=tuple(
                replace(f, edits=tuple(TextEdit(change(e.span), e.new_text) for e in f.edits))
                for f in fixes
            ),
        )

    def extra_dict(self) -> dict[str, Any]:
        return dict(self.extra)

    @property
    def preferred_fix(self) -> Fix | None:
        for fix in self.fixes:
            if fix.preferred:
                return fix
        return None

    def applied_fix(self, unsafe: bool = False) -> Fix | None:
        """The fix `check --fix` applies: the preferred fix; else, with `unsafe` (the user's
        `--unsafe-fixes`), the finding's only fix when it has exactly one (and it is not
        `chosen_only`). A finding offering several choices (several close tool names to route
        on) is never fixed automatically."""
        preferred = self.preferred_fix
        if preferred is not None or not unsafe:
            return preferred
        lone = self.fixes[0] if len(self.fixes) == 1 else None
        return lone if lone is not None and not lone.chosen_only else None

    @property
    def has_unsafe_fix_only(self) -> bool:
        """Whether only `--unsafe-fixes` would make `--fix` fix this finding."""
        return self.applied_fix(False) is None and self.applied_fix(True) is not None

    def sort_key(self) -> tuple[int, int, str, str]:
        return (self.span.start, self.span.end, self.code, self.message)


# An edit of a text: the code points [start, end) replaced by `inserted` code points.
Edit = tuple[int, int, int]


class _Overlapped(Exception):
    pass


def _through(span: Span, edits: Sequence[Edit]) -> Span:
    start, end = span.start, span.end
    for edit_start, edit_end, inserted in edits:
        if end < edit_start:
            continue  # before the edit, not touching it
        if start > edit_end:
            delta = inserted - (edit_end - edit_start)
            start, end = start + delta, end + delta
            continue
        # Inside it, overlapping it or touching it (typing right after a name changes the name).
        raise _Overlapped
    return Span(start, end)


class later:  # noqa: N801 - used as a function: `later_fixes=later(make)`
    """`make`, called at most once: a finding kept through many analyses makes its fixes once
    (their spans are anchored to their element, so they move with it)."""

    __slots__ = ("_make", "_made")

    def __init__(self, make: Callable[[], tuple[Fix, ...]]) -> None:
        self._make: Callable[[], tuple[Fix, ...]] | None = make
        self._made: tuple[Fix, ...] = ()

    def __call__(self) -> tuple[Fix, ...]:
        if self._make is not None:
            self._made, self._make = self._make(), None
        return self._made


def through_edits(finding: Finding, edits: Sequence[Edit]) -> Finding | None:
    """`finding` (resolved spans into a text) carried through `edits` made to that text since,
    in order: its spans moved by the text inserted or removed before them. None when an edit
    touched its own span (overlapping it, or at either of its ends) (what it said may no longer hold); a fix an edit touched is dropped,
    and so is a related location of the same file."""
    if not edits:
        return finding
    try:
        span = _through(finding.span, edits)
    except _Overlapped:
        return None
    related: list[RelatedLocation] = []
    for location in finding.related:
        if location.path is not None:
            related.append(location)
            continue
        try:
            related.append(RelatedLocation(_through(location.span, edits), location.message))
        except _Overlapped:
            continue
    fixes: list[Fix] = []
    for fix in finding.fixes:
        try:
            moved = tuple(TextEdit(_through(e.span, edits), e.new_text) for e in fix.edits)
        except _Overlapped:
            continue
        fixes.append(replace(fix, edits=moved))
    return replace(finding, span=span, related=tuple(related), fixes=tuple(fixes))
