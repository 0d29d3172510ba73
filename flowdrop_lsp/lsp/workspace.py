"""The whole site: reading the workspace's sites in the background after `initialized`, with
work-done progress; watching their files on disk; answering `workspace/diagnostic`.

Reading runs on the asyncio loop in slices (SITE_SLICE): between two slices the requests and
keystrokes that arrived are served, so the editor stays responsive while a large site is read.
First every file of every site is read (its facts; `Host.load`), then every file is
published (its own findings and its cross-file ones): a site's cross-file findings need the
whole site. An open buffer wins over the disk throughout (its site holds the buffer).

Watching: where the client can register it dynamically, one `workspace/didChangeWatchedFiles`
for every config file (`*.yml`: the workflows, the node types, and any config a workflow's
dependencies name) and the project settings files. The host (core/workspace/host.py) re-reads a
changed file (unless it is open) and answers the files depending on it, which are re-published;
a deleted file's diagnostics are cleared; a settings file re-judges everything. An event's path
is taken however it is spelled (`..`, a linked folder): the host knows a site by its folder's
real path. A site file in a folder no site was read from is read (in the background) only
inside a workspace folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.core.facade import (
    WATCH_GLOBS,
    Changes,
    find_site_folders,
    is_project_settings_file,
    is_services_file,
    is_site_file,
)
from flowdrop_lsp.lsp.documents import uri_path

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer

log = logging.getLogger(__name__)

SITE_SLICE = 0.005  # seconds of reading between two turns of the loop
PRELOAD_CHUNK = 50  # files read for their analysis jobs between two turns of the loop
PROGRESS_EVERY = 0.1  # seconds between two progress reports
PROGRESS_TIMEOUT = 5.0  # a client that does not answer window/workDoneProgress/create
WATCH_ID = "flowdrop.site.watch"


def workspace_folders(ls: FlowdropServer) -> list[Path]:
    """The workspace folders on disk (the root when the client sent no folder), outermost
    first, a folder inside another left out (it is walked with it)."""
    uris = [folder.uri for folder in ls.workspace.folders.values()]
    if not uris and ls.workspace.root_uri:
        uris = [ls.workspace.root_uri]
    folders: list[Path] = []
    for uri in sorted(uris):
        path = uri_path(uri) if uri.startswith("file:") else None
        if path is None:
            continue
        folder = Path(path)
        if not any(folder == f or f in folder.parents for f in folders):
            folders.append(folder)
    return folders


class Progress:
    """Work-done progress where the client supports it (`window.workDoneProgress`), else
    nothing at all."""

    def __init__(self, ls: FlowdropServer) -> None:
        self._ls = ls
        self._token: str | None = None
        self._reported = 0.0

    async def begin(self, title: str) -> None:
        if not self._ls.capability("window", "work_done_progress"):
            return
        token = f"flowdrop-sites-{uuid.uuid4().hex}"
        try:
            await asyncio.wait_for(
                self._ls.work_done_progress.create_async(token), PROGRESS_TIMEOUT
            )
        except Exception as error:  # noqa: BLE001 - no progress then; the reading goes on
            log.info("no work-done progress: %s", error)
            return
        self._token = token
        self._ls.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title=title, percentage=0, cancellable=False)
        )

    def report(self, message: str, percentage: int, force: bool = False) -> None:
        now = time.monotonic()
        if self._token is None or (not force and now - self._reported < PROGRESS_EVERY):
            return
        self._reported = now
        self._ls.work_done_progress.report(
            self._token, types.WorkDoneProgressReport(message=message, percentage=percentage)
        )

    def end(self, message: str) -> None:
        if self._token is not None:
            self._ls.work_done_progress.end(self._token, types.WorkDoneProgressEnd(message=message))
            self._token = None


async def index_workspace(ls: FlowdropServer, after: Awaitable[object] | None = None) -> None:
    """Read every site of the workspace folders, then publish every file of them (once `after`,
    the client's settings, is done). Under `flowdrop.diagnostics.scope: open` nothing is read
    up front: the site of a file is read when that file is opened (`read_site_later`)."""
    if after is not None:
        with contextlib.suppress(Exception):
            await asyncio.shield(after)
    if not ls.workspace_scope:
        return
    ls.workspace_read = True
    try:
        roots: list[Path] = []
        for folder in workspace_folders(ls):
            roots.extend(await asyncio.to_thread(find_site_folders, folder))
    except Exception as error:  # noqa: BLE001 - the server goes on without the sites
        ls.log_error("finding the workspace's sites", error)
        return
    await read_sites(ls, roots)


async def read_sites(ls: FlowdropServer, roots: Sequence[Path]) -> None:
    """Read the site folders `roots` (not read yet) in slices, with progress, then publish their
    files (closed ones under the workspace scope; open ones from their buffers)."""
    progress = Progress(ls)
    await progress.begin("FlowDrop: reading the sites")
    try:
        roots = [root for root in roots if not ls.host.knows(root)]
        files = [path for root in roots for path in ls.host.open_site(root)]
        total = len(files)
        ls.host.start_workers(total)
        steps = max(1, 2 * total)
        phases = [time.monotonic()]  # (logged: where a site's first read spends its time)
        reading = _Reading(ls, progress, total, steps)
        stores: list[Callable[[], None]] = []
        cached = await _preload(ls, files, reading, stores)
        await reading.load(files)  # what no analysis brought (node types, a failed preload…)
        for root in roots:
            ls.host.finish(root)
        phases.append(time.monotonic())
        # Open documents of these sites: their cross-file findings can be told now.
        for document in ls.documents.all():
            ls.schedule(document.uri)
        site_files = [path for root in roots for path in ls.host.files_of(root)]
        began = time.monotonic()
        for done, name in enumerate(site_files, 1):
            try:
                ls.publish_site_file(name)
            except Exception as error:  # noqa: BLE001
                ls.log_error(f"publishing {name}", error)
            if time.monotonic() - began > SITE_SLICE:
                shown = min(done, total)
                progress.report(f"{shown}/{total} files checked", (total + shown) * 100 // steps)
                await asyncio.sleep(0)
                began = time.monotonic()
        progress.report(f"{total}/{total} files checked", 100, force=True)
        phases.append(time.monotonic())
        for store in stores:  # the cache entries of what was computed, now that it is told
            try:
                await asyncio.to_thread(store)
            except Exception as error:  # noqa: BLE001 - a cache not written is no failure
                ls.log_error("keeping the analyses in the cache", error)
        if total:
            log.info(
                "read %d site files: analysed and read in %.2f s (%d from the cache), "
                "published in %.2f s",
                total,
                phases[1] - phases[0],
                cached,
                phases[2] - phases[1],
            )
        sites = f"{total} files, {len(roots)} site{'s' if len(roots) != 1 else ''}"
        progress.end(sites + (f" ({cached} workflows from the cache)" if cached else ""))
    except Exception as error:  # noqa: BLE001 - the server goes on with what it read
        ls.log_error("reading the sites", error)
        progress.end("failed")


class _Reading:
    """The files of the sites being read, each `load`ed once (`Host.load`: from disk, its
    analysis taken from the preload when it came), in slices between which requests are
    served, with progress."""

    def __init__(self, ls: FlowdropServer, progress: Progress, total: int, steps: int) -> None:
        self.ls = ls
        self.progress = progress
        self.total = total
        self.steps = steps
        self.loaded: set[Path] = set()
        self.began = time.monotonic()

    async def load(self, paths: Sequence[Path]) -> None:
        for path in paths:
            if path in self.loaded:
                continue
            self.loaded.add(path)
            try:
                self.ls.host.load(path)
            except Exception as error:  # noqa: BLE001 - one unreadable file, not the site
                self.ls.log_error(f"reading {path}", error)
            if time.monotonic() - self.began > SITE_SLICE:
                done = len(self.loaded)
                self.progress.report(f"{done}/{self.total} files read", done * 100 // self.steps)
                await asyncio.sleep(0)
                self.began = time.monotonic()


async def _preload(
    ls: FlowdropServer, files: list[Path], reading: _Reading, stores: list[Callable[[], None]]
) -> int:
    """The closed workflows of the sites analysed together (the result cache, one worker
    process per core: core/workspace/preloading.py) in a thread, given to it as they are read
    (PRELOAD_CHUNK files between two turns of the loop), and each file `load`ed as its
    analysis arrives: the loop serves requests meanwhile, and an open file's buffer is judged
    as it is typed. `stores` gets what writes each folder's cache entries (after the publish).
    Answers how many were taken from the cache."""
    cached = 0
    loop = asyncio.get_running_loop()
    by_folder: dict[Path, list[Path]] = {}
    for path in files:
        by_folder.setdefault(path.parent, []).append(path)
    for root, mine in by_folder.items():
        workspace = ls.workspace_folder_of(root.as_uri())
        ls.host.use_cache_of(root, Path(workspace) if workspace is not None else None)
        arrived = asyncio.Event()

        def wake(arrived: asyncio.Event = arrived) -> None:  # (from the preload's threads)
            with contextlib.suppress(RuntimeError):  # the loop closed: the server is leaving
                loop.call_soon_threadsafe(arrived.set)

        preload = ls.host.site_preload(wake)
        running = asyncio.ensure_future(asyncio.to_thread(preload.run))
        stores.append(preload.store)
        given: set[str] = set()
        try:
            for start in range(0, len(mine), PRELOAD_CHUNK):  # (reading them: between requests)
                jobs = ls.host.preload_jobs(mine[start : start + PRELOAD_CHUNK])
                preload.add(jobs)
                given.update(key for key, _ in jobs)
                await reading.load([Path(key) for key in preload.arrived()])
                await asyncio.sleep(0)
        finally:
            preload.close()
        if given:
            reading.progress.report(f"checking {len(given)} workflows", 0, force=True)
        # The files no analysis brings (the node types…), while the workers analyse the others.
        await reading.load([path for path in mine if str(path) not in given])
        while not preload.done:
            await arrived.wait()
            arrived.clear()
            await reading.load([Path(key) for key in preload.arrived()])
        try:
            cached += await running
        except Exception as error:  # noqa: BLE001 - each file is then read alone, as before
            ls.log_error(f"checking the site {root}", error)
        await reading.load([Path(key) for key in preload.arrived()])
    return cached


def read_site_later(ls: FlowdropServer, folder: Path) -> None:
    """The site of an open file's folder is not read yet: read it in the background (never in
    a publish: a folder may hold a thousand workflows)."""
    if folder in ls.sites_requested:
        return
    ls.sites_requested.add(folder)
    asyncio.ensure_future(read_sites(ls, [folder]))


def start_indexing(ls: FlowdropServer, after: Awaitable[object] | None = None) -> None:
    """At `initialized`: read the sites in the background (after `after`)."""
    if ls.indexing is None:
        ls.indexing = asyncio.ensure_future(index_workspace(ls, after))


async def indexed(ls: FlowdropServer) -> None:
    """Wait until the background reading (if any) is over."""
    if ls.indexing is not None and not ls.indexing.done():
        await asyncio.shield(ls.indexing)


# ----- watching the disk ----------------------------------------------------------------------------
def supports_watching(ls: FlowdropServer) -> bool:
    return bool(ls.capability("workspace", "did_change_watched_files", "dynamic_registration"))


def start_watching(ls: FlowdropServer) -> None:
    """After `initialized`: ask the client to watch the sites' files, where it can."""
    if supports_watching(ls):
        asyncio.ensure_future(_register_watch(ls))


async def _register_watch(ls: FlowdropServer) -> None:
    try:
        await ls.client_register_capability_async(
            types.RegistrationParams(
                registrations=[
                    types.Registration(
                        id=WATCH_ID,
                        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(
                            watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCH_GLOBS]
                        ),
                    )
                ]
            )
        )
    except Exception as error:  # noqa: BLE001 - without a watch, the disk is read once
        log.warning("the client refused to watch the site files: %s", error)


def _watched_path(change: object) -> tuple[Path, bool] | None:
    """A watched-file event's file (its path made absolute: `..` resolved) and whether it was
    deleted; None for another scheme or a malformed event."""
    uri = getattr(change, "uri", None)
    if not isinstance(uri, str) or not uri.startswith("file:"):
        return None
    path = uri_path(uri)
    if path is None:
        return None
    return Path(os.path.abspath(path)), getattr(
        change, "type", None
    ) == types.FileChangeType.Deleted


def _in_workspace(ls: FlowdropServer, path: Path) -> bool:
    real = Path(os.path.realpath(path))
    for folder in workspace_folders(ls):
        for spelled in {folder, Path(os.path.realpath(folder))}:
            if path.is_relative_to(spelled) or real.is_relative_to(spelled):
                return True
    return False


def files_changed(ls: FlowdropServer, events: Sequence[types.FileEvent]) -> None:
    """Files changed on disk: each re-read by the host (an open buffer wins), the files
    depending on them re-published, a deleted file's diagnostics cleared; a project settings
    file re-judges every file."""
    changes = Changes()
    settings_file = False
    new_sites: set[Path] = set()
    for event in events:
        try:
            watched = _watched_path(event)
            if watched is None:
                continue
            path, deleted = watched
            # A module's services file changes the site's Twig names: every file re-judged.
            settings_file = (
                settings_file or is_project_settings_file(path) or is_services_file(path)
            )
            found = ls.host.disk_changed(path, deleted=deleted)
            changes.stale |= found.stale
            changes.settings_changed = changes.settings_changed or found.settings_changed
            if (
                not deleted
                and is_site_file(path)
                and not ls.host.knows(path.parent)
                and _in_workspace(ls, path)
            ):
                new_sites.add(path.parent)
        except Exception as error:  # noqa: BLE001 - one bad event, not the others
            ls.log_error(f"a watched-file change ({event!r})", error)
    if settings_file:
        ls.republish_all()
    else:
        ls.apply_changes(changes)
    if new_sites and ls.workspace_scope:
        asyncio.ensure_future(read_sites(ls, sorted(new_sites)))


# ----- pull diagnostics for the whole workspace ------------------------------------------------
async def workspace_diagnostics(
    ls: FlowdropServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    """Full reports for every site file (open ones from their buffers), once the sites are
    read; under the `open` scope, for open site files only."""
    items: list[types.WorkspaceDocumentDiagnosticReport] = []
    try:
        await indexed(ls)
        if params.previous_result_ids:
            # A client asking again right after an answer (VS Code does, at once): hold the
            # request until some diagnostics change, instead of answering in a busy loop.
            ls.diagnostics_changed.clear()
            await ls.diagnostics_changed.wait()
        began = time.monotonic()
        for path in ls.host.site_files():
            document = ls.documents.at_path(path)
            if document is not None:
                items.append(
                    types.WorkspaceFullDocumentDiagnosticReport(
                        uri=document.uri,
                        version=document.version,
                        items=ls.diagnostics_of(document),
                        result_id="flowdrop",
                    )
                )
            elif ls.workspace_scope:
                diagnostics = ls.closed_diagnostics(path)
                if diagnostics is not None:
                    items.append(
                        types.WorkspaceFullDocumentDiagnosticReport(
                            uri=Path(path).as_uri(),
                            version=None,
                            items=diagnostics,
                            result_id="flowdrop",
                        )
                    )
            if time.monotonic() - began > SITE_SLICE:
                await asyncio.sleep(0)
                began = time.monotonic()
    except Exception as error:  # noqa: BLE001 - a request never takes the server down
        ls.log_error("workspace/diagnostic", error)
    return types.WorkspaceDiagnosticReport(items=items)


def read_workspace_later(ls: FlowdropServer) -> None:
    """The scope became `workspace` after the start (whose reading it skipped): read the
    workspace's sites now, in the background (the sites already read are left as they are)."""
    idle = ls.indexing is None or ls.indexing.done()
    if ls.workspace_scope and not ls.workspace_read and idle:
        ls.indexing = asyncio.ensure_future(index_workspace(ls))


def register(server: FlowdropServer) -> None:
    server.read_site_later = lambda folder: read_site_later(server, folder)
    server.read_workspace_later = lambda: read_workspace_later(server)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(
        ls: FlowdropServer, params: types.DidChangeWatchedFilesParams
    ) -> None:
        files_changed(ls, params.changes)
