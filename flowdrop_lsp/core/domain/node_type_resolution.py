"""Which candidate names a node's type: docs/domain.md §4, decided in one place for both node
readers (the tree's, core/domain/tree_reading.py; the fast path's, core/domain/value_reading.py)."""

from __future__ import annotations

from flowdrop_lsp.core.syntax.tree import JObject, JsonValue, JString

EDITOR_RENDER_TYPE = "universalNode"  # the editor's render type, never a node type id


def _string(value: JsonValue | None) -> str | None:
    return value.value if isinstance(value, JString) else None


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
