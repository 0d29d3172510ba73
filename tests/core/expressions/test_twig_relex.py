"""A template re-lexed after an edit (twig/relex.py) gives exactly what a whole lexing gives:
random keystrokes and pastes — braces, quotes, brackets, line breaks, tags opened and closed —
on the real site's templates and the hand-written ones, each lexing compared with a fresh one
(tokens, error, text stretches); and typing a print into a long template re-lexes a few tokens,
not the rest of the template."""

from __future__ import annotations

import random

from flowdrop_lsp.core.expressions.twig import lexer
from flowdrop_lsp.core.expressions.twig.lexer import tokenize
from flowdrop_lsp.core.expressions.twig.relex import Lexed, TokenRun, lex, relex
from tests.support.twig_templates import VALID, real_templates

PIECES = [
    "a", " ", "word", "\n", "{", "}", "{{", "}}", "{%", "%}", "{#", "#}", "(", ")", "[", "]",
    "'", '"', "#{", "|", ".", "-", "~", "é", "🌦️", "天気", "{{ x }}", "{% if a %}", " is ",
]  # fmt: skip


def _edited(text: str, rng: random.Random) -> str:
    at = rng.randrange(len(text) + 1)
    if rng.random() < 0.3 and at < len(text):
        return text[:at] + text[at + rng.randint(1, 4) :]
    return text[:at] + rng.choice(PIECES) + text[at:]


def _same_as_whole(lexed: Lexed) -> None:
    tokens, error = tokenize(lexed.source)
    assert list(lexed.tokens) == tokens, lexed.source
    assert len(lexed.tokens) == len(tokens)
    if error is None:
        assert lexed.error is None, lexed.source
    else:
        assert lexed.error is not None, lexed.source
        got = (lexed.error.message, lexed.error.start, lexed.error.end, lexed.error.line_at)
        assert got == (error.message, error.start, error.end, error.line_at), lexed.source
    assert lexed.text_stretches == lex(lexed.source).text_stretches, lexed.source
    assert [m.offset for m in lexed.marks] == sorted(m.offset for m in lexed.marks)


def test_relexed_equals_whole_lexing_on_random_edits() -> None:
    rng = random.Random(39)
    templates = [*real_templates(), *VALID]
    for template in templates:
        lexed = lex(template)
        for _ in range(15):
            lexed = relex(lexed, _edited(lexed.source, rng))
            _same_as_whole(lexed)


def test_a_print_typed_keystroke_by_keystroke_equals_whole_lexing() -> None:
    template = "\n".join(
        f"Line {i}: {{{{ name_{i}|default('') }}}} and (some) [prose] — «x»." for i in range(120)
    )
    at = template.index("and (some)", template.index("Line 60:"))
    for typed in (" {{ live_state|default('none', \"a#{b}\") }}", " {% if x in [1, (2 %}"):
        lexed = lex(template)
        text = template
        for i, char in enumerate(typed):
            text = text[: at + i] + char + text[at + i :]
            lexed = relex(lexed, text)
            _same_as_whole(lexed)
        for i in range(len(typed), 0, -1):  # and deleted again
            text = text[: at + i - 1] + text[at + i :]
            lexed = relex(lexed, text)
            _same_as_whole(lexed)


def test_typing_inside_an_open_print_relexes_few_tokens(monkeypatch) -> None:
    template = "\n".join(f"Line {i}: {{{{ n_{i} }}}} then prose, words." for i in range(200))
    at = template.index("then prose", template.index("Line 100:"))
    text = template[:at] + "{{ live_state|default(" + template[at:]
    lexed = relex(lex(template), text)  # the `(` left open: the rest is an expression
    whole = len(tokenize(text)[0])
    pushed = []
    real_push = lexer._Lexer.push

    def counting(self, *args):
        pushed.append(args)
        real_push(self, *args)

    monkeypatch.setattr(lexer._Lexer, "push", counting)
    for char in "none, 1":
        at_char = text.index("default(") + len("default(")
        text = text[:at_char] + char + text[at_char:]
        lexed = relex(lexed, text)
    monkeypatch.undo()
    _same_as_whole(lexed)
    assert isinstance(lexed.tokens, TokenRun)
    assert whole > 1000
    assert len(pushed) < 5 * 40  # each keystroke re-lexes its tag's tokens, not the rest
