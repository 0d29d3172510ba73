"""A fix made from operations on the workflow's nodes and edges (core.operations), rendered in
the document's format by each element's editor: the one way a rule writes a fix of the graph.

A rule says what the fix does to the workflow (`Update.of(node_ref(node), "config", {...})`);
`fix_from` renders it and gives the `Fix` both the operations (for FlowDrop's editor) and the
edits (for a text editor and `--fix`). When one element's editor cannot write its operations
exactly in the document's format, there is no fix (None): never one that writes something
else, never one half written."""

from __future__ import annotations

from collections.abc import Sequence

from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.findings import Applicability, Fix, TextEdit
from flowdrop_lsp.core.operations import ElementRef, Operation, element_ref


def node_ref(node: Node) -> ElementRef:
    """The node as the editor addresses it (its position now, for a node without an id)."""
    index = node.editor.position() if node.editor is not None else node.index
    return element_ref("node", node.id, index)


def edge_ref(edge: Edge) -> ElementRef:
    index = edge.editor.position() if edge.editor is not None else edge.index
    return element_ref("edge", edge.id, index)


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
