"""Nodes and edges read from the syntax tree into the model's records (core/domain/model.py),
each keeping its source spans.

Reading is lenient: a node or edge with wrong types is still read as far as it goes (the schema
check reports the wrong types), so that one bad value never hides the rest of the document.
"""

from __future__ import annotations

from typing import Any

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
from flowdrop_lsp.core.domain.model import (
    NO_EDGE_SPANS,
    DataString,
    Edge,
    EdgeSpans,
    ItemFinder,
    Node,
    NodeSpans,
    Routing,
    SpanDetail,
    StringFinder,
    not_an_object_node,
    routing_of,
)
from flowdrop_lsp.core.domain.names import sanitize_tool_name
from flowdrop_lsp.core.domain.node_type_resolution import resolve_node_type
from flowdrop_lsp.core.domain.tool_edges import classify_tool_edge
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


def looks_like_workflow(root: JsonValue | None) -> bool:
    """A workflow is a top-level object with a `nodes` or an `edges` member."""
    return isinstance(root, JObject) and (
        root.member("nodes") is not None or root.member("edges") is not None
    )


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


def expand(value: JsonValue | None, text: str) -> JsonValue | None:
    """A value read whole by a fast path (OpaqueValue), re-read with its inner spans (by the
    format that read it)."""
    if isinstance(value, OpaqueValue):
        return value.expanded(text)
    return value


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


_ROUTING_KEYS = ("branches", "default_branch", "path")


def _tree_routing(config: JsonValue | None) -> Routing | None:
    """`routing_of` on a syntax tree, converting only the members it reads."""
    if isinstance(config, OpaqueValue):
        return routing_of(config.value)
    if not isinstance(config, JObject):
        return None
    return routing_of({key: to_python(config.get(key)) for key in _ROUTING_KEYS})
