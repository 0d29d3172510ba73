"""Which known names a misspelt one may mean, and how a message offers them: the package's one
"did you mean".

Two ways of being close, for two kinds of name:

- `close_names`: a misspelling is a few letters typed, dropped, changed or swapped (the optimal
  string alignment distance). A ratio of likeness will not do for a site's ids:
  `…_specialist_shpae` is as like `…_specialist_colour` as `…_specialist_shape` by the words
  they share. Ids of workflows and node types, ports of a contract, keys of a definition.
- `alike_names` and `likeness`: difflib's ratio of likeness, for short vocabularies where a
  name may be spelt quite otherwise and still be meant (an expression's names and filters, a
  config key written in another case, an engine, a tool name), with a cutoff each caller tunes
  and its tests pin.

Whatever found them, a message offers them one way: `did_you_mean`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

# The most typos a misspelt name is taken to have (fewer for a short name: one per 5 letters).
MAX_TYPOS = 3
# How many names a "did you mean" offers at most.
MAX_OFFERED = 3


def close_names(name: str, known: Iterable[str]) -> list[str]:
    """The names of `known` a misspelling of `name` may mean, closest first (at most 3)."""
    allowed = min(MAX_TYPOS, max(1, len(name) // 5))
    found = []
    for candidate in known:
        if candidate != name and abs(len(candidate) - len(name)) <= allowed:
            distance = typo_distance(name, candidate)
            if distance <= allowed:
                found.append((distance, candidate))
    return [candidate for _distance, candidate in sorted(found)[:MAX_OFFERED]]


def typo_distance(a: str, b: str) -> int:
    """The fewest letters typed, dropped, changed or swapped (two neighbours) making `a` into
    `b` (the optimal string alignment distance)."""
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, letter in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, other in enumerate(b, 1):
            cost = letter != other
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and letter == b[j - 2] and a[i - 2] == other:
                current[j] = min(current[j], before[j - 2] + 1)
        before, previous = previous, current
    return previous[len(b)]


def alike_names(
    name: str, known: Iterable[str], *, cutoff: float, limit: int = MAX_OFFERED
) -> list[str]:
    """The names of `known` at least `cutoff` alike to `name` (`likeness`), most alike first,
    ties by name (last first, as difflib orders them); at most `limit`."""
    return difflib.get_close_matches(name, list(known), n=limit, cutoff=cutoff)


def likeness(a: str, b: str) -> float:
    """How alike two names are, from 0 to 1 (difflib's ratio: twice the letters they share in
    order over the letters of both)."""
    return difflib.SequenceMatcher(None, a, b).ratio()


def either(quoted: Sequence[str]) -> str:
    """Names offered for a misspelt one, already quoted as the message quotes them, joined
    as a sentence says them: `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`."""
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def quoted(names: Iterable[str]) -> list[str]:
    """Names as messages quote them: `'a'`."""
    return [f"'{name}'" for name in names]


def did_you_mean(quoted: Sequence[str]) -> str:
    """The question every message asks of names offered (already quoted as it quotes them):
    `did you mean 'a', 'b' or 'c'?`. The message puts it in its own punctuation (after a
    `;`, or in parentheses)."""
    return f"did you mean {either(quoted)}?"
