#!/usr/bin/env python3
"""The pygls transport floor: a pygls 2 server that, on didOpen and didChange,
publishes one fixed diagnostic carrying the document's version. No parsing, and the
document is not even stored (pygls' stock workspace would rebuild the whole string per
change, which is not transport cost). What remains is: reading and decoding the JSON-RPC
message, converting it to lsprotocol types, and writing one publishDiagnostics.

Run: python bench/floor_server.py   (stdio)
"""

from __future__ import annotations

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

_DIAGNOSTIC = types.Diagnostic(
    range=types.Range(start=types.Position(0, 0), end=types.Position(0, 1)),
    message="floor: fixed diagnostic",
    severity=types.DiagnosticSeverity.Information,
    source="bench-floor",
)


class FloorProtocol(LanguageServerProtocol):
    """Replaces pygls' built-in document-sync handlers: publish, don't store."""

    def _publish(self, uri: str, version: int) -> None:
        self._server.text_document_publish_diagnostics(  # type: ignore[attr-defined]
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[_DIAGNOSTIC])
        )

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        self._publish(params.text_document.uri, params.text_document.version)
        yield from ()

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        self._publish(params.text_document.uri, params.text_document.version)
        yield from ()

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        yield from ()


def main() -> None:
    server = LanguageServer("flowdrop-bench-floor", "1", protocol_cls=FloorProtocol)
    server.start_io()


if __name__ == "__main__":
    main()
