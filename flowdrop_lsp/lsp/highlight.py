"""`textDocument/documentHighlight`: the node id under the cursor, wherever the document uses
it — its declaration (`Write`: that is where it is defined) and its references (`Read`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.lsp.convert import to_range
from flowdrop_lsp.lsp.definition import node_id_at
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    @answers_on_failure("documentHighlight", None)
    def highlight(
        ls: FlowdropServer, params: types.DocumentHighlightParams
    ) -> list[types.DocumentHighlight] | None:
        found = node_id_at(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        document, occurrence = found
        encoding = ls.encoding
        return [
            types.DocumentHighlight(
                range=to_range(document.lines, h.span, encoding),
                kind=types.DocumentHighlightKind.Write
                if h.is_declaration
                else types.DocumentHighlightKind.Read,
            )
            for h in document.workflow.highlights(occurrence.node_id)
        ]
