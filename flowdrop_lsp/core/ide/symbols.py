"""The symbols of one analysed workflow: its nodes by role (consumers, toolboxes, tools, the
others) and its edges, for the outline and the workspace's symbols, and the fuzzy match a
symbol query makes. Spans are the elements' (no element re-read: a fast-path read of 10k nodes
stays cheap)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from itertools import islice
from typing import TYPE_CHECKING, TypeVar

from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.text.positions import Span

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.document import WorkflowDocument


class Role(str, Enum):
    CONSUMER = "Consumers"
    TOOLBOX = "Toolboxes"
    TOOL = "Tools"
    OTHER = "Other nodes"


ROLE_ORDER = (Role.CONSUMER, Role.TOOLBOX, Role.TOOL, Role.OTHER)


@dataclass(frozen=True, slots=True)
class NodeSymbol:
    node_id: str | None
    label: str | None
    type_id: str | None
    role: Role
    span: Span  # the whole element
    selection: Span  # its first character

    @property
    def name(self) -> str:
        return self.label or self.node_id or f"(node without id, type {self.type_id})"

    @property
    def detail(self) -> str:
        return " · ".join(part for part in (self.node_id or "(no id)", self.type_id) if part)


@dataclass(frozen=True, slots=True)
class EdgeSymbol:
    edge_id: str | None
    source: str | None
    target: str | None
    is_tool: bool
    span: Span
    selection: Span

    @property
    def name(self) -> str:
        return f"{self.source or '?'} → {self.target or '?'}"

    @property
    def detail(self) -> str:
        kind = "tool" if self.is_tool else "edge"
        return f"{kind} {self.edge_id}" if self.edge_id else kind


def role_of(document: WorkflowDocument, node: Node) -> Role:
    graph = document.graph
    if node.id is None:
        return Role.OTHER
    if graph.is_passthrough(node.id):
        return Role.TOOLBOX
    if graph.is_consumer(node.id):
        return Role.CONSUMER
    if node.id in graph.outgoing:
        return Role.TOOL
    return Role.OTHER


def _resolved(span: Span) -> Span:
    return span.resolve() if span.base is not None else span


Model = TypeVar("Model", Node, Edge)


def _models(
    document: WorkflowDocument, array: str, kind: type[Model], limit: int | None = None
) -> Iterator[Model]:
    """What the first `limit` elements of `array` were read as, where that is a `kind` (an
    element too broken to be one is no symbol), in document order."""
    for element in islice(document.lists[array].elements, limit):
        if isinstance(element.model, kind):
            yield element.model


def _node_symbol(document: WorkflowDocument, node: Node) -> NodeSymbol:
    span = _resolved(node.span)
    return NodeSymbol(
        node.id, node.label, node.type_id, role_of(document, node), span, _first_character(span)
    )


def _edge_symbol(edge: Edge) -> EdgeSymbol:
    span = _resolved(edge.span)
    return EdgeSymbol(edge.id, edge.source, edge.target, edge.is_tool, span, _first_character(span))


def node_symbols(document: WorkflowDocument, limit: int | None = None) -> list[NodeSymbol]:
    """The nodes as symbols, in document order (those among the first `limit` elements)."""
    return [_node_symbol(document, node) for node in _models(document, "nodes", Node, limit)]


def edge_symbols(document: WorkflowDocument) -> list[EdgeSymbol]:
    return [_edge_symbol(edge) for edge in _models(document, "edges", Edge)]


def _first_character(element: Span) -> Span:
    """Where an editor puts the cursor on a symbol: the element's first character. (Its id's
    span would mean re-reading every element of a document read by the fast path: seconds at
    10k nodes, for an outline.)"""
    return Span(element.start, min(element.start + 1, element.end))


def matches_query(query: str, *texts: str | None) -> bool:
    """Workspace-symbol matching as editors expect: the query's characters in order, ignoring
    case (`wsrch` matches "Web Search"); an empty query matches everything."""
    if not query:
        return True
    pattern = _fuzzy(query.lower())
    return any(text is not None and pattern.search(text.lower()) for text in texts)


_FUZZY_CACHE: dict[str, re.Pattern[str]] = {}


def _fuzzy(query: str) -> re.Pattern[str]:
    pattern = _FUZZY_CACHE.get(query)
    if pattern is None:
        pattern = re.compile(".*?".join(map(re.escape, query)))
        if len(_FUZZY_CACHE) > 64:
            _FUZZY_CACHE.clear()
        _FUZZY_CACHE[query] = pattern
    return pattern


def matching_nodes(document: WorkflowDocument, query: str, limit: int) -> list[NodeSymbol]:
    """Up to `limit` nodes whose id or label matches `query`; spans are read only for those."""
    matching = (
        node
        for node in _models(document, "nodes", Node)
        if matches_query(query, node.id, node.label)
    )
    return [_node_symbol(document, node) for node in islice(matching, limit)]
