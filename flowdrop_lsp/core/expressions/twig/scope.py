"""Editor questions about a Twig template at an offset: which names are bound there, and what
may be typed there (completion)."""

from __future__ import annotations

import re

from flowdrop_lsp.core.expressions.base import CompletionPlace, Parsed, Place
from flowdrop_lsp.core.expressions.twig.lexer import T, tokenize

_WORD_BEFORE = re.compile(r"[a-zA-Z0-9_\x7f-\U0010ffff]*\Z")
_WORD_AFTER = re.compile(r"[a-zA-Z0-9_\x7f-\U0010ffff]*")
# Lexer errors at the end of a prefix that still leave it inside an expression.
_OPEN_EXPRESSION = (
    'Unclosed "variable".',
    'Unclosed "block".',
    'Unclosed "(".',
    'Unclosed "[".',
    'Unclosed "{".',
    'Unclosed "#{".',
)


def names_in_scope(parsed: Parsed, offset: int) -> tuple[str, ...]:
    """The names the template binds that are visible at `offset`, each once."""
    names = (
        binding.name
        for binding in parsed.bindings
        if binding.visible_from <= offset < binding.visible_to
    )
    return tuple(dict.fromkeys(names))


def twig_completion_place(source: str, offset: int) -> CompletionPlace:
    """What may be typed at `offset`, from the template's text up to it."""
    prefix = source[:offset]
    tokens, error = tokenize(prefix)
    word = _WORD_BEFORE.search(prefix)
    start = word.start() if word else offset
    after = _WORD_AFTER.match(source, offset)
    end = after.end() if after else offset
    nothing = CompletionPlace(Place.NONE, offset, offset)
    if error is not None and error.message not in _OPEN_EXPRESSION:
        return nothing  # a comment, a string, verbatim text or something Twig refuses
    before = [token for token in tokens if token.type is not T.EOF and token.end <= start]
    if not before:
        return nothing
    last = before[-1]
    if error is None and last.type in (T.TEXT, T.VAR_END, T.BLOCK_END):
        return nothing
    if last.type is T.NUMBER and start < offset and start == last.end:
        return nothing
    if last.type is T.BLOCK_START:
        return CompletionPlace(Place.TAG, start, end)
    if last.type is T.PUNCTUATION and last.value == "|":
        return CompletionPlace(Place.FILTER, start, end)
    if last.type is T.OPERATOR and last.value in ("is", "is not"):
        return CompletionPlace(Place.TEST, start, end)
    if last.type is T.PUNCTUATION and last.value == ".":
        owner = None
        if len(before) >= 2 and before[-2].type is T.NAME:
            plain = len(before) < 3 or not (
                before[-3].type is T.PUNCTUATION and before[-3].value in (".", "|")
            )
            owner = before[-2].value if plain else None
        return CompletionPlace(Place.ATTRIBUTE, start, end, owner)
    if last.type in (T.STRING,) and last.end == offset:
        return nothing
    return CompletionPlace(Place.NAME, start, end)
