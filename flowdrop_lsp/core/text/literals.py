"""The string literal every fix writes: a JSON string literal, format-neutral by design.

Rules and editor features write a new string value as a JSON literal over the old value's span;
the reader of a format that quotes differently rewrites it (syntax/yaml/writer.py). JSON's escapes
are YAML double-quoted escapes, so the literal is valid in both before any rewriting."""

from __future__ import annotations

import json
import re

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_string(value: str) -> str:
    """`value` as a JSON string literal; non-ASCII stays readable, but a lone surrogate (from a
    `\\ud83d` escape typed half-way) stays an escape, since it cannot be written as UTF-8."""
    encoded = json.dumps(value, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)


def json_text(value: object, indent: str | None = None) -> str:
    """Any JSON value written as `json.dumps` writes it (one line, or indented by `indent`),
    a lone surrogate inside its strings kept an escape as in `json_string`. Raises ValueError
    or TypeError for what JSON cannot hold (NaN, a set)."""
    encoded = json.dumps(value, ensure_ascii=False, allow_nan=False, indent=indent)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)
