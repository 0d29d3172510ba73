"""Syntax trees compared by everything they say (the tree's nodes have no equality of their own)."""

from __future__ import annotations

from flowdrop_lsp.core.syntax.tree import (
    JArray,
    JLiteral,
    JNumber,
    JObject,
    JsonValue,
    JString,
    OpaqueValue,
)


def shape(value: JsonValue | None, text: str | None = None) -> object:
    """Everything a value says: type, span, value, children. With `text` (what its spans index
    into), a value a whole read kept whole (OpaqueValue) is said as it re-reads from it."""
    if value is None:
        return None
    if text is not None and isinstance(value, OpaqueValue):
        return shape(value.expanded(text), text)
    kind = type(value).__name__
    if isinstance(value, JObject):
        members = [(shape(m.key), shape(m.value, text)) for m in value.members]
        return kind, value.start, value.end, members
    if isinstance(value, JArray):
        return kind, value.start, value.end, [shape(item, text) for item in value.items]
    if isinstance(value, JNumber):
        return kind, value.start, value.end, value.text
    if isinstance(value, JString | JLiteral | OpaqueValue):
        return kind, value.start, value.end, value.value
    raise TypeError(f"a value of no known kind: {kind}")
