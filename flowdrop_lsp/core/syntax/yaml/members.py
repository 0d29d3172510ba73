"""Removing a member of a block mapping, or adding one, as Drupal's dumper writes YAML.

What a quick fix needs to delete `key: value` or to add one as a mapping's last member: the
text range or the insertion, from the spans of the syntax tree (code points). Drupal writes
block mappings indented by 2, `{  }` for an empty mapping, sequence items 2 deeper than their
key, scalars as core.syntax.yaml.writer's `yaml_scalar`. Anything else — a flow mapping, an
explicit `? key`, an anchor that a deletion would take away from its aliases — is not edited
(None): no fix is better than a fix that breaks the file.

`text` may be one item of a block sequence, re-read alone (core.syntax.yaml.reader's
`read_yaml(text, column)`): its offset 0 is `column` characters into its line, right after
the item's `- `. A member on that first line shares it with the dash.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flowdrop_lsp.core.syntax.tree import JArray, JMember, JObject, JsonValue
from flowdrop_lsp.core.syntax.yaml.writer import yaml_scalar

_INDENT = 2  # Drupal's dumper: a nested mapping or a key's sequence is 2 columns deeper
# What may precede a key on its line: indentation, or (the first key of an item) dashes.
_KEY_PREFIX = re.compile(r" *(?:- +)*")
# What may be an anchor (`&name` after a space, a line start or a flow indicator), or an
# alias: text inside a scalar may look like one too (`&amp;`).
_ANCHOR = re.compile(r"(?:^|(?<=[\s\[{,]))&([^\s,\[\]{}]+)", re.M)
_ALIAS = r"\*{}(?![^\s,\[\]{{}}])"
_MAX_KEY = 1024  # YAML's longest implicit key


@dataclass(frozen=True, slots=True)
class _Layout:
    """A block mapping's layout: its members' column, and whether its first member shares its
    line with a sequence item's dash (`- key: value`)."""

    column: int
    dash_line: bool


class _Unwritable(Exception):
    """A value that YAML as Drupal writes it cannot hold (a set, an object)."""


def yaml_member_removal(
    text: str, obj: JObject, key: str, column: int = 0
) -> tuple[int, int] | None:
    """The range `[start, end)` of `text` whose deletion removes member `key` of the block
    mapping `obj` (the last one of that key when it is duplicated): the member's whole lines,
    nested content included; for a first member sharing a dash's line, from its key to the
    next key (which moves up onto that line). None when `obj` is not a block mapping, `key` is
    its only member (the mapping would become null), or the member holds an anchor an alias
    elsewhere repeats (the alias would dangle)."""
    layout = _block_layout(text, obj, column)
    member = obj.member(key)
    if layout is None or member is None or len(obj.members) < 2:
        return None
    if layout.dash_line and member is obj.members[0]:
        span = member.key.start, obj.members[1].key.start
    else:
        span = _lines_of(text, member)
    return None if _takes_an_anchor(text, *span) else span


def yaml_only_member_emptying(
    text: str, obj: JObject, key: str, column: int = 0
) -> tuple[int, int, str] | None:
    """`(start, end, replacement)` removing `key`, the only member of the block mapping `obj`
    that is a key's value on the line before (`config:` then `  key: value`), by writing the
    empty mapping as Drupal does: `config: {  }` (deleting the line alone would leave `config:`
    null). None for anything else, or when the member holds an anchor an alias repeats."""
    member = obj.member(key)
    layout = _block_layout(text, obj, column)
    if member is None or len(obj.members) != 1 or layout is None or layout.dash_line:
        return None
    start = text.rfind("\n", 0, member.key.start) + 1
    after = text.find("\n", _end_of(member))
    # The member's lines end with their line break, or (the last item of a document without a
    # final line break, as an element's text is) with the text.
    end = after + 1 if after >= 0 else len(text)
    if start == 0 or _takes_an_anchor(text, start, end):
        return None
    line_end = start - 1 - (text[start - 2 : start - 1] == "\r")
    head = _EMPTY_VALUE.fullmatch(text, text.rfind("\n", 0, line_end) + 1, line_end)
    if head is None:
        return None  # not the value of a key on the line before (a comment, an anchor…)
    colon = text.rindex(":", 0, line_end) + 1
    newline_length = 0 if after < 0 else 2 if text[end - 2 : end] == "\r\n" else 1
    return colon, end - newline_length, " {  }"


def yaml_member_insertion(
    text: str, obj: JObject, key: str, value: Any, column: int = 0
) -> tuple[int, str] | None:
    """`(offset, inserted text)` adding `key: value` as the last member of the block mapping
    `obj`: at its members' indentation, on the line after the last member's value, written as
    Drupal's dumper writes it. None when `obj` is not a block mapping (a flow mapping such as
    `{  }` included), already has `key`, its last value is a block scalar keeping its trailing
    blank lines (`|+`: the new member would cut them off), or `value` cannot be written."""
    layout = _block_layout(text, obj, column)
    if layout is None or obj.member(key) is not None:
        return None
    last = obj.members[-1]
    if _keeps_trailing_lines(text, last.value):
        return None
    try:
        lines = _member_lines(key, value, layout.column)
    except _Unwritable:
        return None
    line_end = text.find("\n", _end_of(last))
    if line_end < 0:  # the last line has no line break: the new member is the last line too
        newline = _newline(text, len(text))
        return len(text), newline + newline.join(lines)
    newline = _newline(text, line_end)
    return line_end + 1, "".join(line + newline for line in lines)


# An empty flow mapping as the value of a key (`config: {  }`), after the key's line prefix.
_EMPTY_VALUE = re.compile(r"(?P<indent> *(?:- +)*)(?P<key>[^\s#][^\n]*?):[ \t]*\Z")
_EMPTY_FLOW = re.compile(r"\{[ \t]*\}\Z")


def yaml_empty_mapping_filling(
    text: str, obj: JObject, key: str, value: Any, column: int = 0
) -> tuple[int, int, str] | None:
    """`(start, end, replacement)` turning the empty flow mapping `obj` that is a key's value
    (`config: {  }`, as Drupal writes an empty mapping) into a block mapping holding
    `key: value`, 2 deeper than that key: `config:` then `  key: value` on the next line. None
    when `obj` is anything else."""
    if obj.members or not _EMPTY_FLOW.match(text, obj.start, obj.end):
        return None
    line_start = text.rfind("\n", 0, obj.start) + 1
    line_end = text.find("\n", obj.end)
    if text[obj.end : line_end if line_end >= 0 else len(text)].strip():
        return None  # something (a comment) follows on the line: left to a person
    head = _EMPTY_VALUE.fullmatch(text, line_start, obj.start)
    if head is None:
        return None
    key_column = len(head.group("indent")) + (column if line_start == 0 else 0)
    try:
        lines = _member_lines(key, value, key_column + _INDENT)
    except _Unwritable:
        return None
    colon = text.rindex(":", line_start, obj.start) + 1
    newline = _newline(text, line_end if line_end >= 0 else len(text))
    return colon, obj.end, newline + newline.join(lines)


def _block_layout(text: str, obj: JObject, column: int) -> _Layout | None:
    """The layout of `obj` when it is a block mapping whose members each start a line at one
    column (the first one may follow a dash); None for anything else."""
    members = obj.members
    if not members or obj.start != members[0].key.start or text[obj.start] in "{?&!*":
        return None  # empty, flow, or an anchor/tag/explicit key before the first key
    columns = set()
    dash_line = False
    for index, member in enumerate(members):
        at = member.key.start
        line_start = text.rfind("\n", 0, at) + 1
        prefix = _KEY_PREFIX.fullmatch(text, line_start, at)
        if prefix is None or (index > 0 and "-" in prefix.group()):
            return None
        if index == 0:
            # On the text's first line after a column, the key follows the item's dash.
            dash_line = "-" in prefix.group() or (line_start == 0 and column > 0)
        columns.add(at - line_start + (column if line_start == 0 else 0))
    return _Layout(columns.pop(), dash_line) if len(columns) == 1 else None


def _takes_an_anchor(text: str, start: int, end: int) -> bool:
    """Whether deleting `[start, end)` may take away an anchor an alias elsewhere repeats (it
    would dangle). Conservative: a name that merely looks like an anchor and an alias counts."""
    for anchor in _ANCHOR.finditer(text, start, end):
        alias = re.compile(_ALIAS.format(re.escape(anchor.group(1))))
        if alias.search(text, 0, start) or alias.search(text, end):
            return True
    return False


def _end_of(member: JMember) -> int:
    return member.value.end if member.value is not None else member.key.end


def _lines_of(text: str, member: JMember) -> tuple[int, int]:
    """The member's whole lines, with the line break that ends them; at the end of a text
    without a final line break, the line break before them instead."""
    start = text.rfind("\n", 0, member.key.start) + 1
    line_end = text.find("\n", _end_of(member))
    if line_end >= 0:
        return start, line_end + 1
    if start > 0:
        start -= 2 if text[start - 2 : start] == "\r\n" else 1
    return start, len(text)


def _newline(text: str, at: int) -> str:
    """The line break of the line ending at `at` (the text's own when none ends there)."""
    if text.startswith("\n", at):
        return "\r\n" if text[at - 1 : at] == "\r" else "\n"
    return "\r\n" if "\r\n" in text else "\n"


def _keeps_trailing_lines(text: str, value: JsonValue | None) -> bool:
    """Whether the value ends with a block scalar whose trailing blank lines are part of it
    (`|+`, `>+`): a line written after its content would cut them off."""
    while isinstance(value, JObject | JArray):
        if isinstance(value, JObject):
            value = value.members[-1].value if value.members else None
        else:
            value = value.items[-1] if value.items else None
    if value is None or text[value.start : value.start + 1] not in ("|", ">"):
        return False
    header_end = text.find("\n", value.start)
    header = text[value.start : header_end if header_end >= 0 else len(text)]
    return "+" in header.split("#", 1)[0]


def _member_lines(key: Any, value: Any, column: int) -> list[str]:
    """`key: value` at `column`, as lines: a non-empty container nested 2 deeper."""
    head = " " * column + _key_text(key) + ":"
    if isinstance(value, dict | list) and value:
        return [head, *_block_lines(value, column + _INDENT)]
    return [f"{head} {_scalar(value)}"]


def _block_lines(value: dict[Any, Any] | list[Any], column: int) -> list[str]:
    """A non-empty container as block lines at `column`; a container item of a sequence goes
    under a dash alone on its line (`-` then the item 2 deeper), as Drupal writes it."""
    if isinstance(value, dict):
        return [line for k, v in value.items() for line in _member_lines(k, v, column)]
    lines = []
    for item in value:
        if isinstance(item, dict | list) and item:
            lines.append(" " * column + "-")
            lines.extend(_block_lines(item, column + _INDENT))
        else:
            lines.append(" " * column + "- " + _scalar(item))
    return lines


def _key_text(key: Any) -> str:
    if isinstance(key, bool) or not isinstance(key, str | int):
        raise _Unwritable(f"a key of type {type(key).__name__}")
    written = yaml_scalar("", key) if isinstance(key, str) else str(key)
    if len(written) > _MAX_KEY:
        raise _Unwritable("a key longer than YAML's implicit keys")
    return written


def yaml_inline_value(value: Any) -> str | None:
    """A scalar or an empty container as Drupal's dumper writes it on its key's line; None
    for a non-empty container or a value YAML cannot hold."""
    try:
        return _scalar(value)
    except _Unwritable:
        return None


def _scalar(value: Any) -> str:
    """A value written on its key's line: a scalar, or an empty container."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        return yaml_scalar("", value)
    if isinstance(value, dict) and not value:
        return "{  }"
    if isinstance(value, list) and not value:
        return "[]"
    raise _Unwritable(f"a value of type {type(value).__name__}")


def _float(value: float) -> str:
    """A float YAML reads back as that float: YAML 1.1 (PyYAML) wants a `.` in its mantissa
    (`1.0e+20`, never `1e+20`, which it reads as a string)."""
    if value != value:
        return ".nan"
    if value in (float("inf"), float("-inf")):
        return ".inf" if value > 0 else "-.inf"
    written = repr(value)
    mantissa, e, exponent = written.partition("e")
    if e and "." not in mantissa:
        return f"{mantissa}.0e{exponent}"
    return written
