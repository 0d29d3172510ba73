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


def shape(value: JsonValue | None) -> object:
    """Everything a value says: type, span, value, children."""
    if value is None:
        return None
    kind = type(value).__name__
    if isinstance(value, JObject):
        members = [(shape(m.key), shape(m.value)) for m in value.members]
        return kind, value.start, value.end, members
    if isinstance(value, JArray):
        return kind, value.start, value.end, [shape(item) for item in value.items]
    if isinstance(value, JNumber):
        return kind, value.start, value.end, value.text
    if isinstance(value, JString | JLiteral | OpaqueValue):
        return kind, value.start, value.end, value.value
    raise TypeError(f"a value of no known kind: {kind}")
