"""What a completion point in a workflow is typing (an edge's endpoint, an edge type, a node
type), read from the cursor's line, the candidates for it, and a chosen one written as the
document's format writes it there (the reader seam)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from flowdrop_lsp.core.config.settings import (
    DEFAULT_NON_ACCEPTING_TYPES,
    DEFAULT_PASSTHROUGH_TYPES,
    DEFAULT_TOOL_ACCEPTING_TYPES,
)
from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.ide.navigation import navigation_index
from flowdrop_lsp.core.text.positions import Span

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.document import WorkflowDocument


class Slot(str, Enum):
    """What value the cursor is typing."""

    NODE_ID = "node id"  # an edge's source or target
    EDGE_TYPE = "edge type"
    NODE_TYPE = "node type"
    # Inside an expression (core/ide/expressions.py).
    VARIABLE = "variable"
    FILTER = "filter"
    FUNCTION = "function"
    TEST = "test"
    TAG = "tag"


_SLOT_OF_KEY = {
    "source": Slot.NODE_ID,
    "target": Slot.NODE_ID,
    "edgeType": Slot.EDGE_TYPE,
    "node_type_id": Slot.NODE_TYPE,
    "type": Slot.NODE_TYPE,
}
_KEYS = "|".join(_SLOT_OF_KEY)
# What precedes the cursor on its line: a key and the start of its value (an open quote or
# none), in JSON and in YAML block style.
_JSON_VALUE = re.compile(rf'"({_KEYS})"\s*:\s*(?:(")((?:[^"\\]|\\.)*)|())$')
_YAML_VALUE = re.compile(rf"(?:^|[\s{{,])({_KEYS})\s*:\s+(?:(['\"])([^'\"]*)|([^'\"\s#]*))$")
_ARRAY_OF = {Slot.NODE_ID: "edges", Slot.EDGE_TYPE: "edges", Slot.NODE_TYPE: "nodes"}


@dataclass(frozen=True, slots=True)
class CompletionContext:
    """The value being typed: which slot, its quote ("" none), what is typed so far and the span
    the chosen candidate replaces (the typed part and the rest of the value up to its end)."""

    slot: Slot
    quote: str
    typed: str
    replace: Span


def completion_context(document: WorkflowDocument, offset: int) -> CompletionContext | None:
    """What the cursor at `offset` is typing, read from its line alone (a half-typed value is
    rarely valid syntax)."""
    buffer = document.buffer
    line = buffer.line_of(offset)
    line_start, line_end = buffer.line_start(line), buffer.line_end(line)
    before = buffer.slice(line_start, offset)
    after = buffer.slice(offset, line_end)
    # A quoted key is JSON's (or YAML's flow style, which reads the same); a plain one YAML's.
    match = _JSON_VALUE.search(before) or _YAML_VALUE.search(before)
    if match is None:
        return None
    slot = _SLOT_OF_KEY[match.group(1)]
    array = _ARRAY_OF[slot]
    bounds = document.array_spans.get(array)
    if bounds is not None and not bounds[0] < offset <= bounds[1]:  # a YAML list ends at its text
        return None  # a `type` in a node type's config, a `source` outside the edges…
    quote = match.group(2) or ""
    typed = match.group(3) if quote else (match.group(4) or "")
    # The rest of the value after the cursor is replaced too (choosing in the middle of a value).
    rest = re.match(
        r"(?:[^\"\\]|\\.)*" if quote == '"' else (r"[^']*" if quote else r"[^\s,}#]*"), after
    )
    rest_length = len(rest.group()) if rest else 0
    return CompletionContext(slot, quote, typed, Span(offset - len(typed), offset + rest_length))


def known_node_types(document: WorkflowDocument) -> list[str]:
    """Node type ids to offer: the site registry's when there is one, else the types the
    settings know plus those the document already uses."""
    settings = document.settings
    if settings.known_node_types is not None:
        return sorted(settings.known_node_types)
    known = set(
        settings.passthrough_types
        | settings.tool_accepting_types
        | settings.non_accepting_types
        | DEFAULT_PASSTHROUGH_TYPES
        | DEFAULT_TOOL_ACCEPTING_TYPES
        | DEFAULT_NON_ACCEPTING_TYPES
    )
    for element in document.lists["nodes"].elements:
        if isinstance(element.model, Node) and element.model.type_id:
            known.add(element.model.type_id)
    return sorted(known)


def candidates(document: WorkflowDocument, slot: Slot) -> list[str]:
    if slot is Slot.NODE_ID:
        return navigation_index(document).node_ids()
    if slot is Slot.EDGE_TYPE:
        return sorted(document.settings.edge_types)
    return known_node_types(document)


def written_value(document: WorkflowDocument, quote: str, value: str) -> str | None:
    """`value` as it must be typed at a completion point opened with `quote` ("" none: the
    whole literal), written by the document's format (the reader seam); None when that quote
    cannot hold it (the writer would change the quoting style)."""
    literal = document.reader.quote_string(value, f"{quote}x{quote}")
    if literal is None:
        return None
    if not quote:
        return literal
    if len(literal) < 2 or literal[0] != quote or literal[-1] != quote:
        return None
    return literal[1:-1]
