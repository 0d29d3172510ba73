"""How the editor answers (hover, code lens, inlay hints) say a count: one wording for all."""

from __future__ import annotations


def counted(count: int, noun: str) -> str:
    """`1 tool`, `3 tools`, `0 collisions`: the nouns counted here all take an `s`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
