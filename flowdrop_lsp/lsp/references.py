"""`textDocument/references`: every place a node id is used — its declaration (when asked
for), the edges' `source`/`target`, and the handles that embed it — from any of them.

An edge id that spells the node id is renamed with it (lsp/rename.py) but is not a reference.
"""

from __future__ import annotations

from lsprotocol import types

from flowdrop_lsp.core.navigation import REFERENCE_KINDS, Kind
from flowdrop_lsp.lsp.definition import locations, occurrence_at
from flowdrop_lsp.lsp.server import FlowdropServer

_WITHOUT_DECLARATION = REFERENCE_KINDS - {Kind.DECLARATION}


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(
        ls: FlowdropServer, params: types.ReferenceParams
    ) -> list[types.Location] | None:
        try:
            found = occurrence_at(ls, params.text_document.uri, params.position)
            if found is None or found[2] is None:
                return None
            document, index, occurrence = found
            kinds = REFERENCE_KINDS if params.context.include_declaration else _WITHOUT_DECLARATION
            return locations(ls, document, index.occurrences(occurrence.node_id, kinds))
        except Exception as error:  # noqa: BLE001 - a request never takes the server down
            ls.log_error("references", error)
            return None
