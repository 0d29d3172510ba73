"""How a JSON string token decodes: its escapes, and the raw control characters strict JSON
refuses (and PHP's json_decode, the FlowDrop runtime, with it), each with its message."""

from __future__ import annotations

import json
import re
from typing import Any

_ESCAPE = re.compile(r'\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt])|(.?))', re.S)
_SIMPLE_ESCAPES = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
# Strict JSON (and PHP's json_decode, the runtime) refuses a raw U+0000–U+001F in a string; the
# parser's `l` string token accepts them (so that the string is still read) and `_Parser.string`
# reports each one, found with this.
CONTROL_CHARACTER = re.compile(r"[\x00-\x1f]")
_CONTROL_NAMES = {
    0x00: "null",
    0x08: "backspace",
    0x09: "tab",
    0x0A: "line feed",
    0x0C: "form feed",
    0x0D: "carriage return",
}
_STRICT_DECODER = json.JSONDecoder()


def control_character_message(char: str) -> str:
    """`control character U+0009 (tab) in a string must be escaped as \\t`."""
    code = ord(char)
    name = f" ({_CONTROL_NAMES[code]})" if code in _CONTROL_NAMES else ""
    escape = json.dumps(char)[1:-1]
    return f"control character U+{code:04X}{name} in a string must be escaped as {escape}"


def _shown(char: str) -> str:
    """A character for a message: control characters as their JSON escape."""
    return json.dumps(char)[1:-1] if char and ord(char) < 0x20 else char


def decode_string_token(raw: str) -> tuple[str, str | None]:
    """The value of a string token (with or without its closing quote) and an error, if any."""
    body = raw[1:-1] if len(raw) >= 2 and raw.endswith('"') and not ends_in_escape(raw) else raw[1:]
    if "\\" not in body:
        return body, None
    try:
        return _STRICT_DECODER.decode('"' + body + '"'), None
    except ValueError:
        pass
    problem: list[str] = []

    def replace(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return chr(int(match.group(1), 16))
        if match.group(2) is not None:
            return _SIMPLE_ESCAPES[match.group(2)]
        problem.append(f"invalid escape '\\{_shown(match.group(3))}' in string")
        return match.group(3)

    value = _ESCAPE.sub(replace, body)
    return value, (problem[0] if problem else None)


def ends_in_escape(raw: str) -> bool:
    """True when the final quote of `raw` is escaped (`"abc\\"` is unterminated)."""
    backslashes = len(raw) - 1 - len(raw[:-1].rstrip("\\"))
    return backslashes % 2 == 1


SPELLED_LENGTH = 40  # characters of a string value shown in a message


def spell_json(value: Any) -> str:
    """A Python value (read from a document) as JSON writes it, for a message: `null`, `true`,
    `"x"` (a long string cut, with "…"), an object or array abbreviated as `{…}`, `[…]`."""
    if isinstance(value, dict):
        return "{…}" if value else "{}"
    if isinstance(value, list):
        return "[…]" if value else "[]"
    if isinstance(value, str) and len(value) > SPELLED_LENGTH:
        value = value[: SPELLED_LENGTH - 1] + "…"
    try:
        return json.dumps(value, ensure_ascii=False)
    except ValueError:  # a float that is not JSON's (NaN); never read from JSON
        return str(value)
