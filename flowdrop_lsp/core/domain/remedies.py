"""A fix made from operations on the workflow's nodes and edges (core.operations), rendered in
the document's format by each element's editor: the one way a rule writes a fix of the graph.

A rule says what the fix does to the workflow (`Update.of(node_ref(node), "config", {...})`);
`fix_from` renders it and gives the `Fix` both the operations (for FlowDrop's editor) and the
edits (for a text editor and `--fix`). When one element's editor cannot write its operations
exactly in the document's format, there is no fix (None): never one that writes something
else, never one half written."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Literal

from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.findings import Applicability, Fix, TextEdit
from flowdrop_lsp.core.operations import ElementRef, Operation, Update, element_ref


def node_ref(node: Node) -> ElementRef:
    """The node as the editor addresses it (its position now, for a node without an id)."""
    index = node.editor.position() if node.editor is not None else node.index
    return element_ref("node", node.id, index)


def edge_ref(edge: Edge) -> ElementRef:
    index = edge.editor.position() if edge.editor is not None else edge.index
    return element_ref("edge", edge.id, index)


def change_at(
    model: Node | Edge,
    path: tuple[str | int, ...],
    patch: dict[str, Any] | None = None,
    unset: Sequence[str] = (),
) -> Operation | None:
    """The operation setting `patch` and deleting `unset` in the mapping at `path` below the
    element (`("data", "condition")`'s holder is `("data",)`). The editor's updates are shallow
    on the node, its `data`, its `data.config` and the edge: deeper, the member of that scope
    the path goes through is patched whole with its new value (rendered member by member all
    the same: core.engine.rendering writes only what differs). None when the path does not
    hold a mapping now."""
    kind = "edge" if isinstance(model, Edge) else "node"
    ref = edge_ref(model) if isinstance(model, Edge) else node_ref(model)
    scope: Literal["node", "data", "config", "edge"] = "edge" if kind == "edge" else "node"
    depth = 0
    if kind == "node" and path[:2] == ("data", "config"):
        scope, depth = "config", 2
    elif kind == "node" and path[:1] == ("data",):
        scope, depth = "data", 1
    rest = path[depth:]
    if not rest:
        return Update.of(ref, scope, patch, unset)
    current = model.editor.value() if model.editor is not None else None
    holder: Any = current
    for step in path[: depth + 1]:
        holder = holder.get(step) if isinstance(holder, dict) and isinstance(step, str) else None
    top = copy.deepcopy(holder)
    inner: Any = top
    for step in rest[1:]:
        if isinstance(inner, dict) and isinstance(step, str):
            inner = inner.get(step)
        elif isinstance(inner, list) and isinstance(step, int) and 0 <= step < len(inner):
            inner = inner[step]
        else:
            return None
    if not isinstance(inner, dict):
        return None
    for key in unset:
        inner.pop(key, None)
    inner.update(patch or {})
    first = rest[0]
    if not isinstance(first, str):
        return None
    return Update.of(ref, scope, {first: top})


def fix_from(
    title: str,
    changes: Sequence[tuple[Node | Edge, Operation]],
    *,
    preferred: bool = False,
    applicability: Applicability = Applicability.SAFE,
    chosen_only: bool = False,
    destructive: str | None = None,
) -> Fix | None:
    """The fix doing `changes` (each an operation and the node or edge it is aimed at), in
    order; None when one of them cannot be written in the document's format."""
    if not changes:
        return None
    groups: dict[int, tuple[Node | Edge, list[Operation]]] = {}
    for model, op in changes:
        groups.setdefault(id(model.editor), (model, []))[1].append(op)
    edits: list[TextEdit] = []
    for model, ops in groups.values():
        if model.editor is None:
            return None
        rendered = model.editor.render(ops)
        if not rendered:
            return None
        edits.extend(rendered)
    return Fix(
        title,
        tuple(edits),
        preferred=preferred,
        applicability=applicability,
        chosen_only=chosen_only,
        operations=tuple(op for _model, op in changes),
        destructive=destructive,
    )
