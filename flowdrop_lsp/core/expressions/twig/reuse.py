"""A keystroke in a template's text is no new parse: the facts of the template before it, moved.

Typing prose into a 200-line prompt template changes one TEXT token; what Twig makes of the
template (its problems, reads, calls, bindings) is the same, every offset after the keystroke
moved by what it added. `Reuse` keeps the last few templates parsed with the TEXT stretches
their lexer saw, and answers a new text from one of them when the two differ in one stretch
strictly inside one of those TEXT tokens and nothing there can start a tag (no `{` in the new
characters or beside them: `{{`, `{%`, `{#` all start with one). Anything else is parsed
again, its lexing re-read from the nearest template's (twig/relex.py: a print being typed) and
its parse resumed from that one's where the edit left it alone (twig/checkpoint.py).
The answer equals a whole parse's (tests/core/expressions/test_twig_reuse.py compares them on
random edits).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace

from flowdrop_lsp.core.expressions.base import Parsed
from flowdrop_lsp.core.expressions.twig.checkpoint import Prior
from flowdrop_lsp.core.expressions.twig.relex import TextStretches, edited_stretch

# A template parsed from its text and, when known, a template like it to re-lex and parse from
# (twig/checkpoint.py): its facts and what the next one starts from.
Parse = Callable[[str, Prior | None], tuple[Parsed, Prior]]
KEPT = 8  # templates remembered: the ones being typed into, a few at a time
# How much may differ between a template and the one it is re-lexed from (a keystroke, a word
# pasted): beyond it a whole lexing costs no more.
RELEX_REACH = 64


class Reuse:
    """The last templates parsed (per vocabulary: one `Reuse` each), and their TEXT stretches."""

    def __init__(self) -> None:
        # Each template's facts, the stretches its lexer read as text, and its lexing and
        # parse's trail (None when its facts were moved from another's: it was not parsed).
        self._recent: OrderedDict[str, tuple[Parsed, TextStretches, Prior | None]] = OrderedDict()
        self._lock = threading.Lock()

    def parse(self, source: str, parse: Parse) -> Parsed:
        with self._lock:
            known = self._recent.get(source)
            candidates = list(reversed(self._recent.items())) if known is None else []
        if known is not None:
            return known[0]
        near: Prior | None = None  # the latest template `source` may be re-lexed from
        for old, (parsed, stretches, prior) in candidates:
            if abs(len(source) - len(old)) > RELEX_REACH:
                continue  # a paste, not a keystroke
            stretch = edited_stretch(old, source)
            moved = _moved(old, parsed, stretches, source, stretch)
            if moved is not None:
                self._keep(source, (*moved, None))
                return moved[0]
            if prior is not None and _near(stretch):
                # The latest version of the template being typed into: an older one differs
                # from `source` by this edit and more, moved no better.
                near = prior
                break
        parsed, prior = parse(source, near)
        self._keep(source, (parsed, prior.lexed.text_stretches, prior))
        return parsed

    def _keep(self, source: str, result: tuple[Parsed, TextStretches, Prior | None]) -> None:
        with self._lock:
            self._recent[source] = result
            self._recent.move_to_end(source)
            while len(self._recent) > KEPT:
                self._recent.popitem(last=False)


def _near(stretch: tuple[int, int, int]) -> bool:
    """Whether the edited stretch between two templates (`edited_stretch`) is at most
    `RELEX_REACH` characters long: re-lexing the new one from the old one's lexing pays."""
    start, old_end, new_end = stretch
    return max(old_end, new_end) - start <= RELEX_REACH


def _moved(
    old: str,
    parsed: Parsed,
    stretches: TextStretches,
    new: str,
    stretch: tuple[int, int, int],
) -> tuple[Parsed, TextStretches] | None:
    """`parsed` moved to `new`, when `new` differs from `old` (by `stretch`, `edited_stretch`)
    inside one TEXT stretch only."""
    start, old_end, new_end = stretch
    inside = any(a < start and old_end < b for a, b in stretches)
    if not inside:
        return None
    if "{" in new[max(start - 1, 0) : new_end + 1]:
        return None  # it could start a tag
    added = new[start:new_end]
    removed = old[start:old_end]
    if parsed.problems and ("\n" in added or "\n" in removed or "\r" in added or "\r" in removed):
        return None  # a problem's message may count lines
    delta = len(new) - len(old)

    def at(offset: int) -> int:
        return offset + delta if offset >= old_end else min(offset, start)

    return (
        Parsed(
            problems=tuple(
                replace(
                    p,
                    start=at(p.start),
                    end=at(p.end),
                    engine_at=None if p.engine_at is None else at(p.engine_at),
                    related=tuple((at(a), at(b), said) for a, b, said in p.related),
                )
                for p in parsed.problems
            ),
            reads=tuple(replace(r, start=at(r.start), end=at(r.end)) for r in parsed.reads),
            symbols=tuple(replace(s, start=at(s.start), end=at(s.end)) for s in parsed.symbols),
            bindings=tuple(
                replace(
                    b,
                    start=at(b.start),
                    end=at(b.end),
                    visible_from=at(b.visible_from),
                    visible_to=at(b.visible_to),
                )
                for b in parsed.bindings
            ),
        ),
        tuple((a + delta if a > start else a, b + delta if b > start else b) for a, b in stretches),
    )
