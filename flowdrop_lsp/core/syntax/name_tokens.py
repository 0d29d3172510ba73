"""A name written at the end of a token, rewritten in place: only the name's characters change,
the token's prefix (a handle's `node-input-`, an executor plugin's `…:flowdrop_workflow:`) and
its quotes stay as written.

Format-neutral on purpose: a plain name (`PLAIN_NAME`) reads the same in any quoting of JSON and
YAML, as a key or as a value, so writing one in place of another needs no reader. The reader
seam's `write_key` / `write_value` (core/syntax/reader.py) write a whole token in its format; a
fix renaming the name inside a handle, or leaving a key's quoting exactly as written, writes
through here.
"""

from __future__ import annotations

import re

from flowdrop_lsp.core.text.positions import Span

# A port name written as is in any quoting, in a handle and as a YAML key alike.
PLAIN_NAME = re.compile(r"^[A-Za-z0-9_]+$")


def written_last(text: str, span: Span, name: str) -> Span | None:
    """Where `name` is written as the last characters of the token at `span` (before a closing
    quote, if any): what a fix replacing a misspelt name rewrites, leaving the token's prefix
    and quoting as written. None when it is not written so (an escaped spelling is left to the
    user)."""
    raw = text[span.start : span.end]
    at = raw.rfind(name)
    if at < 0 or raw[at + len(name) :] not in ("", "'", '"'):
        return None
    return Span(span.start + at, span.start + at + len(name))


def name_rewrite(text: str, token: Span, old: str, new: str, *, whole: bool = False) -> Span | None:
    """Where to write `new` in place of `old`, the name the token at `token` ends with (before a
    closing quote): the span of `old`'s characters. None when `old` is not written so (an
    escaped spelling), when `new` is no plain name (it might not read as itself there), or, with
    `whole`, when the token is more than the name in its quotes."""
    where = written_last(text, token, old)
    if where is None or (whole and text[token.start : where.start] not in ("", "'", '"')):
        return None
    return where if PLAIN_NAME.match(new) else None
