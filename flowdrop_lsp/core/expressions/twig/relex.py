"""A keystroke in a template is no new lexing: the lexing before it, re-read from the last tag
before the edit and taken again from where the two agree.

Twig lexes a whole template before parsing it, and a print left open (`{{ l`, `default(` while
it is typed) lexes everything after it as an expression: a keystroke there made the lexer read
to the end of a 200-line prompt. `relex` keeps the lexer's `Mark`s (the end of every tag, and a
point every few tokens inside one, with the lexer's state there), starts again at the last tag's
end before the edit, and stops at the first point after it where the old lexing passed in the
same state (its open brackets and tag, moved by the edit): from there both read the same text
the same way, so the rest is the old tokens, moved, and the old error, moved. The moved tokens
are made when the parser reads them (`TokenRun`): a parse that stops at its first error (a
print left open) reads few of them.

The answer equals a whole lexing's: tests/core/expressions/test_twig_relex.py compares them on
random edits."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from flowdrop_lsp.core.expressions.twig.lexer import (
    Mark,
    Resynced,
    T,
    Token,
    TwigLexError,
    _Lexer,
    lex_into,
)
from flowdrop_lsp.core.text.changes import common_prefix, common_suffix

# The stretches of the template its lexer read as text (a keystroke inside one is prose).
TextStretches = tuple[tuple[int, int], ...]


class TokenRun(Sequence[Token]):
    """Tokens as a list of new ones (`head`), the tokens `base[base_from:base_stop]` of an older
    lexing, each moved by `delta` when read (moving them all would cost what lexing them did),
    and a `tail` (the EOF of a lexing that stopped at an error: placed where the error is)."""

    __slots__ = ("head", "base", "base_from", "base_stop", "delta", "tail")

    def __init__(
        self,
        head: list[Token],
        base: Sequence[Token],
        base_from: int,
        base_stop: int,
        delta: int,
        tail: list[Token],
    ) -> None:
        self.head = head
        self.base = base
        self.base_from = base_from
        self.base_stop = base_stop
        self.delta = delta
        self.tail = tail

    def __len__(self) -> int:
        return len(self.head) + self.base_stop - self.base_from + len(self.tail)

    @overload
    def __getitem__(self, index: int) -> Token: ...

    @overload
    def __getitem__(self, index: slice) -> list[Token]: ...

    def __getitem__(self, index: int | slice) -> Token | list[Token]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(index)
        if index < len(self.head):
            return self.head[index]
        at = self.base_from + index - len(self.head)
        if at >= self.base_stop:
            return self.tail[at - self.base_stop]
        return _shifted(self.base[at], self.delta)

    def __iter__(self) -> Iterator[Token]:
        return (self[i] for i in range(len(self)))

    def prefix(self, count: int) -> list[Token]:
        """The first `count` tokens as a list (the head's, copied; moved ones made)."""
        if count <= len(self.head):
            return self.head[:count]
        return self.head + [self[i] for i in range(len(self.head), count)]


def _shifted(token: Token, delta: int) -> Token:
    if not delta:
        return token
    return Token(token.type, token.value, token.start + delta, token.end + delta)


@dataclass(frozen=True)
class Lexed:
    """A template's lexing, kept to re-lex the next keystroke from: its tokens (ending with
    EOF), its error, its marks (by offset) and the stretches it read as text; re-lexed, how
    many of its first tokens are those of the lexing it was re-lexed from (the same tokens of
    the same text: a parse of them is that lexing's, twig/checkpoint.py)."""

    source: str
    tokens: Sequence[Token]
    error: TwigLexError | None
    marks: tuple[Mark, ...]
    text_stretches: TextStretches
    unchanged_tokens: int = 0


def lex(source: str) -> Lexed:
    """A whole lexing."""
    tokens: list[Token] = []
    lexer = _Lexer(source, tokens)
    error = lex_into(lexer)
    return Lexed(source, tokens, error, tuple(lexer.marks), _stretches(tokens))


def _stretches(tokens: Sequence[Token]) -> TextStretches:
    return tuple((t.start, t.end) for t in tokens if t.type is T.TEXT)


@dataclass(frozen=True)
class _Edit:
    """The one stretch where two texts differ: old [start, old_end) is new [start, new_end)."""

    start: int
    old_end: int
    new_end: int

    @property
    def delta(self) -> int:
        return self.new_end - self.old_end

    def moved(self, offset: int) -> int | None:
        """Where an old offset is in the new text; None inside what the edit replaced."""
        if offset < self.start:
            return offset
        if offset >= self.old_end:
            return offset + self.delta
        return None


# How many tokens past an edit the re-lexing looks for the old lexing's state: a `(` typed
# opens a bracket no old state has, and the rest of the template is then lexed anew; watching
# every token of it would cost twice a whole lexing.
WATCH_REACH = 256


class _Watch:
    """Stops the re-lexing at the first point after the edit where the old lexing was in the
    same state (`Resynced`)."""

    def __init__(self, old: Lexed, edit: _Edit) -> None:
        self.edit = edit
        # Past the edit by two: a token's lookbehind reads the character before it.
        self.from_offset = edit.new_end + 2
        delta = edit.delta
        self.old_marks = {
            mark.offset + delta: mark for mark in old.marks if mark.offset >= edit.old_end + 2
        }
        self.give_up_at: int | None = None  # (tokens) past the edit

    def check(self, lexer: _Lexer, inside: bool, is_block: bool) -> None:
        cursor = lexer.cursor
        if cursor < self.from_offset:
            return
        if self.give_up_at is None:
            self.give_up_at = len(lexer.tokens) + WATCH_REACH
        elif len(lexer.tokens) > self.give_up_at:
            lexer.watch = None  # no resync soon: the rest is lexed at a whole lexing's pace
            return
        old = self.old_marks.get(cursor)
        if old is None or (old.brackets is not None) != inside:
            return
        if inside:
            moved = self.edit.moved
            if old.is_block != is_block or moved(old.block_start) != lexer.block_start:
                return
            assert old.brackets is not None
            if len(old.brackets) != len(lexer.brackets):
                return
            for (kind, at), (new_kind, new_at) in zip(old.brackets, lexer.brackets, strict=True):
                if kind != new_kind or moved(at) != new_at:
                    return
        raise Resynced(old)


def relex(old: Lexed, source: str) -> Lexed:
    """`source`'s lexing, from `old`'s (see the module docstring)."""
    edit = _edit(old.source, source)
    if edit is None:
        return old
    resume = _resume_mark(old, edit.start)
    head = _prefix(old.tokens, resume.tokens_before)
    lexer = _Lexer(source, head, cursor=resume.offset, watch=_Watch(old, edit))
    kept_marks = old.marks[: bisect_left(old.marks, resume.offset, key=lambda m: m.offset)]
    kept_text = tuple(s for s in old.text_stretches if s[1] <= resume.offset)
    try:
        error = lex_into(lexer)
    except Resynced as found:
        kept = (kept_marks, kept_text)
        return _spliced(old, source, edit, lexer, found.old, resume, kept)
    new_text = _stretches(head[resume.tokens_before :])
    marks = (*kept_marks, *lexer.marks)
    return Lexed(source, head, error, marks, kept_text + new_text, resume.tokens_before)


def _spliced(
    old: Lexed,
    source: str,
    edit: _Edit,
    lexer: _Lexer,
    old_mark: Mark,
    resumed: Mark,
    kept: tuple[tuple[Mark, ...], TextStretches],
) -> Lexed:
    """The re-lexed head, then `old`'s tokens, marks, text stretches and error from `old_mark`
    on, moved by the edit."""
    delta = edit.delta
    head = lexer.tokens
    moved_count = len(head) - old_mark.tokens_before
    new_text = _stretches(head[_first_from(head, resumed.offset) :])
    old_tokens = old.tokens
    if isinstance(old_tokens, TokenRun):
        head.extend(_shifted(t, delta) for t in old_tokens.head[old_mark.tokens_before :])
        skip = max(0, old_mark.tokens_before - len(old_tokens.head))
        base, base_from = old_tokens.base, old_tokens.base_from + skip
        base_stop, base_delta = old_tokens.base_stop, old_tokens.delta
    else:
        base, base_from, base_delta = old_tokens, old_mark.tokens_before, 0
        base_stop = len(old_tokens) - (1 if old.error is not None else 0)
    error = None if old.error is None else _moved_error(old.error, edit)
    tail = [] if error is None else [Token(T.EOF, "", error.start, error.start)]
    tokens = TokenRun(head, base, base_from, base_stop, base_delta + delta, tail)
    later_marks = tuple(
        _moved_mark(mark, edit, moved_count) for mark in old.marks if mark.offset >= old_mark.offset
    )
    later_text = tuple(
        (a + delta, b + delta) for a, b in old.text_stretches if a >= old_mark.offset
    )
    kept_marks, kept_text = kept
    return Lexed(
        source,
        tokens,
        error,
        (*kept_marks, *lexer.marks, *later_marks),
        kept_text + new_text + later_text,
        resumed.tokens_before,
    )


def _first_from(tokens: list[Token], offset: int) -> int:
    """The index of the first token starting at or after `offset` (tokens are in order)."""
    return bisect_left(tokens, offset, key=lambda t: t.start)


def _prefix(tokens: Sequence[Token], count: int) -> list[Token]:
    if isinstance(tokens, TokenRun):
        return tokens.prefix(count)
    return list(tokens[:count])


def _moved_mark(mark: Mark, edit: _Edit, moved_count: int) -> Mark:
    brackets = mark.brackets
    if brackets is None:
        return Mark(mark.offset + edit.delta, mark.tokens_before + moved_count)
    brackets = tuple((kind, _moved(at, edit)) for kind, at in brackets)
    return Mark(
        mark.offset + edit.delta,
        mark.tokens_before + moved_count,
        brackets,
        _moved(mark.block_start, edit),
        mark.is_block,
    )


def _moved(offset: int, edit: _Edit) -> int:
    moved = edit.moved(offset)
    return offset if moved is None else moved


def _moved_error(error: TwigLexError, edit: _Edit) -> TwigLexError:
    """An error of the old lexing past the resync, moved: its span keeps its length (an open
    bracket before the edit is reported on the bracket, however the edit ends beside it)."""
    start = _moved(error.start, edit)
    return TwigLexError(
        error.message, start, start + error.end - error.start, line_at=_moved(error.line_at, edit)
    )


def _resume_mark(old: Lexed, start: int) -> Mark:
    """The last tag's end strictly before the edit (its text unchanged up to it): the start
    when there is none."""
    marks = old.marks
    index = bisect_left(marks, start, key=lambda m: m.offset) - 1
    while index >= 0:
        mark = marks[index]
        if mark.brackets is None and mark.offset < start:
            return mark
        index -= 1
    return Mark(0, 0)


def _edit(old: str, new: str) -> _Edit | None:
    return None if old == new else _Edit(*edited_stretch(old, new))


def edited_stretch(old: str, new: str) -> tuple[int, int, int]:
    """The one stretch where `old` and `new` differ: (start, its end in `old`, in `new`)."""
    start = common_prefix(old, new)
    tail = common_suffix(old, new, min(len(old), len(new)) - start)
    return start, len(old) - tail, len(new) - tail
