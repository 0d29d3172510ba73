"""What parsing an expression tells, whatever its engine: the facts the rules (R11, undefined
names, lints) and the editor features (hover, completion, definition) read. Every offset is a
code-point index into the expression string itself (the value, after the document's quoting
and escapes are undone); the caller maps them into the document."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class ProblemKind(Enum):
    SYNTAX = "syntax"  # the engine's parser refuses it (unexpected token, unclosed block, …)
    UNKNOWN_FILTER = "unknown-filter"  # Twig: refused at compile
    UNKNOWN_FUNCTION = "unknown-function"  # Twig and ExpressionLanguage: refused at compile
    UNKNOWN_TEST = "unknown-test"  # Twig: refused at compile
    UNKNOWN_TAG = "unknown-tag"  # Twig: refused at compile


@dataclass(frozen=True, slots=True)
class Problem:
    """Why the engine refuses the expression, at `[start, end)` (an empty range is a point:
    where something is missing, e.g. the end of the string for an unclosed block)."""

    kind: ProblemKind
    start: int
    end: int
    message: str
    # The unknown name (UNKNOWN_*), for a "did you mean" from the caller's vocabulary.
    name: str | None = None
    # Where the engine itself reports it, when that is not `start`: an unclosed tag is placed
    # on the tag left open, Twig reports the template's end (its line is compared there).
    engine_at: int | None = None
    # Other places the problem involves, `(start, end, what it is)` in the expression: the tag
    # an end tag does not close, the block defined before. (Never a line number in `message`:
    # a template's lines are not the file's; the caller places these in the file.)
    related: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class NameRead:
    """A variable the expression reads from its context (not one it binds itself), at
    `[start, end)`: the name's own characters. `guarded` when the expression asks whether it
    exists or gives a fallback anywhere (Twig `is defined`, `|default`, `??`; ExpressionLanguage
    `??`), so a missing one is intended, never reported."""

    name: str
    start: int
    end: int
    guarded: bool = False


class SymbolKind(Enum):
    FILTER = "filter"
    FUNCTION = "function"
    TEST = "test"
    TAG = "tag"


@dataclass(frozen=True, slots=True)
class SymbolUse:
    """A filter, function, test or tag the expression calls, at its name's `[start, end)`
    (known or not: the unknown ones are also Problems)."""

    kind: SymbolKind
    name: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Binding:
    """A name the expression defines itself (Twig: `set`, a `for`'s key/value and its `loop`,
    a macro's arguments, `import`/`from` aliases, `with`), at `[start, end)` (the defining
    occurrence; `loop` points at the `for` keyword), visible over `[visible_from, visible_to)`."""

    name: str
    start: int
    end: int
    kind: str  # "set", "for", "loop", "macro", "import", "with", …
    visible_from: int
    visible_to: int


class Place(Enum):
    """What may be typed at an offset (completion)."""

    NAME = "name"  # a variable (or, where a call may start, a function)
    FILTER = "filter"  # after `|`
    TEST = "test"  # after `is` / `is not`
    TAG = "tag"  # after `{%`
    ATTRIBUTE = "attribute"  # after `.` (of `owner`)
    NONE = "none"  # text, a string literal, a number: nothing to offer


@dataclass(frozen=True, slots=True)
class CompletionPlace:
    """At an offset: what may be typed there and the partial word already typed `[start, end)`
    (empty at a fresh start), which a completion replaces."""

    place: Place
    start: int
    end: int
    owner: str | None = None  # ATTRIBUTE: the variable before the dot, when it is a plain name


@dataclass(frozen=True, slots=True)
class Parsed:
    """One expression, parsed. An expression with `problems` may still have reads and symbols
    (what was read before and around the error)."""

    problems: tuple[Problem, ...] = ()
    reads: tuple[NameRead, ...] = ()
    symbols: tuple[SymbolUse, ...] = ()
    bindings: tuple[Binding, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems
