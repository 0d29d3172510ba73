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

ARRAYS = ("nodes", "edges")


def draft_text(draft: dict[str, Any]) -> str:
    """The draft written one element per line (a value JSON cannot hold is written as null)."""
    lines = ["{"]
    members: list[str] = []
    for key, value in draft.items():
        if key in ARRAYS and isinstance(value, list):
            continue
        members.append(f"{_dumps(key)}: {_dumps(value)}")
    for key in ARRAYS:
        value = draft.get(key)
        if not isinstance(value, list):
            continue
        items = [_dumps(item) for item in value]
        if not items:
            members.append(f"{_dumps(key)}: []")
            continue
        body = ",\n".join(items)
        members.append(f"{_dumps(key)}: [\n{body}\n]")
    lines.append(",\n".join(members))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=lambda _v: None)


def changed_stretch(old: str, new: str) -> tuple[int, int, str] | None:
    """The one edit turning `old` into `new`, by whole lines: `(start, end, replacement)` in
    code points of `old`; None when they are the same."""
    if old == new:
        return None
    old_lines = old.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    limit = min(len(old_lines), len(new_lines))
    head = 0
    while head < limit and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while (
        tail < limit - head
        and old_lines[len(old_lines) - 1 - tail] == new_lines[len(new_lines) - 1 - tail]
    ):
        tail += 1
    start = sum(map(len, old_lines[:head]))
    end = len(old) - sum(map(len, old_lines[len(old_lines) - tail :]))
    replacement = "".join(new_lines[head : len(new_lines) - tail])
    return start, end, replacement


class Draft:
    """The last draft of one workflow, as the engine reads it (`text`), fed the next one as an
    edit (`apply`: a callable making an edit in the engine's text)."""

    def __init__(self, draft: dict[str, Any]) -> None:
        self.value = draft
        self.text = draft_text(draft)

    def update(self, draft: dict[str, Any], edit: Callable[[int, int, str], None]) -> bool:
        """Take the next draft: its changed lines given to `edit`. Whether anything changed."""
        if draft == self.value:
            return False
        text = draft_text(draft)
        stretch = changed_stretch(self.text, text)
        self.value, self.text = draft, text
        if stretch is None:
            return False
        edit(*stretch)
        return True
