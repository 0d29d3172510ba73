"""`textDocument/definition`: from a node id where it is used (an edge's `source`/`target`, a
handle or an edge id that embeds it) to the node that declares it.

Answers from the navigation index of the analysed version (core/ide/navigation.py): the element
under the cursor and the declaring nodes are the only parts re-read. A position that is not on
a node id, or a document that is not open or not a workflow, gets no answer.
"""

from __future__ import annotations

from lsprotocol import types

from flowdrop_lsp.core.ide.navigation import NavigationIndex, Occurrence, navigation_index
from flowdrop_lsp.lsp.convert import to_range
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.documents import Document
from flowdrop_lsp.lsp.guard import answers_on_failure
from flowdrop_lsp.lsp.server import FlowdropServer


def occurrence_at(
    ls: FlowdropServer, uri: str, position: types.Position
) -> tuple[Document, NavigationIndex, Occurrence | None] | None:
    """The open workflow at `uri`, its navigation index, and the node id under `position` (in
    the negotiated encoding); None when the document is not an open workflow."""
    document = document_at(ls, uri)
    if document is None or not ls.is_flowdrop(document):
        return None
    index = navigation_index(document.engine)
    offset = document.lines.offset(position.line, position.character, ls.encoding)
    return document, index, index.occurrence_at(offset)


def node_id_at(
    ls: FlowdropServer, uri: str, position: types.Position
) -> tuple[Document, NavigationIndex, Occurrence] | None:
    """`occurrence_at` for the features that answer nothing off a node id (rename alone tells
    the two Nones apart: off a node id it refuses with a message)."""
    found = occurrence_at(ls, uri, position)
    if found is None:
        return None
    document, index, occurrence = found
    return None if occurrence is None else (document, index, occurrence)


def locations(
    ls: FlowdropServer, document: Document, occurrences: list[Occurrence]
) -> list[types.Location]:
    encoding = ls.encoding
    return [
        types.Location(uri=document.uri, range=to_range(document.lines, o.span, encoding))
        for o in occurrences
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
        document, index, occurrence = found
        return locations(ls, document, index.definitions(occurrence.node_id)) or None
