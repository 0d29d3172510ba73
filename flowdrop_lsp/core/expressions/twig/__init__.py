"""Twig 3 templates, parsed in pure Python (a port of Twig's lexer and parser, checked against
the real Twig by tests/core/expressions/test_twig_oracle.py): what Twig refuses, which
variables a template reads from its context, which filters, functions, tests and tags it calls,
which names it binds itself; and what may be typed at an offset."""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import replace

from flowdrop_lsp.core.expressions.base import NameRead, Parsed, Problem, ProblemKind
from flowdrop_lsp.core.expressions.twig.checkpoint import CheckpointedParser, Prior
from flowdrop_lsp.core.expressions.twig.expressions import TwigSyntaxError
from flowdrop_lsp.core.expressions.twig.lexer import T, Token
from flowdrop_lsp.core.expressions.twig.relex import lex, relex
from flowdrop_lsp.core.expressions.twig.reuse import Reuse
from flowdrop_lsp.core.expressions.twig.scope import names_in_scope, twig_completion_place
from flowdrop_lsp.core.expressions.twig.signatures import SIGNATURES
from flowdrop_lsp.core.expressions.twig.vocabulary import (
    DRUPAL_TWIG_EXTENSION,
    TWIG_35,
    TWIG_CORE,
    TwigVocabulary,
)

__all__ = [
    "DRUPAL_TWIG_EXTENSION",
    "SIGNATURES",
    "TWIG_35",
    "TWIG_CORE",
    "TwigVocabulary",
    "names_in_scope",
    "parse_twig",
    "twig_completion_place",
]


_REUSE: dict[TwigVocabulary, Reuse] = {}


def parse_twig(source: str, vocabulary: TwigVocabulary = TWIG_CORE) -> Parsed:
    """The template's facts. Like Twig, it stops at the first syntax error; unknown filters,
    functions and tests do not stop it (Twig refuses the first one: it is the first problem).
    A template that differs from one parsed lately only inside a stretch of its text is
    answered from that one's facts, moved (`reuse.py`: a keystroke in a prompt's prose); one
    that differs from it a little elsewhere is lexed from that one's lexing (`relex.py`) and
    parsed from that one's parse where the edit left it alone (`checkpoint.py`)."""
    reuse = _REUSE.get(vocabulary)
    if reuse is None:
        reuse = _REUSE.setdefault(vocabulary, Reuse())
    return reuse.parse(source, lambda text, near: _parse_whole(text, vocabulary, near))


def _parse_whole(
    source: str, vocabulary: TwigVocabulary, near: Prior | None = None
) -> tuple[Parsed, Prior]:
    """The template's facts, and what the next keystroke's parse starts from (re-lexed and
    parsed from `near`'s, a template like it, when given: the same as a whole parse)."""
    if near is None:
        lexed, resume, keep_at = lex(source), None, None
    else:
        lexed = relex(near.lexed, source)
        resume, keep_at = near.trail.plan(lexed.unchanged_tokens)
    tokens, lex_error = lexed.tokens, lexed.error
    parser = CheckpointedParser(source, tokens, vocabulary, keep_at)
    problems: list[Problem] = []
    try:
        if lex_error is not None:
            # Twig lexes everything first, so its error comes first; what precedes it is still
            # parsed for reads and symbols.
            problems.append(
                Problem(ProblemKind.SYNTAX, lex_error.start, lex_error.end, lex_error.message)
            )
        parser.parse_from(resume)
    except TwigSyntaxError as error:
        if lex_error is None:
            problems.append(
                Problem(
                    error.kind,
                    error.start,
                    error.end,
                    error.message,
                    error.name,
                    error.engine_at,
                    error.related,
                )
            )
    facts = parser.facts
    if lex_error is not None:
        problems += [p for p in facts.problems if p.kind is not ProblemKind.SYNTAX]
    else:
        # Unknown names found before the syntax error come first, as Twig meets them first.
        problems = [*facts.problems, *problems]
    problems = [_at_unclosed_print(problem, source, tokens) for problem in problems]
    guarded = facts.guarded
    reads = tuple(NameRead(name, start, end, name in guarded) for name, start, end in facts.reads)
    parsed = Parsed(
        problems=tuple(problems),
        reads=reads,
        symbols=tuple(facts.symbols),
        bindings=tuple(sorted(facts.bindings, key=lambda binding: binding.start)),
    )
    return parsed, Prior(lexed, parser.trail())


def _at_unclosed_print(problem: Problem, source: str, tokens: Sequence[Token]) -> Problem:
    """A syntax error inside a `{{` left open, on a later line than it: Twig reads on into the
    text after it and stops at the first thing no expression holds (a `;` three lines down, a
    word), which is no place to look for the mistake. The problem is placed on the `{{` that
    opens it, saying so; `engine_at` keeps where Twig reports it."""
    if problem.kind is not ProblemKind.SYNTAX:
        return problem
    # The last `{{` or `}}` before the problem, read back from it (the tokens before an edit
    # are seldom made: twig/relex.py's `TokenRun`).
    opened: Token | None = None
    index = bisect_left(tokens, problem.start, key=lambda token: token.start)
    while index > 0:
        index -= 1
        token = tokens[index]
        if token.type is T.VAR_START:
            opened = token
            break
        if token.type is T.VAR_END:
            break
    if opened is None or "\n" not in source[opened.end : problem.start]:
        return problem
    found = source[problem.start : problem.end] or "the end of the template"
    return replace(
        problem,
        start=opened.start,
        end=opened.end,
        message=(
            f'Unclosed "{{{{": no "}}}}" closes this print, so Twig reads on and stops further '
            f"down, at {json.dumps(found, ensure_ascii=False)} ({problem.message})"
        ),
        engine_at=problem.start if problem.engine_at is None else problem.engine_at,
    )
