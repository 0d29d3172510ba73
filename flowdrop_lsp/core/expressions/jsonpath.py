"""JSONPath, whatever the dialect: the spec does not name the PHP library (softcreatr/jsonpath
and galbar/jsonpath are both in use, and they disagree on filters, slices and functions), so
only what every dialect refuses is reported: a path not starting with `$` (callers pass only
`$`-rooted paths, LANG-12), an unbalanced bracket or parenthesis, a filter `[?(` never closed,
an unterminated quoted string, an empty `[]`, a dot followed by nothing at the end (`$.a.`,
`$..`). Everything else (`$..author`, `$['a b']`, `$[0,1]`, `$[1:3]`, `$.*`, filters) passes.
A JSONPath reads its input, not names: no reads."""

from __future__ import annotations

import re

from flowdrop_lsp.core.expressions.base import Parsed, Problem, ProblemKind

# What matters to the check, in one scan: quoted strings, brackets, dots and the rest.
_PIECE = re.compile(
    r"""(?P<quote>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
    r"""|(?P<unterminated>["'])"""
    r"|(?P<empty>\[\s*\])"
    r"|(?P<filter>\[\s*\?\s*\()"
    r"|(?P<open>[\[(])"
    r"|(?P<close>[\])])"
    r"|(?P<dots>\.+\s*$)"
    r"""|[^"'\[\]().]+|\.""",
    re.S,
)
_CLOSING = {"[": "]", "(": ")"}


def _refused(start: int, end: int, message: str) -> Parsed:
    return Parsed(problems=(Problem(ProblemKind.SYNTAX, start, end, message),))


def parse_jsonpath(source: str) -> Parsed:
    """The first thing every JSONPath dialect refuses in `source`, if any."""
    if not source.startswith("$"):
        return _refused(0, min(1, len(source)), 'A JSONPath starts with "$"')
    # Each open bracket: its character, where it starts and ends, and where the filter `[?(`
    # it belongs to starts (None outside a filter's own brackets).
    opened: list[tuple[str, int, int, int | None]] = []
    for match in _PIECE.finditer(source, 1):
        kind, start, end = match.lastgroup, match.start(), match.end()
        if kind == "unterminated":
            return _refused(start, len(source), "Unterminated quoted string")
        if kind == "empty":
            return _refused(start, end, 'Empty brackets: "[]" selects nothing')
        if kind == "filter":
            opened.append(("[", start, start + 1, start))
            opened.append(("(", end - 1, end, start))
        elif kind == "open":
            opened.append((source[start], start, end, None))
        elif kind == "close":
            char = source[start]
            if not opened:
                return _refused(start, end, f'Unexpected "{char}": nothing opens it')
            expected, at, at_end, filter_start = opened.pop()
            if _CLOSING[expected] != char and filter_start is not None:
                return _refused(filter_start, end, 'Unclosed filter "[?(…)]"')
            if _CLOSING[expected] != char:
                return _refused(at, at_end, f'Unclosed "{expected}" ("{char}" found first)')
        elif kind == "dots":
            dots = match.group().rstrip()
            return _refused(start, start + len(dots), f'Nothing after "{dots}"')
    if opened:
        filters = [entry[3] for entry in opened if entry[3] is not None]
        if filters:
            return _refused(filters[0], len(source), 'Unclosed filter "[?(…)]"')
        expected, at, at_end, _ = opened[-1]
        return _refused(at, at_end, f'Unclosed "{expected}"')
    return Parsed()
