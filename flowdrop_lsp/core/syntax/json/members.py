"""Removing a member of a JSON object, or adding one, in the file's own layout.

What a quick fix needs to delete `"key": value` or to add one as an object's last member:
the text range or the insertion, computed from the spans of the syntax tree (code points,
as Python indexes a `str`). Both answer None rather than risk text that no longer parses:
a comment (JSONC) where a separator is expected, an object left open by a syntax error.
"""

from __future__ import annotations

import re
from typing import Any

from flowdrop_lsp.core.syntax.tree import JObject
from flowdrop_lsp.core.text.literals import json_string, json_text

# What may separate two members for a removal to be exact: whitespace and one comma, nothing
# a removal could cut in half or swallow (a comment).
_SEPARATOR = re.compile(r"[ \t\r\n]*,[ \t\r\n]*")
# What may surround the only member (a trailing comma is JSONC's).
_AROUND_ONLY = re.compile(r"[ \t\r\n]*,?[ \t\r\n]*")
_BLANK = re.compile(r"[ \t]*")


def json_member_removal(text: str, obj: JObject, key: str) -> tuple[int, int] | None:
    """The range `[start, end)` of `text` whose deletion removes member `key` of `obj` (the last
    one of that key when it is duplicated) and leaves valid JSON in the file's layout; None
    when `obj` has no such member, is not a closed object, or a comment is in the way."""
    member = obj.member(key)
    if member is None or member.value is None or not _closed(text, obj):
        return None
    members = obj.members
    index = next(i for i, m in enumerate(members) if m is member)
    if len(members) == 1:
        # Everything between the braces goes, so that `{}` is left.
        inside_start, inside_end = obj.start + 1, obj.end - 1
        if _AROUND_ONLY.fullmatch(text, inside_start, member.key.start) is None:
            return None
        if _AROUND_ONLY.fullmatch(text, member.value.end, inside_end) is None:
            return None
        return inside_start, inside_end
    if index + 1 < len(members):
        # Up to the next key, which moves to where this key was: its line's indentation stays.
        following = members[index + 1].key.start
        if _SEPARATOR.fullmatch(text, member.value.end, following) is None:
            return None
        return member.key.start, following
    # The last member: the comma before it goes with it, so no trailing comma is left.
    previous = members[index - 1].value
    if previous is None or _SEPARATOR.fullmatch(text, previous.end, member.key.start) is None:
        return None
    return previous.end, member.value.end


def json_member_insertion(text: str, obj: JObject, key: str, value: Any) -> tuple[int, str] | None:
    """`(offset, inserted text)` adding `"key": value` as the last member of `obj`, laid out as
    its members are (one per line, or on one line); None when `obj` is not a closed object,
    already has `key` (a duplicate key is a problem of its own), or `value` is not JSON."""
    if not _closed(text, obj) or obj.member(key) is not None:
        return None
    if not obj.members:
        written = _member_text(key, value)
        return None if written is None else (obj.start + 1, written)
    last = obj.members[-1]
    if last.value is None:
        return None
    line_start = text.rfind("\n", 0, last.key.start) + 1
    if line_start == 0 or _BLANK.fullmatch(text, line_start, last.key.start) is None:
        # Members on one line (the last key is not the first thing on its line).
        written = _member_text(key, value)
        return None if written is None else (last.value.end, ", " + written)
    indent = text[line_start : last.key.start]
    newline = "\r\n" if text[line_start - 2 : line_start] == "\r\n" else "\n"
    written = _member_text(key, value, (indent, _indent_unit(text, obj, indent), newline))
    return None if written is None else (last.value.end, "," + newline + indent + written)


def _closed(text: str, obj: JObject) -> bool:
    """Whether `obj` spans a whole `{…}` (a syntax error may leave an object unclosed)."""
    return obj.end - obj.start >= 2 and text[obj.start] == "{" and text[obj.end - 1] == "}"


def _indent_unit(text: str, obj: JObject, indent: str) -> str:
    """One level of indentation: how much deeper the members are than the object's line."""
    line_start = text.rfind("\n", 0, obj.start) + 1
    line = text[line_start : obj.start]
    outer = len(line) - len(line.lstrip(" \t"))
    return indent[outer:] or ("\t" if indent.startswith("\t") else "  ")


def _member_text(key: str, value: Any, layout: tuple[str, str, str] | None = None) -> str | None:
    """`"key": value` as json.dumps writes it: on one line, or a non-empty container spread
    over lines when `layout` (the member's indentation, one level, the newline) is given.
    None when `value` is not JSON (a set, an object, NaN)."""
    try:
        name = json_string(key)
        if layout is None or not isinstance(value, dict | list) or not value:
            return f"{name}: {json_text(value)}"
        indent, unit, newline = layout
        body = json_text(value, indent=unit)
    except (TypeError, ValueError):
        return None
    # json.dumps escapes a line break inside a string: every "\n" of `body` is between lines.
    return f"{name}: " + body.replace("\n", newline + indent)
