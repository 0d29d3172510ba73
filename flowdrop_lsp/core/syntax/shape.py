"""What a FlowDrop workflow looks like, whatever its format: the verdict that decides whether a
document not named like a workflow is judged at all (core.config.selection, the engine).

A FlowDrop document is a mapping with `nodes` AND `edges` lists whose node items look like
FlowDrop nodes (a string `id` and a `data` mapping or a string `type`); with no nodes yet, its
edges join string ids. d3, n8n, networkx, cytoscape and JSON Graph Format documents are not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flowdrop_lsp.core.syntax.tree import JArray, JObject, JsonValue, SyntaxProblem, to_python

SNIFFED_ITEMS = 20  # node items looked at to decide a document's shape


def looks_like_node(item: Any) -> bool:
    return (
        isinstance(item, dict)
        and isinstance(item.get("id"), str)
        and (isinstance(item.get("data"), dict) or isinstance(item.get("type"), str))
    )


def looks_like_edge(item: Any) -> bool:
    return (
        isinstance(item, dict)
        and isinstance(item.get("source"), str)
        and isinstance(item.get("target"), str)
    )


def flowdrop_shaped(node_items: Sequence[Any], edge_items: Sequence[Any]) -> bool:
    """Whether the first items of a document's `nodes` and `edges` arrays (Python values) are
    FlowDrop's: every node item looked at is a FlowDrop node; with no nodes yet, every edge item
    looked at is an edge between string ids. Two empty arrays are nothing to judge."""
    return shaped_verdict(
        [looks_like_node(item) for item in node_items[:SNIFFED_ITEMS]],
        [looks_like_edge(item) for item in edge_items[:SNIFFED_ITEMS]],
    )


def shaped_verdict(nodes: Sequence[bool], edges: Sequence[bool]) -> bool:
    """`flowdrop_shaped` from each sniffed item's own verdict (`looks_like_node` of a node
    item, `looks_like_edge` of an edge item): what the engine keeps per element."""
    if nodes:
        return all(nodes)
    return bool(edges) and all(edges)


def half_typed(item: JsonValue, problems: Sequence[SyntaxProblem]) -> bool:
    """Whether an item of `nodes`/`edges` is half-typed: a syntax problem inside it (a missing
    ',' reported, empty, at its start is between items), or one of a container cut short at
    its end. The engine marks its elements `broken` by the same rule."""
    start, end = item.start, item.end
    return any(
        p.kind == "syntax"
        and (
            (start <= p.start < end and not p.start == p.end == start)
            or (p.cut_short and p.start == end)
        )
        for p in problems
    )


def root_is_flowdrop(root: JsonValue | None, problems: Sequence[SyntaxProblem] = ()) -> bool:
    """A parsed document's verdict (see `flowdrop_shaped`); half-typed items (`half_typed`,
    by the syntax `problems` met reading it) say nothing about the shape."""
    if not isinstance(root, JObject):
        return False
    nodes, edges = root.get("nodes"), root.get("edges")
    if not isinstance(nodes, JArray) or not isinstance(edges, JArray):
        return False

    def whole(items: Sequence[JsonValue]) -> list[Any]:
        return [
            to_python(item)
            for item in items[:SNIFFED_ITEMS]
            if not (problems and half_typed(item, problems))
        ]

    return flowdrop_shaped(whole(nodes.items), whole(edges.items))
