"""The server keeps a site's node-type registry current: definitions watched through a
dynamically registered `workspace/didChangeWatchedFiles`, and an open definition's buffer
winning over the disk."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from flowdrop_lsp.core.config.site_files import WATCH_GLOBS
from flowdrop_lsp.lsp.workspace import WATCH_ID
from tests.support.builders import node, tool_edge, workflow
from tests.support.lsp import WAIT, Session, server_command, start_session

PREFIX = "flowdrop_node_type.flowdrop_node_type."
WORKFLOW = workflow(
    [node("t", "http_request", "Search"), node("x", "my_site_agent", "Agent")],
    [tool_edge("t", "x")],
)


def _unknown(diagnostics: list[types.Diagnostic]) -> list[str]:
    return sorted(d.message for d in diagnostics if d.code == "FD-UNKNOWN-NODE-TYPE")


async def _first_publish_where(
    session: Session, uri: str, after: int, wanted: Callable[[list[types.Diagnostic]], bool]
) -> list[types.Diagnostic]:
    """The diagnostics of the first publish for `uri`, after the first `after` ones, that shows
    what `wanted` tells. Publishes of the unchanged analysis may come first: the one after
    `initialized` (once the client's configuration is in) lands late on a loaded machine, and
    an open buffer counts from its own publish on."""
    while True:
        latest = list((await session.publishes.wait_for_new(uri, after)).diagnostics)
        if wanted(latest):
            return latest
        after += 1


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command()))
async def watcher(lsp_client: LanguageClient):
    """A server for a client with VS Code's capabilities (dynamic registration of watched
    files included); each test starts its session (start_session)."""
    yield
    await lsp_client.shutdown_session()


async def _registered(session: Session) -> types.Registration:
    """The one watch of the site's files (node types among them)."""

    def node_types() -> types.Registration | None:
        return next((r for r in session.registrations if r.id == WATCH_ID), None)

    async def until() -> types.Registration:
        while (found := node_types()) is None:
            await asyncio.sleep(0.01)
        return found

    return await asyncio.wait_for(until(), WAIT)


async def _site(watcher: LanguageClient, tmp_path: Path) -> tuple[Session, str]:
    """A site defining `http_request` (not `my_site_agent`) with WORKFLOW on disk, and a VS Code
    session on it; answers the session and the workflow's uri (not opened yet)."""
    (tmp_path / f"{PREFIX}http_request.yml").write_text("id: http_request\n")
    document = tmp_path / "site.flowdrop.json"
    document.write_text(WORKFLOW)
    return await start_session(watcher, "visual-studio-code"), document.as_uri()


async def test_a_changed_definition_on_disk_republishes(
    watcher: LanguageClient, tmp_path: Path
) -> None:
    session, uri = await _site(watcher, tmp_path)
    registration = await _registered(session)
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    options = registration.register_options
    assert isinstance(options, dict)  # the client sees it as JSON
    assert options["watchers"] == [{"globPattern": glob} for glob in WATCH_GLOBS]
    assert "**/*.{yml,yaml}" in WATCH_GLOBS  # the definitions among every config file

    session.open(uri, WORKFLOW)
    first = await session.publishes.wait_for(uri, 1)
    assert len(_unknown(first)) == 1 and "'my_site_agent'" in _unknown(first)[0]
    assert not [d for d in first if d.code == "CMP-10"]

    # The site defines the type (not accepting tools): the warning goes, CMP-10 comes.
    definition = tmp_path / f"{PREFIX}my_site_agent.yml"
    definition.write_text("id: my_site_agent\nexecutor_plugin: 'x:y'\n")
    count = session.publishes.count(uri)
    watcher.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=definition.as_uri(), type=types.FileChangeType.Created)]
        )
    )
    latest = await _first_publish_where(session, uri, count, lambda d: not _unknown(d))
    assert [d.code for d in latest] == ["CMP-10"]

    # Now it accepts tools: nothing left.
    definition.write_text("id: my_site_agent\nparameters:\n  tool:\n    connectable: true\n")
    count = session.publishes.count(uri)
    watcher.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=definition.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    # (a publish of the file's site may come first, from before the definition was re-read)
    latest = await _first_publish_where(session, uri, count, lambda d: not d)
    assert list(latest) == []


async def test_an_open_definition_buffer_wins_over_the_disk(
    watcher: LanguageClient, tmp_path: Path
) -> None:
    session, uri = await _site(watcher, tmp_path)
    session.open(uri, WORKFLOW)
    assert len(_unknown(await session.publishes.wait_for(uri, 1))) == 1

    # Unsaved: the file does not exist on disk.
    definition_uri = (tmp_path / f"{PREFIX}my_site_agent.yml").as_uri()
    count = session.publishes.count(uri)
    session.open(definition_uri, "id: my_site_agent\n", language_id="yaml")
    latest = await _first_publish_where(session, uri, count, lambda d: not _unknown(d))
    assert [d.code for d in latest] == ["CMP-10"]

    # Closing the buffer: the disk counts again, where the type is not defined.
    count = session.publishes.count(uri)
    watcher.text_document_did_close(
        types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=definition_uri)
        )
    )
    latest = await _first_publish_where(session, uri, count, lambda d: bool(_unknown(d)))
    assert len(_unknown(latest)) == 1


def test_settings_manager_reads_the_registry_per_folder(tmp_path: Path) -> None:
    from flowdrop_lsp.lsp.configuration import SettingsManager

    site, other = tmp_path / "site", tmp_path / "other"
    site.mkdir()
    other.mkdir()
    (site / f"{PREFIX}my_box.yml").write_text("id: my_box\nexecutor_plugin: 'm:toolbox'\n")
    (site / f"{PREFIX}broken.yml").write_text("id: [\n")
    manager = SettingsManager()
    with_site = manager.for_uri((site / "a.flowdrop.json").as_uri())
    assert with_site.known_node_types == {"my_box"}
    assert "my_box" in with_site.passthrough_types
    assert manager.for_uri((other / "a.flowdrop.json").as_uri()).known_node_types is None
    problems = manager.drain_new_problems()
    assert len(problems) == 1 and "broken.yml: not valid YAML" in problems[0]
    # Untitled buffers have no folder: the defaults.
    assert manager.for_uri("untitled:Untitled-1").known_node_types is None
