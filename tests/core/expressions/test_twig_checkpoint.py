"""A template parsed from the parse before it (twig/checkpoint.py: resumed at the last top-level
node the edit left alone) gives exactly what a whole parse gives: a print typed keystroke by
keystroke after emoji and CJK text, random keystrokes on templates whose top level binds names
to the end (`set`, `import`, `from`), defines macros and blocks, extends another and nests
bodies, on the real site's templates and the hand-written ones; and the typed keystrokes
really resume, from a point near the edit."""

from __future__ import annotations

import random
from typing import Any

import pytest

from flowdrop_lsp.core.expressions.base import Parsed
from flowdrop_lsp.core.expressions.twig import TWIG_CORE, _parse_whole
from flowdrop_lsp.core.expressions.twig.checkpoint import Checkpoint, CheckpointedParser, Prior
from tests.support.twig_templates import VALID, real_templates


def _long_template(lines: int) -> str:
    out = []
    for i in range(lines):
        if i % 20 == 0:
            out.append(f"{{% if section_{i} is defined and section_{i} %}}")
        elif i % 20 == 19:
            out.append("{% endif %}")
        elif i % 7 == 0:
            out.append(f"Context {i} 😀 天気: {{{{ context_{i}|default('') }}}} — use it.")
        else:
            out.append(f"Line {i} of the instructions 🌦️ 「注意」: one tool at a time.")
    return "\n".join(out)


BINDING = (
    "{% import 'forms.html' as forms %}{% from 'm.html' import field as f %}\n"
    "{% set greeting = 'Bonjour 😀' %}{% set later %}天気 {{ greeting }}{% endset %}\n"
    "{% macro card(title, body) %}{% set inner = title %}{{ inner }} {{ body }}{% endmacro %}\n"
    "{% for item in items %}{{ loop.index }} {{ item|upper }}{% endfor %}\n"
    "{{ forms.input('x') }} {{ f('y') }} {{ greeting }} {{ unknown_name }}\n"
    "{% with {a: 1} %}{{ a }}{% endwith %}{% apply upper %}x{% endapply %}\n"
    "Text 😀 天気 and a print to type in: here.\n"
    "{% set tail = greeting ~ '!' %}{{ tail }} {{ cycle([1, 2], 1) }}\n"
)
CHILD = (
    "{% extends 'base.html' %}\n"
    "{% block title %}Title 😀 {{ page.title }}{% endblock %}\n"
    "{% set x = 1 %}\n"
    "{% block body %}Body 天気 here.{% endblock %}\n"
    "{% block foot %}{{ x }}{% endblock %}\n"
)
TYPED = [
    " {{ live_state|default('none') }}",
    " {% if x in [1, (2) %}y{% endif %}",
    " {% set z = 1 %}{{ z|lenght }}",
    " {{ (a, b) => a ~ b }}",
    " {% block extra %}{% endblock %}",
]


def _parsed_from(text: str, prior: Prior | None) -> tuple[Parsed, Prior]:
    return _parse_whole(text, TWIG_CORE, prior)


@pytest.fixture
def resumed(monkeypatch: pytest.MonkeyPatch) -> list[Checkpoint | None]:
    """What each parse started from (None: the template's start)."""
    starts: list[Checkpoint | None] = []
    original = CheckpointedParser.parse_from

    def recorded(self: CheckpointedParser, checkpoint: Checkpoint | None) -> None:
        starts.append(checkpoint)
        original(self, checkpoint)

    monkeypatch.setattr(CheckpointedParser, "parse_from", recorded)
    return starts


@pytest.mark.parametrize(
    ("template", "where"),
    [
        (_long_template(200), "Line 101 of the instructions"),
        (BINDING, "to type in"),
        (CHILD, "Body 天気"),
    ],
)
@pytest.mark.parametrize("typed", TYPED)
def test_typing_resumes_the_parse_and_equals_a_whole_parse(
    template: str, where: str, typed: str, resumed: list[Any]
) -> None:
    at = template.index(where) + len(where)
    parsed, prior = _parsed_from(template, None)
    text = template
    for char in typed:
        text = text[:at] + char + text[at:]
        at += 1
        parsed, prior = _parsed_from(text, prior)
        assert parsed == _parse_whole(text, TWIG_CORE)[0], text
    # Past the first keystrokes (which choose where to keep the parse), each one resumed from
    # a checkpoint before the edit; in the long template, from its last top-level `if`.
    kept = resumed[1::2]  # the first parse, then each typed one and the whole one compared
    assert all(start is not None for start in kept[2:]), [s is None for s in kept]
    if template.startswith("{% if section_0"):
        assert all(start.at > 100 for start in kept[2:])


PIECES = [
    "a", " ", "\n", "{", "}", "{{", "}}", "{%", "%}", "(", ")", "'", '"', "|", "é", "😀", "天気",
    "{{ x }}", "{% set y = 2 %}", "{% endif %}", "{% if a %}", "{% endset %}", "{% endmacro %}",
    "{% import 'i' as j %}", "{% block b %}", "{% endblock %}", "{% extends 'p' %}",
]  # fmt: skip


def _edited(text: str, rng: random.Random, near: int) -> tuple[str, int]:
    """A keystroke or paste near the last one (as typing is), sometimes anywhere."""
    at = rng.randrange(len(text) + 1) if rng.random() < 0.2 else min(near, len(text))
    at = max(0, min(len(text), at + rng.randint(-3, 3)))
    if rng.random() < 0.3 and at < len(text):
        return text[:at] + text[at + rng.randint(1, 3) :], at
    piece = rng.choice(PIECES)
    return text[:at] + piece + text[at:], at + len(piece)


def test_random_edits_from_the_parse_before_equal_whole_parses() -> None:
    rng = random.Random(39)
    templates = [_long_template(60), BINDING, CHILD, BINDING + CHILD, *real_templates(), *VALID]
    for template in templates:
        parsed, prior = _parsed_from(template, None)
        text, at = template, rng.randrange(len(template) + 1)
        for _ in range(20):
            text, at = _edited(text, rng, at)
            parsed, prior = _parsed_from(text, prior)
            assert parsed == _parse_whole(text, TWIG_CORE)[0], (template, text)


def test_the_state_copied_is_the_parsers_state() -> None:
    """A new attribute of the parser that is no plain value nor container is refused when a
    state is kept, not shared between parses."""
    template = _long_template(40)
    prior = _parse_whole(template, TWIG_CORE)[1]
    second = prior.trail.boundaries[1]
    parser = CheckpointedParser(template, prior.lexed.tokens, TWIG_CORE, second)
    parser.surprise = object()  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="no copy"):
        parser.parse_from(None)
