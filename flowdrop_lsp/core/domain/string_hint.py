"""A node's string hint: a small Bloom filter of the strings in its `data` (its label and
metadata aside), so that "does this node hold a reference to that tool name?" is answered
"certainly not" without re-reading the node's text — for nearly every node, nearly always."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

_HINT_BITS = 512  # few strings per node: a false "maybe" for ≈1 % of the values asked about
_HINT_MASK = _HINT_BITS - 1
_NAME_MEMBERS = ("label", "metadata")  # names of the node, not references to other nodes


@lru_cache(maxsize=8)
def bits_of(values: frozenset[str]) -> int:
    """The mask of `values` (the same few sets are asked about for every node)."""
    bits = 0
    for value in values:
        bits |= 1 << (hash(value) & _HINT_MASK)
    return bits


class StringHint:
    """A node's string hint, made when first asked for (`bits`): only a possible reference
    makes anyone ask (CMP-9's fixes for a collision, a gateway's route), so a whole read of a
    large document does not walk every node's data for it. It holds the values of `data` the
    hint is made of (plain values, no way back to the node: no cycle to break)."""

    __slots__ = ("_values", "_bits")

    def __init__(self, data: dict[str, Any]) -> None:
        self._values: list[Any] | None = [v for k, v in data.items() if k not in _NAME_MEMBERS]
        self._bits: int | None = None

    def bits(self) -> int:
        """A bit mask of the hashes of the string values in `data` outside its label and
        metadata: a Bloom filter that answers "certainly not there" cheaply and exactly. A
        string's hash is fixed for the process's life, which is as long as the mask lives."""
        if self._bits is None:
            assert self._values is not None
            self._bits = _bits_of_values(self._values)
            self._values = None
        return self._bits


def _bits_of_values(stack: list[Any]) -> int:
    """The mask of every string in `stack`'s values, at any depth (`stack` is consumed)."""
    bits = 0
    while stack:
        value = stack.pop()
        kind = type(value)  # JSON values are exactly str, dict, list, int, float, bool, None
        if kind is str:
            bits |= 1 << (hash(value) & _HINT_MASK)
        elif kind is dict:
            stack.extend(value.values())
        elif kind is list:
            stack.extend(value)
    return bits
