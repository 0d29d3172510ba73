"""The workflow model: nodes and edges read from the syntax tree, each keeping its source spans.

Reading is lenient: a node or edge with wrong types is still read as far as it goes (the schema
check reports the wrong types), so that one bad value never hides the rest of the document.
Node-type resolution, tool names and tool-edge classification follow docs/domain.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.element_facts import (
    EXECUTION_KEYS,
    NO_CONFIG,
    STORED_PORT_SIDES,
    EdgeQuirks,
    ElementEditor,
    edge_quirks,
    stored_config_schema,
    stored_ports,
)
from flowdrop_lsp.core.domain.names import sanitize_tool_name
from flowdrop_lsp.core.domain.string_hint import bits_of
from flowdrop_lsp.core.syntax.tree import (
    JArray,
    JObject,
    JsonValue,
    JString,
    OpaqueValue,
    child_at,
    to_python,
)
from flowdrop_lsp.core.text.positions import Anchor, Span

EDITOR_RENDER_TYPE = "universalNode"  # the editor's render type, never a node type id
TOOL_EDGE_TYPE = "tool_availability"
TOOL_HANDLE_SUFFIX = "-input-tool"


class SpanSource(Protocol):
    """What gives a node's or edge's spans: a SpanDetail, or (the engine's fast path) the
    element it was read from, which re-reads them once, when first asked."""

    def get(self) -> Any: ...


class SpanDetail:
    """The spans of one node or edge: given, or computed on first use. A document read by the
    fast path (whole elements through the C scanner) has values but no spans; spans are only
    needed for the few elements a finding or fix is about, so each is re-read then."""

    __slots__ = ("_value", "_compute")

    def __init__(self, value: Any = None, compute: Callable[[], Any] | None = None) -> None:
        self._value = value
        self._compute = compute

    def get(self) -> Any:
        if self._value is None:
            assert self._compute is not None
            self._value = self._compute()
            self._compute = None
        return self._value


def _span_field(name: str) -> Any:
    """A property reading one span of a node or edge from its (possibly lazy) `spans`."""
    return property(lambda self: getattr(self.spans, name), doc=f"The element's {name}.")


@dataclass(frozen=True, slots=True)
class NodeSpans:
    id_span: Span | None
    type_span: Span | None
    label_span: Span | None  # the data.label value token, whatever its JSON type
    data_span: Span | None  # the data object, when `data` is an object
    name_source_span: Span | None
    data_value_span: Span | None  # the `data` value token, whatever its JSON type


NO_NODE_SPANS = NodeSpans(None, None, None, None, None, None)  # of an item that is not an object


@dataclass(frozen=True, slots=True)
class DataString:
    """A string value (not a key) somewhere inside a node's `data`: where it is below `data`,
    what it says, and its token's span. Other parts of a workflow refer to tools by such
    strings (a gateway's `config.branches[].value` equal to a tool name)."""

    path: tuple[str | int, ...]
    value: str
    span: Span


StringFinder = Callable[[frozenset[str]], tuple[DataString, ...]]
# The spans of the items of a list at a path below `data` (e.g. ("config", "branches")).
ItemFinder = Callable[[tuple[str | int, ...]], tuple[Span, ...]]


@dataclass(frozen=True, slots=True)
class Routing:
    """What a node's `data.config` says about routing: a gateway's `branches` (name, value —
    the value compared with its `expression` input), its `default_branch`, and a data
    extractor's `path`. Read for every node, whatever its type (sites define their own)."""

    branches: tuple[tuple[str | None, str], ...] = ()
    default_branch: str | None = None
    extract_path: str | None = None


_ROUTING_KEYS = ("branches", "default_branch", "path")


def _tree_routing(config: JsonValue | None) -> Routing | None:
    """`routing_of` on a syntax tree, converting only the members it reads."""
    if isinstance(config, OpaqueValue):
        return routing_of(config.value)
    if not isinstance(config, JObject):
        return None
    return routing_of({key: to_python(config.get(key)) for key in _ROUTING_KEYS})


def routing_of(config: Any) -> Routing | None:
    """The routing facts of a `data.config` (a Python value), or None when it has none."""
    if not isinstance(config, dict):
        return None
    raw = config.get("branches")
    branches = tuple(
        (item.get("name") if isinstance(item.get("name"), str) else None, item["value"])
        for item in (raw if isinstance(raw, list) else ())
        if isinstance(item, dict) and isinstance(item.get("value"), str)
    )
    default = config.get("default_branch")
    path = config.get("path")
    if not branches and not isinstance(path, str):
        return None
    return Routing(
        branches,
        default if isinstance(default, str) else None,
        path if isinstance(path, str) else None,
    )


@dataclass(frozen=True, slots=True)
class Node:
    index: int
    span: Span
    id: str | None
    type_id: str | None
    label: str | None  # data.label when it is a string
    data_is_empty: bool
    name_source: str  # what the tool name derives from: label, else the type id
    tool_name: str
    detail: SpanSource = field(compare=False, repr=False)
    # Finds string values in `data`, on demand (rarely needed: CMP-9 looks for references to
    # a tool name only when there is a collision).
    string_finder: StringFinder | None = field(default=None, compare=False, repr=False)
    routing: Routing | None = None
    item_finder: ItemFinder | None = field(default=None, compare=False, repr=False)
    # Which strings `data` may hold outside its label and metadata, as a bit mask over their
    # hashes (see `string_bits`); None: unknown (every question goes to `string_finder`).
    string_hint: int | None = field(default=None, compare=False, repr=False)
    # `data.config` as a plain value (NO_CONFIG: the node has none), for the launch checks.
    config: Any = field(default=NO_CONFIG, compare=False, repr=False)
    editor: ElementEditor | None = field(default=None, compare=False, repr=False)
    # The key token of each member of `data.config` (the last of a repeated key), when the read
    # had them at hand (a tree read: YAML, JSON read in full); None: ask `editor.locate`.
    config_keys: Mapping[str, Span] | None = field(default=None, compare=False, repr=False)
    # The ports `data.metadata.inputs` / `.outputs` list, as `stored_ports` reads them.
    stored_ports: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)
    # The config schema its stored metadata carries (`stored_config_schema`), for R6.d–h.
    config_schema: Any = field(default=None, compare=False, repr=False)
    # `own_ports` of its config, once asked (the rules ask it per edge end); not an argument,
    # so a `replace` (a new config) starts without it.
    ports_memo: list[Any] = field(default_factory=list, init=False, compare=False, repr=False)

    @property
    def has_config(self) -> bool:
        return self.config is not NO_CONFIG

    @property
    def spans(self) -> NodeSpans:
        return self.detail.get()  # type: ignore[no-any-return]

    def strings_equal_to(self, values: frozenset[str]) -> tuple[DataString, ...]:
        """The string values in `data` equal to one of `values`, in document order. Strings in
        `data.label` and `data.metadata` are left out when the hint rules a node out: they are
        names, never references (the only use of this, CMP-9's fixes, skips them)."""
        if self.string_finder is None:
            return ()
        hint = self.string_hint
        if hint is not None and not hint & bits_of(values):
            # The usual case: looking a node's text over costs ≈30 µs, this well under 1.
            return ()
        return self.string_finder(values)

    def list_items(self, path: tuple[str | int, ...]) -> tuple[Span, ...]:
        """The spans of the items of the list at `path` below `data` (none when it is not a
        list), computed on demand."""
        return self.item_finder(path) if self.item_finder is not None else ()

    id_span = _span_field("id_span")
    type_span = _span_field("type_span")
    label_span = _span_field("label_span")
    data_span = _span_field("data_span")
    name_source_span = _span_field("name_source_span")
    data_value_span = _span_field("data_value_span")

    @property
    def anchor(self) -> Span:
        """Where findings about this node are shown: the string its tool name comes from (its
        label, or instanceTitle where that setting is on), else its id, else its start."""
        spans = self.spans
        if spans.name_source_span is not None and spans.name_source_span != spans.type_span:
            return spans.name_source_span
        if spans.id_span is not None:
            return spans.id_span
        return Span(self.span.start, self.span.start + 1, self.span.base)

    @property
    def display(self) -> str:
        """How messages name the node: `"Web Search" (tool_a)`."""
        if self.label:
            return f'"{short_text(self.label)}" ({id_text(str(self.id))})'
        return f"{id_text(str(self.id))} (type {short_text(self.type_id or 'unknown')})"


@dataclass(frozen=True, slots=True)
class EdgeSpans:
    source_span: Span | None
    target_span: Span | None
    target_handle_span: Span | None
    declared_type_span: Span | None
    source_handle_span: Span | None = None
    id_span: Span | None = None  # the id token, when it is a string


NO_EDGE_SPANS = EdgeSpans(None, None, None, None)


@dataclass(frozen=True, slots=True)
class Edge:
    index: int
    span: Span
    id: str | None
    source: str | None
    target: str | None
    source_handle: str | None
    target_handle: str | None
    declared_type: str | None  # data.edgeType when it is a non-empty string
    is_tool: bool
    detail: SpanSource = field(compare=False, repr=False)
    quirks: EdgeQuirks | None = None
    editor: ElementEditor | None = field(default=None, compare=False, repr=False)

    @property
    def spans(self) -> EdgeSpans:
        return self.detail.get()  # type: ignore[no-any-return]

    source_span = _span_field("source_span")
    target_span = _span_field("target_span")
    target_handle_span = _span_field("target_handle_span")
    declared_type_span = _span_field("declared_type_span")
    source_handle_span = _span_field("source_handle_span")

    @property
    def anchor(self) -> Span:
        spans = self.spans
        return (
            spans.target_span
            or spans.source_span
            or Span(self.span.start, self.span.start + 1, self.span.base)
        )


def edge_locator(edge: Edge) -> str:
    """The spec's locator of an edge: `edge.{index}`, its position in `edges` now."""
    return f"edge.{edge.editor.position() if edge.editor is not None else edge.index}"


def doc_order(item: Node | Edge) -> int:
    """Where an element is in the document now (its index can be stale after an insertion)."""
    span = item.span
    return span.start if span.base is None else span.start + span.base.offset()


@dataclass(frozen=True, slots=True)
class Workflow:
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]


def looks_like_workflow(root: JsonValue | None) -> bool:
    """A workflow is a top-level object with a `nodes` or an `edges` member."""
    return isinstance(root, JObject) and (
        root.member("nodes") is not None or root.member("edges") is not None
    )


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


def _string(value: JsonValue | None) -> str | None:
    return value.value if isinstance(value, JString) else None


class _Spans:
    """Makes the spans of one element: `offset` turns the parser's coordinates into document
    offsets, `anchor` is what the spans move with (None: a from-scratch analysis)."""

    __slots__ = ("offset", "anchor")

    def __init__(self, offset: int = 0, anchor: Anchor | None = None) -> None:
        self.offset, self.anchor = offset, anchor

    def __call__(self, value: JsonValue | None) -> Span | None:
        if value is None:
            return None
        return Span(value.start + self.offset, value.end + self.offset, self.anchor)


_ABSOLUTE = _Spans()


def _object(value: JsonValue | None) -> JObject | None:
    return value if isinstance(value, JObject) else None


def node_type_choice(node_type_id: object, declared_type: object, metadata_id: object) -> int:
    """docs/domain.md §4, the one place it is decided: which of a node's candidates names its
    type — 0: data.metadata.node_type_id, 1: `type` unless it is the editor's render type,
    2: data.metadata.id; each only as a non-empty string; -1: none does. Given plain values:
    both node readers (the tree's `resolve_node_type`, the fast path's `read_node_value`)."""
    if isinstance(node_type_id, str) and node_type_id:
        return 0
    if isinstance(declared_type, str) and declared_type and declared_type != EDITOR_RENDER_TYPE:
        return 1
    if isinstance(metadata_id, str) and metadata_id:
        return 2
    return -1


def resolve_node_type(node: JObject) -> JString | None:
    """The string token naming a node's type (`node_type_choice`), for its value and span."""
    data = _object(node.get("data"))
    metadata = _object(data.get("metadata")) if data else None
    candidates = (
        metadata.get("node_type_id") if metadata else None,
        node.get("type"),
        metadata.get("id") if metadata else None,
    )
    choice = node_type_choice(*(_string(candidate) for candidate in candidates))
    chosen = candidates[choice] if choice >= 0 else None
    return chosen if isinstance(chosen, JString) else None


def expand(value: JsonValue | None, text: str) -> JsonValue | None:
    """A value read whole by a fast path (OpaqueValue), re-read with its inner spans (by the
    format that read it)."""
    if isinstance(value, OpaqueValue):
        return value.expanded(text)
    return value


def not_an_object_node(index: int, span: Span) -> Node:
    """The node of an item of `nodes` that is not an object (both readers agree on it): no id,
    no type, no spans; it names no tool."""
    return Node(
        index, span, None, None, None, True, "", sanitize_tool_name(""), SpanDetail(NO_NODE_SPANS)
    )


def read_node(
    index: int,
    value: JsonValue,
    settings: Settings,
    text: str = "",
    spans: _Spans = _ABSOLUTE,
    strings: StringFinder | None = None,
    items: ItemFinder | None = None,
    editor: ElementEditor | None = None,
) -> Node:
    """The node of one element of `nodes`; `text` is what the value's offsets index into;
    `strings` finds string values in its `data` when asked."""
    _span = spans
    obj = _object(value)
    if obj is None:
        span = _span(value)
        assert span is not None
        return not_an_object_node(index, span)
    id_value = obj.get("id")
    type_value = resolve_node_type(obj)
    data_value = obj.get("data")
    data = _object(data_value)
    label_value = data.get("label") if data else None
    label = _string(label_value)
    source_value: JsonValue | None = None
    if settings.use_instance_title and data is not None:
        config = _object(expand(data.get("config"), text))
        title = config.get("instanceTitle") if config else None
        if isinstance(title, JString) and title.value:
            source_value = title
    if source_value is None and label:
        source_value = label_value
    if source_value is None:
        source_value = type_value
    name_source = _string(source_value) or ""
    span = _span(obj)
    assert span is not None
    stored = _tree_stored(data)
    return Node(
        index=index,
        span=span,
        id=_string(id_value),
        type_id=type_value.value if type_value else None,
        label=label,
        data_is_empty=not data.members if data else True,
        name_source=name_source,
        tool_name=sanitize_tool_name(name_source),
        detail=SpanDetail(
            NodeSpans(
                id_span=_span(id_value) if isinstance(id_value, JString) else None,
                type_span=_span(type_value),
                label_span=_span(label_value),
                data_span=_span(data),
                name_source_span=_span(source_value),
                data_value_span=_span(data_value),
            )
        ),
        string_finder=strings,
        routing=_tree_routing(data.get("config")) if data else None,
        item_finder=items,
        config=_tree_config(data, text),
        editor=editor,
        config_keys=_config_keys(data, _span),
        stored_ports=stored[0],
        config_schema=stored[1],
    )


def _tree_stored(data: JObject | None) -> tuple[tuple[tuple[str, str], ...], Any]:
    """What the node's stored metadata says: its ports, and its config schema."""
    member = data.member("metadata") if data is not None else None
    value = member.value if member is not None else None
    if isinstance(value, OpaqueValue):
        plain = value.value if isinstance(value.value, dict) else {}
    elif isinstance(value, JObject):
        plain = {key: to_python(value.get(key)) for key in (*STORED_PORT_SIDES, "configSchema")}
    else:
        return (), None
    return stored_ports(plain), stored_config_schema(plain.get("configSchema"))


def _config_keys(data: JObject | None, spans: _Spans) -> dict[str, Span] | None:
    member = data.member("config") if data is not None else None
    config = member.value if member is not None else None
    if not isinstance(config, JObject):  # an opaque value (read whole) or no mapping
        return {} if member is None or not isinstance(config, OpaqueValue) else None
    found: dict[str, Span] = {}
    for item in config.members:
        span = spans(item.key)
        assert span is not None
        found[item.key.value] = span
    return found


def _tree_config(data: JObject | None, text: str) -> Any:
    member = data.member("config") if data is not None else None
    if member is None:
        return NO_CONFIG
    value = member.value
    return value.value if isinstance(value, OpaqueValue) else to_python(value)


def classify_tool_edge(declared: str | None, target_handle: str | None, settings: Settings) -> bool:
    """EDGE-5: a recognised declaration decides; otherwise (absent, empty, non-string or
    unrecognised) the target handle decides by EXACT suffix (EDGE-1)."""
    if declared and declared in settings.edge_types:
        return declared == TOOL_EDGE_TYPE
    return target_handle is not None and target_handle.endswith(TOOL_HANDLE_SUFFIX)


def read_edge(
    index: int,
    value: JsonValue,
    settings: Settings,
    spans: _Spans = _ABSOLUTE,
    editor: ElementEditor | None = None,
) -> Edge:
    _span = spans
    obj = _object(value)
    if obj is None:
        span = _span(value)
        assert span is not None
        return Edge(
            index, span, None, None, None, None, None, None, False, SpanDetail(NO_EDGE_SPANS)
        )
    source = obj.get("source")
    target = obj.get("target")
    source_handle = obj.get("sourceHandle")
    target_handle = obj.get("targetHandle")
    data = _object(obj.get("data"))
    declared = data.get("edgeType") if data else None
    declared_type = _string(declared) or None
    span = _span(obj)
    assert span is not None
    return Edge(
        index=index,
        span=span,
        id=_string(obj.get("id")),
        source=_string(source),
        target=_string(target),
        source_handle=_string(source_handle),
        target_handle=_string(target_handle),
        declared_type=declared_type,
        is_tool=classify_tool_edge(declared_type, _string(target_handle), settings),
        quirks=_tree_quirks(obj),
        editor=editor,
        detail=SpanDetail(
            EdgeSpans(
                source_span=_span(source) if isinstance(source, JString) else None,
                target_span=_span(target) if isinstance(target, JString) else None,
                target_handle_span=_span(target_handle)
                if isinstance(target_handle, JString)
                else None,
                declared_type_span=_span(declared) if declared_type else None,
                source_handle_span=_span(source_handle)
                if isinstance(source_handle, JString)
                else None,
                id_span=_span(obj.get("id")) if isinstance(obj.get("id"), JString) else None,
            )
        ),
    )


def _tree_quirks(obj: JObject) -> EdgeQuirks | None:
    keys = {member.key.value for member in obj.members}
    if "id" in keys and not keys & EXECUTION_KEYS and "data" not in keys and _string(obj.get("id")):
        return None  # the usual case, without converting anything
    data = _object(obj.get("data"))
    plain: dict[str, Any] = dict.fromkeys(keys)
    if "id" in keys:
        plain["id"] = to_python(obj.get("id"))
    if data is not None:
        plain["data"] = {"condition": to_python(data.get("condition"))}
    return edge_quirks(plain)


def data_strings(
    node: JsonValue | None, spans: _Spans, values: frozenset[str]
) -> tuple[DataString, ...]:
    """The string values inside a fully parsed node's `data` equal to one of `values`, in
    document order."""
    data = node.get("data") if isinstance(node, JObject) else None
    found: list[DataString] = []
    stack: list[tuple[tuple[str | int, ...], JsonValue | None]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, JString):
            if value.value not in values:
                continue
            span = spans(value)
            assert span is not None
            found.append(DataString(path, value.value, span))
        elif isinstance(value, JObject):
            stack.extend((path + (m.key.value,), m.value) for m in reversed(value.members))
        elif isinstance(value, JArray):
            stack.extend((path + (i,), item) for i, item in reversed(list(enumerate(value.items))))
    return tuple(found)


def list_item_spans(
    node: JsonValue | None, spans: _Spans, path: tuple[str | int, ...]
) -> tuple[Span, ...]:
    """The spans of the items of the list at `path` below a fully parsed node's `data`."""
    current = child_at(node, "data")
    for step in path:
        current = child_at(current, step)
    if not isinstance(current, JArray):
        return ()
    found = [spans(item) for item in current.items]
    return tuple(span for span in found if span is not None)
