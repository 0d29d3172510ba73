"""The server judges only FlowDrop documents: other JSON graphs and configs get nothing, and
`files` globs are relative to the workspace folder (as in the CLI, to the settings file's)."""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.conftest import (
    CLIENTS,
    REPO,
    Publishes,
    Session,
    accept_registrations,
    server_command,
)

NOT_FLOWDROP = sorted((REPO / "tests" / "fixtures" / "not-flowdrop").glob("*.json"))
WORKSPACE = "file:///workspace/site"
BROKEN = '{"nodes": [{"id": "a", "type": "x"'  # not JSON: only a name can make it a workflow


@pytest_lsp.fixture(params=CLIENTS, config=ClientServerConfig(server_command=server_command()))
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    publishes = Publishes()
    features = lsp_client.protocol.fm.features
    original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def on_publish(*args):  # type: ignore[no-untyped-def]
        publishes.record(args[-1])
        return original(*args)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
    registrations = accept_registrations(lsp_client)
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(request.param),
            root_uri=WORKSPACE,
            workspace_folders=[types.WorkspaceFolder(uri=WORKSPACE, name="site")],
            initialization_options={"files": ["flows/*.json"], "pullDiagnostics": False},
        )
    )
    encoding = getattr(result.capabilities.position_encoding, "value", "utf-16")
    lsp_client.flowdrop_session = Session(
        lsp_client, publishes, request.param, encoding, result, registrations
    )  # type: ignore[attr-defined]
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
