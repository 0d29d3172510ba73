"""`textDocument/definition`: from a node id where it is used (an edge's `source`/`target`, a
handle or an edge id that embeds it) to the node that declares it; and, in a site's file, from
a node's type (`node_type_id`) to its node type's `id`, from a call node's label or a calling
type's `executor_plugin` to the called workflow's `id` — in another file, open or not.

Answers from the navigation queries of the analysed version (core/ide/navigation.py, asked
through core/ide/service.py): the element under the cursor and the declaring nodes are the
only parts re-read. Across files, from the site navigation (core/ide/site_navigation.py) over
the site index `server.sites` holds for the document's folder; another file's ranges are
converted with that file's text as the index read it. A position on neither, or a document
that is not open, gets no answer. The helpers here serve references, highlights, rename,
hover and workspace symbols too.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.core.facade import LineIndex
from flowdrop_lsp.core.ide.service import SiteNavigation
from flowdrop_lsp.lsp.convert import to_range
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.documents import uri_path
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.core.facade import Span
    from flowdrop_lsp.core.ide.service import Occurrence, SiteLocation
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


# ----- across the files of a site -------------------------------------------------------------


def site_path(uri: str) -> Path | None:
    path = uri_path(uri)
    return Path(path) if path is not None and path.is_absolute() else None


def site_of(ls: FlowdropServer, document: Document) -> tuple[SiteNavigation, str] | None:
    """The site navigation of the site the document is a file of, and the document's key in
    its index; None when it is in no site, or when the index read another text than the buffer
    (its spans would not match the cursor's offsets)."""
    path = site_path(document.uri)
    if path is None:
        return None
    index = ls.host.index_for(path)
    key = str(path)
    if index is None or key not in index or index.text(key) != document.text:
        return None
    return SiteNavigation(index), key


def site_offset(
    ls: FlowdropServer, uri: str, position: types.Position
) -> tuple[SiteNavigation, str, int] | None:
    """The site of the open document at `uri`, its key and the offset of `position`."""
    document = document_at(ls, uri)
    if document is None:
        return None
    site = site_of(ls, document)
    if site is None:
        return None
    offset = document.lines.offset(position.line, position.character, ls.encoding)
    return site[0], site[1], offset


def uri_of(ls: FlowdropServer, path: str) -> str:
    """The uri of a site file: an open document's own (as the client spelled it), else the
    file's."""
    wanted = PurePosixPath(path)
    for document in ls.documents.all():
        if uri_path(document.uri) == wanted:
            return document.uri
    return Path(path).as_uri()


def site_locations(
    ls: FlowdropServer, navigation: SiteNavigation, found: list[SiteLocation]
) -> list[types.Location]:
    """Spans in the site's files as locations, each converted with its file's text."""
    encoding = ls.encoding
    lines: dict[str, tuple[str, LineIndex] | None] = {}
    answer: list[types.Location] = []
    for location in found:
        if location.path not in lines:
            text = navigation.index.text(location.path)
            lines[location.path] = (
                (uri_of(ls, location.path), LineIndex(text)) if text is not None else None
            )
        known = lines[location.path]
        if known is not None:
            uri, index = known
            answer.append(types.Location(uri=uri, range=to_range(index, location.span, encoding)))
    return answer


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @answers_on_failure("definition", None)
    def definition(
        ls: FlowdropServer, params: types.DefinitionParams
    ) -> list[types.Location] | None:
        found = node_id_at(ls, params.text_document.uri, params.position)
        if found is not None:
            document, occurrence = found
            spans = document.workflow.definitions(occurrence.node_id)
            return locations(ls, document, spans) or None
        open_document = document_at(ls, params.text_document.uri)
        if open_document is not None and ls.is_flowdrop(open_document):
            position = params.position
            lines = open_document.lines
            offset = lines.offset(position.line, position.character, ls.encoding)
            inside = open_document.workflow.expression_definitions(offset)
            if inside:
                return locations(ls, open_document, inside)
        site = site_offset(ls, params.text_document.uri, params.position)
        if site is None:
            return None
        navigation, path, offset = site
        return site_locations(ls, navigation, navigation.definitions(path, offset)) or None
