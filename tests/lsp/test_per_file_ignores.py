"""`per-file-ignores` in the server: the settings are the CLI's, so a file the project exempts
from a rule shows no diagnostic of it in the editor either, and its neighbours still do."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from flowdrop_lsp.lsp.configuration import SettingsManager
from tests.support.lsp import CLIENTS, REPO, position, server_command, start_session

EXAMPLE = (REPO / "examples" / "research-agent.flowdrop.json").read_text(encoding="utf-8")


def _project(tmp_path: Path) -> None:
    (tmp_path / "flowdrop-lsp.toml").write_text(
        'per-file-ignores = { "legacy/**" = ["CMP-9"] }\n', encoding="utf-8"
    )


def test_the_settings_of_a_matching_file_ignore_the_rule(tmp_path: Path) -> None:
    _project(tmp_path)
    manager = SettingsManager()
    legacy = manager.for_uri((tmp_path / "legacy" / "old.flowdrop.json").as_uri())
    current = manager.for_uri((tmp_path / "new.flowdrop.json").as_uri())
    assert "CMP-9" in legacy.ignore
    assert "CMP-9" not in current.ignore
    assert manager.drain_new_problems() == []


def test_editor_settings_globs_match_the_whole_path() -> None:
    manager = SettingsManager()
    manager.set_client_settings({"flowdrop": {"perFileIgnores": {"**/legacy/**": ["R8"]}}})
    assert "R8" in manager.for_uri("file:///ws/legacy/a.flowdrop.json").ignore
    assert "R8" not in manager.for_uri("file:///ws/a.flowdrop.json").ignore
    assert manager.drain_new_problems() == []


@pytest_lsp.fixture(params=CLIENTS, config=ClientServerConfig(server_command=server_command()))
async def fresh_client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    lsp_client.flowdrop_kind = request.param  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_the_server_publishes_no_ignored_diagnostic_for_a_matching_file(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    _project(tmp_path)
    session = await start_session(
        fresh_client,
        fresh_client.flowdrop_kind,  # type: ignore[attr-defined]
        workspace=tmp_path.as_uri(),
    )
    legacy = (tmp_path / "legacy" / "old.flowdrop.json").as_uri()
    current = (tmp_path / "new.flowdrop.json").as_uri()
    session.open(legacy, EXAMPLE)
    session.open(current, EXAMPLE)
    current_codes = {d.code for d in await session.publishes.wait_for(current, 1)}
    legacy_published = await session.publishes.wait_for_new(legacy, 0)
    assert "CMP-9" in current_codes
    assert "CMP-9" not in {d.code for d in legacy_published.diagnostics}
    assert isinstance(legacy_published, types.PublishDiagnosticsParams)


async def test_twenty_thousand_globs_still_publish_and_answer_hovers(
    fresh_client: LanguageClient,
) -> None:
    # Which globs match a file is worked out once per file and settings (counted in
    # tests/core/workspace/test_resolver.py); a hover never waits for it.
    kind = fresh_client.flowdrop_kind  # type: ignore[attr-defined]
    session = await start_session(fresh_client, kind)
    uri = "file:///ws/legacy/old.flowdrop.json"
    session.open(uri, EXAMPLE)
    assert "CMP-9" in {d.code for d in await session.publishes.wait_for(uri, 1)}
    table = {f"dir{i}/**/*.flowdrop.json": ["R8"] for i in range(20_000)}
    table["**/legacy/**"] = ["CMP-9"]
    fresh_client.set_configuration({"perFileIgnores": table}, section="flowdrop")
    count = session.publishes.count(uri)
    started = time.perf_counter()
    fresh_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"flowdrop": {"perFileIgnores": table}})
    )
    node = EXAMPLE.index('"reason.1"') + 2
    hover_params = types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=position(EXAMPLE, node, session.encoding),
    )
    assert await fresh_client.text_document_hover_async(hover_params) is not None
    first_hover = time.perf_counter() - started  # sent hard on the heels of the change
    # (A publish of the settings before may still arrive: wait for one with the glob applied.)
    while "CMP-9" in {
        d.code for d in (await session.publishes.wait_for_new(uri, count)).diagnostics
    }:
        count += 1
    republished = time.perf_counter() - started
    latencies = []
    for _ in range(5):
        started = time.perf_counter()
        assert await fresh_client.text_document_hover_async(hover_params) is not None
        latencies.append(time.perf_counter() - started)
    print(
        f"20k globs: first hover {first_hover:.2f} s, re-publish {republished:.2f} s, "
        f"hovers {[round(t, 3) for t in latencies]}"
    )
