"""A request whose feature fails inside is still answered — with the feature's empty answer —
and the failure is logged with what was asked; the server keeps serving.

The handlers are called in-process as pygls registered them, with the server's buffers made to
fail, so every feature's own failure path runs (no feature is left out: the list below must
name every request handler the server registers).
"""

from __future__ import annotations

from typing import Any

import pytest
from lsprotocol import types

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.lsp import diagnostics
from flowdrop_lsp.lsp.app import create_server
from flowdrop_lsp.lsp.code_lens import SHOW_TOOLS
from flowdrop_lsp.lsp.commands import STATS
from flowdrop_lsp.lsp.server import FlowdropServer

URI = "file:///work/flow.flowdrop.json"
DOC = types.TextDocumentIdentifier(uri=URI)
HERE = types.Position(line=0, character=1)
SPAN = types.Range(start=HERE, end=HERE)

# method → (params, the empty answer, the context the failure is logged under)
REQUESTS: dict[str, tuple[Any, Any, str]] = {
    types.TEXT_DOCUMENT_CODE_ACTION: (
        types.CodeActionParams(
            text_document=DOC, range=SPAN, context=types.CodeActionContext(diagnostics=[])
        ),
        [],
        "textDocument/codeAction",
    ),
    types.TEXT_DOCUMENT_CODE_LENS: (
        types.CodeLensParams(text_document=DOC),
        [],
        "textDocument/codeLens",
    ),
    types.TEXT_DOCUMENT_COMPLETION: (
        types.CompletionParams(text_document=DOC, position=HERE),
        None,
        "completion",
    ),
    types.TEXT_DOCUMENT_DEFINITION: (
        types.DefinitionParams(text_document=DOC, position=HERE),
        None,
        "definition",
    ),
    types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT: (
        types.DocumentHighlightParams(text_document=DOC, position=HERE),
        None,
        "documentHighlight",
    ),
    types.TEXT_DOCUMENT_HOVER: (
        types.HoverParams(text_document=DOC, position=HERE),
        None,
        "textDocument/hover",
    ),
    types.TEXT_DOCUMENT_INLAY_HINT: (
        types.InlayHintParams(text_document=DOC, range=SPAN),
        [],
        "textDocument/inlayHint",
    ),
    types.TEXT_DOCUMENT_REFERENCES: (
        types.ReferenceParams(
            text_document=DOC,
            position=HERE,
            context=types.ReferenceContext(include_declaration=True),
        ),
        None,
        "references",
    ),
    types.TEXT_DOCUMENT_PREPARE_RENAME: (
        types.PrepareRenameParams(text_document=DOC, position=HERE),
        None,
        "prepareRename",
    ),
    types.TEXT_DOCUMENT_RENAME: (
        types.RenameParams(text_document=DOC, position=HERE, new_name="renamed"),
        None,
        "rename",
    ),
    types.TEXT_DOCUMENT_DOCUMENT_SYMBOL: (
        types.DocumentSymbolParams(text_document=DOC),
        None,
        "documentSymbol",
    ),
    types.WORKSPACE_SYMBOL: (
        types.WorkspaceSymbolParams(query="agent"),
        None,
        "workspace/symbol",
    ),
}
# Notifications, and the hook pygls calls inside its own `initialize`: no feature's answer.
NOT_REQUESTS = {
    types.INITIALIZE,
    types.INITIALIZED,
    types.TEXT_DOCUMENT_DID_OPEN,
    types.TEXT_DOCUMENT_DID_CHANGE,
    types.TEXT_DOCUMENT_DID_CLOSE,
    types.WORKSPACE_DID_CHANGE_CONFIGURATION,
    types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
}


class FailingBuffers:
    """The server's document store, broken: every read of it raises."""

    def get(self, uri: str) -> Any:
        raise RuntimeError(f"boom reading {uri}")

    def all(self) -> Any:
        raise RuntimeError("boom listing the documents")


def _failing_server() -> tuple[FlowdropServer, list[tuple[str, BaseException]]]:
    server = create_server()
    logged: list[tuple[str, BaseException]] = []
    server.log_error = lambda context, error: logged.append((context, error))  # type: ignore[method-assign]
    server.documents = FailingBuffers()  # type: ignore[assignment]
    return server, logged


def test_every_request_handler_the_server_registers_is_listed_here() -> None:
    registered = set(create_server().protocol.fm.features)
    assert registered - NOT_REQUESTS == set(REQUESTS)


@pytest.mark.parametrize("method", sorted(REQUESTS))
def test_a_failing_feature_answers_empty_and_logs_why(method: str) -> None:
    server, logged = _failing_server()
    params, empty, context = REQUESTS[method]
    handler = server.protocol.fm.features[method]
    assert handler(params) == empty
    assert [(c, type(e)) for c, e in logged] == [(context, RuntimeError)]
    assert "boom" in str(logged[0][1])


def test_an_empty_list_answer_is_a_new_list_each_time() -> None:
    """A caller that appends to one answer must not find it in the next."""
    server, _logged = _failing_server()
    params, _empty, _context = REQUESTS[types.TEXT_DOCUMENT_CODE_LENS]
    handler = server.protocol.fm.features[types.TEXT_DOCUMENT_CODE_LENS]
    first = handler(params)
    first.append("kept")
    assert handler(params) == []


def test_a_failing_show_tools_command_answers_none_and_logs_why() -> None:
    server, logged = _failing_server()
    show_tools = server.protocol.fm.commands[SHOW_TOOLS]
    assert show_tools(URI, "agent") is None
    assert [(c, type(e)) for c, e in logged] == [(SHOW_TOOLS, RuntimeError)]


def test_the_stats_command_is_not_guarded_its_failure_reaches_pygls() -> None:
    """pygls answers a failing command with an error response: flowdrop.stats is a test aid."""
    server, logged = _failing_server()
    with pytest.raises(RuntimeError):
        server.protocol.fm.commands[STATS](URI)
    assert logged == []


def test_failing_pull_diagnostics_answer_an_empty_report_and_log_why() -> None:
    server = create_server()
    logged: list[tuple[str, BaseException]] = []
    server.log_error = lambda context, error: logged.append((context, error))  # type: ignore[method-assign]
    server.documents.open(URI, "json", 1, '{"nodes": [], "edges": []}', Settings())

    def failing_diagnostics(document: Any) -> list[types.Diagnostic]:
        raise RuntimeError("boom analysing")

    server.diagnostics_of = failing_diagnostics  # type: ignore[method-assign]
    report = diagnostics.pull_diagnostics(server, types.DocumentDiagnosticParams(text_document=DOC))
    assert report == types.RelatedFullDocumentDiagnosticReport(items=[])
    assert [(c, type(e)) for c, e in logged] == [("textDocument/diagnostic", RuntimeError)]
