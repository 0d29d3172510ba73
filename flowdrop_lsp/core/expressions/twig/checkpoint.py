"""A keystroke in a template is no new parse of what precedes it: the parse before it, resumed
from the last node of the template's top level that the edit left alone.

A print being typed inside a 200-line prompt (`{{ l`, `default(` …) leaves the template broken
until its `}}`; the parser stops at the first error, right after the keystroke, but read every
tag before it first. The tokens before the last tag that ends before the edit are the old
lexing's (`Lexed.unchanged_tokens`, twig/relex.py), so the parser's state at each node of the
top level before them is the old parse's. `CheckpointedParser` notes where each top-level node
starts (`ParseTrail.boundaries`) and keeps a copy of its state at one of them (`Checkpoint`):
the last one before the edit it was parsed for, the one the next keystroke, typed beside it,
resumes from. A nested body (an `if`'s) is no place to resume: the whole top-level tag around
the edit is parsed again.

The parser's state before a token depends on the tokens before it and on the template's
length alone (a `set` or `import` binding is visible "to the end": `visible_to` is the length):
a binding kept to the old end is moved to the new one. The answer equals a whole parse's:
tests/core/expressions/test_twig_checkpoint.py compares them on typed and random edits.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace
from typing import Any

from flowdrop_lsp.core.expressions.twig.expressions import Facts
from flowdrop_lsp.core.expressions.twig.lexer import Tokens
from flowdrop_lsp.core.expressions.twig.parser import Body, TemplateParser
from flowdrop_lsp.core.expressions.twig.relex import Lexed
from flowdrop_lsp.core.expressions.twig.vocabulary import TwigVocabulary

# The parser's attributes that are not its state at a point of the template: what it reads,
# and what this module adds.
_NOT_STATE = frozenset({"source", "tokens", "vocabulary", "boundaries", "keep_at", "kept"})
_IMMUTABLE = (bool, int, str, tuple, frozenset, type(None))


@dataclass(frozen=True)
class Checkpoint:
    """The parser's state before token `at` of the top level: its attributes (each copied),
    the top-level nodes before it, and where the top-level nodes before it start."""

    at: int
    source_length: int
    state: tuple[tuple[str, Any], ...]
    body: tuple[Body, ...]
    boundaries: tuple[int, ...]


@dataclass(frozen=True)
class ParseTrail:
    """What a parse leaves for the next keystroke's: where its top-level nodes start (as far
    as it read), and its state at one of them."""

    boundaries: tuple[int, ...]
    checkpoint: Checkpoint | None

    def plan(self, unchanged_tokens: int) -> tuple[Checkpoint | None, int | None]:
        """For a template whose first `unchanged_tokens` tokens are this parse's: the
        checkpoint to resume from (None: from the start), and the token to keep the next one
        at (the last top-level node's start among those tokens)."""
        index = bisect_right(self.boundaries, unchanged_tokens) - 1
        keep_at = self.boundaries[index] if index >= 0 else None
        checkpoint = self.checkpoint
        if checkpoint is not None and checkpoint.at > unchanged_tokens:
            checkpoint = None
        return checkpoint, keep_at


@dataclass(frozen=True)
class Prior:
    """A template parsed lately, as the next keystroke's parse starts from it: its lexing and
    its parse's trail."""

    lexed: Lexed
    trail: ParseTrail


class CheckpointedParser(TemplateParser):
    """A template parser that notes its top level's boundaries, keeps its state at `keep_at`,
    and can start from a kept state."""

    def __init__(
        self, source: str, tokens: Tokens, vocabulary: TwigVocabulary, keep_at: int | None
    ) -> None:
        super().__init__(source, tokens, vocabulary)
        self.boundaries: list[int] = []
        self.keep_at = keep_at
        self.kept: Checkpoint | None = None

    def parse_from(self, checkpoint: Checkpoint | None) -> None:
        """The template, from `checkpoint` when given (its tokens before it are the ones it
        was kept from), else from the start."""
        if checkpoint is None:
            self.parse_template()
            return
        for name, value in checkpoint.state:
            setattr(self, name, _copied(value))
        if checkpoint.source_length != len(self.source):
            self.facts.bindings = [
                replace(binding, visible_to=len(self.source))
                if binding.visible_to == checkpoint.source_length
                else binding
                for binding in self.facts.bindings
            ]
        self.boundaries = list(checkpoint.boundaries)
        if checkpoint.at == self.keep_at:
            self.kept = checkpoint  # the same state: kept as it is
        self.parse_template(list(checkpoint.body))

    def at_top_level(self, body: list[Body]) -> None:
        if self.at == self.keep_at and self.kept is None:
            state = tuple(
                (name, _copied(value))
                for name, value in vars(self).items()
                if name not in _NOT_STATE
            )
            self.kept = Checkpoint(
                self.at, len(self.source), state, tuple(body), tuple(self.boundaries)
            )
        self.boundaries.append(self.at)

    def trail(self) -> ParseTrail:
        return ParseTrail(tuple(self.boundaries), self.kept)


def _copied(value: Any) -> Any:
    """A copy of a state attribute: containers of values never changed in place (tokens,
    bindings, problems, nodes whose parse is over)."""
    if isinstance(value, Facts):
        return Facts(
            list(value.problems),
            list(value.reads),
            set(value.guarded),
            list(value.symbols),
            list(value.bindings),
        )
    if isinstance(value, list):
        return list(value)
    if isinstance(value, set):
        return set(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, _IMMUTABLE):
        return value
    raise TypeError(f"no copy of the parser's state {value!r}: say how to keep it")
