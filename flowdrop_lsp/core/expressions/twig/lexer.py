"""Twig 3's lexer (Twig\\Lexer, ported): a template into tokens with code-point spans, or the first
thing Twig's lexer refuses. Twig lexes the whole template before parsing, so a lexer error
anywhere is the error Twig reports, even after a parse error earlier in the text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum
from typing import NamedTuple, Protocol


class T(Enum):
    TEXT = "text"
    BLOCK_START = "begin of statement block"
    VAR_START = "begin of print statement"
    BLOCK_END = "end of statement block"
    VAR_END = "end of print statement"
    NAME = "name"
    NUMBER = "number"
    STRING = "string"
    OPERATOR = "operator"
    PUNCTUATION = "punctuation"
    INTERPOLATION_START = "begin of string interpolation"
    INTERPOLATION_END = "end of string interpolation"
    ARROW = "arrow function"
    EOF = "end of template"


class Token(NamedTuple):
    """One token and its span (a named tuple: a template makes thousands, made cheaply)."""

    type: T
    value: str
    start: int
    end: int


# A template's tokens as the parser reads them: a list, or a re-lexed one (twig/relex.py).
Tokens = Sequence[Token]


class TwigLexError(Exception):
    def __init__(self, message: str, start: int, end: int, line_at: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end
        # Where Twig counts the error's line from, when it is not `start`.
        self.line_at = start if line_at is None else line_at


# PCRE's \s without /u: ASCII whitespace only (Python's \s would take Unicode spaces too).
_WS = r"[ \t\n\r\x0b\x0c]"
_LINE_WS = r"[ \t\x00\x0b]"
_BLANK = " \t\n\r\x0b\x0c"
# Twig's names allow the bytes \x7f-\xff, i.e. every non-ASCII character of UTF-8 text.
NAME_PATTERN = r"[a-zA-Z_\x7f-\U0010ffff][a-zA-Z0-9_\x7f-\U0010ffff]*"
_NAME = re.compile(NAME_PATTERN)
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[Ee][+\-][0-9]+)?")
_STRING = re.compile(r"\"([^#\"\\]*(?:\\.[^#\"\\]*)*)\"|'([^'\\]*(?:\\.[^'\\]*)*)'", re.DOTALL)
_DQ_PART = re.compile(r"[^#\"\\]*(?:(?:\\.|#(?!\{))[^#\"\\]*)*", re.DOTALL)
_TOKEN_START = re.compile(r"(\{\{|\{%|\{#)([-~])?")
_VAR_END = re.compile(_WS + r"*(?:-\}\}" + _WS + r"*|~\}\}" + _LINE_WS + r"*|\}\})")
_BLOCK_END = re.compile(_WS + r"*(?:-%\}" + _WS + r"*\n?|~%\}" + _LINE_WS + r"*|%\}\n?)")
_COMMENT_END = re.compile(r"(?:-#\}" + _WS + r"*\n?|~#\}" + _LINE_WS + r"*|#\}\n?)")
_VERBATIM_START = re.compile(
    _WS + r"*verbatim" + _WS + r"*(?:-%\}" + _WS + r"*|~%\}" + _LINE_WS + r"*|%\})"
)
_VERBATIM_END = re.compile(
    r"\{%([-~])?" + _WS + r"*endverbatim" + _WS + r"*(?:-%\}" + _WS + r"*|~%\}"
    r"" + _LINE_WS + r"*|%\})"
)
_LINE_TAG = re.compile(_WS + r"*line" + _WS + r"+(\d+)" + _WS + r"*%\}")
_WHITESPACE = re.compile(_WS + "+")
_INTERPOLATION_START = re.compile(r"#\{" + _WS + "*")
_INTERPOLATION_END = re.compile(_WS + r"*\}")

# Twig 3.5's operators ('=' and the unary and binary ones), longest first as Twig sorts them.
OPERATORS = (
    "=",
    "not",
    "-",
    "+",
    "or",
    "and",
    "b-or",
    "b-xor",
    "b-and",
    "==",
    "!=",
    "<=>",
    "<",
    ">",
    ">=",
    "<=",
    "not in",
    "in",
    "matches",
    "starts with",
    "ends with",
    "has some",
    "has every",
    "..",
    "+",
    "-",
    "~",
    "*",
    "/",
    "//",
    "%",
    "is",
    "is not",
    "**",
    "??",
)


def _operator_regex() -> re.Pattern[str]:
    unique = list(dict.fromkeys(OPERATORS))
    ordered = sorted(unique, key=len, reverse=True)  # stable, like PHP 8's arsort
    parts = []
    for operator in ordered:
        pattern = re.escape(operator)
        if operator[-1].isalpha():
            # An operator ending in a letter must be followed by a space, `(`, `[` or `{`.
            pattern += r"(?=[ \t\n\r\x0b\x0c()\[{])"
        if operator[0].isalpha():
            # ... and one starting with a letter must not follow `.` or `|` (`a.not`, `|in`).
            pattern = r"(?<![.|])" + pattern
        parts.append(pattern.replace(r"\ ", _WS + "+"))
    return re.compile("|".join(parts))


_OPERATOR = _operator_regex()
# One token of an expression, blanks before it skipped, in the order Twig tries them (arrow,
# operator, name, number, punctuation, string, a double quote opening an interpolated string):
# one match per token instead of one per kind tried (a broken `{{` lexes the prose after it).
_EXPRESSION_TOKEN = re.compile(
    _WS
    + r"*(?:(?P<arrow>=>)|(?P<operator>"
    + _OPERATOR.pattern
    + r")|(?P<name>"
    + NAME_PATTERN
    + r")|(?P<number>"
    + _NUMBER.pattern
    + r")|(?P<punctuation>[()\[\]{}?:.,|])|(?P<string>"
    + r"\"[^#\"\\]*(?:\\.[^#\"\\]*)*\"|'[^'\\]*(?:\\.[^'\\]*)*'"
    + r")|(?P<quote>\"))",
    re.DOTALL,
)
_SPACES = re.compile(_WS + "+")
_PUNCTUATION = "()[]{}?:.,|"
_CLOSING = {"(": ")", "[": "]", "{": "}"}


def tokenize(source: str) -> tuple[list[Token], TwigLexError | None]:
    """The tokens, ending with EOF; on a lexer error, the tokens before it (then an EOF where
    the error is) and the error."""
    tokens: list[Token] = []
    return tokens, lex_into(_Lexer(source, tokens))


def lex_into(lexer: _Lexer) -> TwigLexError | None:
    """Run `lexer` from its cursor to the end (its tokens end with EOF), answering its error;
    `Resynced` goes through (twig/relex.py)."""
    try:
        lexer.run()
    except TwigLexError as error:
        lexer.tokens.append(Token(T.EOF, "", error.start, error.start))
        return error
    return None


class Mark(NamedTuple):
    """A point where the lexer's future depends only on the text from `offset` on and this
    state (twig/relex.py resumes or stops there): the tokens made before it, and, inside a tag
    (`brackets` not None), its open brackets, where the tag opened and whether it is a block."""

    offset: int
    tokens_before: int
    brackets: tuple[tuple[str, int], ...] | None = None
    block_start: int = 0
    is_block: bool = False


class Resynced(Exception):
    """The lexer reached a point an earlier lexing of the same text (moved) marked in the same
    state: the rest is that lexing's (twig/relex.py)."""

    def __init__(self, old: Mark) -> None:
        super().__init__()
        self.old = old


class Watch(Protocol):
    """What twig/relex.py watches for while re-lexing after an edit (`Resynced` when found)."""

    def check(self, lexer: _Lexer, inside: bool, is_block: bool) -> None: ...


# How many tokens of a tag apart its marks are (its data-state marks are at every tag's end).
MARK_EVERY = 16


class _Exhausted(Exception):
    """The code ended inside a block or string (not after whitespace, which Twig refuses
    itself): Twig stops lexing there and only complains about an open bracket."""


class _Lexer:
    def __init__(
        self, source: str, tokens: list[Token], cursor: int = 0, watch: Watch | None = None
    ) -> None:
        self.code = source
        self.end = len(source)
        self.tokens = tokens
        self.cursor = cursor
        # Open brackets and double quotes: (character, offset); a tuple, so that a mark keeps
        # it as it was without a copy.
        self.brackets: tuple[tuple[str, int], ...] = ()
        self.block_start = 0
        self.marks: list[Mark] = []
        self.mark_due = 0  # how many tokens make the next mark inside a tag due
        self.next_mark = 0  # when `lex_inside` asks `point` next
        self.watch = watch

    def point(self, inside: bool, is_block: bool = False) -> None:
        """A point where lexing may resume or stop (`Mark`): watched at every token while
        watched, and marked at every tag's end and every `MARK_EVERY` tokens inside a tag."""
        if self.watch is not None:
            self.watch.check(self, inside, is_block)
        count = len(self.tokens)
        if not inside or count >= self.mark_due:
            brackets = self.brackets if inside else None
            self.marks.append(Mark(self.cursor, count, brackets, self.block_start, is_block))
            self.mark_due = count + MARK_EVERY
        # Inside a tag `lex_inside` asks again at `next_mark` tokens: at the next mark due, or
        # at every token while watched.
        self.next_mark = 0 if self.watch is not None else self.mark_due

    def push(self, type_: T, value: str, start: int, end: int) -> None:
        self.tokens.append(Token(type_, value, start, end))

    def run(self) -> None:
        code = self.code
        self.point(inside=False)
        for start in _TOKEN_START.finditer(code, self.cursor):
            if start.start() < self.cursor:
                continue
            if start.start() > self.cursor:
                self.push(T.TEXT, code[self.cursor : start.start()], self.cursor, start.start())
            self.cursor = start.end()
            opener = start.group(1)
            if opener == "{#":
                end = _COMMENT_END.search(code, self.cursor)
                if end is None:
                    raise TwigLexError("Unclosed comment.", start.start(), start.end())
                self.cursor = end.end()
            elif opener == "{%" and (raw := _VERBATIM_START.match(code, self.cursor)):
                self.cursor = raw.end()
                end = _VERBATIM_END.search(code, self.cursor)
                if end is None:
                    raise TwigLexError(
                        'Unexpected end of file: Unclosed "verbatim" block.',
                        start.start(),
                        raw.end(),
                        line_at=raw.end(),
                    )
                if end.start() > self.cursor:
                    self.push(T.TEXT, code[self.cursor : end.start()], self.cursor, end.start())
                self.cursor = end.end()
            elif opener == "{%" and (line := _LINE_TAG.match(code, self.cursor)):
                self.cursor = line.end()
            else:
                is_block = opener == "{%"
                self.block_start = start.start()
                self.push(
                    T.BLOCK_START if is_block else T.VAR_START, "", start.start(), start.end()
                )
                try:
                    self.lex_inside(_BLOCK_END if is_block else _VAR_END, is_block)
                except _Exhausted:
                    if self.brackets:
                        expected, opened = self.brackets[-1]
                        raise TwigLexError(
                            f'Unclosed "{expected}".', opened, opened + len(expected)
                        ) from None
                    self.push(T.EOF, "", self.end, self.end)
                    return
            self.point(inside=False)
        if self.cursor < self.end:
            self.push(T.TEXT, code[self.cursor :], self.cursor, self.end)
        self.push(T.EOF, "", self.end, self.end)

    def lex_inside(self, closer: re.Pattern[str], is_block: bool) -> None:
        """Expression tokens up to and including the block's `%}` / `}}`."""
        code = self.code
        while self.cursor < self.end:
            if not self.brackets and (end := closer.match(code, self.cursor)):
                # The token's span is the closer itself (`-%}`, `}}`), not the spaces before it;
                # but Twig counts its line where those spaces start, so a span that must hold
                # that line starts there.
                closer_at = end.end() - len(end.group().lstrip(_BLANK))
                closer_end = closer_at + (3 if code[closer_at] in "-~" else 2)
                if "\n" in code[end.start() : closer_at] or "\r" in code[end.start() : closer_at]:
                    closer_at = end.start()
                type_ = T.BLOCK_END if is_block else T.VAR_END
                self.push(type_, "", closer_at, closer_end)
                self.cursor = end.end()
                return
            if len(self.tokens) >= self.next_mark:  # always, while watched
                self.point(inside=True, is_block=is_block)
            self.lex_expression(is_block)
        raise _Exhausted

    def lex_expression(self, is_block: bool) -> None:
        code = self.code
        token = _EXPRESSION_TOKEN.match(code, self.cursor)
        if token is None:
            if space := _WHITESPACE.match(code, self.cursor):
                self.cursor = space.end()
            if self.cursor >= self.end:
                what = "block" if is_block else "variable"
                opener = self.block_start
                raise TwigLexError(f'Unclosed "{what}".', opener, opener + 2)
            char = code[self.cursor]
            raise TwigLexError(f'Unexpected character "{char}".', self.cursor, self.cursor + 1)
        kind = token.lastgroup
        assert kind is not None  # every alternative is a named group
        cursor = token.start(kind)
        end = token.end()
        value = token.group(kind)
        if kind == "arrow":
            self.push(T.ARROW, "=>", cursor, end)
        elif kind == "operator":
            self.push(T.OPERATOR, _SPACES.sub(" ", value), cursor, end)
        elif kind == "name":
            self.push(T.NAME, value, cursor, end)
        elif kind == "number":
            self.push(T.NUMBER, value, cursor, end)
        elif kind == "punctuation":
            if value in "([{":
                self.brackets += ((value, cursor),)
            elif value in ")]}":
                if not self.brackets:
                    raise TwigLexError(f'Unexpected "{value}".', cursor, cursor + 1)
                expected, opened = self.brackets[-1]
                self.brackets = self.brackets[:-1]
                if value != _CLOSING.get(expected):
                    raise TwigLexError(f'Unclosed "{expected}".', opened, opened + 1)
            self.push(T.PUNCTUATION, value, cursor, end)
        elif kind == "string":
            self.push(T.STRING, value[1:-1], cursor, end)
        else:  # a double quote: an interpolated string
            self.brackets += (('"', cursor),)
            self.cursor = end
            self.lex_string()
            return
        self.cursor = end

    def lex_string(self) -> None:
        """The rest of a double-quoted string with `#{…}` interpolations, up to its `"`."""
        code = self.code
        while self.cursor < self.end:
            cursor = self.cursor
            if interpolation := _INTERPOLATION_START.match(code, cursor):
                self.brackets += (("#{", cursor),)
                self.push(T.INTERPOLATION_START, "#{", cursor, cursor + 2)
                self.cursor = interpolation.end()
                while not (
                    self.brackets[-1][0] == "#{"
                    and (end := _INTERPOLATION_END.match(code, self.cursor))
                ):
                    if self.cursor >= self.end:
                        raise _Exhausted
                    self.lex_expression(is_block=False)
                self.brackets = self.brackets[:-1]
                self.push(T.INTERPOLATION_END, "}", end.end() - 1, end.end())
                self.cursor = end.end()
            elif (part := _DQ_PART.match(code, cursor)) and part.end() > cursor:
                self.push(T.STRING, part.group(), cursor, part.end())
                self.cursor = part.end()
            elif code[cursor] == '"':
                self.brackets = self.brackets[:-1]
                self.cursor += 1
                return
            else:
                raise TwigLexError(f'Unexpected character "{code[cursor]}".', cursor, cursor + 1)
        raise _Exhausted
