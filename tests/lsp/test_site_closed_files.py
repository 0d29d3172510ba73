"""The real cross-file rules in files nobody opened: the server started on a copy of the real site
with a called workflow deleted publishes FD-CALL in brand_studio and in the calling node type,
both closed, with progress; the callee appearing on disk (a watched-file event) clears both."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.support.lsp import WAIT, Session, server_command, start_session
from tests.support.site import copy_site

COLOUR = "aincient_brand_specialist_colour"
CALLEE = f"flowdrop_workflow.flowdrop_workflow.{COLOUR}.yml"
CALL_TYPE = (
    "flowdrop_node_type.flowdrop_node_type.flowdrop_workflow_executor_flowdrop_workflow_"
    f"{COLOUR}.yml"
)
STUDIO = "flowdrop_workflow.flowdrop_workflow.brand_studio.yml"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command()))
async def lsp(lsp_client: LanguageClient):
    yield lsp_client
    await lsp_client.shutdown_session()


def calls(diagnostics: list[types.Diagnostic]) -> list[tuple[int, int]]:
    return [
        (d.range.start.line, d.range.start.character)
        for d in diagnostics
        if d.code == "FD-CALL" and COLOUR in d.message
    ]


async def latest(session: Session, path: Path, wanted) -> list[types.Diagnostic]:
    publishes = session.publishes

    async def wait() -> list[types.Diagnostic]:
        while True:
            params = publishes.latest(path.as_uri())
            if params is not None and wanted(list(params.diagnostics)):
                return list(params.diagnostics)
            publishes.changed.clear()
            await publishes.changed.wait()

    return await asyncio.wait_for(wait(), WAIT)


def position_of(path: Path, needle: str) -> tuple[int, int]:
    text = path.read_text(encoding="utf-8")
    at = text.index(needle)
    return text[:at].count("\n"), at - (text.rfind("\n", 0, at) + 1)


async def test_a_missing_callee_is_reported_in_closed_files_and_cleared_when_it_appears(
    lsp: LanguageClient, tmp_path: Path
) -> None:
    site = copy_site(tmp_path, "config/sync")
    kept = (site / CALLEE).read_text(encoding="utf-8")
    (site / CALLEE).unlink()
    progress: list[object] = []
    features = lsp.protocol.fm.features
    features[types.WINDOW_WORK_DONE_PROGRESS_CREATE] = lambda *args: None
    features[types.PROGRESS] = lambda *args: progress.append(args[-1].value)
    session = await start_session(lsp, "visual-studio-code", workspace=tmp_path.as_uri())

    # Nothing is opened: both files are published as closed ones, at the exact places.
    label = position_of(site / STUDIO, "'Run workflow: Brand colour & contrast specialist'")
    plugin = position_of(
        site / CALL_TYPE, f"'flowdrop_workflow_executor:flowdrop_workflow:{COLOUR}'"
    )
    assert calls(await latest(session, site / STUDIO, calls)) == [label]
    assert calls(await latest(session, site / CALL_TYPE, calls)) == [plugin]

    def kinds() -> list[object]:
        return [
            v.get("kind") if isinstance(v, dict) else getattr(v, "kind", None) for v in progress
        ]

    async def ended() -> None:
        while "end" not in kinds():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(ended(), WAIT)
    assert kinds()[0] == "begin" and "report" in kinds() and kinds()[-1] == "end", kinds()

    # The callee appears on disk: the watched-file event re-checks its dependants.
    (site / CALLEE).write_text(kept, encoding="utf-8")
    lsp.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(uri=(site / CALLEE).as_uri(), type=types.FileChangeType.Created)
            ]
        )
    )
    assert calls(await latest(session, site / STUDIO, lambda d: not calls(d))) == []
    assert calls(await latest(session, site / CALL_TYPE, lambda d: not calls(d))) == []
