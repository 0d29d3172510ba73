"""`textDocument/prepareRename` and `textDocument/rename` of a node id.

From any place the id occurs (declaration, endpoint, handle, edge id), the rename edits the id
everywhere: the node's `id`, every edge endpoint, the handles and the edge ids that embed it
(core/ide/navigation.py, asked through core/ide/service.py), written as the document's format writes strings. Refused with
an error the editor shows: a position that is not on a node id, an empty id, or an id that
another node already has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from flowdrop_lsp.core.ide.service import RenameRefused
from flowdrop_lsp.lsp.convert import to_range, workspace_edit
from flowdrop_lsp.lsp.definition import occurrence_at
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.core.ide.service import Occurrence
    from flowdrop_lsp.lsp.documents import Document
    from flowdrop_lsp.lsp.server import FlowdropServer

REQUEST_FAILED = -32803  # LSP's RequestFailed: the request was valid, the answer is "no"
NOT_AN_ID = (
    "Only a node id can be renamed here: put the cursor on a node's id, an edge's source or "
    "target, or a handle that starts with a node id."
)


def _refuse(message: str) -> JsonRpcException:
    return JsonRpcException(message, code=REQUEST_FAILED)


def register(server: FlowdropServer) -> None:
    # A refusal (JsonRpcException) is the answer the editor shows: it is not a failure.
    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    @answers_on_failure("prepareRename", None, passing=(JsonRpcException,))
    def prepare_rename(
        ls: FlowdropServer, params: types.PrepareRenameParams
    ) -> types.PrepareRenamePlaceholder | None:
        return _prepare(ls, params)

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    @answers_on_failure("rename", None, passing=(JsonRpcException,))
    def rename(ls: FlowdropServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        return _rename(ls, params)


def _renamed_at(
    ls: FlowdropServer, params: types.PrepareRenameParams | types.RenameParams
) -> tuple[Document, Occurrence] | None:
    """The node id a rename at `params` would rename; None when the document is not an open
    workflow; refused (with why) when the position is not on a node id."""
    found = occurrence_at(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    document, occurrence = found
    if occurrence is None:
        raise _refuse(NOT_AN_ID)
    return document, occurrence


def _prepare(
    ls: FlowdropServer, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | None:
    found = _renamed_at(ls, params)
    if found is None:
        return None
    document, occurrence = found
    return types.PrepareRenamePlaceholder(
        range=to_range(document.lines, occurrence.span, ls.encoding),
        placeholder=occurrence.node_id,
    )


def _rename(ls: FlowdropServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    found = _renamed_at(ls, params)
    if found is None:
        return None
    document, occurrence = found
    try:
        edits = document.workflow.rename_edits(occurrence.node_id, params.new_name)
    except RenameRefused as refused:
        raise _refuse(str(refused)) from None
    encoding = ls.encoding
    text_edits = [
        types.TextEdit(range=to_range(document.lines, e.span, encoding), new_text=e.new_text)
        for e in edits
    ]
    return workspace_edit(document.uri, document.version, text_edits, ls.supports_document_changes)
