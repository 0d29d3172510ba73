"""How messages name what a workflow holds: text cut short and control characters escaped, so
that one finding stays one line of output."""

from __future__ import annotations

import json

# Control characters in a message would break one-finding-per-line output: show them escaped.
_CONTROL_ESCAPES = {code: json.dumps(chr(code))[1:-1] for code in (*range(0x20), 0x7F)}


def short_text(text: str, limit: int = 60) -> str:
    """`text` for a message: cut to `limit` characters (a label may be megabytes long), with
    control characters shown as JSON escapes (`\\n`)."""
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return text.translate(_CONTROL_ESCAPES)


def id_text(node_id: str) -> str:
    """A node id for a message: whole (when two labels are equal the id is the only way to tell
    the nodes apart, and to grep for them), control characters shown as JSON escapes."""
    return node_id.translate(_CONTROL_ESCAPES)
