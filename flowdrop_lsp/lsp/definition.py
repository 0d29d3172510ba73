"""`textDocument/definition`: from a node id where it is used (an edge's `source`/`target`, a
handle or an edge id that embeds it) to the node that declares it.

Answers from the navigation queries of the analysed version (core/ide/navigation.py, asked
through core/ide/service.py): the element under the cursor and the declaring nodes are the
only parts re-read. A position that is not on a node id, or a document that is not open or not
a workflow, gets no answer. The helpers here serve references, highlights and rename too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.lsp.convert import to_range
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.core.ide.service import Occurrence
    from flowdrop_lsp.core.text.positions import Span
    from flowdrop_lsp.lsp.documents import Document
    from flowdrop_lsp.lsp.server import FlowdropServer


def occurrence_at(
    ls: FlowdropServer, uri: str, position: types.Position
) -> tuple[Document, Occurrence | None] | None:
    """The open workflow at `uri` and the node id under `position` (in the negotiated
    encoding); None when the document is not an open workflow."""
    document = document_at(ls, uri)
    if document is None or not ls.is_flowdrop(document):
        return None
    offset = document.lines.offset(position.line, position.character, ls.encoding)
    return document, document.workflow.node_id_at(offset)


def node_id_at(
    ls: FlowdropServer, uri: str, position: types.Position
) -> tuple[Document, Occurrence] | None:
    """`occurrence_at` for the features that answer nothing off a node id (rename alone tells
    the two Nones apart: off a node id it refuses with a message)."""
    found = occurrence_at(ls, uri, position)
    if found is None:
        return None
    document, occurrence = found
    return None if occurrence is None else (document, occurrence)


def locations(ls: FlowdropServer, document: Document, spans: list[Span]) -> list[types.Location]:
    encoding = ls.encoding
    return [
        types.Location(uri=document.uri, range=to_range(document.lines, span, encoding))
        for span in spans
    ]


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @answers_on_failure("definition", None)
    def definition(
        ls: FlowdropServer, params: types.DefinitionParams
    ) -> list[types.Location] | None:
        found = node_id_at(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        document, occurrence = found
        return locations(ls, document, document.workflow.definitions(occurrence.node_id)) or None
