"""Rename fixes: a new label for a node, as an operation on the workflow (`rename_operation`).

It sets the string the tool name comes from (the label, or `instanceTitle` where that setting
is on); a node named after its type is given a `label`, so that only label strings ever change.
A node whose `data` is not an object gets no rename at all: the only way to give it a label
would be to replace what it holds. Nor does a node whose label the reader says is repeated (a
YAML anchored label that aliases read, or a label inside an aliased mapping): rewriting it
would rename the nodes that read it too.

New labels are numbered (`Web Search 2`, `Web Search 3`, …: the tool that keeps its name is
implicitly number 1) and always make a name that LLM function-calling APIs accept
(names.llm_name_problem): a leading letter, at most 64 characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.names import UNNAMED_TOOL, sanitize_tool_name
from flowdrop_lsp.core.domain.remedies import node_ref
from flowdrop_lsp.core.operations import Operation, Update
from flowdrop_lsp.core.text.positions import Span

_TRAILING_NUMBER = re.compile(r"(.*\S) (\d{1,6})")
FIRST_NUMBER = 2  # the tool keeping its name counts as the first
MAX_NAME = 64  # names.llm_name_problem
_MAX_BASE_NAME = MAX_NAME - 8  # room for `_` and a number of up to 7 digits
NOT_AN_OBJECT = '"data" is not an object'
REPEATED = "label is also read through a YAML alias"


def rename_blocker(node: Node, repeated: Callable[[int, int], bool] | None = None) -> str | None:
    """Why `node` cannot be renamed by an edit, or None when it can. `repeated` is the reader's
    say on text a fix may not rewrite (core.syntax.reader: a YAML value aliases repeat, an
    anchored label or a label inside an aliased mapping): renaming there would rename others."""
    spans = node.spans
    if spans.data_value_span is not None and spans.data_span is None:
        return NOT_AN_OBJECT
    if repeated is not None:
        span = _renamed_place(node).resolve()
        if repeated(span.start, span.end):
            return REPEATED
    return None


def _renamed_place(node: Node) -> Span:
    """Where a rename writes: the string the tool name derives from, else the label's value,
    else (a label added) the start of `data`, or of the node."""
    source = node.name_source_span
    if source is not None and source != node.type_span:
        return source
    if node.label_span is not None:
        return node.label_span
    if node.data_span is not None:
        return Span(node.data_span.start + 1, node.data_span.start + 1, node.data_span.base)
    return Span(node.span.start + 1, node.span.start + 1, node.span.base)


def rename_operation(node: Node, new_label: str) -> Operation:
    """What makes `new_label` the string `node`'s tool name derives from: its `instanceTitle`
    where that is the source, else its label (given one, when it is named after its type)."""
    spans = node.spans
    source = spans.name_source_span
    ref = node_ref(node)
    if source is not None and source != spans.type_span and source != spans.label_span:
        return Update.of(ref, "config", {"instanceTitle": new_label})
    return Update.of(ref, "data", {"label": new_label})  # a node without `data` is given one


def _fit(base: str, limit: int) -> str:
    """The longest prefix of `base` whose tool name has at most `limit` characters (a name
    only grows as its source does, so a binary search finds it)."""
    if len(sanitize_tool_name(base)) <= limit:
        return base
    low, high = 0, len(base)
    while low < high:
        middle = (low + high + 1) // 2
        if len(sanitize_tool_name(base[:middle])) <= limit:
            low = middle
        else:
            high = middle - 1
    return base[:low].rstrip()


def readable_base(node: Node) -> tuple[str, int]:
    """The text a new label starts from and the first number to try: the current name source
    (`Search 2` continues as `Search 3`), made to yield a valid tool name: a type id added when
    it has no ASCII letters or digits of its own (`数据` → `数据 http_request`), `tool ` before
    a name that starts with a digit, and cut so that the numbered name fits 64 characters."""
    base = node.name_source.strip()
    number = FIRST_NUMBER
    numbered = _TRAILING_NUMBER.fullmatch(base)
    if numbered:
        base, number = numbered.group(1), int(numbered.group(2)) + 1
    if sanitize_tool_name(base) == UNNAMED_TOOL:
        for addition in (node.type_id, "tool"):
            if addition and sanitize_tool_name(f"{base} {addition}") != UNNAMED_TOOL:
                base = f"{base} {addition}".strip()
                break
    if not sanitize_tool_name(base)[:1].isalpha():
        base = f"tool {base}"
    return _fit(base, _MAX_BASE_NAME), number


class LabelNumbers:
    """Numbered labels for one plan of renames. The next number to try is kept per base name,
    so N tools with one name cost O(N) tries, not O(N²)."""

    def __init__(self) -> None:
        self._next: dict[str, int] = {}

    def label(self, node: Node, is_taken: Callable[[str], bool], *, reserve: bool = True) -> str:
        """The first numbered label for `node` whose tool name is not taken. `reserve=False`
        (an alternative offered instead of the plan) reserves nothing and starts from the first
        number, not after the plan's: `Web Search 2` when it is free, whatever the plan took
        (the caller's `is_taken` says which of the plan's names stay taken)."""
        base, number = readable_base(node)
        key = sanitize_tool_name(base)
        if reserve:
            number = max(number, self._next.get(key, number))
        while is_taken(sanitize_tool_name(f"{base} {number}")):
            number += 1
        if reserve:
            self._next[key] = number + 1
        return f"{base} {number}"
