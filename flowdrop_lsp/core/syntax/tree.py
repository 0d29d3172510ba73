"""The syntax tree every format reads into: values with their code-point spans `[start, end)`.

JSON (core.syntax.json) and YAML (core.syntax.yaml) build the same tree, so that the model, the
schema checks and the engine read one shape whatever the format. Alone here, apart from the
parsers, as vscode-json-languageservice keeps its tree types apart from its parser.

It also owns what a format's fast path reads, so that the layers above never learn a format:
a value read whole without inner spans (`OpaqueValue`, which the format that read it re-reads
when inner spans are needed after all), an array whose items were read so (`ScannedArray`), and
the syntax problem of a container cut short by an enclosing bracket (`SyntaxProblem.cut_short`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar


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


class OpaqueValue(JsonValue):
    """A value read whole by a format's fast path: its span and plain Python value, no inner
    spans. Where inner spans are needed after all (a schema error inside it, a node's
    `instanceTitle`), `expanded` re-reads it. The format that read it says how, in its own
    subclass (core.syntax.json.parser's JOpaque): a method of the class, not of each value, so
    an opaque value costs no more than its span and value."""

    __slots__ = ("value",)

    def __init__(self, start: int, end: int, value: Any) -> None:
        self.start, self.end, self.value = start, end, value

    def expanded(self, text: str) -> JsonValue | None:
        """This value re-read from `text` (the text its offsets index into) with inner spans;
        None when it cannot be."""
        raise NotImplementedError("the format that read the value re-reads it (a subclass)")


class ScannedArray(JArray):
    """`nodes` or `edges` read by a format's fast scan: each item's Python value (read whole) and
    its span, kept in flat lists rather than one OpaqueValue per item, since a hostile document
    may hold a million of them. `items` (an `opaque` value each) is made only if asked."""

    __slots__ = ("values", "starts", "ends")
    # The opaque values of the format that scanned it (which re-reads them): its subclass's.
    opaque: ClassVar[type[OpaqueValue]]

    def __init__(
        self, start: int, end: int, values: list[Any], starts: array[int], ends: array[int]
    ) -> None:
        self.start, self.end = start, end
        self.values, self.starts, self.ends = values, starts, ends

    def __getattr__(self, name: str) -> Any:
        # Only reached while the `items` slot is unset (slots answer before __getattr__).
        if name != "items":
            raise AttributeError(name)
        opaque = self.opaque
        self.items = [
            opaque(start, end, value)
            for start, end, value in zip(self.starts, self.ends, self.values, strict=True)
        ]
        return self.items

    def item(self, index: int) -> OpaqueValue:
        """Item `index` alone, as an opaque value (without making `items`)."""
        return self.opaque(self.starts[index], self.ends[index], self.values[index])

    def plain_items(self) -> list[Any]:
        return list(self.values)  # read whole already: no OpaqueValue per item


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
    # (YAML) The spans of values read more than once (an anchored value its aliases repeat):
    # rewriting one there would change every place that reads it.
    shared: tuple[tuple[int, int], ...] = ()


def child_at(value: JsonValue | None, step: str | int) -> JsonValue | None:
    """One step down a path in the tree: an object's member by key, an array's item by index;
    None where the tree has no such child."""
    if isinstance(value, JObject) and isinstance(step, str):
        return value.get(step)
    if isinstance(value, JArray) and isinstance(step, int) and 0 <= step < len(value.items):
        return value.items[step]
    return None


def value_at(value: JsonValue | None, path: Sequence[str | int], text: str) -> JsonValue | None:
    """The value at `path` below `value` (None where the tree has none); a value read whole on
    the way (OpaqueValue) is re-read from `text`, the text its spans index into, so that what is
    found has its spans."""
    for step in path:
        value = child_at(value, step)
        if isinstance(value, OpaqueValue):
            value = value.expanded(text)
    return value


def move_spans(value: JsonValue | None, where: Callable[[int], int], seen: set[int]) -> None:
    """Move every span in `value` by `where` (once per value: `seen` holds the ids moved)."""
    if value is None or id(value) in seen:
        return
    seen.add(id(value))
    value.start, value.end = where(value.start), where(value.end)
    if isinstance(value, JObject):
        for member in value.members:
            member.key.start, member.key.end = where(member.key.start), where(member.key.end)
            move_spans(member.value, where, seen)
    elif isinstance(value, JArray):
        for item in value.items:
            move_spans(item, where, seen)


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
    return value.value  # type: ignore[attr-defined]  # JString, JLiteral, OpaqueValue
