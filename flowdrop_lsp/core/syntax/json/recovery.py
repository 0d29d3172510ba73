"""How the JSON parser recovers inside `nodes` and `edges`: where a half-typed element ends.

A user typing a node has an unfinished element before the next one. Without these rules the
parser reads on into the next element (as a member, or as the value after a `"key": ` not typed
yet) and swallows it, and every node after the one being typed seems gone. Here, a '{' on a new
line where a member name, ':' or ',' is expected is the next element (never valid JSON there),
and so is a '{' starting a line, no deeper than the element, where a value belongs — valid JSON,
so only when the element turns out broken: it is then read again, cut there (`read_element`).
"""

from __future__ import annotations

import re
from typing import Any

from flowdrop_lsp.core.syntax.tree import JsonValue, SyntaxProblem

_LINE_BREAK = re.compile(r"[\r\n]")


class ElementRecovery:
    """The element-boundary half of core.syntax.json.parser's `_Parser` (its state, declared
    here, is the parser's)."""

    text: str
    pos: int
    _peek_pos: int
    problems: list[SyntaxProblem]
    in_element: bool
    cut: bool
    element_problems: int
    element_start: int
    value_candidate: int
    value_cut_at: int
    region_stop: int
    first_column: int

    def peek(self) -> tuple[str, int, int]:
        raise NotImplementedError

    def error(self, message: str, start: int, end: int, cut_short: bool = False) -> None:
        raise NotImplementedError

    def parse_value(self, depth: int, shape: Any = ...) -> JsonValue | None:
        raise NotImplementedError

    def cuts_element(self, token: tuple[str, int, int], container: int, what: str) -> bool:
        """Whether a '{' met where an unfinished container of a nodes/edges element expects a
        member, a ':' or a ',' starts the NEXT element (a line break precedes it): the element
        is half-typed, and the '{' is not read into it. Without this rule a node being typed
        swallowed every node after it. The innermost container opened at `container` is
        reported unterminated (the enclosing ones end there too), unless the element has a
        syntax problem already."""
        kind, start, _ = token
        if not self.in_element or kind != "{" or not _LINE_BREAK.search(self.text, self.pos, start):
            return False
        if not self.cut:
            self.cut = True
            # One finding per half-typed element: when something in it was reported already
            # (an unterminated string, mostly), that says where it is broken.
            if any(p.kind == "syntax" for p in self.problems[self.element_problems :]):
                return True
            closer = "}" if what == "object" else "]"
            self.error(f"unterminated {what}: expected '{closer}'", container, container + 1)
        return True

    def element_broken(self) -> bool:
        return self.cut or any(p.kind == "syntax" for p in self.problems[self.element_problems :])

    def may_start_element(self, at: int) -> bool:
        """Whether a '{' at `at` where a value belongs in an element may be the next element:
        first on its line, no deeper than the element itself. Valid JSON all the same, so it is
        cut at only when the element turns out broken (`read_element`). Looks back over the
        candidate's indentation only (a minified line may be megabytes long)."""
        text = self.text
        line = at
        while line > 0 and text[line - 1] in " \t":
            line -= 1
        if line > 0 and text[line - 1] not in "\r\n":
            return False
        column, start = at - line, self.element_start
        # The element starts at a column >= `column`: no line break in the `column` before it.
        # On the text's first line its column counts from `first_column`, where a stretch
        # re-read starts in its line (the whole read tells it from the text before).
        if _LINE_BREAK.search(text, max(0, start - column), start) is not None:
            return False
        return start >= column or start + self.first_column >= column

    def value_may_cut(self, token: tuple[str, int, int], container: int, what: str) -> bool:
        """At a value's place in an element: True when the element is cut here (a second read
        of a broken element, at the '{' found to be the next one); else notes a candidate."""
        kind, start, _ = token
        if kind != "{" or not self.in_element:
            return False
        if start == self.value_cut_at:
            self.cut = True
            if not any(p.kind == "syntax" for p in self.problems[self.element_problems :]):
                closer = "}" if what == "object" else "]"
                self.error(f"unterminated {what}: expected '{closer}'", container, container + 1)
            return True
        if self.value_candidate < 0 and self.value_cut_at < 0 and self.may_start_element(start):
            self.value_candidate = start
        return False

    def read_element(self, depth: int, shape: Any) -> JsonValue | None:
        """One element of `nodes`/`edges`. When it turns out broken and a '{' where a value
        belongs in it may have been the next element (a node half-typed up to `"key": `), it is
        read again, cut there: otherwise it would swallow the next element as that value."""
        start = self.peek()[1]
        self.in_element, self.cut = True, False
        self.element_problems = len(self.problems)
        self.element_start, self.value_candidate, self.value_cut_at = start, -1, -1
        value = self.parse_value(depth, shape)
        # A stretch re-read (region_stop) whose element ran past the stretch's end knows too
        # little: the whole read has the text after it, and may find the element closed there
        # (a '[' typed before a node wraps every node up to `nodes`' own ']'). The caller
        # re-reads a longer stretch instead (overrun); a cut here would differ from it.
        overran = 0 <= self.region_stop < self.pos
        if self.value_candidate >= 0 and self.element_broken() and not overran:
            del self.problems[self.element_problems :]
            self.pos, self._peek_pos, self.cut = start, -1, False
            self.value_cut_at = self.value_candidate
            value = self.parse_value(depth, shape)
        self.in_element = False
        return value

    def describe(self, token: tuple[str, int, int]) -> str:
        kind, start, end = token
        if kind == "eof":
            return "end of file"
        return f"'{self.text[start : min(end, start + 20)]}'"
