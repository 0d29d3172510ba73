"""What a FlowDrop workflow looks like, whatever its format: the verdict that decides whether a
document not named like a workflow is judged at all (core.config.selection, the engine).

A FlowDrop document is a mapping with `nodes` AND `edges` lists whose node items look like
FlowDrop nodes (a string `id` and a `data` mapping or a string `type`); with no nodes yet, its
edges join string ids. d3, n8n, networkx, cytoscape and JSON Graph Format documents are not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flowdrop_lsp.core.syntax.tree import JArray, JObject, JsonValue, to_python

SNIFFED_ITEMS = 20  # node items looked at to decide a document's shape


def _looks_like_node(item: Any) -> bool:
    return (
        isinstance(item, dict)
        and isinstance(item.get("id"), str)
        and (isinstance(item.get("data"), dict) or isinstance(item.get("type"), str))
    )


def _looks_like_edge(item: Any) -> bool:
    return (
        isinstance(item, dict)
        and isinstance(item.get("source"), str)
        and isinstance(item.get("target"), str)
    )


def flowdrop_shaped(node_items: Sequence[Any], edge_items: Sequence[Any]) -> bool:
    """Whether the first items of a document's `nodes` and `edges` arrays (Python values) are
    FlowDrop's: every node item looked at is a FlowDrop node; with no nodes yet, every edge item
    looked at is an edge between string ids. Two empty arrays are nothing to judge."""
    if node_items:
        return all(_looks_like_node(item) for item in node_items[:SNIFFED_ITEMS])
    return bool(edge_items) and all(_looks_like_edge(item) for item in edge_items[:SNIFFED_ITEMS])


def root_is_flowdrop(root: JsonValue | None, broken_at: Sequence[int] = ()) -> bool:
    """A parsed document's verdict (see `flowdrop_shaped`); items holding one of the offsets in
    `broken_at` (syntax errors) are half-typed and say nothing about the shape."""
    if not isinstance(root, JObject):
        return False
    nodes, edges = root.get("nodes"), root.get("edges")
    if not isinstance(nodes, JArray) or not isinstance(edges, JArray):
        return False

    def whole(items: Sequence[JsonValue]) -> list[Any]:
        return [
            to_python(item)
            for item in items[:SNIFFED_ITEMS]
            if not any(item.start <= at <= item.end for at in broken_at)
        ]

    return flowdrop_shaped(whole(nodes.items), whole(edges.items))
