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
(`allow_comments`). tests/core/test_syntax_exact.py holds the property.

Recovery inside `nodes` and `edges` knows where elements start: in an unfinished element, a '{'
on a new line where a member name, ':' or ',' is expected is the next element (the half-typed
one ends there, `_Parser.cuts_element`), so typing a node does not swallow the nodes after it.
`parse_array_region` re-reads a stretch of those arrays exactly as a whole read does, which is
what keeps the incremental engine local while the text is broken.
"""

from __future__ import annotations

import json
import json.scanner
import re
from array import array
from dataclasses import dataclass
from typing import Any

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
_ESCAPE = re.compile(r'\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt])|(.?))', re.S)
_SIMPLE_ESCAPES = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
_LITERALS: dict[str, Any] = {"true": True, "false": False, "null": None}
# Strict JSON (and PHP's json_decode, the runtime) refuses a raw U+0000–U+001F in a string; the
# `l` string token above accepts them (so that the string is still read) and `_Parser.string`
# reports each one.
_CONTROL = re.compile(r"[\x00-\x1f]")
_CONTROL_NAMES = {
    0x00: "null",
    0x08: "backspace",
    0x09: "tab",
    0x0A: "line feed",
    0x0C: "form feed",
    0x0D: "carriage return",
}
_STRICT_DECODER = json.JSONDecoder()


class JsonValue:
    """Base of the syntax tree: every value knows its span."""

    __slots__ = ("start", "end")
    start: int
    end: int


class JString(JsonValue):
    __slots__ = ("value",)

    def __init__(self, start: int, end: int, value: str) -> None:
        self.start, self.end, self.value = start, end, value


class JNumber(JsonValue):
    __slots__ = ("text",)

    def __init__(self, start: int, end: int, text: str) -> None:
        self.start, self.end, self.text = start, end, text

    @property
    def value(self) -> int | float:
        """As json_decode reads it: an integer, or a float when it has a fraction or an exponent
        — or more digits than Python turns into an int (`sys.get_int_max_str_digits`, 4300 by
        default): such an integer becomes a float (±inf), as json_decode makes a float of an
        integer too big for PHP's int. The text is always a JSON number (the lexer's `n`)."""
        try:
            return int(self.text)
        except ValueError:
            return float(self.text)


class JLiteral(JsonValue):
    __slots__ = ("value",)

    def __init__(self, start: int, end: int, value: bool | None) -> None:
        self.start, self.end, self.value = start, end, value


class JArray(JsonValue):
    __slots__ = ("items",)

    def __init__(self, start: int, end: int, items: list[JsonValue]) -> None:
        self.start, self.end, self.items = start, end, items


class JMember:
    """One `"key": value` pair; `value` is None where the source has no usable value."""

    __slots__ = ("key", "value")

    def __init__(self, key: JString, value: JsonValue | None) -> None:
        self.key, self.value = key, value


class JObject(JsonValue):
    """An object; `get` answers as JSON parsers do for duplicate keys: the last one wins."""

    __slots__ = ("members", "_last")

    def __init__(
        self, start: int, end: int, members: list[JMember], last: dict[str, JMember]
    ) -> None:
        self.start, self.end, self.members, self._last = start, end, members, last

    def member(self, key: str) -> JMember | None:
        return self._last.get(key)

    def get(self, key: str) -> JsonValue | None:
        member = self._last.get(key)
        return member.value if member is not None else None


@dataclass(frozen=True, slots=True)
class SyntaxProblem:
    """A problem in the JSON text itself. `kind` is 'syntax' (an error) or 'duplicate-key'."""

    kind: str
    message: str
    start: int
    end: int
    related_start: int = -1
    related_end: int = -1


@dataclass(frozen=True, slots=True)
class ParsedJson:
    root: JsonValue | None
    problems: tuple[SyntaxProblem, ...]


# The problems of a container closed by an enclosing container's bracket: reported at that
# bracket, just past the container's end (the engine still counts them as the container's).
OBJECT_CUT_SHORT = "expected '}' before ']'"
ARRAY_CUT_SHORT = "expected ']' before '}'"


def control_character_message(char: str) -> str:
    """`control character U+0009 (tab) in a string must be escaped as \\t`."""
    code = ord(char)
    name = f" ({_CONTROL_NAMES[code]})" if code in _CONTROL_NAMES else ""
    escape = json.dumps(char)[1:-1]
    return f"control character U+{code:04X}{name} in a string must be escaped as {escape}"


def _shown(char: str) -> str:
    """A character for a message: control characters as their JSON escape."""
    return json.dumps(char)[1:-1] if char and ord(char) < 0x20 else char


def decode_string_token(raw: str) -> tuple[str, str | None]:
    """The value of a string token (with or without its closing quote) and an error, if any."""
    body = (
        raw[1:-1] if len(raw) >= 2 and raw.endswith('"') and not _ends_in_escape(raw) else raw[1:]
    )
    if "\\" not in body:
        return body, None
    try:
        return _STRICT_DECODER.decode('"' + body + '"'), None
    except ValueError:
        pass
    problem: list[str] = []

    def replace(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return chr(int(match.group(1), 16))
        if match.group(2) is not None:
            return _SIMPLE_ESCAPES[match.group(2)]
        problem.append(f"invalid escape '\\{_shown(match.group(3))}' in string")
        return match.group(3)

    value = _ESCAPE.sub(replace, body)
    return value, (problem[0] if problem else None)


def _ends_in_escape(raw: str) -> bool:
    """True when the final quote of `raw` is escaped (`"abc\\"` is unterminated)."""
    backslashes = len(raw) - 1 - len(raw[:-1].rstrip("\\"))
    return backslashes % 2 == 1


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
_C_SCAN = json.scanner.make_scanner(  # type: ignore[attr-defined]
    json.JSONDecoder(parse_constant=_raise_constant, object_pairs_hook=_pairs_without_duplicates)  # type: ignore[arg-type]
)
_SCAN_STRING = json.decoder.scanstring  # type: ignore[attr-defined]
_SPACE = re.compile(r"[ \t\r\n]*")


class JOpaque(JsonValue):
    """A value read whole by the C scanner: its span and Python value, no inner spans. Where
    inner spans are needed after all (a schema error inside it), `expand` re-reads it."""

    __slots__ = ("value",)

    def __init__(self, start: int, end: int, value: Any) -> None:
        self.start, self.end, self.value = start, end, value

    def expanded(self, text: str) -> JsonValue | None:
        """This value re-read from `text` (the document it was read from) with inner spans."""
        return parse_value_at(text, self.start, self.end)


# Which members need spans: the rest of a workflow (positions, configs, port lists, UI
# extensions — most of its text) is read by the C scanner as OPAQUE values.
FULL = "full"  # parse this value, and everything in it, with spans
OPAQUE = "opaque"  # read this value whole, without inner spans
_NODE_SHAPE: dict[str, Any] = {
    "id": FULL,
    "type": FULL,
    # `config` is read whole; `instanceTitle`'s span is found on demand (model.read_node).
    "data": {"label": FULL, "metadata": {"node_type_id": FULL, "id": FULL}},
}
_EDGE_SHAPE: dict[str, Any] = {
    "id": FULL,
    "source": FULL,
    "target": FULL,
    "sourceHandle": FULL,
    "targetHandle": FULL,
    "data": {"edgeType": FULL},
}
# Each element of `nodes`/`edges` is first read whole by the C scanner (fast; its spans are
# found later, on demand) and parsed with its shape only when that fails — so a document with
# one broken element costs one element's Python parse, not the whole document's.
ELEMENT = "element"
SHAPE: dict[str, Any] = {"nodes": [(ELEMENT, _NODE_SHAPE)], "edges": [(ELEMENT, _EDGE_SHAPE)]}

_NEXT = re.compile(r"[ \t\r\n]*(?:" + _TOKEN.pattern + ")")
_EOF = ("eof", -1, -1)
_LINE_BREAK = re.compile(r"[\r\n]")


class _Parser:
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
                    and (text[end - 2] != "\\" or not _ends_in_escape(text[start:end]))
                )
                token = ("s" if closed else "u", start, end)
            else:
                token = (kind, start, end)
            break
        self._peek_pos, self._peek = self.pos, token
        return token

    def advance(self) -> None:
        self.pos = self.peek()[2]

    def error(self, message: str, start: int, end: int) -> None:
        self.problems.append(SyntaxProblem("syntax", message, start, max(end, start)))

    def describe(self, token: tuple[str, int, int]) -> str:
        kind, start, end = token
        if kind == "eof":
            return "end of file"
        return f"'{self.text[start : min(end, start + 20)]}'"

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
            value, end = _C_SCAN(self.text, start)
        except (StopIteration, ValueError, RecursionError):
            return None
        self.pos = end
        return JOpaque(start, end, value)

    def string(self, kind: str, start: int, end: int) -> JString:
        text = self.text
        if start in self._loose_strings:
            # Reported, and kept in the value: the string is still read, so analysis goes on.
            for control in _CONTROL.finditer(text, start, end):
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

    def parse_object(self, depth: int, shape: Any) -> JObject:
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
                self.error(OBJECT_CUT_SHORT, tstart, tend)
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
                    self.error(f"missing value for '{key.value[:40]}'", following[1], following[2])
                else:
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
            self.error(ARRAY_CUT_SHORT, tstart, tend)
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
                    self.in_element, self.cut = True, False
                    self.element_problems = len(self.problems)
                    value = self.parse_value(depth, item_shape)
                    self.in_element = False
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


NODE_SHAPE = _NODE_SHAPE
EDGE_SHAPE = _EDGE_SHAPE
ELEMENT_DEPTH = 2  # the nesting depth at which a whole-document parse reads array elements


def parse_element(text: str, shape: Any) -> tuple[JsonValue | None, tuple[SyntaxProblem, ...]]:
    """Read `text` as exactly one value (an element of `nodes` or `edges`). The caller accepts
    the result only when no problem has kind 'syntax'."""
    parsed = parse_json(text, shape=shape, depth=ELEMENT_DEPTH)
    return parsed.root, parsed.problems


# What `parse_array_region` returns when the stretch it read reaches past its end.
OVERRUN = "overrun"
# How much of the text after a stretch `parse_array_region` needs: the token there is looked
# at (and quoted in messages, up to 20 characters), never read.
REGION_CONTEXT = 64


def parse_array_region(
    text: str, stop: int, shape: Any, after_element: bool
) -> tuple[list[JsonValue], tuple[SyntaxProblem, ...]] | str | None:
    """Re-read the stretch `[0, stop)` of the interior of `nodes` or `edges` exactly as a whole
    read of the document reads it: the elements in it, and every problem met on the way (in the
    stretch's coordinates). `after_element` when an element precedes the stretch (the read
    starts expecting ',' or ']'); `text` goes on past `stop` with REGION_CONTEXT characters of
    what follows (the next element or the array's ']').

    OVERRUN when what is read reaches past `stop` (a half-typed element that swallows the next
    one, a token running on into it): the caller re-reads a longer stretch. None when the array
    would end (or break) inside the stretch: the structure above the elements changed."""
    problems: list[SyntaxProblem] = []
    parser = _Parser(text, problems, allow_trailing_commas=False, allow_comments=False)
    items: list[JsonValue] = []
    ending, _, _ = parser.array_items(
        ELEMENT_DEPTH, (ELEMENT, shape), items, -1, after_item=after_element, stop=stop
    )
    if ending == OVERRUN:
        return OVERRUN
    if ending != "stop":
        return None
    problems.sort(key=lambda problem: (problem.start, problem.end))
    return items, tuple(problems)


def scan_workflow(text: str) -> JObject | None:
    """The fast path for a whole, valid document: the root object's members, `nodes` and `edges`
    as arrays of elements each read whole by the C scanner (JOpaque: value and span, no inner
    spans). None when anything is off (a syntax error, a duplicate key, a BOM, comments…): the
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
                    scanned, end = _C_SCAN(text, position)
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


class ScannedArray(JArray):
    """`nodes` or `edges` read by the fast path: each item's Python value (read whole by the C
    scanner) and its span, kept in flat lists rather than one JOpaque per item, since a
    hostile document may hold a million of them. `items` (JOpaque each) is made only if asked."""

    __slots__ = ("values", "starts", "ends")

    def __init__(
        self, start: int, end: int, values: list[Any], starts: array[int], ends: array[int]
    ) -> None:
        self.start, self.end = start, end
        self.values, self.starts, self.ends = values, starts, ends

    def __getattr__(self, name: str) -> Any:
        # Only reached while the `items` slot is unset (slots answer before __getattr__).
        if name != "items":
            raise AttributeError(name)
        self.items = [
            JOpaque(start, end, value)
            for start, end, value in zip(self.starts, self.ends, self.values, strict=True)
        ]
        return self.items


# What follows an item of `nodes`/`edges` in a valid document: white space, ',' or ']', white
# space (one match per item instead of three steps).
_AFTER_ITEM = re.compile(r"[ \t\r\n]*([,\]])[ \t\r\n]*")


def _scan_elements(text: str, position: int) -> tuple[ScannedArray, int]:
    """An array at `position` whose elements are each read whole by the C scanner."""
    start = position
    values: list[Any] = []
    starts = array("q")
    ends = array("q")
    position = _SPACE.match(text, position + 1).end()  # type: ignore[union-attr]
    if text[position : position + 1] == "]":
        return ScannedArray(start, position + 1, values, starts, ends), position + 1
    scan, after_item = _C_SCAN, _AFTER_ITEM.match
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
            return ScannedArray(start, closed, values, starts, ends), closed
        position = separator.end()


def parse_value_at(text: str, start: int, end: int) -> JsonValue | None:
    """Fully re-read the value spanning `[start, end)` (to get inner spans of an opaque value)."""
    problems: list[SyntaxProblem] = []
    parser = _Parser(text, problems, allow_trailing_commas=True, allow_comments=True)
    parser.pos = start
    parser.length = end
    return parser.parse_value(0, FULL)


def child_at(value: JsonValue | None, step: str | int) -> JsonValue | None:
    """One step down a path in the tree: an object's member by key, an array's item by index;
    None where the tree has no such child."""
    if isinstance(value, JObject) and isinstance(step, str):
        return value.get(step)
    if isinstance(value, JArray) and isinstance(step, int) and 0 <= step < len(value.items):
        return value.items[step]
    return None


def to_python(value: JsonValue | None) -> Any:
    """The plain Python value of a (possibly partial) tree; unusable values become None."""
    if value is None:
        return None
    if isinstance(value, JObject):
        return {member.key.value: to_python(member.value) for member in value.members}
    if isinstance(value, ScannedArray):
        return list(value.values)  # read whole already: no JOpaque per item
    if isinstance(value, JArray):
        return [to_python(item) for item in value.items]
    if isinstance(value, JNumber):
        return value.value
    return value.value  # type: ignore[attr-defined]  # JString, JLiteral, JOpaque
