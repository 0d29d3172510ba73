"""`textDocument/references`: every place a node id is used — its declaration (when asked
for), the edges' `source`/`target`, and the handles that embed it — from any of them.

An edge id that spells the node id is renamed with it (lsp/rename.py) but is not a reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.lsp.definition import locations, node_id_at
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @answers_on_failure("references", None)
    def references(
        ls: FlowdropServer, params: types.ReferenceParams
    ) -> list[types.Location] | None:
        found = node_id_at(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        document, occurrence = found
        spans = document.workflow.references(occurrence.node_id, params.context.include_declaration)
        return locations(ls, document, spans)
