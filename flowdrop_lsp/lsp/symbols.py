"""`textDocument/documentSymbol` and `workspace/symbol`.

Document symbols: the nodes grouped by role — consumers, toolboxes, tools, other nodes (roles
from the tool graph the analysis keeps) — each named by its label (else its id) with its id and
type as detail, then the edges (`source → target`). Clients without hierarchical symbols get
the same as a flat list, the group as container name. Workspace symbols: the nodes of every
open workflow whose id or label matches the query (the query's characters in order, ignoring
case), at most MAX_WORKSPACE_SYMBOLS of them.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from lsprotocol import types

from flowdrop_lsp.core.ide.navigation import (
    ROLE_ORDER,
    EdgeSymbol,
    NodeSymbol,
    Role,
    edge_symbols,
    matching_nodes,
    node_symbols,
)
from flowdrop_lsp.core.text.positions import EditableText, Encoding, Span, units_in
from flowdrop_lsp.lsp.convert import to_range
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.documents import Document, uri_path
from flowdrop_lsp.lsp.guard import answers_on_failure
from flowdrop_lsp.lsp.server import FlowdropServer

MAX_WORKSPACE_SYMBOLS = 500
EDGES = "Edges"

KIND_OF_ROLE = {
    Role.CONSUMER: types.SymbolKind.Class,
    Role.TOOLBOX: types.SymbolKind.Package,
    Role.TOOL: types.SymbolKind.Function,
    Role.OTHER: types.SymbolKind.Object,
}


def _node_detail(symbol: NodeSymbol) -> str:
    parts = [symbol.node_id or "(no id)"]
    if symbol.type_id:
        parts.append(symbol.type_id)
    return " · ".join(parts)


def _edge_detail(symbol: EdgeSymbol) -> str:
    kind = "tool" if symbol.is_tool else "edge"
    return f"{kind} {symbol.edge_id}" if symbol.edge_id else kind


def _group_span(document: Document, array: str, children: list[Span]) -> Span:
    """A group covers its array (so every child's range is inside it)."""
    bounds = document.engine.array_spans.get(array)
    if bounds is not None:
        return Span(bounds[0], bounds[1])
    return Span(min(s.start for s in children), max(s.end for s in children))


class _Positions:
    """Positions of many offsets at once: one sweep down the lines in offset order, instead of
    a binary search per offset (an outline of 10k nodes asks for 40k positions)."""

    def __init__(self, lines: EditableText, offsets: list[int], encoding: Encoding) -> None:
        self.found: dict[int, types.Position] = {}
        line, line_count = 0, len(lines.lines)
        for offset in sorted(set(offsets)):
            while line + 1 < line_count and lines.line_start(line + 1) <= offset:
                line += 1
            start = lines.line_start(line)
            character = units_in(lines.slice(start, offset), encoding)
            self.found[offset] = types.Position(line=line, character=character)

    def range(self, span: Span) -> types.Range:
        return types.Range(start=self.found[span.start], end=self.found[span.end])


def _group(
    name: str, span: Span, children: list[types.DocumentSymbol], at: _Positions
) -> types.DocumentSymbol:
    """A role's nodes, or the edges, under one symbol that covers their array (its count as
    detail, selected at the array's start)."""
    return types.DocumentSymbol(
        name=name,
        detail=str(len(children)),
        kind=types.SymbolKind.Namespace,
        range=at.range(span),
        selection_range=at.range(Span(span.start, span.start)),
        children=children,
    )


def document_symbols(ls: FlowdropServer, document: Document) -> list[types.DocumentSymbol]:
    engine = document.engine
    nodes = node_symbols(engine)
    edges = edge_symbols(engine)
    node_group = _group_span(document, "nodes", [n.span for n in nodes]) if nodes else None
    edge_group = _group_span(document, "edges", [e.span for e in edges]) if edges else None
    groups_at = [g for g in (node_group, edge_group) if g is not None]
    offsets = [o for n in nodes for o in (n.span.start, n.span.end, n.selection.end)]
    offsets += [o for e in edges for o in (e.span.start, e.span.end, e.selection.end)]
    offsets += [o for g in groups_at for o in (g.start, g.end)]
    at = _Positions(document.lines, offsets, ls.encoding)
    groups: list[types.DocumentSymbol] = []
    for role in ROLE_ORDER:
        members = [n for n in nodes if n.role is role]
        if not members or node_group is None:
            continue
        children = [
            types.DocumentSymbol(
                name=n.name,
                detail=_node_detail(n),
                kind=KIND_OF_ROLE[n.role],
                range=at.range(n.span),
                selection_range=at.range(n.selection),
            )
            for n in members
        ]
        groups.append(_group(role.value, node_group, children, at))
    if edges and edge_group is not None:
        children = [
            types.DocumentSymbol(
                name=e.name,
                detail=_edge_detail(e),
                kind=types.SymbolKind.Event,
                range=at.range(e.span),
                selection_range=at.range(e.selection),
            )
            for e in edges
        ]
        groups.append(_group(EDGES, edge_group, children, at))
    return groups


def flat_symbols(groups: list[types.DocumentSymbol], uri: str) -> list[types.SymbolInformation]:
    return [
        types.SymbolInformation(
            name=child.name,
            kind=child.kind,
            location=types.Location(uri=uri, range=child.range),
            container_name=group.name,
        )
        for group in groups
        for child in group.children or ()
    ]


def _file_name(uri: str) -> str:
    path = uri_path(uri)
    return path.name if path is not None else PurePosixPath(uri).name


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @answers_on_failure("documentSymbol", None)
    def document_symbol(
        ls: FlowdropServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
        document = document_at(ls, params.text_document.uri)
        if document is None or not ls.is_flowdrop(document):
            return None
        groups = document_symbols(ls, document)
        hierarchical = ls._capability(
            "text_document", "document_symbol", "hierarchical_document_symbol_support"
        )
        return groups if hierarchical else flat_symbols(groups, document.uri)

    @server.feature(types.WORKSPACE_SYMBOL)
    @answers_on_failure("workspace/symbol", None)
    def workspace_symbol(
        ls: FlowdropServer, params: types.WorkspaceSymbolParams
    ) -> list[types.WorkspaceSymbol] | None:
        found: list[types.WorkspaceSymbol] = []
        for opened in ls.documents.all():
            room = MAX_WORKSPACE_SYMBOLS - len(found)
            if room <= 0:
                break
            # The one way to a document's analysis (it refuses a buffer out of sync).
            document = document_at(ls, opened.uri)
            if document is None or not ls.is_flowdrop(document):
                continue
            for node in matching_nodes(document.engine, params.query, room):
                found.append(
                    types.WorkspaceSymbol(
                        name=node.name,
                        kind=KIND_OF_ROLE[node.role],
                        location=types.Location(
                            uri=document.uri,
                            range=to_range(document.lines, node.span, ls.encoding),
                        ),
                        container_name=f"{node.node_id} · {_file_name(document.uri)}",
                    )
                )
        return found
