"""Where each character of a JSON string value is written in the text: escapes undone.

A finding inside a string (a misspelt filter at character 17 of a template) is placed on the
character that writes it: `\\n`, `\\"` and `\\u00e9` are each one character of the value written
from their backslash; a surrogate pair of escapes (`\\ud83d\\ude00`) writes one code point, placed
at its first escape. Offsets are code points (Python string indexes), as every span.
"""

from __future__ import annotations

import re

from flowdrop_lsp.core.syntax.tree import JString

_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX = frozenset("0123456789abcdefABCDEF")
# A stretch of characters written as themselves: they map one to one, in a single step (a
# 200-line template is mostly such stretches between its `\n`s).
_PLAIN = re.compile(r'[^"\\]+')


def json_string_offsets(text: str, value: JString) -> tuple[int, ...] | None:
    """For each character of `value` (a string token read from `text`) the offset in `text` of
    what writes it (the character itself, or the backslash of its escape), then the offset of
    the closing quote (or the token's end, unterminated). None when the token does not decode to
    `value` here (it is no string token of `text`): the caller anchors on the whole string."""
    start, end = value.start, value.end
    if not (0 <= start < end <= len(text)) or text[start] != '"':
        return None
    expected = value.value
    offsets: list[int] = []
    decoded: list[str] = []
    at = start + 1
    while at < end:
        plain = _PLAIN.match(text, at, end)
        if plain is not None:
            decoded.append(plain.group())
            offsets.extend(range(at, plain.end()))
            at = plain.end()
            continue
        if text[at] == '"':
            break
        escape = text[at + 1 : at + 2]
        if escape == "u" and _is_hex(text, at + 2, 4, end):
            code = int(text[at + 2 : at + 6], 16)
            length = 6
            # A high surrogate followed by an escaped low one writes one code point, when the
            # value read it so (a token with an invalid escape elsewhere is read without joins).
            if (
                0xD800 <= code < 0xDC00
                and text.startswith("\\u", at + 6)
                and _is_hex(text, at + 8, 4, end)
            ):
                low = int(text[at + 8 : at + 12], 16)
                joined = chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
                written = len(offsets)
                if 0xDC00 <= low < 0xE000 and expected[written : written + 1] == joined:
                    code, length = ord(joined), 12
            decoded.append(chr(code))
            offsets.append(at)
            at += length
            continue
        # A simple escape, or an invalid one (`\q`: the tolerant parser reads its character).
        decoded.append(_SIMPLE.get(escape, escape))
        offsets.append(at)
        at += 1 + len(escape)
    if "".join(decoded) != expected:
        return None
    offsets.append(at)
    return tuple(offsets)


def _is_hex(text: str, at: int, count: int, end: int) -> bool:
    return at + count <= end and all(char in _HEX for char in text[at : at + count])
