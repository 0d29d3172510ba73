"""The server judges only FlowDrop documents: other JSON graphs and configs get nothing, and
`files` globs are relative to the workspace folder (as in the CLI, to the settings file's)."""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.support.lsp import (
    CLIENTS,
    REPO,
    Session,
    server_command,
    start_session,
)

NOT_FLOWDROP = sorted((REPO / "tests" / "fixtures" / "not-flowdrop").glob("*.json"))
WORKSPACE = "file:///workspace/site"
BROKEN = '{"nodes": [{"id": "a", "type": "x"'  # not JSON: only a name can make it a workflow


@pytest_lsp.fixture(params=CLIENTS, config=ClientServerConfig(server_command=server_command()))
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    lsp_client.flowdrop_session = await start_session(  # type: ignore[attr-defined]
        lsp_client,
        request.param,
        {"files": ["flows/*.json"], "pullDiagnostics": False},
        workspace=WORKSPACE,
    )
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def session(client: LanguageClient) -> Session:
    return client.flowdrop_session  # type: ignore[attr-defined]


async def test_other_json_graphs_and_configs_get_no_diagnostics(session: Session) -> None:
    for path in NOT_FLOWDROP:
        session.open(f"{WORKSPACE}/data/{path.name}", path.read_text(encoding="utf-8"))
    # A document opened after them is answered: by then the others were decided too.
    last = f"{WORKSPACE}/flows/last.json"
    session.open(last, BROKEN)
    assert any(d.code == "FD-SYNTAX" for d in await session.publishes.wait_for(last, 1))
    await asyncio.sleep(0.2)
    for path in NOT_FLOWDROP:
        assert session.publishes.count(f"{WORKSPACE}/data/{path.name}") == 0, path.name


async def test_globs_are_relative_to_the_workspace_folder(session: Session) -> None:
    inside = f"{WORKSPACE}/flows/a.json"
    deeper = f"{WORKSPACE}/flows/sub/b.json"  # `*` does not cross `/`
    elsewhere = f"{WORKSPACE}/other/flows/c.json"  # relative to the folder, not anywhere
    session.open(deeper, BROKEN)
    session.open(elsewhere, BROKEN)
    session.open(inside, BROKEN)
    assert await session.publishes.wait_for(inside, 1)
    await asyncio.sleep(0.2)
    assert session.publishes.count(deeper) == 0
    assert session.publishes.count(elsewhere) == 0
