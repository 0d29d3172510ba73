"""An error-tolerant JSON parser that keeps the exact span of every value.

A user mid-typing has broken JSON most of the time, so this parser never gives up: it reports
each syntax problem where it is and recovers, so that the nodes and edges a problem does not
touch are still analysed. Every value carries its code-point span `[start, end)` in the text.

Why not `json.loads`: it has neither spans nor recovery. Why not tree-sitter: a native parser
tree costs ≈15× the source in memory, and a regex tokenizer plus a small recursive-descent
parser is fast enough for full parses (the incremental path re-reads single elements).

What counts as a syntax problem: exactly what strict JSON refuses — `json.loads` with NaN and
Infinity refused, as PHP's json_decode (the FlowDrop runtime) refuses them; raw control
characters in strings included. Three documented departures: a leading byte order mark is
reported (json.loads and json_decode refuse it too, but editors hide it, so it gets its own
message); nesting deeper than MAX_DEPTH is reported and skipped rather than recursed into, so a
hostile document cannot exhaust the stack; comments and trailing commas are allowed in JSONC
(`allow_comments`). tests/core/syntax/test_syntax_exact.py holds the property.

Recovery inside `nodes` and `edges` knows where elements start: in an unfinished element, a '{'
on a new line where a member name, ':' or ',' is expected is the next element (the half-typed
one ends there, `_Parser.cuts_element`), so typing a node does not swallow the nodes after it.
`parse_array_region` re-reads a stretch of those arrays exactly as a whole read does, which is
what keeps the incremental engine local while the text is broken.

The tree it builds is core.syntax.tree's; string tokens decode in core.syntax.json.strings; a
whole valid document takes the fast path instead (core.syntax.json.scanner).
"""

from __future__ import annotations

import json
import json.scanner
import re
from typing import Any

from flowdrop_lsp.core.syntax.json.recovery import ElementRecovery
from flowdrop_lsp.core.syntax.json.shapes import FULL, OPAQUE, SHAPE
from flowdrop_lsp.core.syntax.json.strings import (
    CONTROL_CHARACTER,
    control_character_message,
    decode_string_token,
    ends_in_escape,
)
from flowdrop_lsp.core.syntax.tree import (
    JArray,
    JLiteral,
    JMember,
    JNumber,
    JObject,
    JsonValue,
    JString,
    OpaqueValue,
    ParsedJson,
    SyntaxProblem,
)

MAX_DEPTH = 200

# One token per match; finditer's search skips the JSON whitespace between tokens for free.
# Strings use the unrolled-loop form so that an unterminated string costs linear time. `s` is a
# closed string without control characters (all but always); `l` is any other string token —
# unterminated, or with a raw control character, which strict JSON refuses and the parser
# reports (`_Parser.string`). A string token cannot cross a line break, which makes an
# unterminated one end at its line.
_TOKEN = re.compile(
    r"""(?P<s>"[^"\\\x00-\x1f]*(?:\\[^\x00-\x1f][^"\\\x00-\x1f]*)*")"""
    r"""|(?P<l>"[^"\\\r\n]*(?:\\.[^"\\\r\n]*)*"?)"""
    r"""|(?P<p>[{}\[\]:,])"""
    r"""|(?P<n>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)"""
    r"""|(?P<w>[A-Za-z_$][A-Za-z0-9_$]*)"""
    r"""|(?P<c>//[^\r\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/)?)"""
    r"""|(?P<x>[^ \t\r\n])"""
)
_LITERALS: dict[str, Any] = {"true": True, "false": False, "null": None}

# The problems of a container closed by an enclosing container's bracket: reported at that
# bracket, just past the container's end (`SyntaxProblem.cut_short`: still the container's).
OBJECT_CUT_SHORT = "expected '}' before ']'"
ARRAY_CUT_SHORT = "expected ']' before '}'"


def _raise_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _pairs_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise ValueError("duplicate key")  # the tolerant parser reads it, and reports it
    return result


# The C scanner of the standard library: reads one whole value at an offset, returning it and
# where it ends. Used for the values whose inner spans nothing needs (see SHAPE), and for whole
# elements by the fast path (scan_workflow). Anything it would accept silently but the tolerant
# parser reports (NaN, duplicate keys) makes it fail, so both paths report the same problems.
# It is strict (the JSONDecoder default): a raw control character in a string makes it fail
# too. So does an integer longer than Python's int-from-string limit (4300 digits): the tolerant
# parser reads that one (JNumber.value) — a custom `parse_int` would instead cost a Python call
# for every integer of every document.
C_SCAN = json.scanner.make_scanner(
    json.JSONDecoder(parse_constant=_raise_constant, object_pairs_hook=_pairs_without_duplicates)  # type: ignore[arg-type]
)


class JOpaque(OpaqueValue):
    """A value read whole by the C scanner (core.syntax.tree.OpaqueValue), re-read here."""

    __slots__ = ()

    def expanded(self, text: str) -> JsonValue | None:
        return parse_value_at(text, self.start, self.end)


_NEXT = re.compile(r"[ \t\r\n]*(?:" + _TOKEN.pattern + ")")
_EOF = ("eof", -1, -1)


class _Parser(ElementRecovery):
    def __init__(
        self,
        text: str,
        problems: list[SyntaxProblem],
        allow_trailing_commas: bool,
        allow_comments: bool,
    ) -> None:
        self.text = text
        self.length = len(text)
        self.problems = problems
        self.allow_trailing_commas = allow_trailing_commas
        self.allow_comments = allow_comments
        self.pos = 0
        self._peek_pos = -1
        self._peek: tuple[str, int, int] = _EOF
        self._loose_strings: set[int] = set()
        # Reading an element of `nodes`/`edges`, and whether it was found half-typed (see
        # cuts_element).
        self.in_element = False
        self.cut = False
        self.element_problems = 0  # where the problems of the element being read start
        # Where the element being read starts; the first '{' in it that may be the next element
        # where a value belongs (`may_start_element`), and on a second read, the one to cut at.
        self.element_start = -1
        self.value_candidate = -1
        self.value_cut_at = -1
        # Re-reading a stretch of `nodes`/`edges` (`array_items(stop=…)`): where it ends.
        self.region_stop = -1
        # The column `text` starts at in its line (a stretch re-read; see may_start_element).
        self.first_column = 0

    # ----- lexing -------------------------------------------------------------------------
    def peek(self) -> tuple[str, int, int]:
        """The token at the cursor, skipping white space and comments (reported once each)."""
        if self._peek_pos == self.pos:
            return self._peek
        pos = self.pos
        text = self.text
        while True:
            match = _NEXT.match(text, pos)
            if match is None:
                token = ("eof", self.length, self.length)
                break
            kind = match.lastgroup or "x"
            start, end = match.start(kind), match.end()
            if kind == "c":
                if not self.allow_comments:
                    self.problems.append(
                        SyntaxProblem("syntax", "comments are not allowed in JSON", start, end)
                    )
                pos = end
                continue
            if kind == "p":
                token = (text[start], start, end)
            elif kind == "s":
                token = ("s", start, end)
            elif kind == "l":
                self._loose_strings.add(start)  # for `string`: look for control characters
                closed = (
                    end - start >= 2
                    and text[end - 1] == '"'
                    and (text[end - 2] != "\\" or not ends_in_escape(text[start:end]))
                )
                token = ("s" if closed else "u", start, end)
            else:
                token = (kind, start, end)
            break
        self._peek_pos, self._peek = self.pos, token
        return token

    def advance(self) -> None:
        self.pos = self.peek()[2]

    def error(self, message: str, start: int, end: int, cut_short: bool = False) -> None:
        problem = SyntaxProblem("syntax", message, start, max(end, start), cut_short=cut_short)
        if self.problems and self.problems[-1] == problem:
            return  # containers cut short by one bracket: one report
        if cut_short and self.in_element and self.element_broken():
            return  # one finding per half-typed element: it is said already
        self.problems.append(problem)

    # ----- values -------------------------------------------------------------------------
    def parse_value(self, depth: int, shape: Any = FULL) -> JsonValue | None:
        """Parse the value at the cursor; on a token that cannot start a value, report it and
        return None without consuming it (the caller decides how to recover)."""
        token = self.peek()
        kind, start, end = token
        if kind == "eof":
            self.error("expected a value, found end of file", self.length, self.length)
            return None
        if shape is OPAQUE and kind in "{[":
            opaque = self.scan_opaque(start)
            if opaque is not None:
                return opaque
            shape = FULL
        elif isinstance(shape, tuple):  # (ELEMENT, its shape)
            if kind in "{[":
                opaque = self.scan_opaque(start)
                if opaque is not None:
                    return opaque
            shape = shape[1]
        if kind == "{" or kind == "[":
            if depth >= MAX_DEPTH:
                self.skip_too_deep(start)
                return None
            if kind == "{":
                return self.parse_object(depth + 1, shape if isinstance(shape, dict) else FULL)
            return self.parse_array(depth + 1, shape[0] if isinstance(shape, list) else FULL)
        self.advance()
        if kind == "s" or kind == "u":
            return self.string(kind, start, end)
        if kind == "n":
            return JNumber(start, end, self.text[start:end])
        if kind == "w":
            word = self.text[start:end]
            if word in _LITERALS:
                return JLiteral(start, end, _LITERALS[word])
            self.error(f"unexpected '{word[:40]}': strings must be in double quotes", start, end)
            return None
        self.pos = start
        self.error(f"expected a value, found {self.describe(token)}", start, end)
        return None

    def scan_opaque(self, start: int) -> JOpaque | None:
        """Read a whole value with the C scanner; None when it is not valid JSON (or JSONC
        needs the tolerant path), so the caller parses it with full error reporting."""
        if self.allow_comments:
            return None
        try:
            value, end = C_SCAN(self.text, start)
        except (StopIteration, ValueError, RecursionError):
            return None
        self.pos = end
        return JOpaque(start, end, value)

    def string(self, kind: str, start: int, end: int) -> JString:
        text = self.text
        if start in self._loose_strings:
            # Reported, and kept in the value: the string is still read, so analysis goes on.
            for control in CONTROL_CHARACTER.finditer(text, start, end):
                at = control.start()
                self.error(control_character_message(text[at]), at, at + 1)
        if kind == "s":
            body = text[start + 1 : end - 1]
            if "\\" not in body:
                return JString(start, end, body)
        value, problem = decode_string_token(text[start:end])
        if kind == "u":
            if text[end : end + 1] in ("\r", "\n"):
                # The lexer ends a string at its line (mid-typing, that is where it ends).
                self.error(
                    "unterminated string: a line break in a string must be escaped as \\n",
                    start,
                    end,
                )
            else:
                self.error("unterminated string", start, end)
        elif problem:
            self.error(problem, start, end)
        return JString(start, end, value)

    def skip_too_deep(self, start: int) -> None:
        """Skip a balanced bracket group without building it."""
        self.error(f"nesting deeper than {MAX_DEPTH} levels is not analysed", start, start + 1)
        level = 0
        while True:
            kind = self.peek()[0]
            if kind == "eof":
                return None
            self.advance()
            if kind == "{" or kind == "[":
                level += 1
            elif kind == "}" or kind == "]":
                level -= 1
                if level == 0:
                    return None

    def parse_object(self, depth: int, shape: Any) -> JObject:  # noqa: C901 - the tolerant parser's object loop, a branch per recovery (hot)
        _, start, end = self.peek()
        self.advance()
        members: list[JMember] = []
        last: dict[str, JMember] = {}
        partial = isinstance(shape, dict)
        while True:
            token = self.peek()
            kind, tstart, tend = token
            if kind == "eof":
                self.error("unterminated object: expected '}'", start, start + 1)
                end = self.length
                break
            if kind == "}":
                self.advance()
                end = tend
                break
            if kind == "]":
                # A bracket that closes an enclosing array: this object was never closed.
                self.error(OBJECT_CUT_SHORT, tstart, tend, cut_short=True)
                end = tstart
                break
            if kind == ",":
                self.error("unexpected ','", tstart, tend)
                self.advance()
                continue
            if kind != "s" and kind != "u":
                if self.cuts_element(token, start, "object"):
                    end = self.pos
                    break
                if kind == "w":
                    self.error("property names must be strings in double quotes", tstart, tend)
                else:
                    self.error(
                        f"expected a property name, found {self.describe(token)}", tstart, tend
                    )
                if kind in "{[":
                    self.parse_value(depth)  # consume the stray value whole
                else:
                    self.advance()
                continue
            self.advance()
            key = self.string(kind, tstart, tend)
            child_shape = shape.get(key.value, OPAQUE) if partial else FULL
            value: JsonValue | None = None
            following = self.peek()
            if following[0] == ":":
                self.advance()
                following = self.peek()
                if following[0] in ",}]":
                    self.error(
                        f"missing value for '{key.value[:40]}'",
                        following[1],
                        following[2],
                        cut_short=following[0] == "]",
                    )
                elif not self.value_may_cut(following, start, "object"):
                    value = self.parse_value(depth, child_shape)
            elif not (
                self.in_element
                and following[0] == "{"
                and self.cuts_element(following, start, "object")
            ):
                self.error(f"expected ':' after property name '{key.value[:40]}'", tend, tend)
                if following[0] in "{[snw":
                    value = self.parse_value(depth, child_shape)
            member = JMember(key, value)
            previous = last.get(key.value)
            if previous is not None:
                self.problems.append(
                    SyntaxProblem(
                        "duplicate-key",
                        f"duplicate key '{key.value[:40]}': the last one wins",
                        key.start,
                        key.end,
                        previous.key.start,
                        previous.key.end,
                    )
                )
            members.append(member)
            last[key.value] = member
            if self.cuts_element(self.peek(), start, "object"):
                end = self.pos
                break
            if value is None and self.peek()[0] not in ",}]seof":
                # Could not read a value: resynchronise at the next ',' '}' or ']' at this level.
                self.resync()
            kind, tstart, tend = self.peek()
            if kind == ",":
                self.advance()
                if self.peek()[0] == "}" and not self.allow_trailing_commas:
                    self.error("trailing comma", tstart, tend)
            elif kind == "s" or kind == "u":
                self.error("expected ',' between properties", tstart, tstart)
            elif kind not in "}]eof":
                self.error(
                    f"expected ',' or '}}', found {self.describe((kind, tstart, tend))}",
                    tstart,
                    tend,
                )
                self.resync()
                if self.peek()[0] == ",":
                    self.advance()
        return JObject(start, end, members, last)

    def parse_array(self, depth: int, item_shape: Any) -> JArray:
        _, start, end = self.peek()
        self.advance()
        items: list[JsonValue] = []
        ending, tstart, tend = self.array_items(depth, item_shape, items, start)
        if ending == "eof":
            self.error("unterminated array: expected ']'", start, start + 1)
            end = self.length
        elif ending == "]":
            end = tend
        elif ending == "}":
            self.error(ARRAY_CUT_SHORT, tstart, tend, cut_short=True)
            end = tstart
        else:  # "cut": the element this array is in is half-typed (cuts_element)
            end = self.pos
        return JArray(start, end, items)

    def array_items(
        self,
        depth: int,
        item_shape: Any,
        items: list[JsonValue],
        opened_at: int,
        after_item: bool = False,
        stop: int = -1,
    ) -> tuple[str, int, int]:
        """Read an array's items into `items`, from the cursor to the token that ends them:
        returns its kind ("]" consumed, "}", "eof", "cut") and span. `after_item`: the cursor
        is just after an item (expecting ',' or ']'). With `stop` >= 0 (re-reading a stretch
        of `nodes`/`edges` between two elements, `parse_element_stretch`), "stop" when the
        next item would start exactly at `stop`, "overrun" when anything read reaches past it.

        In `nodes` and `edges` (`item_shape` is an ELEMENT shape) each item is read with
        `in_element` set, so that a half-typed element ends at the next element (cuts_element)
        instead of swallowing it; after such an item the missing ',' is not reported again."""
        elements = isinstance(item_shape, tuple)
        if stop >= 0:
            self.region_stop = stop
        while True:
            if not after_item:
                token = self.peek()
                kind, tstart, tend = token
                if stop >= 0 and tstart >= stop:
                    return ("stop" if tstart == stop else "overrun"), tstart, tend
                if kind == "eof" or kind == "}":
                    return kind, tstart, tend
                if kind == "]":
                    self.advance()
                    return kind, tstart, tend
                if kind == ",":
                    self.error("unexpected ','", tstart, tend)
                    self.advance()
                    continue
                if elements:
                    value = self.read_element(depth, item_shape)
                elif self.value_may_cut(token, opened_at, "array"):
                    return "cut", tstart, tend
                else:
                    value = self.parse_value(depth, item_shape)
                if stop >= 0 and self.pos > stop:
                    return "overrun", self.pos, self.pos
                if value is None:
                    if self.peek()[0] not in ",]}eof":
                        self.advance()
                    continue
                items.append(value)
            after_item = False
            token = self.peek()
            kind, tstart, tend = token
            if kind == ",":
                self.advance()
                if self.peek()[0] == "]" and not self.allow_trailing_commas:
                    self.error("trailing comma", tstart, tend)
            elif kind not in "]}eof":
                if self.cuts_element(token, opened_at, "array"):
                    return "cut", tstart, tend
                if not (elements and self.cut):
                    self.error(f"expected ',' or ']', found {self.describe(token)}", tstart, tstart)

    def resync(self) -> None:
        """Skip to the next ',' '}' or ']' at the current nesting level."""
        level = 0
        while True:
            kind = self.peek()[0]
            if kind == "eof" or (level == 0 and kind in ",}]"):
                return
            if kind in "{[":
                level += 1
            elif kind in "}]":
                level -= 1
            self.advance()


def parse_json(
    text: str, *, allow_comments: bool = False, shape: Any = SHAPE, depth: int = 0
) -> ParsedJson:
    """Parse `text` into a span-carrying tree plus the problems met on the way; never raises.

    `shape` says which members need inner spans (default: what a workflow's analysis reads);
    `FULL` gives every value its spans. `allow_comments` (JSONC) also allows trailing commas,
    as VS Code's jsonc does."""
    problems: list[SyntaxProblem] = []
    parser = _Parser(
        text, problems, allow_trailing_commas=allow_comments, allow_comments=allow_comments
    )
    if text.startswith("\ufeff"):
        # Editors hide a byte order mark, so name it: JSON.parse and PHP's json_decode reject it.
        problems.append(
            SyntaxProblem(
                "syntax",
                "byte order mark (U+FEFF) before the JSON value: JSON parsers reject it",
                0,
                1,
            )
        )
        parser.pos = 1
    if parser.peek()[0] == "eof":
        problems.append(
            SyntaxProblem("syntax", "the document is empty: expected a JSON object", 0, len(text))
        )
        return ParsedJson(None, tuple(problems))
    root = parser.parse_value(depth, shape)
    while root is None and parser.peek()[0] != "eof":
        # Stray tokens before the value (e.g. a closing bracket): skip them and try again.
        parser.advance()
        if parser.peek()[0] in "{[":
            root = parser.parse_value(depth, shape)
    kind, start, _ = parser.peek()
    if kind != "eof":
        problems.append(
            SyntaxProblem(
                "syntax", "unexpected content after the JSON value", start, len(text.rstrip())
            )
        )
    problems.sort(key=lambda problem: (problem.start, problem.end))
    return ParsedJson(root, tuple(problems))


def parse_value_at(text: str, start: int, end: int) -> JsonValue | None:
    """Fully re-read the value spanning `[start, end)` (to get inner spans of an opaque value)."""
    problems: list[SyntaxProblem] = []
    parser = _Parser(text, problems, allow_trailing_commas=True, allow_comments=True)
    parser.pos = start
    parser.length = end
    return parser.parse_value(0, FULL)
