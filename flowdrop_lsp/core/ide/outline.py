"""The document outline: the nodes grouped by role — consumers, toolboxes, tools, other nodes
(roles from the tool graph the analysis keeps) — then the edges, each group covering its array.

The symbols themselves (names, details, spans) are core/ide/symbols.py's; this module only
groups them as an outline shows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flowdrop_lsp.core.ide.symbols import (
    ROLE_ORDER,
    EdgeSymbol,
    NodeSymbol,
    edge_symbols,
    node_symbols,
)
from flowdrop_lsp.core.text.positions import Span

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.document import WorkflowDocument

EDGES = "Edges"


@dataclass(frozen=True, slots=True)
class SymbolGroup:
    """A role's nodes, or the edges, under one name; `span` covers their array (so every
    member's span is inside it)."""

    name: str
    span: Span
    members: tuple[NodeSymbol, ...] | tuple[EdgeSymbol, ...]


def _group_span(document: WorkflowDocument, array: str, children: Sequence[Span]) -> Span:
    bounds = document.array_spans.get(array)
    if bounds is not None:
        return Span(bounds[0], bounds[1])
    return Span(min(s.start for s in children), max(s.end for s in children))


def outline(document: WorkflowDocument) -> list[SymbolGroup]:
    """The groups that have members, consumers first and edges last."""
    nodes = node_symbols(document)
    edges = edge_symbols(document)
    groups: list[SymbolGroup] = []
    if nodes:
        node_group = _group_span(document, "nodes", [n.span for n in nodes])
        for role in ROLE_ORDER:
            members = tuple(n for n in nodes if n.role is role)
            if members:
                groups.append(SymbolGroup(role.value, node_group, members))
    if edges:
        groups.append(
            SymbolGroup(
                EDGES, _group_span(document, "edges", [e.span for e in edges]), tuple(edges)
            )
        )
    return groups
