"""`textDocument/references`: every place a node id is used — its declaration (when asked
for), the edges' `source`/`target`, and the handles that embed it — from any of them.

An edge id that spells the node id is renamed with it (lsp/rename.py) but is not a reference.
"""

from __future__ import annotations

from lsprotocol import types

from flowdrop_lsp.core.ide.navigation import REFERENCE_KINDS, Kind
from flowdrop_lsp.lsp.definition import locations, node_id_at
from flowdrop_lsp.lsp.guard import answers_on_failure
from flowdrop_lsp.lsp.server import FlowdropServer

_WITHOUT_DECLARATION = REFERENCE_KINDS - {Kind.DECLARATION}


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @answers_on_failure("references", None)
    def references(
        ls: FlowdropServer, params: types.ReferenceParams
    ) -> list[types.Location] | None:
        found = node_id_at(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        document, index, occurrence = found
        kinds = REFERENCE_KINDS if params.context.include_declaration else _WITHOUT_DECLARATION
        return locations(ls, document, index.occurrences(occurrence.node_id, kinds))
