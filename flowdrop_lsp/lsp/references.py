"""`textDocument/references`: every place a node id is used — its declaration (when asked
for), the edges' `source`/`target`, and the handles that embed it — from any of them. In a
site's file, on a node type (a node's `node_type_id`, or the type's own `id`): every node of
every workflow of the site naming it; on a workflow (its own `id`, a call node's label, a
calling type's `executor_plugin`): the nodes calling it and the types naming it, closed files
included (core/ide/site_navigation.py).

An edge id that spells the node id is renamed with it (lsp/rename.py) but is not a reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.lsp.definition import locations, node_id_at, site_locations, site_offset
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @answers_on_failure("references", None)
    def references(
        ls: FlowdropServer, params: types.ReferenceParams
    ) -> list[types.Location] | None:
        include_declaration = params.context.include_declaration
        found = node_id_at(ls, params.text_document.uri, params.position)
        if found is not None:
            document, occurrence = found
            spans = document.workflow.references(occurrence.node_id, include_declaration)
            return locations(ls, document, spans)
        site = site_offset(ls, params.text_document.uri, params.position)
        if site is None:
            return None
        navigation, path, offset = site
        used = navigation.references(path, offset, include_declaration)
        return site_locations(ls, navigation, used) if used else None
