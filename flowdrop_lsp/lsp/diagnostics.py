"""Diagnostics: document open/change/close, pushed publishes, and pull diagnostics.

Pull (`textDocument/diagnostic`) is offered only to clients that support it and only when the
`pullDiagnostics` initialization option is not false: editors that keep pushed and pulled
diagnostics apart would otherwise show every problem twice, so our editor integrations turn it
off and rely on the push."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.core.facade import Changes
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.documents import (
    Change,
    ChangeRejected,
    Document,
    OpenBuffer,
    file_path,
    site_path,
)
from flowdrop_lsp.lsp.guard import answers_on_failure
from flowdrop_lsp.lsp.settings_sync import show_new_problems
from flowdrop_lsp.lsp.workspace import workspace_diagnostics

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer

log = logging.getLogger("flowdrop_lsp")


def _change(event: types.TextDocumentContentChangeEvent) -> Change:
    if isinstance(event, types.TextDocumentContentChangePartial):
        r = event.range
        return Change((r.start.line, r.start.character, r.end.line, r.end.character), event.text)
    return Change(None, event.text)


def pull_diagnostics(
    ls: FlowdropServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    uri = params.text_document.uri
    document = document_at(ls, uri)
    # Not open: perhaps a closed site file (the workspace scope).
    items = _pulled_items(ls, document) if document is not None else _closed_items(ls, uri)
    return types.RelatedFullDocumentDiagnosticReport(items=items)


@answers_on_failure("textDocument/diagnostic", [])
def _pulled_items(ls: FlowdropServer, document: Document) -> list[types.Diagnostic]:
    return ls.diagnostics_of(document)


@answers_on_failure("textDocument/diagnostic", [])
def _closed_items(ls: FlowdropServer, uri: str) -> list[types.Diagnostic]:
    path = site_path(uri)
    if path is None or not ls.workspace_scope:
        return []
    return ls.closed_diagnostics(str(path)) or []


def enable_pull_diagnostics(ls: FlowdropServer) -> None:
    """Called during initialize, before capabilities are computed. A file's diagnostics
    depend on other files (its site), and the whole workspace's are answered."""
    ls.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="flowdrop", inter_file_dependencies=True, workspace_diagnostics=True
        ),
    )(pull_diagnostics)
    ls.feature(types.WORKSPACE_DIAGNOSTIC)(workspace_diagnostics)


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: FlowdropServer, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        try:
            settings = ls.settings.for_uri(item.uri)
            show_new_problems(ls)  # a project file met for the first time may have a typo
            document = ls.documents.open(
                item.uri, item.language_id, item.version, item.text, settings
            )
            path = file_path(item.uri)
            if path is not None:  # the host answers its findings from its buffer from now on
                ls.host.open(path, OpenBuffer(document, ls.is_flowdrop))
        except Exception as error:  # noqa: BLE001
            ls.log_error(f"opening {item.uri}", error)
            return
        # The document now lives in our own buffer. pygls keeps the last message alive until the
        # next one arrives; without this, a large file's text would be held a second time.
        item.text = ""
        ls.schedule(item.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: FlowdropServer, params: types.DidChangeTextDocumentParams) -> None:
        uri, version = params.text_document.uri, params.text_document.version
        document = ls.documents.get(uri)
        if document is None:
            return
        try:
            document.apply(
                map(_change, params.content_changes), params.text_document.version, ls.encoding
            )
        except ChangeRejected as rejected:
            # Our buffer would no longer be the client's: keep it, say so once per document.
            log.warning("change to %s (version %s) not applied: %s", uri, version, rejected)
            if not document.warned:
                document.warned = True
                ls.window_show_message(
                    types.ShowMessageParams(
                        type=types.MessageType.Warning,
                        message=f"FlowDrop: a change to {uri} could not be applied ({rejected}); "
                        "diagnostics are paused for this file. Close and reopen it.",
                    )
                )
            if document.published:  # their positions no longer match the client's text
                document.published = False
                ls.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
                )
            return
        except Exception as error:  # noqa: BLE001
            ls.log_error(f"applying a change to {uri}", error)
        ls.schedule(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: FlowdropServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        # The disk wins again: a site file is read from it (what depended on the buffer is
        # re-published, and the file itself as a closed one under the workspace scope, when it
        # is on disk); a node type's registry reads the disk again. The host is told first: a
        # buffer saved as it is gives it its findings and facts, from its analysis still open.
        path = file_path(uri)
        changes = Changes()
        if path is not None and ls.documents.get(uri) is not None:
            changes = ls.host.close(path)
        document = ls.documents.close(uri)
        closed_published = False
        if (
            path is not None
            and site_path(uri) is not None
            and ls.workspace_scope
            and ls.host.text(str(path)) is not None
        ):
            try:
                ls.publish_closed(ls.host.key(path))
                closed_published = True
            except Exception as error:  # noqa: BLE001
                ls.log_error(f"publishing {path}", error)
            changes.stale.discard(ls.host.key(path))
        if document is not None and document.published and not closed_published:
            ls.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=document.uri, diagnostics=[])
            )
        ls.apply_changes(changes)
