"""What an edit really changes: the stretch where the replaced text and its replacement differ.

Clients send a keystroke as they see fit. Most send the one character typed; some send the
whole line it was typed on (a line diff), or the whole text. On a minified document the line
is the whole document, and a keystroke sent that way would make the engine re-read everything.
Dropping what the replaced text and its replacement have in common, at both ends, turns such
an edit back into the keystroke it was: the text after it is the same, so is every finding.
"""

from __future__ import annotations

# How many code points the first comparison looks at; each one that matches doubles it, so a
# common stretch of n code points costs O(log n) C comparisons and copies of about 2n.
_FIRST_PROBE = 256


def common_prefix(old: str, new: str) -> int:
    """The length of the longest common prefix of `old` and `new`."""
    limit = min(len(old), len(new))
    low = 0  # old[:low] == new[:low]
    step = _FIRST_PROBE
    while low < limit:
        high = min(limit, low + step)
        if new.startswith(old[low:high], low):
            low = high
            step *= 2
            continue
        # The first difference is in [low, high): halve the stretch until it is one code point.
        while high - low > 1:
            middle = (low + high) // 2
            if new.startswith(old[low:middle], low):
                low = middle
            else:
                high = middle
        return low
    return low


def common_suffix(old: str, new: str, limit: int) -> int:
    """The length of the longest common suffix of `old` and `new`, at most `limit`."""
    limit = min(limit, len(old), len(new))
    old_end, new_end = len(old), len(new)
    low = 0  # the last `low` code points are equal
    step = _FIRST_PROBE
    while low < limit:
        high = min(limit, low + step)
        if new.endswith(old[old_end - high : old_end - low], 0, new_end - low):
            low = high
            step *= 2
            continue
        while high - low > 1:
            middle = (low + high) // 2
            if new.endswith(old[old_end - middle : old_end - low], 0, new_end - low):
                low = middle
            else:
                high = middle
        return low
    return low


def unchanged_ends(old: str, new: str) -> tuple[int, int]:
    """How many code points at the start and at the end of `old` its replacement `new` leaves
    as they are (the two never overlap: together at most the shorter of the two)."""
    if not old or not new:
        return 0, 0
    prefix = common_prefix(old, new)
    return prefix, common_suffix(old, new, min(len(old), len(new)) - prefix)
