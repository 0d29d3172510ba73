"""A plain YAML scalar's value as Drupal reads it: Symfony YAML's rules, not YAML 1.1's.

Drupal reads config YAML with Symfony's parser (`Drupal\\Component\\Serialization\\YamlSymfony`,
flags `PARSE_EXCEPTION_ON_INVALID_TYPE | PARSE_CUSTOM_TAGS`), whose plain scalars follow
`Symfony\\Component\\Yaml\\Inline::evaluateScalar`, not the YAML 1.1 resolver PyYAML applies:
`yes`, `no`, `on`, `off` and `12:30` are strings; `TRUE`, `tRuE`, `Null`, `~` and the empty
scalar are what their lower case says; `1e3` and `+1` are floats, `0o17` and `0x1F` integers,
`1_000` 1000; a date (`2026-01-01`, with an optional time and offset) is its Unix time, an
integer. PyYAML composes the document (positions, errors); only the resolution of plain
scalars is taken from here, so every rule sees the values Drupal sees.

The rules are those of Symfony 6.4 and 7 (Drupal 10.3 and 11). Symfony 5.4, which Debian
ships and the tests run as their oracle, differs in one place: a digit string with a leading
zero and only octal digits (`0755`) is an octal integer there, a string since 6.0.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import yaml

from flowdrop_lsp.core.syntax.tree import JLiteral, JNumber, JsonValue, JString, SyntaxProblem

PlainValue = str | int | float | bool | None

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_CORE}{name}" for name in ("int", "float", "bool", "null")}
_CONSTRUCTOR = yaml.constructor.SafeConstructor()

_PHP_INT_MAX = 2**63 - 1
_PHP_INT_MIN = -(2**63)
_OCTAL = re.compile(r"[+-]?0o([0-7_]+)")
_INTEGER_WITH_UNDERSCORES = re.compile(r"[+-]?[0-9][0-9_]*")
_HEX = re.compile(r"0x[0-9a-f_]+", re.IGNORECASE)
_DECIMAL_WITH_UNDERSCORES = re.compile(r"[-+]?[0-9][0-9_]*(?:\.[0-9_]+)?")
# PHP's is_numeric on a trimmed string: an optional sign, digits with an optional fraction (or
# a fraction alone), an optional exponent. (No hex, no underscores, no inf/nan.)
_PHP_NUMERIC = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_TIMESTAMP = re.compile(
    r"(?P<year>[0-9]{4})-(?P<month>[0-9]{1,2})-(?P<day>[0-9]{1,2})"
    r"(?:(?:[Tt]|[ \t]+)(?P<hour>[0-9]{1,2}):(?P<minute>[0-9]{2}):(?P<second>[0-9]{2})"
    r"(?:\.(?P<fraction>[0-9]*))?"
    r"(?:[ \t]*(?P<tz>Z|(?P<tz_sign>[-+])(?P<tz_hour>[0-9]{1,2})(?::(?P<tz_minute>[0-9]{2}))?))?)?"
)
# What PHP's trim() strips (Symfony trims a scalar before reading it).
_PHP_TRIM = " \t\n\r\0\x0b"
# The first characters after which a plain scalar may be something other than a string: the
# number branch (`+ - .` and digits), `~`, and the words null/true/false (n, t, f).
MAY_NOT_BE_STRING = frozenset("+-.0123456789~nNtTfF")


class InvalidDate(ValueError):
    """A plain scalar shaped like a date that is no date (`2026-13-01`): Symfony refuses the
    document ("The date … could not be parsed as it is an invalid date")."""


def is_plain_string(text: str) -> bool:
    """Whether Drupal reads the plain scalar `text` as the string `text` itself (not `1_0`,
    read as `10`). Fast: most plain scalars start with a letter no other reading begins with."""
    if not text:
        return False
    if text[0] not in MAY_NOT_BE_STRING and text[0] not in _PHP_TRIM:
        return True
    try:
        return plain_value(text) == text
    except InvalidDate:
        return False


def plain_value(text: str) -> PlainValue:
    """The value of the plain scalar `text` (PyYAML's folded value) as Symfony evaluates it.
    Raises `InvalidDate` for a date Symfony refuses."""
    scalar = text.strip(_PHP_TRIM)
    lower = scalar.lower()
    if lower == "null" or scalar in ("", "~"):
        return None
    if lower == "true":
        return True
    if lower == "false":
        return False
    octal = _OCTAL.fullmatch(scalar)
    if octal is not None:
        digits = octal.group(1).replace("_", "")
        number = int(digits, 8) if digits else 0
        return -number if scalar[0] == "-" else number
    if scalar[0] not in "+-.0123456789":
        return scalar
    return _number_or_date(scalar, lower)


def tagged_node(node: yaml.ScalarNode, start: int, end: int) -> JsonValue:
    """A scalar with an explicit tag (`!!int 12`, `!!str on`): a core tag's value as PyYAML
    constructs it, anything else its text."""
    if node.tag not in _SCALAR_TAGS:
        return JString(start, end, node.value)
    try:
        value = _CONSTRUCTOR.construct_object(node)
    except (yaml.YAMLError, ValueError):
        return JString(start, end, node.value)
    if value is None or isinstance(value, bool):
        return JLiteral(start, end, value)
    return JNumber(start, end, repr(value) if isinstance(value, float) else str(value))


def plain_node(text: str, start: int, end: int) -> tuple[JsonValue, SyntaxProblem | None]:
    """The plain scalar `text` at `[start, end)` as a syntax-tree value (`on` a string, `TRUE`
    a boolean, `1e3` a number, a date its Unix time), and the problem of a date Symfony
    refuses (then the value is the text, so that the rest of the document is still read)."""
    try:
        value = plain_value(text)
    except InvalidDate:
        problem = SyntaxProblem(
            "invalid-date",
            f"'{text[:40]}' is read as a date, and is no date: Drupal's YAML parser refuses the "
            "file (quote it to keep it a string)",
            start,
            end,
        )
        return JString(start, end, text), problem
    if isinstance(value, str):
        return JString(start, end, value), None
    if value is None or isinstance(value, bool):
        return JLiteral(start, end, value), None
    return JNumber(start, end, repr(value) if isinstance(value, float) else str(value)), None


def _number_or_date(scalar: str, lower: str) -> PlainValue:
    if _INTEGER_WITH_UNDERSCORES.fullmatch(scalar):
        scalar = scalar.replace("_", "")
    digits = scalar[1:] if scalar[0] == "-" else scalar
    if digits.isascii() and digits.isdigit():
        # An integer only when it reads back as itself (no leading zero, no `-0`, within
        # PHP's int): `(string) (int) $scalar === $scalar`.
        number = int(scalar)
        in_range = _PHP_INT_MIN <= number <= _PHP_INT_MAX
        return number if in_range and str(number) == scalar else scalar
    if _PHP_NUMERIC.fullmatch(scalar):
        return float(scalar)
    if _HEX.fullmatch(scalar):
        if scalar[1] == "X":
            return 0.0  # (sic: only `0x` is hexadecimal to Symfony; `(float) "0X1F"` is 0)
        hex_digits = scalar[2:].replace("_", "")
        number = int(hex_digits, 16) if hex_digits else 0
        # PHP's hexdec gives a float past PHP_INT_MAX.
        return number if number <= _PHP_INT_MAX else float(number)
    if lower in (".inf", ".nan"):
        return float("inf")  # (sic: Symfony reads `.nan` as INF, `-log(0)`)
    if lower == "-.inf":
        return float("-inf")
    if _DECIMAL_WITH_UNDERSCORES.fullmatch(scalar):
        return float(scalar.replace("_", ""))
    date = _TIMESTAMP.fullmatch(scalar)
    if date is not None:
        return _unix_time(date)
    return scalar


def _unix_time(date: re.Match[str]) -> int:
    """The Unix time PHP's `new DateTime($scalar, UTC)` gives. PHP rolls over what lies past
    a field's end (`2026-02-30` is 2 March, month 0 and day 0 the one before the first, hour
    24 and second 60 the next day or minute) and refuses a month past 12, a day past 31, a
    minute past 59 (measured with Symfony's parser). Fractions of a second are dropped
    (getTimestamp)."""
    year, month, day = int(date["year"]), int(date["month"]), int(date["day"])
    hour = int(date["hour"] or 0)
    minute, second = int(date["minute"] or 0), int(date["second"] or 0)
    if not (month <= 12 and day <= 31 and hour <= 24 and minute <= 59 and second <= 60):
        raise InvalidDate(date.group(0))
    if month == 0:
        year, month = year - 1, 12
    moment = datetime(year, month, 1, tzinfo=timezone.utc) + timedelta(
        days=day - 1, hours=hour, minutes=minute, seconds=second
    )
    if date["tz_sign"]:
        offset = timedelta(hours=int(date["tz_hour"]), minutes=int(date["tz_minute"] or 0))
        moment -= offset if date["tz_sign"] == "+" else -offset
    return int(moment.timestamp())
