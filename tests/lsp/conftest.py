"""pytest-lsp fixtures: the real server over stdio, under VS Code's and Neovim's capabilities.

Tests wait for the publish of the version they expect (never for "the next notification"),
through `Publishes.wait_for(uri, version)`.
"""

from __future__ import annotations

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.support.lsp import CLIENTS, Session, server_command, start_session


@pytest_lsp.fixture(params=CLIENTS, config=ClientServerConfig(server_command=server_command()))
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    lsp_client.flowdrop_session = await start_session(lsp_client, request.param)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def session(client: LanguageClient) -> Session:
    return client.flowdrop_session  # type: ignore[attr-defined]
