"""An error-tolerant JSON parser that keeps the exact span of every value.

A user mid-typing has broken JSON most of the time, so this parser never gives up: it reports
each syntax problem where it is and recovers, so that the nodes and edges a problem does not
touch are still analysed. Every value carries its code-point span `[start, end)` in the text.

Why not `json.loads`: it has neither spans nor recovery. Why not tree-sitter: a native parser
tree costs ≈15× the source in memory, and a regex tokenizer plus a small recursive-descent
parser is fast enough for full parses (the incremental path re-reads single elements).

Nesting deeper than MAX_DEPTH is reported and skipped rather than recursed into, so a hostile
document cannot exhaust the stack.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Union

MAX_DEPTH = 200

# One token per match; finditer's search skips the JSON whitespace between tokens for free.
# Strings use the unrolled-loop form so that an unterminated string costs linear time; a
# string cannot cross a line break, which makes an unterminated one end at its line.
_TOKEN = re.compile(
    r"""(?P<s>"[^"\\\r\n]*(?:\\.[^"\\\r\n]*)*"?)"""
    r"""|(?P<p>[{}\[\]:,])"""
    r"""|(?P<n>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)"""
    r"""|(?P<w>[A-Za-z_$][A-Za-z0-9_$]*)"""
    r"""|(?P<c>//[^\r\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/)?)"""
    r"""|(?P<x>[^ \t\r\n])"""
)
_ESCAPE = re.compile(r'\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt])|(.?))', re.S)
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_LITERALS: dict[str, Any] = {"true": True, "false": False, "null": None}
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
        return json.loads(self.text)


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

    def __init__(self, start: int, end: int, members: list[JMember], last: dict[str, JMember]) -> None:
        self.start, self.end, self.members, self._last = start, end, members, last

    def member(self, key: str) -> JMember | None:
        return self._last.get(key)

    def get(self, key: str) -> JsonValue | None:
        member = self._last.get(key)
        return member.value if member is not None else None


AnyJson = Union[JString, JNumber, JLiteral, JArray, JObject]


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


def decode_string_token(raw: str) -> tuple[str, str | None]:
    """The value of a string token (with or without its closing quote) and an error, if any."""
    body = raw[1:-1] if len(raw) >= 2 and raw.endswith('"') and not _ends_in_escape(raw) else raw[1:]
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
        problem.append(f"invalid escape '\\{match.group(3)}' in string")
        return match.group(3)

    value = _ESCAPE.sub(replace, body)
    return value, (problem[0] if problem else None)


def _ends_in_escape(raw: str) -> bool:
    """True when the final quote of `raw` is escaped (`"abc\\"` is unterminated)."""
    backslashes = len(raw) - 1 - len(raw[:-1].rstrip("\\"))
    return backslashes % 2 == 1


def tokenize(
    text: str, allow_comments: bool, problems: list[SyntaxProblem], start: int = 0
) -> list[tuple[str, int, int]]:
    """Tokens as (kind, start, end) from offset `start`: kind is the punctuation character
    itself, or 's' string, 'u' unterminated string, 'n' number, 'w' word, 'x' stray character."""
    tokens: list[tuple[str, int, int]] = []
    append = tokens.append
    for match in _TOKEN.finditer(text, start):
        kind = match.lastgroup
        start, end = match.span()
        if kind == "p":
            append((text[start], start, end))
        elif kind == "s":
            if end - start >= 2 and text[end - 1] == '"' and not _ends_in_escape(text[start:end]):
                append(("s", start, end))
            else:
                append(("u", start, end))
        elif kind == "c":
            if not allow_comments:
                problems.append(SyntaxProblem("syntax", "comments are not allowed in JSON", start, end))
        else:
            append((kind or "x", start, end))
    return tokens


class _Parser:
    def __init__(self, text: str, tokens: list[tuple[str, int, int]], problems: list[SyntaxProblem], allow_trailing_commas: bool) -> None:
        self.text = text
        self.tokens = tokens
        self.count = len(tokens)
        self.problems = problems
        self.allow_trailing_commas = allow_trailing_commas
        self.pos = 0

    def error(self, message: str, start: int, end: int) -> None:
        self.problems.append(SyntaxProblem("syntax", message, start, max(end, start)))

    def describe(self, index: int) -> str:
        if index >= self.count:
            return "end of file"
        kind, start, end = self.tokens[index]
        snippet = self.text[start:min(end, start + 20)]
        return f"'{snippet}'"

    def at_end_span(self) -> tuple[int, int]:
        end = len(self.text)
        return end, end

    def parse_value(self, depth: int) -> JsonValue | None:
        """Parse the value at the cursor; on a token that cannot start a value, report it and
        return None without consuming it (the caller decides how to recover)."""
        if self.pos >= self.count:
            start, end = self.at_end_span()
            self.error("expected a value, found end of file", start, end)
            return None
        kind, start, end = self.tokens[self.pos]
        if kind == "{" or kind == "[":
            if depth >= MAX_DEPTH:
                return self.skip_too_deep(start)
            return self.parse_object(depth + 1) if kind == "{" else self.parse_array(depth + 1)
        self.pos += 1
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
        self.pos -= 1
        self.error(f"expected a value, found {self.describe(self.pos)}", start, end)
        return None

    def string(self, kind: str, start: int, end: int) -> JString:
        value, problem = decode_string_token(self.text[start:end])
        if kind == "u":
            self.error("unterminated string", start, end)
        elif problem:
            self.error(problem, start, end)
        return JString(start, end, value)

    def skip_too_deep(self, start: int) -> None:
        """Skip a balanced bracket group without building it."""
        self.error(f"nesting deeper than {MAX_DEPTH} levels is not analysed", start, start + 1)
        level = 0
        tokens = self.tokens
        while self.pos < self.count:
            kind = tokens[self.pos][0]
            self.pos += 1
            if kind == "{" or kind == "[":
                level += 1
            elif kind == "}" or kind == "]":
                level -= 1
                if level == 0:
                    return None
        return None

    def parse_object(self, depth: int) -> JObject:
        tokens = self.tokens
        _, start, end = tokens[self.pos]
        self.pos += 1
        members: list[JMember] = []
        last: dict[str, JMember] = {}
        while True:
            if self.pos >= self.count:
                self.error("unterminated object: expected '}'", start, start + 1)
                end = len(self.text)
                break
            kind, tstart, tend = tokens[self.pos]
            if kind == "}":
                self.pos += 1
                end = tend
                break
            if kind == "]":
                # A bracket that closes an enclosing array: this object was never closed.
                self.error("expected '}' before ']'", tstart, tend)
                end = tstart
                break
            if kind == ",":
                self.error("unexpected ','", tstart, tend)
                self.pos += 1
                continue
            if kind != "s" and kind != "u":
                if kind == "w":
                    self.error("property names must be strings in double quotes", tstart, tend)
                else:
                    self.error(f"expected a property name, found {self.describe(self.pos)}", tstart, tend)
                if kind in "{[":
                    self.parse_value(depth)  # consume the stray value whole
                else:
                    self.pos += 1
                continue
            self.pos += 1
            key = self.string(kind, tstart, tend)
            value: JsonValue | None = None
            if self.pos < self.count and tokens[self.pos][0] == ":":
                self.pos += 1
                if self.pos < self.count and tokens[self.pos][0] in ",}]":
                    ntok = tokens[self.pos]
                    self.error(f"missing value for '{key.value[:40]}'", ntok[1], ntok[2])
                else:
                    value = self.parse_value(depth)
            else:
                self.error(f"expected ':' after property name '{key.value[:40]}'", tend, tend)
                if self.pos < self.count and tokens[self.pos][0] in "{[snw":
                    value = self.parse_value(depth)
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
            if value is None and self.pos < self.count and tokens[self.pos][0] not in ",}]s":
                # Could not read a value: resynchronise at the next ',' '}' or ']' at this level.
                self.resync()
            if self.pos < self.count:
                kind, tstart, tend = tokens[self.pos]
                if kind == ",":
                    self.pos += 1
                    if self.pos < self.count and tokens[self.pos][0] == "}" and not self.allow_trailing_commas:
                        self.error("trailing comma", tstart, tend)
                elif kind == "s" or kind == "u":
                    self.error("expected ',' between properties", tstart, tstart)
                elif kind not in "}]":
                    self.error(f"expected ',' or '}}', found {self.describe(self.pos)}", tstart, tend)
                    self.resync()
                    if self.pos < self.count and tokens[self.pos][0] == ",":
                        self.pos += 1
        return JObject(start, end, members, last)

    def parse_array(self, depth: int) -> JArray:
        tokens = self.tokens
        _, start, end = tokens[self.pos]
        self.pos += 1
        items: list[JsonValue] = []
        while True:
            if self.pos >= self.count:
                self.error("unterminated array: expected ']'", start, start + 1)
                end = len(self.text)
                break
            kind, tstart, tend = tokens[self.pos]
            if kind == "]":
                self.pos += 1
                end = tend
                break
            if kind == "}":
                self.error("expected ']' before '}'", tstart, tend)
                end = tstart
                break
            if kind == ",":
                self.error("unexpected ','", tstart, tend)
                self.pos += 1
                continue
            value = self.parse_value(depth)
            if value is None:
                if self.pos < self.count and tokens[self.pos][0] not in ",]}":
                    self.pos += 1
                continue
            items.append(value)
            if self.pos < self.count:
                kind, tstart, tend = tokens[self.pos]
                if kind == ",":
                    self.pos += 1
                    if self.pos < self.count and tokens[self.pos][0] == "]" and not self.allow_trailing_commas:
                        self.error("trailing comma", tstart, tend)
                elif kind not in "]}":
                    self.error(f"expected ',' or ']', found {self.describe(self.pos)}", tstart, tstart)
        return JArray(start, end, items)

    def resync(self) -> None:
        """Skip to the next ',' '}' or ']' at the current nesting level."""
        level = 0
        tokens = self.tokens
        while self.pos < self.count:
            kind = tokens[self.pos][0]
            if level == 0 and kind in ",}]":
                return
            if kind in "{[":
                level += 1
            elif kind in "}]":
                level -= 1
            self.pos += 1


def parse_json(text: str, *, allow_comments: bool = False) -> ParsedJson:
    """Parse `text` into a span-carrying tree plus the problems met on the way; never raises.

    `allow_comments` (JSONC) also allows trailing commas, as VS Code's jsonc does."""
    problems: list[SyntaxProblem] = []
    start = 0
    if text.startswith("\ufeff"):
        # Editors hide a byte order mark, so name it: JSON.parse and PHP's json_decode reject it.
        problems.append(SyntaxProblem("syntax", "byte order mark (U+FEFF) before the JSON value: JSON parsers reject it", 0, 1))
        start = 1
    tokens = tokenize(text, allow_comments, problems, start)
    if not tokens:
        end = len(text)
        problems.append(SyntaxProblem("syntax", "the document is empty: expected a JSON object", 0, end))
        return ParsedJson(None, tuple(problems))
    parser = _Parser(text, tokens, problems, allow_trailing_commas=allow_comments)
    root = parser.parse_value(0)
    if root is None and parser.pos < parser.count:
        # Stray tokens before the value (e.g. a closing bracket): skip them and try again.
        while root is None and parser.pos < parser.count:
            parser.pos += 1
            if parser.pos < parser.count and tokens[parser.pos][0] in "{[":
                root = parser.parse_value(0)
    if parser.pos < parser.count:
        _, start, _ = tokens[parser.pos]
        problems.append(SyntaxProblem("syntax", "unexpected content after the JSON value", start, tokens[-1][2]))
    problems.sort(key=lambda problem: (problem.start, problem.end))
    return ParsedJson(root, tuple(problems))


def to_python(value: JsonValue | None) -> Any:
    """The plain Python value of a (possibly partial) tree; unusable values become None."""
    if value is None:
        return None
    if isinstance(value, JObject):
        return {member.key.value: to_python(member.value) for member in value.members}
    if isinstance(value, JArray):
        return [to_python(item) for item in value.items]
    if isinstance(value, JNumber):
        return value.value
    return value.value  # type: ignore[attr-defined]
