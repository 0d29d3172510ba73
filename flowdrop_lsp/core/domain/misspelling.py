"""Which known names a misspelt one may mean: for a "did you mean" and the fix writing it.

A ratio of likeness (difflib's) will not do for a site's ids: `…_specialist_shpae` is as like
`…_specialist_colour` as `…_specialist_shape` by the words they share. A misspelling is a few
letters typed, dropped, changed or swapped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

# The most typos a misspelt name is taken to have (fewer for a short name: one per 5 letters).
MAX_TYPOS = 3


def close_names(name: str, known: Iterable[str]) -> list[str]:
    """The names of `known` a misspelling of `name` may mean, closest first (at most 3)."""
    allowed = min(MAX_TYPOS, max(1, len(name) // 5))
    found = []
    for candidate in known:
        if candidate != name and abs(len(candidate) - len(name)) <= allowed:
            distance = typo_distance(name, candidate)
            if distance <= allowed:
                found.append((distance, candidate))
    return [candidate for _distance, candidate in sorted(found)[:3]]


def either(quoted: Sequence[str]) -> str:
    """Names offered for a misspelt one, already quoted as the message quotes them, joined
    as a sentence says them: `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`."""
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


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
