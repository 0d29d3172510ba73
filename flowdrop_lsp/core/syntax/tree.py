"""The syntax tree every format reads into: values with their code-point spans `[start, end)`.

JSON (core.syntax.json) and YAML (core.syntax.yaml) build the same tree, so that the model, the
schema checks and the engine read one shape whatever the format. Alone here, apart from the
parsers, as vscode-json-languageservice keeps its tree types apart from its parser.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class JsonValue:
    """Base of the syntax tree: every value knows its span."""

    __slots__ = ("start", "end")
    start: int
    end: int


class JString(JsonValue):
    __slots__ = ("value",)

    def __init__(self, start: int, end: int, value: str) -> None:
        self.start, self.end, self.value = start, end, value


class JNumber(JsonValue):
    __slots__ = ("text",)

    def __init__(self, start: int, end: int, text: str) -> None:
        self.start, self.end, self.text = start, end, text

    @property
    def value(self) -> int | float:
        """As json_decode reads it: an integer, or a float when it has a fraction or an exponent
        — or more digits than Python turns into an int (`sys.get_int_max_str_digits`, 4300 by
        default): such an integer becomes a float (±inf), as json_decode makes a float of an
        integer too big for PHP's int. The text is always a JSON number (the lexer's `n`)."""
        try:
            return int(self.text)
        except ValueError:
            return float(self.text)


class JLiteral(JsonValue):
    __slots__ = ("value",)

    def __init__(self, start: int, end: int, value: bool | None) -> None:
        self.start, self.end, self.value = start, end, value


class JArray(JsonValue):
    __slots__ = ("items",)

    def __init__(self, start: int, end: int, items: list[JsonValue]) -> None:
        self.start, self.end, self.items = start, end, items

    def plain_items(self) -> list[Any]:
        """The items' plain Python values (`to_python`); an array read whole by a fast path
        answers from the values it holds."""
        return [to_python(item) for item in self.items]


class JMember:
    """One `"key": value` pair; `value` is None where the source has no usable value."""

    __slots__ = ("key", "value")

    def __init__(self, key: JString, value: JsonValue | None) -> None:
        self.key, self.value = key, value


class JObject(JsonValue):
    """An object; `get` answers as JSON parsers do for duplicate keys: the last one wins."""

    __slots__ = ("members", "_last")

    def __init__(
        self, start: int, end: int, members: list[JMember], last: dict[str, JMember]
    ) -> None:
        self.start, self.end, self.members, self._last = start, end, members, last

    def member(self, key: str) -> JMember | None:
        return self._last.get(key)

    def get(self, key: str) -> JsonValue | None:
        member = self._last.get(key)
        return member.value if member is not None else None


@dataclass(frozen=True, slots=True)
class SyntaxProblem:
    """A problem in the text itself, whatever its format. `kind` is 'syntax' (an error) or
    'duplicate-key'. `cut_short` marks the error of a container closed by an enclosing
    container's bracket: it is reported at that bracket, just past the container's end, yet it
    is the container's (an element of `nodes`/`edges` cut short so is half-typed)."""

    kind: str
    message: str
    start: int
    end: int
    related_start: int = -1
    related_end: int = -1
    cut_short: bool = False


@dataclass(frozen=True, slots=True)
class ParsedJson:
    root: JsonValue | None
    problems: tuple[SyntaxProblem, ...]


def child_at(value: JsonValue | None, step: str | int) -> JsonValue | None:
    """One step down a path in the tree: an object's member by key, an array's item by index;
    None where the tree has no such child."""
    if isinstance(value, JObject) and isinstance(step, str):
        return value.get(step)
    if isinstance(value, JArray) and isinstance(step, int) and 0 <= step < len(value.items):
        return value.items[step]
    return None


def to_python(value: JsonValue | None) -> Any:
    """The plain Python value of a (possibly partial) tree; unusable values become None."""
    if value is None:
        return None
    if isinstance(value, JObject):
        return {member.key.value: to_python(member.value) for member in value.members}
    if isinstance(value, JArray):
        return value.plain_items()
    if isinstance(value, JNumber):
        return value.value
    return value.value  # type: ignore[attr-defined]  # JString, JLiteral, JOpaque
