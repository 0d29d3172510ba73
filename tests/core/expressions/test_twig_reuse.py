"""A keystroke in a template's text answered from the template before it (twig/reuse.py) gives
exactly what a whole parse gives: random edits — inserted and deleted characters, prose,
braces, line breaks — on the real site's templates and the hand-written ones, each answer
compared with a fresh parse; and the reuse is really taken for prose."""

from __future__ import annotations

import random

from flowdrop_lsp.core.expressions.twig import TWIG_CORE, _parse_whole, parse_twig
from flowdrop_lsp.core.expressions.twig.reuse import Reuse
from tests.support.twig_templates import VALID, real_templates

PIECES = ["a", " ", "word", "\n", "{", "}", "{{ x }}", "%", "#", "-", "é", "🌦️", "天気", "'", '"']


def _edited(template: str, rng: random.Random) -> str:
    at = rng.randrange(len(template) + 1)
    if rng.random() < 0.3 and at < len(template):
        return template[:at] + template[at + rng.randint(1, 3) :]
    return template[:at] + rng.choice(PIECES) + template[at:]


def test_reused_answers_equal_whole_parses() -> None:
    rng = random.Random(27)
    templates = [*real_templates(), *VALID]
    for template in templates:
        reuse = Reuse()
        reuse.parse(template, lambda text, near: _parse_whole(text, TWIG_CORE, near))
        text = template
        for _ in range(12):
            text = _edited(text, rng)
            reused = reuse.parse(text, lambda t, near: _parse_whole(t, TWIG_CORE, near))
            assert reused == _parse_whole(text, TWIG_CORE)[0], (template, text)


def test_prose_typed_into_a_long_template_is_not_parsed_again() -> None:
    template = "\n".join(
        f"Line {i}: {{{{ name_{i}|default('') }}}} and some prose." for i in range(200)
    )
    whole_parses = []
    reuse = Reuse()

    def whole(text: str, near):
        whole_parses.append(text)
        return _parse_whole(text, TWIG_CORE, near)

    reuse.parse(template, whole)
    at = template.index("and some prose", template.index("Line 100:")) + len("and")
    text = template
    for char in " more words, typed":
        text = text[:at] + char + text[at:]
        at += 1
        assert reuse.parse(text, whole) == _parse_whole(text, TWIG_CORE)[0]
    assert len(whole_parses) == 1
    # A brace may start a tag: parsed whole.
    braced = text[:at] + "{" + text[at:]
    assert reuse.parse(braced, whole) == _parse_whole(braced, TWIG_CORE)[0]
    assert len(whole_parses) == 2


def test_parse_twig_is_the_whole_parse() -> None:
    for template in VALID[:50]:
        assert parse_twig(template) == _parse_whole(template, TWIG_CORE)[0]
