"""The server publishes what `flowdrop-lsp check --no-cache` reports (issue 25): a copy of the real
site (tests/corpus/atelier-cms/config/sync) in a workspace, the server started on it under the
`workspace` diagnostics scope, a change made on disk and the watched-file events a client would
send for it, then the server's latest publishes compared, file by file, with the CLI run afresh
on the site folder (tests/support/site_agreement.py). Each case is its own test.

Every step first checks that the change is visible to the CLI (its report before and after
differ), so that agreeing is not agreeing with the state before the event.
"""

from __future__ import annotations

import asyncio
import inspect
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from wcmatch import glob

from tests.support.lsp import CLIENTS, WAIT, Session, server_command, start_session
from tests.support.raw_lsp import notification
from tests.support.site import copy_site, plant
from tests.support.site_agreement import Report, until_agreed, watched

WORKFLOW = "flowdrop_workflow.flowdrop_workflow.{}.yml"
COLOUR = "aincient_brand_specialist_colour"
CALLEE = WORKFLOW.format(COLOUR)
STUDIO = WORKFLOW.format("brand_studio")
WEATHER = WORKFLOW.format("aincient_weather")
AUDIT = WORKFLOW.format("aincient_audit_agent")
# brand_studio's node calling the colour specialist: FD-CALL's range when the callee is gone.
CALLING_LABEL = "label: 'Run workflow: Brand colour & contrast specialist'"
# The same label with an emoji (two UTF-16 units, four UTF-8 bytes) and CJK (three UTF-8
# bytes each) inside the range: its end column differs in each position encoding.
CALLING_LABEL_WIDE = "label: 'Run workflow: 🎨 配色 Brand colour & contrast specialist'"
# An entry of aincient_weather's dependencies.config: without it, FD-DEPENDENCY warns.
CHAT_OUTPUT_ENTRY = "    - flowdrop_node_type.flowdrop_node_type.chat_output\n"
OPTIONS = {"diagnostics": {"scope": "workspace"}}
DELETED, CHANGED, CREATED = (
    types.FileChangeType.Deleted,
    types.FileChangeType.Changed,
    types.FileChangeType.Created,
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command()))
async def lsp(lsp_client: LanguageClient):
    yield lsp_client
    await lsp_client.shutdown_session()


@dataclass
class Workspace:
    """A workspace folder holding a copy of the real site, its server session, and the CLI's
    report as last agreed."""

    root: Path  # the workspace folder, as the client spells it
    session: Session
    report: Report

    @property
    def site(self) -> Path:
        return self.root / "config" / "sync"

    async def agreed(self, step: str, changed: bool = True) -> Report:
        """Wait until the server publishes what `check` reports now; with `changed`, the
        report must differ from the one before (the step is visible)."""
        before = self.report
        self.report = await until_agreed(self.session, [self.site], step=step)
        if changed:
            assert self.report != before, f"{step}: check reports the same as before"
        return self.report


async def start(
    lsp: LanguageClient,
    root: Path,
    kind: str = "visual-studio-code",
    spelt: Path | None = None,
) -> Workspace:
    """The server started on the workspace folder `root` (sent as `spelt`, when given: another
    spelling of the same folder), once it publishes what `check` reports."""
    folder = spelt or root
    session = await start_session(lsp, kind, init_options=OPTIONS, workspace=folder.as_uri())
    workspace = Workspace(folder, session, {})
    await workspace.agreed("the start", changed=False)
    return workspace


async def started_on_a_copy(
    lsp: LanguageClient, tmp_path: Path, kind: str = "visual-studio-code"
) -> Workspace:
    root = tmp_path / "ws"
    copy_site(root, "config/sync")
    return await start(lsp, root, kind)


def send_raw(client: LanguageClient, method: str, params: object) -> None:
    """A notification written as JSON on the server's stdin, as it is: no client type checks it
    (what pygls's typed `notify` would refuse to send)."""
    writer = client.protocol.writer
    assert writer is not None
    sent = writer.write(notification(method, params))
    if inspect.isawaitable(sent):
        asyncio.ensure_future(sent)


# ----- files deleted, renamed, made unreadable --------------------------------------------------


@pytest.mark.parametrize("kind", CLIENTS)
async def test_at_start_the_server_publishes_what_check_reports(lsp, tmp_path, kind):
    root = tmp_path / "ws"
    site = copy_site(root, "config/sync")
    plant(site, STUDIO, CALLING_LABEL, CALLING_LABEL_WIDE)
    (site / CALLEE).unlink()  # FD-CALL on the wide label, in brand_studio and the calling type
    workspace = await start(lsp, root, kind)
    assert any(shown.code == "FD-CALL" for shown in workspace.report[str(site / STUDIO)])


@pytest.mark.parametrize("kind", CLIENTS)
async def test_a_deleted_callee_gives_its_callers_fd_call(lsp, tmp_path, kind):
    root = tmp_path / "ws"
    site = copy_site(root, "config/sync")
    plant(site, STUDIO, CALLING_LABEL, CALLING_LABEL_WIDE)
    workspace = await start(lsp, root, kind)
    (site / CALLEE).unlink()
    watched(workspace.session, (site / CALLEE, DELETED))
    report = await workspace.agreed("deleting the callee")
    assert any(shown.code == "FD-CALL" for shown in report[str(site / STUDIO)])


async def test_a_callee_renamed_away_and_back(lsp, tmp_path):
    workspace = await started_on_a_copy(lsp, tmp_path)
    site = workspace.site
    # Renamed to a name that is no config file: the callers lose it (no event for the new name:
    # the watch covers YAML only).
    (site / CALLEE).rename(site / (CALLEE + ".orig"))
    watched(workspace.session, (site / CALLEE, DELETED))
    await workspace.agreed("renaming the callee to *.yml.orig")
    # Renamed to another workflow file name: its id is the callee's, so it is found again.
    moved = site / WORKFLOW.format("colour_moved")
    (site / (CALLEE + ".orig")).rename(moved)
    watched(workspace.session, (moved, CREATED))
    await workspace.agreed("renaming it to flowdrop_workflow.flowdrop_workflow.colour_moved.yml")


async def test_a_workflow_that_is_not_utf8_at_start_gets_fd_syntax(lsp, tmp_path):
    root = tmp_path / "ws"
    site = copy_site(root, "config/sync")
    path = site / AUDIT
    path.write_bytes(
        path.read_bytes().replace(b"label: 'Page audit agent'", "label: 'Pàge'".encode("latin-1"))
    )
    workspace = await start(lsp, root)
    assert [shown.code for shown in workspace.report[str(path)]] == ["FD-SYNTAX"]


async def test_a_workflow_made_not_utf8_on_disk_gets_fd_syntax_on_a_changed_event(lsp, tmp_path):
    workspace = await started_on_a_copy(lsp, tmp_path)
    path = workspace.site / AUDIT
    assert workspace.report[str(path)]  # its FD-TOOL-ROUTE warnings, before
    path.write_bytes(
        path.read_bytes().replace(b"label: 'Page audit agent'", "label: 'Pàge'".encode("latin-1"))
    )
    watched(workspace.session, (path, CHANGED))
    report = await workspace.agreed("writing a Latin-1 byte into the workflow")
    assert [shown.code for shown in report[str(path)]] == ["FD-SYNTAX"]


# ----- node types on disk -------------------------------------------------------------------------

CALL_TYPE = (
    "flowdrop_node_type.flowdrop_node_type.flowdrop_workflow_executor_flowdrop_workflow_"
    f"{COLOUR}.yml"
)


def delete_call_type(site: Path) -> types.FileChangeType:
    (site / CALL_TYPE).unlink()
    return DELETED


def rename_call_type(site: Path) -> types.FileChangeType:
    plant(site, CALL_TYPE, "\nid: flowdrop_workflow_executor_", "\nid: renamed_executor_")
    return CHANGED


TYPE_EDITS = {"deleted": delete_call_type, "id-changed": rename_call_type}


@pytest.mark.parametrize("edit", sorted(TYPE_EDITS))
async def test_a_node_type_gone_on_disk_is_unknown_in_the_closed_workflows_using_it(
    lsp, tmp_path, edit
):
    """brand_studio (closed) uses the node type calling the colour specialist: once the type is
    deleted, or its id changed, `check` warns FD-UNKNOWN-NODE-TYPE there."""
    workspace = await started_on_a_copy(lsp, tmp_path)
    site = workspace.site
    kind = TYPE_EDITS[edit](site)
    watched(workspace.session, (site / CALL_TYPE, kind))
    report = await workspace.agreed(f"the calling node type {edit}")
    assert any(shown.code == "FD-UNKNOWN-NODE-TYPE" for shown in report[str(site / STUDIO)])


# ----- project settings files on disk -----------------------------------------------------------

SETTINGS_FILES = {
    "flowdrop-lsp.toml": "",
    "pyproject.toml": "[tool.flowdrop-lsp]\n",
}
IGNORING = 'ignore = ["FD-TOOL-ROUTE"]\n'
DEMOTING = 'severity = { "FD-UNKNOWN-PORT" = "hint" }\n'


def write_settings(root: Path, name: str, body: str) -> Path:
    path = root / name
    path.write_text(SETTINGS_FILES[name] + body, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(SETTINGS_FILES))
async def test_a_settings_file_created_on_disk_applies(lsp, tmp_path, name):
    workspace = await started_on_a_copy(lsp, tmp_path)
    path = write_settings(workspace.root, name, IGNORING)
    watched(workspace.session, (path, CREATED))
    await workspace.agreed(f"creating {name} (ignore FD-TOOL-ROUTE)")


@pytest.mark.parametrize("name", sorted(SETTINGS_FILES))
async def test_a_settings_file_changed_on_disk_applies(lsp, tmp_path, name):
    root = tmp_path / "ws"
    copy_site(root, "config/sync")
    path = write_settings(root, name, IGNORING)
    workspace = await start(lsp, root)
    write_settings(root, name, DEMOTING)
    watched(workspace.session, (path, CHANGED))
    await workspace.agreed(f"changing {name} (FD-UNKNOWN-PORT a hint, FD-TOOL-ROUTE back)")


@pytest.mark.parametrize("name", sorted(SETTINGS_FILES))
async def test_a_settings_file_deleted_on_disk_stops_applying(lsp, tmp_path, name):
    root = tmp_path / "ws"
    copy_site(root, "config/sync")
    path = write_settings(root, name, IGNORING)
    workspace = await start(lsp, root)
    path.unlink()
    watched(workspace.session, (path, DELETED))
    await workspace.agreed(f"deleting {name}")


@pytest.mark.parametrize("name", sorted(SETTINGS_FILES))
async def test_the_server_asks_the_client_to_watch_the_settings_files(lsp, tmp_path, name):
    """A client sends events only for the globs the server registered: without a watch on the
    settings files, an editor never tells the server of them."""
    workspace = await started_on_a_copy(lsp, tmp_path)
    registrations = workspace.session.registrations

    def globs() -> list[str]:
        found = []
        for registration in registrations:
            if registration.method != types.WORKSPACE_DID_CHANGE_WATCHED_FILES:
                continue
            options = registration.register_options
            # The client holds the options as JSON (a dict), or structured.
            watchers = (
                options.get("watchers")
                if isinstance(options, dict)
                else getattr(options, "watchers", None)
            )
            for watcher in watchers or []:
                pattern = (
                    watcher["globPattern"] if isinstance(watcher, dict) else watcher.glob_pattern
                )
                found.append(
                    pattern
                    if isinstance(pattern, str)
                    else pattern["pattern"]
                    if isinstance(pattern, dict)
                    else pattern.pattern
                )
        return found

    def watching() -> bool:
        flags = glob.GLOBSTAR | glob.BRACE
        return all(glob.globmatch(p, globs(), flags=flags) for p in (name, f"sub/{name}"))

    async def until_watching() -> None:
        while not watching():
            await asyncio.sleep(0.05)

    try:
        await asyncio.wait_for(until_watching(), WAIT)
    except (asyncio.TimeoutError, TimeoutError):
        pytest.fail(f"no registered watcher covers {name}: {globs()}", pytrace=False)


# ----- events whose path is spelt otherwise, or lies outside the workspace ----------------------


def delete_callee(site: Path) -> tuple[str, types.FileChangeType]:
    (site / CALLEE).unlink()
    return CALLEE, DELETED


def drop_a_dependency(site: Path) -> tuple[str, types.FileChangeType]:
    plant(site, WEATHER, CHAT_OUTPUT_ENTRY, "")
    return WEATHER, CHANGED


EDITS = {"deleted-callee": delete_callee, "changed-dependencies": drop_a_dependency}


@pytest.mark.parametrize("edit", sorted(EDITS))
async def test_an_event_spelt_with_dot_dot(lsp, tmp_path, edit):
    workspace = await started_on_a_copy(lsp, tmp_path)
    name, kind = EDITS[edit](workspace.site)
    spelt = workspace.root / "config" / "sync" / ".." / "sync" / name
    watched(workspace.session, (spelt, kind))
    await workspace.agreed(f"an event for config/sync/../sync/{name}")


@pytest.mark.parametrize("edit", sorted(EDITS))
async def test_an_event_by_the_resolved_path_of_a_workspace_opened_through_a_symlink(
    lsp, tmp_path, edit
):
    real = tmp_path / "real"
    copy_site(real, "config/sync")
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    workspace = await start(lsp, real, spelt=link)
    name, kind = EDITS[edit](real / "config" / "sync")
    watched(workspace.session, (real / "config" / "sync" / name, kind))
    await workspace.agreed(f"an event for the resolved path of {name}")


@pytest.mark.parametrize("edit", sorted(EDITS))
async def test_an_event_through_a_symlink_into_a_workspace_opened_by_its_real_path(
    lsp, tmp_path, edit
):
    real = tmp_path / "real"
    copy_site(real, "config/sync")
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    workspace = await start(lsp, real)
    name, kind = EDITS[edit](real / "config" / "sync")
    watched(workspace.session, (link / "config" / "sync" / name, kind))
    await workspace.agreed(f"an event for {name} through a symlink")


@pytest.mark.parametrize("edit", sorted(EDITS))
async def test_an_event_outside_every_workspace_folder(lsp, tmp_path, edit):
    """A copy of the site beside the workspace, not in it: an event there publishes nothing
    (the CLI, run on the workspace's site, reports nothing there) and changes nothing here."""
    workspace = await started_on_a_copy(lsp, tmp_path)
    elsewhere = copy_site(tmp_path / "elsewhere", "config/sync")
    name, kind = EDITS[edit](elsewhere)
    watched(workspace.session, (elsewhere / name, kind))
    # The workspace's own site changes too, so the step is visible; its event is sent after.
    own, own_kind = EDITS[edit](workspace.site)
    watched(workspace.session, (workspace.site / own, own_kind))
    await workspace.agreed(f"an event for {name} outside the workspace, then its own")


# ----- a batch of events with one the protocol does not know -------------------------------------


async def test_an_invalid_event_type_does_not_lose_the_valid_deletion_beside_it(lsp, tmp_path):
    workspace = await started_on_a_copy(lsp, tmp_path)
    site = workspace.site
    (site / CALLEE).unlink()
    send_raw(
        lsp,
        types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        {
            "changes": [
                {"uri": (site / WEATHER).as_uri(), "type": 99},
                {"uri": (site / CALLEE).as_uri(), "type": int(DELETED)},
            ]
        },
    )
    report = await workspace.agreed("a batch of an event of type 99 and the callee's deletion")
    assert any(shown.code == "FD-CALL" for shown in report[str(site / STUDIO)])


# ----- a buffer opened and closed -------------------------------------------------------------


async def test_a_workflow_opened_and_closed_as_it_is_still_publishes_what_check_reports(
    lsp, tmp_path
):
    """A buffer closed unchanged hands the host its findings and facts (no re-read): taken
    from its analysis while it is still open, not after the editor's buffer was released."""
    workspace = await started_on_a_copy(lsp, tmp_path)
    await workspace.agreed("start", changed=False)
    path = workspace.site / WEATHER
    uri = path.as_uri()
    workspace.session.open(uri, path.read_text(encoding="utf-8"), language_id="yaml")
    await workspace.session.publishes.wait_for(uri, 1)
    lsp.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    # The weather workflow's own findings (FD-UNKNOWN-PORT) and its site's are published again
    # as a closed file's; a change on disk afterwards is judged against them too.
    await workspace.agreed("opened and closed", changed=False)
    plant(workspace.site, WEATHER, CHAT_OUTPUT_ENTRY, "")
    watched(workspace.session, (path, CHANGED))
    await workspace.agreed("a dependency dropped from the closed file")
