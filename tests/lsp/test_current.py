"""Features answer from the server's buffers; pygls's workspace can never read a file from disk."""

from __future__ import annotations

import pytest

from flowdrop_lsp.lsp.app import create_server
from flowdrop_lsp.lsp.current import BuffersOnlyWorkspace, WorkspaceReadRefused, document_at


def test_the_workspace_pygls_creates_refuses_text_reads(tmp_path):
    on_disk = tmp_path / "flow.flowdrop.json"
    on_disk.write_text('{"nodes": [], "edges": []}')
    server = create_server()
    protocol = server.protocol
    from pygls.workspace import Workspace

    protocol._workspace = Workspace(tmp_path.as_uri())  # what pygls's initialize does
    assert isinstance(server.workspace, BuffersOnlyWorkspace)
    with pytest.raises(WorkspaceReadRefused):
        server.workspace.get_text_document(on_disk.as_uri())
    assert server.workspace.root_uri == tmp_path.as_uri()  # the rest of it still works


def test_document_at_answers_only_open_documents(tmp_path):
    server = create_server()
    uri = (tmp_path / "flow.flowdrop.json").as_uri()
    assert document_at(server, uri) is None
    from flowdrop_lsp.core.config.settings import Settings

    server.documents.open(uri, "json", 1, '{"nodes": [], "edges": []}', Settings())
    document = document_at(server, uri)
    assert document is not None and document.version == 1
