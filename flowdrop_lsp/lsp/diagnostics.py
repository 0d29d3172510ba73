"""Diagnostics: document open/change/close, pushed publishes, and pull diagnostics.

Pull (`textDocument/diagnostic`) is offered only to clients that support it and only when the
`pullDiagnostics` initialization option is not false: editors that keep pushed and pulled
diagnostics apart would otherwise show every problem twice, so our editor integrations turn it
off and rely on the push."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.lsp import node_types_sync
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.documents import Change, ChangeRejected, Document
from flowdrop_lsp.lsp.guard import answers_on_failure
from flowdrop_lsp.lsp.settings_sync import show_new_problems

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
    document = document_at(ls, params.text_document.uri)
    items: list[types.Diagnostic] = [] if document is None else _pulled_items(ls, document)
    return types.RelatedFullDocumentDiagnosticReport(items=items)


@answers_on_failure("textDocument/diagnostic", [])
def _pulled_items(ls: FlowdropServer, document: Document) -> list[types.Diagnostic]:
    return ls.diagnostics_of(document)


def enable_pull_diagnostics(ls: FlowdropServer) -> None:
    """Called during initialize, before capabilities are computed."""
    ls.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="flowdrop", inter_file_dependencies=False, workspace_diagnostics=False
        ),
    )(pull_diagnostics)


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: FlowdropServer, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        try:
            settings = ls.settings.for_uri(item.uri)
            show_new_problems(ls)  # a project file met for the first time may have a typo
            ls.documents.open(item.uri, item.language_id, item.version, item.text, settings)
        except Exception as error:  # noqa: BLE001
            ls.log_error(f"opening {item.uri}", error)
            return
        # The document now lives in our own buffer. pygls keeps the last message alive until the
        # next one arrives; without this, a large file's text would be held a second time.
        item.text = ""
        ls.schedule(item.uri)
        node_types_sync.buffer_changed(ls, item.uri)  # a node-type definition's buffer counts

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
        node_types_sync.buffer_changed(ls, uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: FlowdropServer, params: types.DidCloseTextDocumentParams) -> None:
        document = ls.documents.close(params.text_document.uri)
        node_types_sync.buffer_changed(ls, params.text_document.uri, closed=True)
        if document is not None and document.published:
            ls.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=document.uri, diagnostics=[])
            )
