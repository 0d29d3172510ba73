"""Completion of values the document can only get right one way: node ids in an edge's
`source`/`target`, the known `edgeType` values, and node type ids (`type`, `node_type_id`) —
the site registry's when there is one (core/domain/node_types.py).

The context is read from the cursor's line (core/ide/completion_context.py: a half-typed value is
rarely valid syntax), in JSON or Drupal YAML; each item replaces the whole value being typed,
written as the format needs (JSON escapes inside quotes, YAML quoting where a plain scalar
would not read back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from flowdrop_lsp.core.expressions.base import SymbolKind
from flowdrop_lsp.core.ide.completion_context import (
    Slot,
    candidates,
    completion_context,
    written_value,
)
from flowdrop_lsp.core.ide.expressions import ExpressionCompletion, expression_completion
from flowdrop_lsp.core.ide.navigation import navigation_index
from flowdrop_lsp.core.text.positions import Span

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.document import WorkflowDocument

MAX_ITEMS = 1000  # beyond this the list is marked incomplete: the client asks again as you type


@dataclass(frozen=True, slots=True)
class CompletionItem:
    """`value` offered; `text` is what replaces the value being typed (in its quotes); `rank`
    its place among the matching values (the order to show them in)."""

    value: str
    detail: str
    text: str
    rank: int
    slot: Slot | None = None  # what this one is, when the list mixes kinds (an expression's)


@dataclass(frozen=True, slots=True)
class Completions:
    """The values that fit the `slot` being typed (best first), each replacing `replace`;
    `incomplete` when more matched than are listed."""

    slot: Slot
    replace: Span
    items: tuple[CompletionItem, ...]
    incomplete: bool


def completions(
    document: WorkflowDocument, offset: int, limit: int = MAX_ITEMS
) -> Completions | None:
    """What may be typed at `offset`; None where no value of a known slot is being typed."""
    inside = expression_completion(document, offset)
    if inside is not None:
        return _expression_items(inside, limit)
    context = completion_context(document, offset)
    if context is None:
        return None
    typed = context.typed.lower()
    values = [v for v in candidates(document, context.slot) if typed in v.lower()]
    index = navigation_index(document)
    items = []
    for rank, value in enumerate(values[:limit]):
        detail = None
        declared = index.nodes(value) if context.slot is Slot.NODE_ID else []
        if declared:
            node = declared[0]
            detail = " · ".join(p for p in (node.label, node.type_id) if p)
        text = written_value(document, context.quote, value)
        if text is None:
            continue  # the quote typed cannot hold this value
        items.append(CompletionItem(value, detail or context.slot.value, text, rank))
    return Completions(context.slot, context.replace, tuple(items), len(values) > limit)


_SLOT_OF_SYMBOL = {
    None: Slot.VARIABLE,
    SymbolKind.FILTER: Slot.FILTER,
    SymbolKind.FUNCTION: Slot.FUNCTION,
    SymbolKind.TEST: Slot.TEST,
    SymbolKind.TAG: Slot.TAG,
}


def _expression_items(found: ExpressionCompletion, limit: int) -> Completions:
    """Names, filters, functions, tests or tags typed inside an expression: each is written as
    it is (a name needs no quoting inside the string)."""
    items = tuple(
        CompletionItem(value, detail, value, rank, _SLOT_OF_SYMBOL[kind])
        for rank, (value, detail, kind) in enumerate(found.items[:limit])
    )
    first = items[0].slot if items else Slot.VARIABLE
    return Completions(first or Slot.VARIABLE, found.replace, items, len(found.items) > limit)
