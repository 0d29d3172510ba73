"""What the launch checks read of a node or an edge beyond the tool graph: a node's config (as
its plain value, `NO_CONFIG` when it has none), an edge's rare quirks, and the editor a rule asks
for spans and edits in the element's own text (the engine's element implements it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from flowdrop_lsp.core.findings import TextEdit
from flowdrop_lsp.core.operations import Operation
from flowdrop_lsp.core.text.positions import Span


@dataclass(frozen=True, slots=True)
class MemberSpans:
    """Where a value below an element is: its key token (None for a list item) and its value."""

    key: Span | None
    value: Span


class StringOffsets(NamedTuple):
    """Where each character of a string value is written (`ElementEditor.string_offsets`).

    `value` is the string's span (as `locate(path).value`: its quotes, a block scalar's header);
    `offsets[i]` the offset of what writes character i of the value (the character itself, an
    escape's backslash, a folded line break's break), the last entry the offset just after the
    last one written: len(value) + 1 entries, strictly increasing. The offsets are in the
    coordinates `value` was made in and move with its anchor: take spans of them with
    `characters`, never resolve a bare offset."""

    value: Span
    offsets: Sequence[int]

    def characters(self, first: int, stop: int | None = None) -> Span:
        """The text writing characters `[first, stop)` of the value (one character when `stop`
        is left out), anchored as `value` (resolve it as any span)."""
        last = first + 1 if stop is None else stop
        return Span(self.offsets[first], self.offsets[last], self.value.base)


class ElementEditor(Protocol):
    """What a rule may ask of the text of the element a node or edge was read from (the engine's
    element, which re-reads its current text on demand, in the document's own format). Paths
    are below the element itself: ("data", "config", "url")."""

    # Half-typed: a syntax problem inside the element (or cut short at its end). Its structure
    # is not what will be typed, so a check of its members (a missing id, a key) says nothing.
    broken: bool

    def locate(self, path: tuple[str | int, ...]) -> MemberSpans | None:
        """Where the value at `path` is; None when there is none."""
        ...

    def string_offsets(self, path: tuple[str | int, ...]) -> StringOffsets | None:
        """Where each character of the string at `path` is written, so that a finding inside it
        (a misspelt filter at character 17 of a template) lands on its characters; None when
        the value there is no string, or where its characters are cannot be told exactly (a
        YAML alias): place the finding on the whole value then. Re-reads the element's text
        once: ask it on demand (a finding, an editor request), never on every keystroke."""
        ...

    def strings_offsets(
        self, paths: tuple[tuple[str | int, ...], ...]
    ) -> tuple[StringOffsets | None, ...]:
        """`string_offsets` of each of `paths`, with one re-read of the element's text."""
        ...

    def member_removal(self, path: tuple[str | int, ...], key: str) -> tuple[Span, str] | None:
        """What to replace, and with what (usually nothing: a deletion), to remove member `key`
        of the mapping at `path`, its separator with it and the format's layout kept (the only
        member of a Drupal YAML mapping leaves `{  }`); None when it cannot be removed
        cleanly."""
        ...

    def member_insertion(
        self, path: tuple[str | int, ...], key: str, value: Any
    ) -> tuple[Span, str] | None:
        """What to replace (usually nothing: an insertion) and with what, to add `key: value`
        to the mapping at `path`, written in the document's format and style; None when it
        cannot be."""
        ...

    def position(self) -> int:
        """The element's index in its array now (a model's own `index` is the one it was read
        at, stale after an element is inserted or removed before it)."""
        ...

    def members_insertion(
        self, path: tuple[str | int, ...], members: tuple[tuple[str, Any], ...]
    ) -> tuple[Span, str] | None:
        """One edit adding every `key: value` of `members` to the mapping at `path`, in that
        order (several insertions at one place would each be written as if alone); None when
        one of them cannot be."""
        ...

    def item_removal(self) -> Span | None:
        """What to delete to remove the element from its array, with one separator; None for the
        only element (an empty array may be written differently) or when it cannot be."""
        ...

    def value(self) -> Any:
        """The element's plain value as its text reads now (None when it reads as no value
        alone: a YAML alias of an anchor elsewhere)."""
        ...

    def render(self, operations: Sequence[Operation]) -> tuple[TextEdit, ...] | None:
        """The edits of the document that carry out `operations` (all aimed at this element)
        in its format and style, verified to read back as the value they make; None when the
        format cannot write them exactly (core.engine.rendering)."""
        ...


class _NoConfig:
    def __repr__(self) -> str:
        return "NO_CONFIG"


# A node's `data.config` when it has none (`Node.config`; a `null` config is None).
NO_CONFIG: Any = _NoConfig()


@dataclass(frozen=True, slots=True)
class EdgeQuirks:
    """What little an edge says beyond its ends, for the launch checks; most edges have none of
    it (`Edge.quirks` is None then): no `id` member, a non-empty `data.condition` (EDGE-8), and
    the members of the execution vocabulary it carries (EDGE-9)."""

    id_missing: bool = False
    condition: str | None = None
    execution_keys: tuple[str, ...] = ()


# EDGE-9: the keys of the runtime's execution record of an edge, which a stored (transport)
# edge must not carry.
EXECUTION_KEYS = frozenset(
    {
        "source_handle",
        "target_handle",
        "is_trigger",
        "is_loopback",
        "is_tool",
        "branch_name",
        "edge_id",
    }
)


def edge_quirks(value: dict[str, Any]) -> EdgeQuirks | None:
    """The quirks of an edge object's plain value; None for an ordinary edge (the usual case,
    decided with two lookups and one set intersection)."""
    data = value.get("data")
    condition = data.get("condition") if isinstance(data, dict) else None
    foreign = value.keys() & EXECUTION_KEYS
    # An empty id is no id (R3): the store would key the edge on nothing.
    id_missing = value.get("id", "") == ""
    if not id_missing and not foreign and not (isinstance(condition, str) and condition):
        return None
    return EdgeQuirks(
        id_missing,
        condition if isinstance(condition, str) and condition else None,
        tuple(key for key in value if key in foreign),
    )


# The sides of a node's stored port metadata: `data.metadata.inputs` / `.outputs`, lists of the
# editor's port records `{id, name, type, dataType, …}` written from the node type it knew.
STORED_PORT_SIDES = ("inputs", "outputs")


def stored_ports(metadata: Any) -> tuple[tuple[str, str], ...]:
    """The ports a node's stored metadata (a plain `data.metadata` value) lists: (side, id)
    pairs, side "input" or "output", in order; () when it lists none. A cache the editor wrote
    (CMP-2: compilation re-enriches it from the live node types), read only by FD-UNKNOWN-PORT."""
    if not isinstance(metadata, dict):
        return ()
    found: list[tuple[str, str]] = []
    for side in STORED_PORT_SIDES:
        records = metadata.get(side)
        for record in records if isinstance(records, list) else ():
            port = record.get("id") if isinstance(record, dict) else None
            if isinstance(port, str) and port:
                found.append((side[:-1], port))
    return tuple(dict.fromkeys(found))


def stored_config_schema(schema: Any) -> dict[str, Any] | None:
    """The config schema a node's stored metadata carries (`data.metadata.configSchema`, the
    editor's copy of its node type's derived schema, STORE-14), when it is an object with
    `properties`; None otherwise. Read by the config-value check (R6.d–h)."""
    if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
        return schema
    return None
