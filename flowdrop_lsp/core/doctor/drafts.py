"""A draft the editor posts, kept as a text the incremental engine reads: one line per node and
edge, so that the next draft of the same workflow reaches the engine as the few lines whose
values changed (the editor posts the whole draft 800 ms after every edit).

The text is the draft's own JSON: its top-level members first (one per line), then `nodes` and
`edges` with one element per line. Two drafts are compared line by line: what both share at
their ends is kept, the rest is one edit (a node moved, a label typed: one line)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flowdrop_lsp.core.text.changes import unchanged_ends

ARRAYS = ("nodes", "edges")


def draft_text(draft: dict[str, Any], kept: dict[str, list[tuple[Any, str]]] | None = None) -> str:
    """The draft written one element per line (a value JSON cannot hold is written as null).
    `kept`: each array's elements and their lines as last written, reused where the element at
    that place is equal (a 10,000-node draft re-dumps only what changed); filled anew."""
    members: list[str] = []
    for key, value in draft.items():
        if key in ARRAYS and isinstance(value, list):
            continue
        members.append(f"{_dumps(key)}: {_dumps(value)}")
    for key in ARRAYS:
        value = draft.get(key)
        if not isinstance(value, list):
            continue
        before = kept.get(key, []) if kept is not None else []
        written: list[tuple[Any, str]] = []
        for index, item in enumerate(value):
            if index < len(before) and before[index][0] == item:
                written.append(before[index])
            else:
                written.append((item, _dumps(item)))
        if kept is not None:
            kept[key] = written
        if not written:
            members.append(f"{_dumps(key)}: []")
            continue
        body = ",\n".join(line for _item, line in written)
        members.append(f"{_dumps(key)}: [\n{body}\n]")
    return "{\n" + ",\n".join(members) + "\n}\n"


def _dumps(value: Any) -> str:
    # Compact, as the editor sends it: STORE-1's 8 MiB door judges this text, and a body just
    # under the bound must not pass it only once written with spaces after `,` and `:`.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=lambda _v: None)


def changed_stretch(old: str, new: str) -> tuple[int, int, str] | None:
    """The one edit turning `old` into `new`: `(start, end, replacement)` in code points of
    `old`, what both share at their ends left out; None when they are the same."""
    if old == new:
        return None
    prefix, suffix = unchanged_ends(old, new)
    return prefix, len(old) - suffix, new[prefix : len(new) - suffix]


# What the editor keeps of a node or an edge for drawing it: no rule reads it (FD-SCHEMA judges
# a node's `position` in the draft's own findings, which are always current), so a change of it
# alone changes nothing the draft's site knows.
GEOMETRY = frozenset(
    {"position", "positionAbsolute", "measured", "width", "height", "selected", "dragging"}
)


def _drawn_only(old: Any, new: Any) -> bool:
    """Whether two elements differ only in how they are drawn (`GEOMETRY`)."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return False
    keys = (old.keys() | new.keys()) - GEOMETRY
    return all(old.get(key, _ABSENT) == new.get(key, _ABSENT) for key in keys)


_ABSENT = object()


class Draft:
    """The last draft of one workflow, as the engine reads it (`text`), fed the next one as an
    edit (`update`: a callable making an edit in the engine's text)."""

    def __init__(self, draft: dict[str, Any]) -> None:
        self.value = draft
        self._lines: dict[str, list[tuple[Any, str]]] = {}
        self.text = draft_text(draft, self._lines)

    def update(self, draft: dict[str, Any], edit: Callable[[int, int, str], None]) -> bool:
        """Take the next draft: its changed lines given to `edit`. Whether anything but how
        elements are drawn changed (`GEOMETRY`): what its site would have to read again."""
        old_value, old_lines = self.value, {k: list(v) for k, v in self._lines.items()}
        text = draft_text(draft, self._lines)
        stretch = changed_stretch(self.text, text)
        self.value, self.text = draft, text
        if stretch is None:
            return False
        edit(*stretch)
        return not _only_drawing_changed(old_value, draft, old_lines, self._lines)


def _only_drawing_changed(
    old: dict[str, Any],
    new: dict[str, Any],
    old_lines: dict[str, list[tuple[Any, str]]],
    new_lines: dict[str, list[tuple[Any, str]]],
) -> bool:
    if {k: v for k, v in old.items() if k not in ARRAYS} != {
        k: v for k, v in new.items() if k not in ARRAYS
    }:
        return False
    for key in ARRAYS:
        before, after = old_lines.get(key, []), new_lines.get(key, [])
        if len(before) != len(after):
            return False
        for (old_item, old_line), (new_item, new_line) in zip(before, after, strict=True):
            if old_line is not new_line and not _drawn_only(old_item, new_item):
                return False
    return True
