"""pytest-lsp fixtures: the real server over stdio, under VS Code's and Neovim's capabilities.

Tests wait for the publish of the version they expect (never for "the next notification"),
through `Publishes.wait_for(uri, version)`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from flowdrop_lsp.lsp.documents import Document
from tests.support.forks import FORKS
from tests.support.lsp import CLIENTS, Session, server_command, start_session


@pytest.fixture(scope="session", autouse=True)
def fork_server() -> Iterator[None]:
    """The fork server the servers of these tests are forked from (tests/support/forks.py)."""
    FORKS.start()
    yield
    FORKS.stop()


@pytest_lsp.fixture(params=CLIENTS, config=ClientServerConfig(server_command=server_command()))
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    lsp_client.flowdrop_session = await start_session(lsp_client, request.param)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def session(client: LanguageClient) -> Session:
    return client.flowdrop_session  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def documents_closed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every server document a test makes in its own process is closed when the test ends, as
    the server closes each one it drops: an open one keeps its analysis frozen out of the
    collector's reach (tests/conftest.py `nothing_left_frozen`)."""
    made: list[Document] = []
    make = Document.__init__

    def recorded(document: Document, *args: Any, **kwargs: Any) -> None:
        make(document, *args, **kwargs)
        made.append(document)

    monkeypatch.setattr(Document, "__init__", recorded)
    yield
    for document in made:
        document.workflow.close()
