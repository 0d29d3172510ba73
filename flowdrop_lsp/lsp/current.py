"""The one way a feature gets the analysis it answers from: the server's own buffers.

The server keeps its own documents (lsp/documents.py) and never feeds pygls's workspace, so
pygls's `workspace.get_text_document(uri)` would silently read the file from disk — an older
text than the one being edited, positions that do not match. `BuffersOnlyWorkspace` makes that
read fail loudly instead, and `document_at` is what every request handler uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pygls.workspace import Workspace

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.documents import Document
    from flowdrop_lsp.lsp.server import FlowdropServer


class WorkspaceReadRefused(RuntimeError):
    """A feature asked pygls's workspace for a document's text: use `document_at` instead."""


class BuffersOnlyWorkspace(Workspace):
    """pygls's workspace (folders, position encoding) without its text documents."""

    def get_text_document(self, doc_uri: str) -> Any:
        raise WorkspaceReadRefused(
            f"pygls's workspace holds no text (it would read {doc_uri} from disk); "
            "use flowdrop_lsp.lsp.current.document_at"
        )

    def _create_text_document(self, *args: Any, **kwargs: Any) -> Any:
        raise WorkspaceReadRefused("pygls's workspace holds no text documents")


def document_at(ls: FlowdropServer, uri: str) -> Document | None:
    """The open document at `uri` with its current analysis, or None when it is not open (a
    request about a closed document is answered empty, never from disk) or when its buffer is
    no longer the client's (a change could not be applied: positions and edits computed from
    it would land in the wrong place until the client sends the full text again)."""
    document = ls.documents.get(uri)
    if document is None or document.out_of_sync:
        return None
    return document
