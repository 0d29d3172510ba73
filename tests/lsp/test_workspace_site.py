"""The whole site over LSP: a copy of the real site (tests/corpus/atelier-cms) read in the
background after `initialized`, every workflow published open or not, the disk watched.

The server runs with a stand-in cross-file rule planted (tests/support/site_rules.py,
FD-TEST-SITE), so these tests hold whatever the real cross-file rules say.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.support.forks import FORKS
from tests.support.lsp import WAIT, Session, start_session
from tests.support.site import copy_site

CODE = "FD-TEST-SITE"
MISSING_TYPE = "flowdrop_node_type.flowdrop_node_type.planted_missing_type.yml"
PLANTED = "flowdrop_workflow.flowdrop_workflow.planted.yml"
CALLEE = "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml"
PLANTED_TEXT = """id: planted
label: Planted
nodes:
  -
    id: missing.1
    data:
      label: Missing
      metadata:
        node_type_id: planted_missing_type
  -
    id: weather.1
    data:
      label: Weather
      metadata:
        node_type_id: flowdrop_workflow_executor_flowdrop_workflow_aincient_weather
edges: {  }
"""
NODE_TYPE_TEXT = """id: planted_missing_type
label: 'Planted type'
parameters: {  }
outputs: {  }
"""
COMMAND = FORKS.command("tests.support.site_rules", "serve")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=COMMAND))
async def lsp(lsp_client: LanguageClient):
    yield lsp_client
    await lsp_client.shutdown_session()


def planted_site(tmp_path: Path) -> Path:
    site = copy_site(tmp_path, "config/sync")
    (site / PLANTED).write_text(PLANTED_TEXT, encoding="utf-8")
    return site


def uri(path: Path) -> str:
    return path.as_uri()


def ours(diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.code == CODE]


async def until(session: Session, path: Path, condition, timeout: float = WAIT):
    """The diagnostics of the first publish for `path` (from now on or already received, the
    latest) that meet `condition`."""
    publishes = session.publishes

    async def wait() -> list[types.Diagnostic]:
        while True:
            latest = publishes.latest(uri(path))
            if latest is not None and condition(list(latest.diagnostics)):
                return list(latest.diagnostics)
            publishes.changed.clear()
            await publishes.changed.wait()

    return await asyncio.wait_for(wait(), timeout)


async def start(
    lsp: LanguageClient,
    tmp_path: Path,
    options: dict | None = None,
    kind: str = "visual-studio-code",
) -> Session:
    progress: list[tuple[str, object]] = []
    features = lsp.protocol.fm.features
    features[types.WINDOW_WORK_DONE_PROGRESS_CREATE] = lambda *args: None

    def on_progress(*args):
        params = args[-1]
        progress.append((params.token, params.value))

    features[types.PROGRESS] = on_progress
    session = await start_session(lsp, kind, init_options=options, workspace=uri(tmp_path))
    session.progress = progress  # type: ignore[attr-defined]
    return session


def watched(session: Session, *changes: tuple[Path, types.FileChangeType]) -> None:
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(path), type=kind) for path, kind in changes]
        )
    )


async def test_closed_files_get_their_findings_and_progress_is_reported(lsp, tmp_path):
    site = planted_site(tmp_path)
    session = await start(lsp, tmp_path)
    found = await until(session, site / PLANTED, lambda d: ours(d))
    assert [d.message for d in ours(found)] == [
        'node type "planted_missing_type" is not defined in the site'
    ]
    # Every workflow of the site is published, open or not.
    for path in site.glob("flowdrop_workflow.flowdrop_workflow.*.yml"):
        await until(session, path, lambda d: True)
    # Work-done progress: begin, reports with percentages, end.
    progress = session.progress

    async def ended() -> None:
        while not any(isinstance(v, dict) and v.get("kind") == "end" for _, v in progress):
            await asyncio.sleep(0.05)

    await asyncio.wait_for(ended(), WAIT)
    kinds = [v.get("kind") for _, v in progress if isinstance(v, dict)]
    assert kinds[0] == "begin" and kinds[-1] == "end"
    percentages = [v["percentage"] for _, v in progress if v.get("kind") == "report"]
    assert percentages == sorted(percentages) and percentages[-1] == 100
    assert progress[-2][1]["message"] == "106/106 files checked"
    # The watch is registered.
    assert any(r.id == "flowdrop.site.watch" for r in session.registrations)


async def test_a_file_created_on_disk_clears_its_dependants(lsp, tmp_path):
    site = planted_site(tmp_path)
    session = await start(lsp, tmp_path)
    await until(session, site / PLANTED, lambda d: ours(d))
    (site / MISSING_TYPE).write_text(NODE_TYPE_TEXT, encoding="utf-8")
    watched(session, (site / MISSING_TYPE, types.FileChangeType.Created))
    await until(session, site / PLANTED, lambda d: not ours(d))
    # Deleted again: the dependants are re-published, the deleted file's own cleared.
    (site / MISSING_TYPE).unlink()
    watched(session, (site / MISSING_TYPE, types.FileChangeType.Deleted))
    await until(session, site / PLANTED, lambda d: ours(d))


async def test_an_open_buffer_wins_over_the_disk(lsp, tmp_path):
    site = planted_site(tmp_path)
    session = await start(lsp, tmp_path)
    await until(session, site / PLANTED, lambda d: ours(d))
    # Opening the missing node type (never saved) clears the caller; closing it brings the
    # disk back.
    session.open(uri(site / MISSING_TYPE), NODE_TYPE_TEXT, language_id="yaml")
    await until(session, site / PLANTED, lambda d: not ours(d))
    # The disk changing under an open buffer changes nothing.
    watched(session, (site / MISSING_TYPE, types.FileChangeType.Deleted))
    await asyncio.sleep(0.3)
    assert not ours(list(session.publishes.latest(uri(site / PLANTED)).diagnostics))
    session.client.text_document_did_close(
        types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri(site / MISSING_TYPE))
        )
    )
    await until(session, site / PLANTED, lambda d: ours(d))


async def test_editing_an_open_callee_republishes_its_closed_caller(lsp, tmp_path):
    site = planted_site(tmp_path)
    session = await start(lsp, tmp_path)
    await until(session, site / PLANTED, lambda d: ours(d))
    text = (site / CALLEE).read_text(encoding="utf-8")
    session.open(uri(site / CALLEE), text, language_id="yaml")
    await session.publishes.wait_for(uri(site / CALLEE), 1)
    broken = text.replace("label: 'Weather (demo tool)'", "label: 'Weather BROKEN'")
    assert broken != text
    session.change(uri(site / CALLEE), 2, [types.TextDocumentContentChangeWholeDocument(broken)])
    found = await until(session, site / PLANTED, lambda d: len(ours(d)) == 2)
    calling = next(d for d in found if "calls" in d.message)
    assert calling.message == 'calls "aincient_weather", labelled "Weather BROKEN"'
    # The related location is in the callee's file, at its id.
    (related,) = calling.related_information or []
    assert related.location.uri == uri(site / CALLEE)
    line = broken.splitlines()[related.location.range.start.line]
    assert line.startswith("id: aincient_weather")
    # Back: the caller is re-published without it.
    session.change(uri(site / CALLEE), 3, [types.TextDocumentContentChangeWholeDocument(text)])
    await until(session, site / PLANTED, lambda d: len(ours(d)) == 1)


async def test_the_open_scope_publishes_open_files_only(lsp, tmp_path):
    site = planted_site(tmp_path)
    session = await start(lsp, tmp_path, {"diagnostics": {"scope": "open"}})
    session.open(uri(site / PLANTED), PLANTED_TEXT, language_id="yaml")
    # The open file gets its cross-file findings once the site is read.
    await until(session, site / PLANTED, lambda d: ours(d))
    await asyncio.sleep(0.5)
    assert set(session.publishes.by_uri) == {uri(site / PLANTED)}


async def test_pull_diagnostics_answer_closed_files(lsp, tmp_path):
    site = planted_site(tmp_path)
    session = await start(lsp, tmp_path, kind="neovim")  # its capabilities include pull
    provider = session.result.capabilities.diagnostic_provider
    assert provider is not None and provider.workspace_diagnostics
    assert provider.inter_file_dependencies
    report = await lsp.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    by_uri = {item.uri: item for item in report.items}
    assert ours(list(by_uri[uri(site / PLANTED)].items))
    assert len(by_uri) == 105 + 1
    pulled = await lsp.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri(site / PLANTED))
        )
    )
    assert ours(list(pulled.items))


async def test_malformed_watched_file_events_do_not_crash(lsp, tmp_path):
    site = planted_site(tmp_path)
    session = await start(lsp, tmp_path)
    await until(session, site / PLANTED, lambda d: ours(d))
    watched(
        session,
        (tmp_path / "nowhere" / PLANTED, types.FileChangeType.Changed),
        (site / "not-yaml.txt", types.FileChangeType.Created),
        (site / PLANTED, types.FileChangeType.Changed),
    )
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(uri="http://x/y.yml", type=types.FileChangeType.Changed),
                types.FileEvent(uri="file://", type=types.FileChangeType.Deleted),
                types.FileEvent(uri="file:///%ZZ/x.yml", type=types.FileChangeType.Created),
            ]
        )
    )
    (site / PLANTED).unlink()
    watched(session, (site / PLANTED, types.FileChangeType.Deleted))
    await until(session, site / PLANTED, lambda d: not d)
    # Still serving.
    hover = await lsp.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri(site / CALLEE)),
            position=types.Position(line=0, character=0),
        )
    )
    assert hover is None
