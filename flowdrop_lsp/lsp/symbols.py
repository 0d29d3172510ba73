"""`textDocument/documentSymbol` and `workspace/symbol`.

Document symbols: the nodes grouped by role — consumers, toolboxes, tools, other nodes (roles
from the tool graph the analysis keeps) — each named by its label (else its id) with its id and
type as detail, then the edges (`source → target`). Clients without hierarchical symbols get
the same as a flat list, the group as container name. Workspace symbols: the workflows and node
types of every site the server knows (the sites of the open documents included), then the
nodes of every open workflow, then the nodes of the sites' other workflows (closed files) —
those whose id or label matches the query (the query's characters in order, ignoring case), at
most MAX_WORKSPACE_SYMBOLS of them.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.core.facade import Span
from flowdrop_lsp.core.ide.service import (
    EdgeSymbol,
    NodeSymbol,
    Role,
    SiteLocation,
    SiteNavigation,
    SymbolKind,
)
from flowdrop_lsp.lsp.convert import RangeSweep, to_range
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.definition import site_locations, site_path
from flowdrop_lsp.lsp.documents import Document, uri_path
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer

MAX_WORKSPACE_SYMBOLS = 500

KIND_OF_ROLE = {
    Role.CONSUMER: types.SymbolKind.Class,
    Role.TOOLBOX: types.SymbolKind.Package,
    Role.TOOL: types.SymbolKind.Function,
    Role.OTHER: types.SymbolKind.Object,
}


KIND_OF_SITE_SYMBOL = {
    SymbolKind.WORKFLOW: types.SymbolKind.Module,
    SymbolKind.NODE_TYPE: types.SymbolKind.Interface,
    SymbolKind.NODE: types.SymbolKind.Object,
}
_DECLARED = frozenset({SymbolKind.WORKFLOW, SymbolKind.NODE_TYPE})
_NODES = frozenset({SymbolKind.NODE})


def _kind(symbol: NodeSymbol | EdgeSymbol) -> types.SymbolKind:
    return KIND_OF_ROLE[symbol.role] if isinstance(symbol, NodeSymbol) else types.SymbolKind.Event


def document_symbols(ls: FlowdropServer, document: Document) -> list[types.DocumentSymbol]:
    """The outline (core/ide/outline.py): each group covers its array, its member count as
    detail, selected at the array's start."""
    groups = document.workflow.outline()
    offsets = [o for g in groups for o in (g.span.start, g.span.end)]
    offsets += [
        o for g in groups for m in g.members for o in (m.span.start, m.span.end, m.selection.end)
    ]
    at = RangeSweep(document.lines, offsets, ls.encoding)
    return [
        types.DocumentSymbol(
            name=group.name,
            detail=str(len(group.members)),
            kind=types.SymbolKind.Namespace,
            range=at.range(group.span),
            selection_range=at.range(Span(group.span.start, group.span.start)),
            children=[
                types.DocumentSymbol(
                    name=member.name,
                    detail=member.detail,
                    kind=_kind(member),
                    range=at.range(member.span),
                    selection_range=at.range(member.selection),
                )
                for member in group.members
            ],
        )
        for group in groups
    ]


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


def _site_symbols(
    ls: FlowdropServer,
    sites: list[SiteNavigation],
    query: str,
    room: int,
    kinds: frozenset[SymbolKind],
    skip_nodes_of: frozenset[str] = frozenset(),
) -> list[types.WorkspaceSymbol]:
    found: list[types.WorkspaceSymbol] = []
    for navigation in sites:
        if room - len(found) <= 0:
            break
        symbols = [
            symbol
            for symbol in navigation.symbols(query, room - len(found), skip_nodes_of, kinds)
            if navigation.index.text(symbol.path) is not None
        ]
        located = site_locations(
            ls, navigation, [SiteLocation(symbol.path, symbol.span) for symbol in symbols]
        )
        for symbol, location in zip(symbols, located, strict=True):
            file_name = _file_name(location.uri)
            found.append(
                types.WorkspaceSymbol(
                    name=symbol.name,
                    kind=KIND_OF_SITE_SYMBOL[symbol.kind],
                    location=location,
                    container_name=f"{symbol.detail} · {file_name}",
                )
            )
    return found


def _sites(ls: FlowdropServer, documents: list[Document]) -> list[SiteNavigation]:
    """The site navigation of every site the server knows, the open documents' sites read
    first (a site is read from disk on its first use)."""
    for document in documents:
        path = site_path(document.uri)
        if path is not None:
            ls.host.index_for(path)
    return [SiteNavigation(index) for index in ls.host.indexes()]


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
        hierarchical = ls.capability(
            "text_document", "document_symbol", "hierarchical_document_symbol_support"
        )
        return groups if hierarchical else flat_symbols(groups, document.uri)

    @server.feature(types.WORKSPACE_SYMBOL)
    @answers_on_failure("workspace/symbol", None)
    def workspace_symbol(
        ls: FlowdropServer, params: types.WorkspaceSymbolParams
    ) -> list[types.WorkspaceSymbol] | None:
        query = params.query
        opened = ls.documents.all()
        sites = _sites(ls, opened)
        found = _site_symbols(ls, sites, query, MAX_WORKSPACE_SYMBOLS, _DECLARED)
        listed: set[str] = set()
        for each in opened:
            room = MAX_WORKSPACE_SYMBOLS - len(found)
            if room <= 0:
                break
            # The one way to a document's analysis (it refuses a buffer out of sync).
            document = document_at(ls, each.uri)
            if document is None or not ls.is_flowdrop(document):
                continue
            path = site_path(document.uri)
            if path is not None:
                listed.add(str(path))
            for node in document.workflow.matching_nodes(query, room):
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
        room = MAX_WORKSPACE_SYMBOLS - len(found)
        return found + _site_symbols(ls, sites, query, room, _NODES, frozenset(listed))
