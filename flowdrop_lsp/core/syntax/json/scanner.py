"""The fast path for a whole, valid JSON document: the root's members, and each element of
`nodes` and `edges`, read whole by the standard library's C scanner (values and spans, no inner
spans: those are found on demand, by re-reading one element). Anything off makes it give up,
and the tolerant parser (core.syntax.json.parser) reads the document and reports the problem."""

from __future__ import annotations

import json
import re
from array import array
from typing import Any

from flowdrop_lsp.core.syntax.json.parser import C_SCAN, JOpaque
from flowdrop_lsp.core.syntax.tree import JMember, JObject, JsonValue, JString, ScannedArray

_SCAN_STRING = json.decoder.scanstring  # type: ignore[attr-defined]
_SPACE = re.compile(r"[ \t\r\n]*")


def scan_workflow(text: str) -> JObject | None:
    """The fast path for a whole, valid document: the root object's members, `nodes` and `edges`
    as arrays of elements each read whole by the C scanner (opaque values: value and span, no
    inner spans). None when anything is off (a syntax error, a duplicate key, a BOM, comments…): the
    caller then uses the tolerant parser, which reports it."""

    def skip(at: int) -> int:
        return _SPACE.match(text, at).end()  # type: ignore[union-attr]

    try:
        position = skip(0)
        if text[position : position + 1] != "{":
            return None
        root_start = position
        position = skip(position + 1)
        members: list[JMember] = []
        last: dict[str, JMember] = {}
        if text[position : position + 1] == "}":
            position += 1
        else:
            while True:
                if text[position : position + 1] != '"':
                    return None
                key_value, key_end = _SCAN_STRING(text, position + 1, True)
                key = JString(position, key_end, key_value)
                position = skip(key_end)
                if text[position : position + 1] != ":" or key_value in last:
                    return None
                position = skip(position + 1)
                value: JsonValue
                if key_value in ("nodes", "edges") and text[position : position + 1] == "[":
                    value, position = _scan_elements(text, position)
                else:
                    scanned, end = C_SCAN(text, position)
                    value, position = JOpaque(position, end, scanned), end
                member = JMember(key, value)
                members.append(member)
                last[key_value] = member
                position = skip(position)
                separator = text[position : position + 1]
                if separator == "}":
                    position += 1
                    break
                if separator != ",":
                    return None
                position = skip(position + 1)
        if skip(position) != len(text):
            return None
        return JObject(root_start, position, members, last)
    except (StopIteration, ValueError, RecursionError, IndexError):
        return None


class JsonScannedArray(ScannedArray):
    """`nodes` or `edges` read by this fast path (core.syntax.tree.ScannedArray): its items,
    when asked, are the C scanner's opaque values."""

    __slots__ = ()
    opaque = JOpaque


# What follows an item of `nodes`/`edges` in a valid document: white space, ',' or ']', white
# space (one match per item instead of three steps).
_AFTER_ITEM = re.compile(r"[ \t\r\n]*([,\]])[ \t\r\n]*")


def _scan_elements(text: str, position: int) -> tuple[JsonScannedArray, int]:
    """An array at `position` whose elements are each read whole by the C scanner."""
    start = position
    values: list[Any] = []
    starts = array("q")
    ends = array("q")
    position = _SPACE.match(text, position + 1).end()  # type: ignore[union-attr]
    if text[position : position + 1] == "]":
        return JsonScannedArray(start, position + 1, values, starts, ends), position + 1
    scan, after_item = C_SCAN, _AFTER_ITEM.match
    add_value, add_start, add_end = values.append, starts.append, ends.append
    while True:
        value, end = scan(text, position)
        add_value(value)
        add_start(position)
        add_end(end)
        separator = after_item(text, end)
        if separator is None:
            raise ValueError("expected , or ]")
        if separator.group(1) == "]":
            closed = separator.end(1)
            return JsonScannedArray(start, closed, values, starts, ends), closed
        position = separator.end()
