"""How deep a YAML text nests, at least, read line by line without composing it: STORE-1's
depth bound (core/syntax/door.py) measured before any parse.

Counted as the JSON body of the same data would nest (`{}` is 1): a mapping or sequence is a
level where its lines are indented deeper than their parent's, plus the levels a flow
collection (`{…}`, `[…]`) opens. The count never exceeds the true depth — a legal document is
never called too deep — so what YAML lets one line hold is taken at its least: a sequence at
its parent key's indentation (`key:` then `- x`) is not a level of its own; the lines a block
scalar (`|`, `>`), a quoted scalar running over lines or a plain scalar's continuation hold
are text, not structure, and are skipped; `- key: v` counts its mapping at the key's column.
What is not YAML at all gets a number its syntax error makes moot."""

from __future__ import annotations

import re

# Inside a flow collection: a quoted scalar (skipped whole), a comment, or a bracket.
_FLOW_TOKEN = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'|(?:^|(?<=[ \t]))#[^\n]*|[\[\]{}]")
# A mapping key and its `:` at the start of what follows the indentation (or a `- `): quoted,
# or plain (no `: `, no ` #` inside, not starting with an indicator but `-?:` before a
# non-blank).
_KEY = re.compile(
    r"(?:'(?:[^'\n]|'')*'|\"(?:[^\"\\\n]|\\.)*\"|"
    r"(?:[^\s\-?:,\[\]{}#&*!|>'\"%@`]|[-?:][^\s])(?:[^:\n#]|:[^\s]|[^\s]#)*?)[ \t]*:(?=[ \t]|$)"
)
# What the count needs to come near a limit (see `yaml_depth`): a line whose indentation and
# `- ` entries reach half its columns; a flow collection at a line's start; a flow value after
# a key or a `- ` holding more than nothing (`{  }` is Drupal's empty mapping, on many lines of
# an export). Each is searched for from a literal (a line break, `: `, `- `): at C speed.
_DEEP_LINE = "\n[ \t-]{%d}"
_FLOW_AT_START = re.compile(r"\n[\[{]")
_FLOW_VALUES = (re.compile(r": +[\[{](?! *[\]}])"), re.compile(r"- +[\[{](?! *[\]}])"))
_DOUBLE_CLOSE = re.compile(r'(?:^|[^\\])(?:\\\\)*"')
_SINGLE_CLOSE = re.compile(r"(?:^|[^'])(?:'')*'(?!')")


def yaml_depth(text: str, limit: int) -> int:
    """At least how deep `text` nests (see the module); counting stops once `limit` is
    reached. 0 when a cheap look at the text shows it nests less than `limit` (`_may_reach`:
    a few searches at C speed, where counting line by line costs a quarter of a read)."""
    if not _may_reach(text, limit):
        return 0
    stack: list[int] = []  # the indentation of each open block level
    deepest = 0
    skip_deeper = -1  # the lines indented deeper than this are text (a scalar's), when >= 0
    quote = ""  # a quoted scalar left open at the end of a line: its quote
    position, size = 0, len(text)
    while position < size and deepest < limit:
        end = text.find("\n", position)
        if end < 0:
            end = size
        line = text[position:end]
        next_position = end + 1
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if quote:
            closer = _DOUBLE_CLOSE if quote == '"' else _SINGLE_CLOSE
            if closer.search(line):
                quote = ""  # what follows the closing quote on this line is no structure
            position = next_position
            continue
        content = stripped.rstrip("\r \t")
        if not content or content.startswith("#"):
            position = next_position
            continue
        if skip_deeper >= 0:
            if indent > skip_deeper:
                position = next_position
                continue
            skip_deeper = -1
        if content.startswith(("---", "...")) and indent == 0:
            stack.clear()  # a new document
            position = next_position
            continue
        column = owner = indent  # owner: the column of the last level this line opens
        rest = content
        level = 0
        while True:  # the `- ` entries and the key that may start this line, each a level
            if rest == "-" or rest.startswith(("- ", "-\t")):
                level, owner = _push(stack, column), column
                after = rest[1:].lstrip(" \t")
                column += len(rest) - len(after)
                rest = after
                continue
            key = _KEY.match(rest)
            if key is not None:
                level, owner = _push(stack, column), column
                after = rest[key.end() :].lstrip(" \t")
                column += len(rest) - len(after)
                rest = after
            break
        if not level and not (column == 0 and rest.startswith(("[", "{"))):
            # A scalar's line (a continuation, a document's scalar), or a flow collection below
            # its key (left uncounted: the count may fall short, never over).
            position = next_position
            continue
        deepest = max(deepest, level)
        if not rest or rest.startswith("#"):
            position = next_position  # its value is on the lines below
            continue
        first = rest[0]
        if first in "[{":
            start = position + column
            flow, position = _flow(text, start)
            deepest = max(deepest, level + flow)
            continue
        if first in "'\"" and not _closed(rest, first):
            quote = first
        else:
            # A block scalar's lines, a plain scalar's continuation: deeper than what holds it.
            skip_deeper = owner
        position = next_position
    return deepest


def _may_reach(text: str, limit: int) -> bool:
    """Whether the count may reach `limit`: without a line opening levels at half its columns
    or more, at most half of it comes from the lines' columns; without a flow collection at a
    line's start or with content after a key or a `- `, one more from a value (`{  }`)."""
    half = limit // 2
    return bool(
        text[:half].strip(" \t-") == ""
        and len(text) >= half
        or re.search(_DEEP_LINE % half, text)
        or text[:1] in ("[", "{")
        or _FLOW_AT_START.search(text)
        or any(pattern.search(text) for pattern in _FLOW_VALUES)
    )


def _push(stack: list[int], column: int) -> int:
    """Open a block level at `column` (closing those at or right of it); the depth there."""
    while stack and stack[-1] >= column:
        stack.pop()
    stack.append(column)
    return len(stack)


def _closed(rest: str, quote: str) -> bool:
    """Whether the quoted scalar `rest` starts with ends on its line."""
    closer = _DOUBLE_CLOSE if quote == '"' else _SINGLE_CLOSE
    return closer.search(rest[1:]) is not None


def _flow(text: str, start: int) -> tuple[int, int]:
    """The deepest a flow collection starting at `start` nests, and where the line after it
    starts (the text's end when it is never closed)."""
    depth = deepest = 0
    for token in _FLOW_TOKEN.finditer(text, start):
        mark = token.group()
        if mark in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif mark in ("]", "}"):
            depth -= 1
            if depth <= 0:
                end = text.find("\n", token.end())
                return deepest, len(text) if end < 0 else end + 1
    return deepest, len(text)
