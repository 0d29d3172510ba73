"""Symfony PropertyAccess property paths (`a.b[c].d`, `[a][b]`), as FlowDrop validates them
(spec LANG-11): Symfony 6.4 … 7.x's PropertyPath grammar — `?` after a segment makes it
null-safe (6.2), `\\.` and `\\[` escape (6.3) — and FlowDrop's dot→bracket reading, after which a
`]` outside brackets closes a bracket nobody opened (Symfony alone would take `a]b` as one name).

Only what is unambiguously broken is reported: an empty path or segment (`a..b`, `.a`, `a.`,
`a[]`), an unclosed `[`, a stray `]`, a backslash escaping nothing. The root (the first
segment) is the name the path reads."""

from __future__ import annotations

import re

from flowdrop_lsp.core.expressions.base import NameRead, Parsed, Problem, ProblemKind

# Symfony's '/^(((?:[^\\\\.\[]|\\\\.)++)|\[([^\]]++)\])(.*)/' and, after the first segment,
# '/^(\.((?:[^\\\\.\[]|\\\\.)++)|\[([^\]]++)\])(.*)/'.
_FIRST = re.compile(r"((?:[^\\.\[]|\\.)++)|\[([^\]]++)\]", re.S)
_NEXT = re.compile(r"\.((?:[^\\.\[]|\\.)++)|\[([^\]]++)\]", re.S)
_UNESCAPE = re.compile(r"\\([.\[])")
_STRAY_CLOSE = re.compile(r"(?:[^\\\]]|\\.)*+\]", re.S)


def _problem(start: int, end: int, message: str) -> Parsed:
    return Parsed(problems=(Problem(ProblemKind.SYNTAX, start, end, message),))


def _refusal(source: str, at: int) -> Problem:
    """Why Symfony stops at `at` (its "Unexpected token … at position"), worded."""
    char = source[at]
    following = source[at + 1 : at + 2]
    if char == ".":
        if at == 0:
            return Problem(ProblemKind.SYNTAX, 0, 1, 'A property path cannot start with "."')
        if not following:
            return Problem(ProblemKind.SYNTAX, at, at + 1, 'A property path cannot end with "."')
        if following == ".":
            return Problem(ProblemKind.SYNTAX, at, at + 2, 'Empty segment: ".." names nothing')
        return Problem(
            ProblemKind.SYNTAX, at, at + 2, 'A "." must be followed by a name, not by "["'
        )
    if char == "[":
        if following == "]":
            return Problem(ProblemKind.SYNTAX, at, at + 2, 'Empty brackets: "[]" names nothing')
        return Problem(ProblemKind.SYNTAX, at, len(source), 'Unclosed "["')
    if char == "\\" and not following:
        return Problem(ProblemKind.SYNTAX, at, at + 1, "A trailing backslash escapes nothing")
    return Problem(
        ProblemKind.SYNTAX, at, at + 1, f'Unexpected "{char}": a segment starts with "." or "["'
    )


def parse_property_path(source: str) -> Parsed:
    """The first refusal (Symfony's, or a stray `]`) and the root name read (guarded when the
    root is null-safe: `a?.b`)."""
    if source == "":
        return _problem(0, 0, "The property path should not be empty")
    reads: list[NameRead] = []
    pattern, position = _FIRST, 0
    while (match := pattern.match(source, position)) is not None:
        is_index = match.group(1) is None
        group = 2 if is_index else 1
        start, end = match.start(group), match.end(group)
        if position == 0:
            null_safe = source[end - 1] == "?" and end - 1 > start
            name = _UNESCAPE.sub(r"\1", source[start : end - 1 if null_safe else end])
            reads.append(NameRead(name, start, end - 1 if null_safe else end, null_safe))
        if not is_index and (stray := _STRAY_CLOSE.match(source, start, end)) is not None:
            at = stray.end() - 1
            problem = Problem(ProblemKind.SYNTAX, at, at + 1, 'Unexpected "]": no "[" opens it')
            return Parsed(problems=(problem,), reads=tuple(reads))
        position, pattern = match.end(), _NEXT
    if position == len(source):
        return Parsed(reads=tuple(reads))
    return Parsed(problems=(_refusal(source, position),), reads=tuple(reads))
