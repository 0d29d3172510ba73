"""The fast path's readers: a node or edge from an element read whole (its plain Python value,
from the C scanner), with the same rules as the tree readers (core.domain.tree_reading.read_node,
read_edge) and its spans computed only when first asked for. Called for every element of a
large document, so each is plain lookups with no helper calls but the shared rules'
(`node_type_choice`, `classify_tool_edge`, `routing_of`).
tests/core/engine/test_node_readers.py holds the property: both readers read every node alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.element_facts import (
    NO_CONFIG,
    ElementEditor,
    edge_quirks,
    stored_config_schema,
    stored_ports,
)
from flowdrop_lsp.core.domain.model import (
    NO_EDGE_SPANS,
    Edge,
    EdgeSpans,
    ItemFinder,
    Node,
    NodeSpans,
    SpanDetail,
    SpanSource,
    StringFinder,
    not_an_object_node,
    routing_of,
)
from flowdrop_lsp.core.domain.names import sanitize_tool_name
from flowdrop_lsp.core.domain.node_type_resolution import node_type_choice
from flowdrop_lsp.core.domain.string_hint import StringHint
from flowdrop_lsp.core.domain.tool_edges import classify_tool_edge
from flowdrop_lsp.core.text.positions import Span


def read_node_value(
    index: int,
    value: Any,
    span: Span,
    settings: Settings,
    spans: Callable[[], NodeSpans] | SpanSource,
    strings: StringFinder | None = None,
    items: ItemFinder | None = None,
    editor: ElementEditor | None = None,
) -> Node:
    """The node of an element read whole (its Python value); the same rules as `read_node`,
    with the spans computed by `spans()` when first needed (or `spans` is itself their
    source)."""
    if not isinstance(value, dict):
        return not_an_object_node(index, span)
    # Called for every element of a large document: plain lookups, no helper calls.
    data = value.get("data")
    if not isinstance(data, dict):
        data = None
    metadata = data.get("metadata") if data else None
    if not isinstance(metadata, dict):
        metadata = None
    candidates = (
        metadata.get("node_type_id") if metadata else None,
        value.get("type"),
        metadata.get("id") if metadata else None,
    )
    choice = node_type_choice(*candidates)
    type_id = candidates[choice] if choice >= 0 else None
    label = data.get("label") if data else None
    if not isinstance(label, str):
        label = None
    name_source = None
    if settings.use_instance_title and data is not None:
        config = data.get("config")
        title = config.get("instanceTitle") if isinstance(config, dict) else None
        if isinstance(title, str) and title:
            name_source = title
    if name_source is None and label:
        name_source = label
    if name_source is None:
        name_source = type_id or ""
    node_id = value.get("id")
    return Node(
        index,
        span,
        node_id if isinstance(node_id, str) else None,
        type_id,
        label,
        not data,
        name_source,
        sanitize_tool_name(name_source),
        SpanDetail(compute=spans) if callable(spans) else spans,
        strings,
        routing_of(data.get("config")) if data else None,
        items,
        StringHint(data) if data is not None else None,
        data.get("config", NO_CONFIG) if data is not None else NO_CONFIG,
        editor,
        stored_ports=stored_ports(metadata) if metadata is not None else (),
        config_schema=stored_config_schema(metadata.get("configSchema")) if metadata else None,
    )


def read_edge_value(
    index: int,
    value: Any,
    span: Span,
    settings: Settings,
    spans: Callable[[], EdgeSpans] | SpanSource,
    editor: ElementEditor | None = None,
) -> Edge:
    """The edge of an element read whole (its Python value); see `read_node_value`."""
    if not isinstance(value, dict):
        return Edge(
            index, span, None, None, None, None, None, None, False, SpanDetail(NO_EDGE_SPANS)
        )
    # Called for every element of a large document: plain lookups, no helper calls.
    get = value.get
    data = get("data")
    declared = data.get("edgeType") if isinstance(data, dict) else None
    if not (isinstance(declared, str) and declared):
        declared = None
    edge_id, source, target = get("id"), get("source"), get("target")
    source_handle, target_handle = get("sourceHandle"), get("targetHandle")
    if not isinstance(target_handle, str):
        target_handle = None
    return Edge(
        index,
        span,
        edge_id if isinstance(edge_id, str) else None,
        source if isinstance(source, str) else None,
        target if isinstance(target, str) else None,
        source_handle if isinstance(source_handle, str) else None,
        target_handle,
        declared,
        classify_tool_edge(declared, target_handle, settings),
        SpanDetail(compute=spans) if callable(spans) else spans,
        edge_quirks(value),
        editor,
    )
