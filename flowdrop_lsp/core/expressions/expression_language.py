"""Symfony ExpressionLanguage, as `ExpressionLanguage::lint($expression, null)` sees it: the
syntax only, every variable treated as declared (spec LANG-10).

The grammar is Symfony 6.4 … 7.1's (Drupal 10.3 ships 6.4, Drupal 11.0 ships 7.1; their Lexer
and Parser are the same): numbers with `_` separators, `.5`, `1.` and unsigned exponents (6.1),
`contains` / `starts with` / `ends with` (6.1), `?.` (6.1), `??` (6.2). The 7.2 additions (`xor`,
`<<`, `>>`, unary `~`, `/* */` comments) are refused, as 6.4 and 7.1 refuse them: a workflow
using them would break on those sites. An invalid literal regex after `matches` is refused only
by `compile()` (6.1+) or when evaluated, never by `lint()`, so it is not a problem here.

Symfony works on bytes and stops at the first error; this module works on code points (every
offset is a code-point index), reports the same first error with the same message (without
Symfony's "around position N for expression …" tail), and carries on past an unknown function
so that the reads and calls after it are still known."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from flowdrop_lsp.core.expressions.base import (
    CompletionPlace,
    NameRead,
    Parsed,
    Place,
    Problem,
    ProblemKind,
    SymbolKind,
    SymbolUse,
)

# ExpressionLanguage::registerFunctions(): `constant` (2.4), `enum` (6.3), `min` and `max` (7.1).
EL_FUNCTIONS_6_4: frozenset[str] = frozenset({"constant", "enum"})
EL_FUNCTIONS: frozenset[str] = EL_FUNCTIONS_6_4 | {"min", "max"}

SIGNATURES: Mapping[tuple[SymbolKind, str], str] = {
    (SymbolKind.FUNCTION, "constant"): (
        "constant(string $name): mixed — the value of a PHP constant or class constant "
        "(`constant('Foo::BAR')`)"
    ),
    (SymbolKind.FUNCTION, "enum"): (
        "enum(string $name): \\UnitEnum — a PHP enum case (`enum('App\\\\Suit::Hearts')`); "
        "Symfony 6.3+"
    ),
    (SymbolKind.FUNCTION, "min"): "min(mixed ...$values): mixed — PHP's min(); Symfony 7.1+",
    (SymbolKind.FUNCTION, "max"): "max(mixed ...$values): mixed — PHP's max(); Symfony 7.1+",
}

# Symfony's Token types, as its messages spell them.
_NAME = "name"
_NUMBER = "number"
_STRING = "string"
_OPERATOR = "operator"
_PUNCTUATION = "punctuation"
_EOF = "end of expression"

_LNUM = r"[0-9]+(?:_[0-9]+)*"


def _word(operator: str) -> str:
    # Symfony: (?<=^|[\s(])word(?=[\s(]); after its control-character replacement only a space
    # is left of \s (PCRE without /u: the six ASCII spaces).
    return rf"(?<![^ (]){operator}(?=[ (])"


_OPERATORS = [
    *(_word(w) for w in ("starts with", "ends with", "contains", "matches", "not in", "not")),
    _word("and"),
    r"===",
    r"!==",
    _word("or"),
    r"\|\|",
    r"&&",
    r"==",
    r"!=",
    r">=",
    r"<=",
    _word("in"),
    r"\.\.",
    r"\*\*",
    r"!",
    r"\|",
    r"\^",
    r"&",
    r"<",
    r">",
    r"\+",
    r"-",
    r"~",
    r"\*",
    r"/",
    r"%",
]

# One alternation in the order of Symfony's Lexer::tokenize() if-chain: the first alternative
# that matches wins, as there.
_TOKEN = re.compile(
    r"(?P<space> +)"
    rf"|(?P<number>(?:\.{_LNUM}|{_LNUM}(?:\.(?!\.)(?:{_LNUM})?)?)(?:[eE][+-]?{_LNUM})?)"
    r"|(?P<open>[(\[{])"
    r"|(?P<close>[)\]}])"
    r"|(?P<string>\"[^\"\\]*(?:\\.[^\"\\]*)*\"|'[^'\\]*(?:\\.[^'\\]*)*')"
    rf"|(?P<operator>{'|'.join(_OPERATORS)})"
    r"|(?P<punctuation>\?\.|\?\?|[.,?:])"
    # PHP's [a-zA-Z_\x7f-\xff] on UTF-8 bytes: every non-ASCII character is a name character.
    r"|(?P<name>[a-zA-Z_\x7f-\U0010ffff][a-zA-Z0-9_\x7f-\U0010ffff]*)",
    re.S,
)
_CONTROL = str.maketrans("\r\n\t\v\f", "     ")
_IDENTIFIER = re.compile(r"[a-zA-Z_\x7f-\U0010ffff][a-zA-Z0-9_\x7f-\U0010ffff]*")
_CONSTANTS = frozenset({"true", "TRUE", "false", "FALSE", "null", "NULL"})

_UNARY = {"not": 50, "!": 50, "-": 500, "+": 500}
_LEFT, _RIGHT = 1, 2
_BINARY: dict[str, tuple[int, int]] = {
    "or": (10, _LEFT),
    "||": (10, _LEFT),
    "and": (15, _LEFT),
    "&&": (15, _LEFT),
    "|": (16, _LEFT),
    "^": (17, _LEFT),
    "&": (18, _LEFT),
    **dict.fromkeys(("==", "===", "!=", "!==", "<", ">", ">=", "<=", "not in", "in"), (20, _LEFT)),
    **dict.fromkeys(("contains", "starts with", "ends with", "matches"), (20, _LEFT)),
    "..": (25, _LEFT),
    "+": (30, _LEFT),
    "-": (30, _LEFT),
    "~": (40, _LEFT),
    "*": (60, _LEFT),
    "/": (60, _LEFT),
    "%": (60, _LEFT),
    "**": (200, _RIGHT),
}


@dataclass(frozen=True, slots=True)
class _Token:
    type: str
    text: str  # the source characters (a string token: with its quotes)
    start: int
    end: int

    @property
    def value(self) -> str:
        """As Symfony's messages print the token's value."""
        if self.type == _STRING:
            return _stripcslashes(self.text[1:-1])
        if self.type == _NUMBER:
            return _php_number(self.text)
        return self.text


class _SyntaxError(Exception):
    def __init__(self, message: str, start: int, end: int) -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end


def _tokenize(source: str) -> tuple[list[_Token], _SyntaxError | None]:
    """The tokens (ending with the end token) and the lexer's error, if any: the tokens are
    then those before it."""
    text = source.translate(_CONTROL)
    tokens: list[_Token] = []
    brackets: list[tuple[str, int]] = []
    cursor, end = 0, len(text)
    error: _SyntaxError | None = None
    while cursor < end:
        match = _TOKEN.match(text, cursor)
        if match is None:
            char = text[cursor]
            stop = end if char in "'\"" else cursor + 1  # an unterminated string: up to the end
            error = _SyntaxError(f'Unexpected character "{char}"', cursor, stop)
            break
        kind, found = match.lastgroup, match.group()
        if kind == "open":
            brackets.append((found, cursor))
            kind = _PUNCTUATION
        elif kind == "close":
            if not brackets:
                error = _SyntaxError(f'Unexpected "{found}"', cursor, cursor + 1)
                break
            expect, at = brackets.pop()
            if found != ")]}"["([{".index(expect)]:
                error = _SyntaxError(f'Unclosed "{expect}"', at, at + 1)
                break
            kind = _PUNCTUATION
        if kind != "space":
            assert kind is not None
            tokens.append(_Token(kind, found, cursor, match.end()))
        cursor = match.end()
    if error is None and brackets:
        expect, at = brackets[-1]
        error = _SyntaxError(f'Unclosed "{expect}"', at, at + 1)
    stop = end if error is None else error.start
    tokens.append(_Token(_EOF, "", stop, stop))
    return tokens, error


class _Parser:
    """Symfony's Parser, step by step (same precedences, same error at the same token)."""

    def __init__(self, tokens: list[_Token], functions: frozenset[str]) -> None:
        self.tokens = tokens
        self.position = 0
        self.current = tokens[0]
        self.functions = functions
        self.reads: list[NameRead] = []
        self.guarded: set[str] = set()
        self.symbols: list[SymbolUse] = []
        self.problems: list[Problem] = []

    # TokenStream
    def next(self) -> None:
        if self.position + 1 >= len(self.tokens):
            raise self.error("Unexpected end of expression", self.current)
        self.position += 1
        self.current = self.tokens[self.position]

    def test(self, type_: str, value: str | None = None) -> bool:
        return self.current.type == type_ and (value is None or self.current.text == value)

    def expect(self, type_: str, value: str | None = None, message: str | None = None) -> None:
        token = self.current
        if not self.test(type_, value):
            prefix = f"{message}. " if message else ""
            with_value = f' with value "{value}"' if value else ""
            raise self.error(
                f'{prefix}Unexpected token "{token.type}" of value "{token.value}" '
                f'("{type_}" expected{with_value})',
                token,
            )
        self.next()

    @staticmethod
    def error(message: str, token: _Token) -> _SyntaxError:
        return _SyntaxError(message, token.start, token.end)

    def unexpected(self, token: _Token) -> _SyntaxError:
        return self.error(f'Unexpected token "{token.type}" of value "{token.value}"', token)

    # Parser. Each parse method answers the index (in self.reads) of the variable the value is
    # read from when it is a variable or a chain of attributes on one, else None (for `??`).
    def parse(self) -> None:
        self.parse_expression()
        if self.current.type != _EOF:
            raise self.unexpected(self.current)

    def parse_expression(self, precedence: int = 0) -> int | None:
        root = self.get_primary()
        token = self.current
        while token.type == _OPERATOR and token.text in _BINARY:
            op_precedence, associativity = _BINARY[token.text]
            if op_precedence < precedence:
                break
            self.next()
            self.parse_expression(op_precedence + 1 if associativity == _LEFT else op_precedence)
            root = None
            token = self.current
        if precedence == 0:
            return self.parse_conditional(root)
        return root

    def get_primary(self) -> int | None:
        token = self.current
        if token.type == _OPERATOR and token.text in _UNARY:
            self.next()
            self.parse_expression(_UNARY[token.text])
            return self.parse_postfix(None, bare=False)
        if self.test(_PUNCTUATION, "("):
            self.next()
            root = self.parse_expression()
            self.expect(_PUNCTUATION, ")", "An opened parenthesis is not properly closed")
            return self.parse_postfix(root, bare=False)
        return self.parse_primary()

    def parse_conditional(self, root: int | None) -> int | None:
        while self.test(_PUNCTUATION, "??"):
            if root is not None:
                self.guarded.add(self.reads[root].name)
            self.next()
            self.parse_expression()
            root = None
        while self.test(_PUNCTUATION, "?"):
            self.next()
            if not self.test(_PUNCTUATION, ":"):
                self.parse_expression()
                if self.test(_PUNCTUATION, ":"):
                    self.next()
                    self.parse_expression()
            else:
                self.next()
                self.parse_expression()
            root = None
        return root

    def parse_primary(self) -> int | None:
        token = self.current
        if token.type == _NAME:
            self.next()
            if token.text in _CONSTANTS:
                return None
            if self.current.value == "(" and self.current.type in (_PUNCTUATION, _STRING):
                # Symfony compares the next token's value only: a string "(" is a call too.
                self.call(token)
                return self.parse_postfix(None, bare=False)
            self.reads.append(NameRead(token.text, token.start, token.end))
            return self.parse_postfix(len(self.reads) - 1, bare=True)
        if token.type in (_NUMBER, _STRING):
            self.next()
            return None  # no postfix on a literal, as in Symfony
        if self.test(_PUNCTUATION, "["):
            self.parse_array()
        elif self.test(_PUNCTUATION, "{"):
            self.parse_hash()
        else:
            raise self.unexpected(token)
        return self.parse_postfix(None, bare=False)

    def call(self, name: _Token) -> None:
        self.symbols.append(SymbolUse(SymbolKind.FUNCTION, name.text, name.start, name.end))
        if name.text not in self.functions:
            self.problems.append(
                Problem(
                    ProblemKind.UNKNOWN_FUNCTION,
                    name.start,
                    name.end,
                    f'The function "{name.text}" does not exist',
                    name.text,
                )
            )
        self.parse_arguments()

    def parse_array(self) -> None:
        self.expect(_PUNCTUATION, "[", "An array element was expected")
        first = True
        while not self.test(_PUNCTUATION, "]"):
            if not first:
                self.expect(_PUNCTUATION, ",", "An array element must be followed by a comma")
                if self.test(_PUNCTUATION, "]"):
                    break
            first = False
            self.parse_expression()
        self.expect(_PUNCTUATION, "]", "An opened array is not properly closed")

    def parse_hash(self) -> None:
        self.expect(_PUNCTUATION, "{", "A hash element was expected")
        first = True
        while not self.test(_PUNCTUATION, "}"):
            if not first:
                self.expect(_PUNCTUATION, ",", "A hash value must be followed by a comma")
                if self.test(_PUNCTUATION, "}"):
                    break
            first = False
            if self.current.type in (_STRING, _NAME, _NUMBER):
                self.next()
            elif self.test(_PUNCTUATION, "("):
                self.parse_expression()
            else:
                token = self.current
                raise self.error(
                    "A hash key must be a quoted string, a number, a name, or an expression "
                    f'enclosed in parentheses (unexpected token "{token.type}" of value '
                    f'"{token.value}"',
                    token,
                )
            self.expect(_PUNCTUATION, ":", "A hash key must be followed by a colon (:)")
            self.parse_expression()
        self.expect(_PUNCTUATION, "}", "An opened hash is not properly closed")

    def parse_postfix(self, root: int | None, *, bare: bool) -> int | None:
        token = self.current
        while token.type == _PUNCTUATION:
            if token.text in (".", "?."):
                if token.text == "?." and bare and root is not None:
                    self.guarded.add(self.reads[root].name)
                self.next()
                token = self.current
                self.next()
                if token.type != _NAME and (
                    token.type != _OPERATOR or not _IDENTIFIER.match(token.text)
                ):
                    raise self.error("Expected name", token)
                if self.test(_PUNCTUATION, "("):
                    self.parse_arguments()
            elif token.text == "[":
                self.next()
                self.parse_expression()
                self.expect(_PUNCTUATION, "]")
            else:
                break
            bare = False
            token = self.current
        return root

    def parse_arguments(self) -> None:
        self.expect(_PUNCTUATION, "(", "A list of arguments must begin with an opening parenthesis")
        count = 0
        while not self.test(_PUNCTUATION, ")"):
            if count:
                self.expect(_PUNCTUATION, ",", "Arguments must be separated by a comma")
            self.parse_expression()
            count += 1
        self.expect(_PUNCTUATION, ")", "A list of arguments must be closed by a parenthesis")


def parse_expression_language(source: str, functions: frozenset[str] = EL_FUNCTIONS) -> Parsed:
    """The problems (Symfony's first syntax error, after any unknown functions before it), the
    variables read (guarded when the left side of `??` or followed by `?.` anywhere) and the
    functions called."""
    tokens, lexer_error = _tokenize(source)
    parser = _Parser(tokens, functions)
    problems: list[Problem] = []
    try:
        parser.parse()
    except _SyntaxError as error:
        if lexer_error is None:
            problems.append(Problem(ProblemKind.SYNTAX, error.start, error.end, error.message))
    if lexer_error is not None:
        # Symfony lexes the whole expression first: the lexer's error comes before any other.
        problems = [
            Problem(ProblemKind.SYNTAX, lexer_error.start, lexer_error.end, lexer_error.message)
        ]
    else:
        problems[:0] = parser.problems
    reads = tuple(
        NameRead(read.name, read.start, read.end, guarded=True)
        if read.name in parser.guarded
        else read
        for read in parser.reads
    )
    return Parsed(problems=tuple(problems), reads=reads, symbols=tuple(parser.symbols))


def hash_literal_keys(source: str) -> frozenset[str] | None:
    """The keys of the hash an expression is, when the whole expression is one hash literal
    whose keys are all written out (`{'brief': b, tone: t, 2: x}`: a quoted string, a name or a
    number, each the string key PHP makes of it); None for anything else — another expression,
    a key computed in parentheses, an expression Symfony refuses — since then what it evaluates
    to is not known here."""
    tokens, lexer_error = _tokenize(source)
    if lexer_error is not None or not tokens or not _is(tokens[0], "{"):
        return None
    keys: set[str] = set()
    depth = 0
    expect_key = False
    for index, token in enumerate(tokens):
        if token.type == _PUNCTUATION and token.text in "([{":
            depth += 1
        elif token.type == _PUNCTUATION and token.text in ")]}":
            depth -= 1
            if depth == 0:
                # The hash closes here: it is the whole expression only if nothing follows.
                if tokens[index + 1].type != _EOF:
                    return None
                break
        if depth != 1:
            continue
        if _is(token, "{") and index == 0 or _is(token, ","):
            expect_key = True
        elif expect_key:
            expect_key = False
            if token.type not in (_STRING, _NAME, _NUMBER):
                return None  # a computed key `(…)`: which one is not known here
            keys.add(token.value)
    if _refused(source):
        return None
    return frozenset(keys)


def _is(token: _Token, punctuation: str) -> bool:
    return token.type == _PUNCTUATION and token.text == punctuation


def _refused(source: str) -> bool:
    """Symfony refuses the expression's syntax (an unknown function is not counted: which
    functions a site registers is the settings', and the keys are written out either way)."""
    problems = parse_expression_language(source, frozenset()).problems
    return any(problem.kind is ProblemKind.SYNTAX for problem in problems)


def expression_language_completion_place(source: str, offset: int) -> CompletionPlace:
    """What may be typed at `offset`: nothing in a string or a number, an attribute after `.`
    or `?.` (owner: the variable before it, when it is a plain name), else a name. The partial
    word is the whole name the offset touches."""
    text = source.translate(_CONTROL)
    tokens: list[_Token] = []
    cursor = 0
    while cursor < len(text) and cursor <= offset:
        match = _TOKEN.match(text, cursor)
        if match is None:
            if text[cursor] in "'\"" and cursor < offset:
                return CompletionPlace(Place.NONE, offset, offset)  # an unterminated string
            cursor += 1
            continue
        if match.lastgroup != "space":
            tokens.append(_Token(match.lastgroup or _NAME, match.group(), cursor, match.end()))
        cursor = match.end()
    start = end = offset
    for token in tokens:
        if token.type in (_STRING, _NUMBER) and token.start < offset < token.end:
            return CompletionPlace(Place.NONE, offset, offset)
        if token.type == _NUMBER and token.end == offset:
            return CompletionPlace(Place.NONE, offset, offset)
        if token.type == _NAME and token.start <= offset <= token.end:
            start, end = token.start, token.end
    before = [token for token in tokens if token.end <= start]
    if before and before[-1].type == _PUNCTUATION and before[-1].text in (".", "?."):
        plain = (
            len(before) >= 2
            and before[-2].type == _NAME
            and before[-2].text not in _CONSTANTS
            and (len(before) < 3 or before[-3].text not in (".", "?."))
        )
        return CompletionPlace(Place.ATTRIBUTE, start, end, before[-2].text if plain else None)
    return CompletionPlace(Place.NAME, start, end)


_CESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "v": "\v", "b": "\b", "f": "\f"}
_CSLASH = re.compile(r"\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)", re.S)


def _stripcslashes(text: str) -> str:
    """PHP's stripcslashes() (Symfony's string-literal decoding), for messages."""

    def one(match: re.Match[str]) -> str:
        escape = match.group(1)
        if escape[0] == "x" and len(escape) > 1:
            return chr(int(escape[1:], 16))
        if escape[0] in "01234567":
            return chr(int(escape, 8) & 0xFF)
        return _CESCAPES.get(escape, escape)

    return _CSLASH.sub(one, text)


def _php_number(text: str) -> str:
    """How PHP prints `0 + "<the literal>"`, for messages."""
    digits = text.replace("_", "")
    if digits.isdigit() and int(digits) <= 2**63 - 1:
        return str(int(digits))
    value = float(digits)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    shown = repr(value)
    if "e" in shown:
        mantissa, exponent = shown.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        return f"{mantissa}E{'+' if not exponent.startswith('-') else ''}{exponent}"
    return shown
