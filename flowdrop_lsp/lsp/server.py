"""The FlowDrop language server: its state (open documents, settings, client capabilities) and
the scheduling of analyses. It imports no feature: each feature module registers itself on a
server (lsp/app.py wires them), and names this class for the type checker only.

Analysis runs on the asyncio loop, coalesced: a change marks its document dirty and one task
analyses each dirty document once the loop is free, so a burst of edits costs one analysis of
the newest text. Analysis is synchronous, so a publish always names exactly the version that
was analysed.

Every file's findings come from the host (core/workspace/host.py), the same object the CLI
asks: an open document is given to it as an `OpenFile` (its buffer, its engine's findings and
site facts), and `host.findings(path)` merges its own findings with its site's cross-file ones.
An open site file's buffer is given to its site when it is published, and the files that change
makes stale (its callers, the users of a node type…) are re-published by a second coalescing
task, `schedule_site`: an open one from its buffer, a closed one from the host's text. Closed
files are published only under the `workspace` diagnostics scope (lsp/workspace.py reads the
sites in the background, after the open documents have been answered).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath
from typing import Any

import attrs
from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from flowdrop_lsp import __version__
from flowdrop_lsp.core.facade import Changes, Finding, Host, LineIndex, Positions, Settings
from flowdrop_lsp.lsp.configuration import SCOPE_WORKSPACE, SettingsManager
from flowdrop_lsp.lsp.convert import encoding_of, to_diagnostic
from flowdrop_lsp.lsp.current import BuffersOnlyWorkspace
from flowdrop_lsp.lsp.documents import (
    Document,
    DocumentStore,
    file_path,
    mark_unsound_positions,
    site_path,
    uri_path,
)
from flowdrop_lsp.lsp.settings_sync import show_new_problems

log = logging.getLogger("flowdrop_lsp")

# Coalescing of bursts of changes (seconds): see FlowdropServer.schedule.
BURST_GAP = 0.010
BURST_QUIET = 0.003
BURST_MAX_WAIT = 0.100
# How long the site's re-publishing runs before it lets requests in (seconds).
SITE_SLICE = 0.005
SERVER_WORKERS = 4
# Line indexes of other files' texts kept for related locations.
LOCATED_TEXTS = 64
# A large open site file (the host's SITE_SYNC_CHARS) is read into its site once the typing
# pauses for this long (seconds), not on every change.
SITE_REFRESH_IDLE = 0.3


_FILE_CHANGE_TYPES = frozenset(int(kind) for kind in types.FileChangeType)


def _keep_valid_file_events(data: dict[str, Any]) -> None:
    """Leave only the well-formed events of a `workspace/didChangeWatchedFiles` (in place)."""
    if data.get("method") != types.WORKSPACE_DID_CHANGE_WATCHED_FILES:
        return
    params = data.get("params")
    if not isinstance(params, dict) or not isinstance(params.get("changes"), list):
        return
    changes = params["changes"]
    params["changes"] = [
        change
        for change in changes
        if isinstance(change, dict)
        and isinstance(change.get("uri"), str)
        and type(change.get("type")) is int
        and change["type"] in _FILE_CHANGE_TYPES
    ]


class FlowdropProtocol(LanguageServerProtocol):
    """pygls's protocol, minus its own text sync: the server keeps its own buffers
    (lsp/documents.py), so pygls's O(document) rebuild per change is skipped."""

    # pygls creates its Workspace in `initialize`; every one it sets is made buffers-only
    # (lsp/current.py), so no feature can read a document's text from disk by accident.
    @property
    def _workspace(self) -> Any:
        return self.__dict__.get("_buffers_only_workspace")

    @_workspace.setter
    def _workspace(self, workspace: Any) -> None:
        if workspace is not None and not isinstance(workspace, BuffersOnlyWorkspace):
            workspace.__class__ = BuffersOnlyWorkspace  # same state, text reads refused
        self.__dict__["_buffers_only_workspace"] = workspace

    def structure_message(self, data: dict[str, Any]) -> Any:
        # One malformed event in a batch of watched-file changes (a `type` no FileChangeType
        # names, a uri that is no string) would make pygls drop the whole notification, and the
        # valid events beside it with it: the malformed ones alone are left out.
        _keep_valid_file_events(data)
        # A didChange position that is no uinteger is marked -1 (not refused, nor read as
        # another number) so that Document.apply refuses the change and the document waits for
        # its full text; the rest of the message is checked as strictly as ever.
        if (marked := mark_unsound_positions(data)) is None:
            return super().structure_message(data)
        super().structure_message(mark_unsound_positions(data, mark=0) or data)
        with attrs.validators.disabled():
            return super().structure_message(marked)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> Any:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Any:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


class FlowdropServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("flowdrop-lsp", __version__, protocol_cls=FlowdropProtocol)
        self.documents = DocumentStore()
        self.settings = SettingsManager()
        # Every file's findings, open or closed, with its site's (the CLI asks the same host).
        # (A site's first read uses one worker process per core, at most SERVER_WORKERS: an
        # editor's server shares the machine, and each worker holds a copy of the engine.)
        workers = min(SERVER_WORKERS, os.cpu_count() or 1)
        self.host = Host(self.settings.resolver, self._settings_of_path, workers=workers)
        # Closed site files whose diagnostics were pushed (so they can be cleared), by path.
        self.site_published: set[str] = set()
        self._site_dirty: dict[str, None] = {}
        self._site_task: asyncio.Task[None] | None = None
        self._site_refresh: dict[str, asyncio.TimerHandle] = {}
        # Reading the site of a folder in the background (lsp/workspace.py wires it), and the
        # folders asked for so far.
        self.read_site_later: Callable[[Path], None] | None = None
        # Reading every site of the workspace (under the `workspace` scope), and whether it ran.
        self.read_workspace_later: Callable[[], None] | None = None
        self.workspace_read = False
        self.sites_requested: set[Path] = set()
        # The background reading of the workspace's sites (lsp/workspace.py), once started.
        self.indexing: asyncio.Task[None] | None = None
        self._located: dict[str, LineIndex] = {}
        # Set at every publish: a held `workspace/diagnostic` request answers then.
        self.diagnostics_changed = asyncio.Event()
        self._dirty: dict[str, None] = {}
        self._flush_task: asyncio.Task[None] | None = None
        self._last_change = 0.0
        self._in_burst = False
        self._reporting_error = False

    # ----- client capabilities -------------------------------------------------------------
    @property
    def encoding(self):  # type: ignore[no-untyped-def]
        return encoding_of(self.workspace.position_encoding)

    def capability(self, *path: str) -> Any:
        """What the client said at `path` of its capabilities (`"text_document", "hover",
        "content_format"`), None where it said nothing: asked by the feature modules too."""
        value: Any = self.client_capabilities
        for name in path:
            value = getattr(value, name, None)
            if value is None:
                return None
        return value

    @property
    def supports_related_information(self) -> bool:
        return bool(self.capability("text_document", "publish_diagnostics", "related_information"))

    @property
    def supports_document_changes(self) -> bool:
        return bool(self.capability("workspace", "workspace_edit", "document_changes"))

    @property
    def supports_pull_diagnostics(self) -> bool:
        return self.capability("text_document", "diagnostic") is not None

    @property
    def supports_configuration(self) -> bool:
        return bool(self.capability("workspace", "configuration"))

    # ----- logging ----------------------------------------------------------------------------
    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls reports a message it failed to send by sending another (window/showMessage).
        When the output itself fails, that one fails too and is reported in turn: a recursion
        a thousand deep, each level logging a longer traceback (a server took 10 s to exit and
        wrote 70 MB to stderr, measured). A failure while reporting one is only logged."""
        if self._reporting_error:
            log.error("reporting a server error failed too: %s", error)
            return
        self._reporting_error = True
        try:
            super().report_server_error(error, source)
        finally:
            self._reporting_error = False

    def log_error(self, context: str, error: BaseException) -> None:
        """Log a handler failure to stderr and the client's log; the server keeps serving."""
        details = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        log.error("%s failed: %s", context, details)
        with contextlib.suppress(Exception):  # the log itself must never take the server down
            self.window_log_message(
                types.LogMessageParams(
                    type=types.MessageType.Error, message=f"flowdrop: {context} failed: {error}"
                )
            )

    # ----- analysis -----------------------------------------------------------------------------
    def settings_for(self, document: Document) -> Settings:
        return self.settings.for_uri(document.uri)

    def _settings_of_path(self, path: Path) -> Settings:
        return self.settings.for_uri(path.as_uri())

    def workspace_folder_of(self, uri: str) -> PurePosixPath | None:
        """The deepest workspace folder holding `uri` (globs without a settings file of their
        own are relative to it), else the workspace root."""
        path = uri_path(uri)
        folders = [uri_path(folder.uri) for folder in self.workspace.folders.values()]
        if self.workspace.root_uri:
            folders.append(uri_path(self.workspace.root_uri))
        holding = [
            f
            for f in folders
            if f is not None and path is not None and (f == path or f in path.parents)
        ]
        return max(holding, key=lambda f: len(f.parts), default=None)

    def is_flowdrop(self, document: Document) -> bool:
        return document.is_flowdrop(self.workspace_folder_of(document.uri))

    @property
    def workspace_scope(self) -> bool:
        """Whether closed files get diagnostics (`flowdrop.diagnostics.scope`)."""
        return self.settings.diagnostics_scope == SCOPE_WORKSPACE

    def _wanted(self, document: Document) -> bool:
        """A workflow, or a site file (a node type gets its cross-file findings)."""
        return self.is_flowdrop(document) or site_path(document.uri) is not None

    def is_judged(self, document: Document) -> bool:
        """Whether the document gets findings: a workflow, or a site file (a node type)."""
        return self._wanted(document)

    def judged_findings(self, document: Document) -> tuple[Finding, ...]:
        """The findings its diagnostics are made of (its own and, in a site, its cross-file
        ones), in the same order; none for a document that gets none."""
        return self._findings(document) if self._wanted(document) else ()

    def diagnostics_of(self, document: Document) -> list[types.Diagnostic]:
        """The document's diagnostics, or none when it is neither a FlowDrop workflow nor a
        site file."""
        return self._diagnostics(document) if self._wanted(document) else []

    def _findings(self, document: Document) -> tuple[Finding, ...]:
        """The document's findings, as the host answers them: its own (a workflow's) and, for a
        site file, its cross-file findings judged on this very buffer (given to its site
        first). A document outside a site costs a name check."""
        path = file_path(document.uri)
        if path is None:  # an unsaved buffer: no file, no site
            return document.findings() if self.is_flowdrop(document) else ()
        if site_path(document.uri) is not None:
            self._give_buffer_to_site(path, document)
        return self.host.findings(path)

    def _give_buffer_to_site(self, path: Path, document: Document, now: bool = False) -> None:
        """Let the site read the buffer's text: at once when it is small (a real workflow: a
        few milliseconds), else once the typing pauses (SITE_REFRESH_IDLE), so a large buffer
        costs no site read per keystroke. A site not read yet is read in the background (a
        folder may hold a thousand workflows); the buffer is answered first."""
        changes = self.host.sync_buffer(path, now=now)
        if changes.needs_site is not None:
            if self.read_site_later is not None:
                self.read_site_later(changes.needs_site)
            return
        if changes.deferred:
            self._refresh_site_later(document.uri)
            return
        changes.stale.discard(self.host.key(path))
        self.apply_changes(changes)

    def apply_changes(self, changes: Changes) -> None:
        """Re-publish what a change made stale. When settings changed (a node type, a project
        settings file), an open document is judged under its new settings at its next publish
        (`publish`): re-published now when it is stale, or outside the sites that changed."""
        if changes.settings_changed:
            show_new_problems(self)  # an invalid definition is shown once
            for document in self.documents.all():
                if self.settings_for(document) is document.settings:
                    continue
                # A file of a site is re-published when the site says it is stale (a user of
                # the node type); any other (a JSON workflow beside the definitions, one whose
                # `node-types` setting names them) has no site to say so.
                path = file_path(document.uri)
                if (
                    path is None
                    or not self.host.in_site(path)
                    or self.host.key(path) in changes.stale
                ):
                    self.schedule(document.uri)
        self.schedule_site(changes.stale)

    def _refresh_site_later(self, uri: str) -> None:
        pending = self._site_refresh.pop(uri, None)
        if pending is not None:
            pending.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a direct call): read it now
            self._refresh_site_now(uri)
            return
        self._site_refresh[uri] = loop.call_later(SITE_REFRESH_IDLE, self._refresh_site_now, uri)

    def _refresh_site_now(self, uri: str) -> None:
        self._site_refresh.pop(uri, None)
        document = self.documents.get(uri)
        path = file_path(uri) if site_path(uri) is not None else None
        if document is None or path is None or document.out_of_sync:
            return
        try:
            self._give_buffer_to_site(path, document, now=True)
        except Exception as error:  # noqa: BLE001
            self.log_error(f"reading {uri} into its site", error)
            return
        self.schedule(uri)  # its cross-file findings, judged on the text it has now

    def _diagnostics(self, document: Document) -> list[types.Diagnostic]:
        encoding = self.encoding
        related = self.supports_related_information
        docs_url = document.settings.docs_url
        return [
            to_diagnostic(
                f,
                document.lines,
                encoding,
                document.uri,
                document.version,
                docs_url,
                related,
                self.locate,
            )
            for f in self._findings(document)
        ]

    def locate(self, path: str) -> tuple[str, Positions] | None:
        """Another site file, for a related location: its URI (the open document's when it is
        open) and the positions of the text the site read (which the spans are offsets into)."""
        text = self.host.text(path)
        if text is None:
            return None
        document = self.documents.at_path(path)
        uri = document.uri if document is not None else Path(path).as_uri()
        lines = self._located.get(path)
        if lines is None or lines.text is not text:
            if len(self._located) >= LOCATED_TEXTS:
                self._located.pop(next(iter(self._located)))
            lines = self._located[path] = LineIndex(text)
        return uri, lines

    def publish(self, document: Document) -> None:
        """Publish after every analysis of a workflow (even when nothing changed, so clients and
        tests see each version answered); clear once when a document stops being one."""
        if document.out_of_sync:  # nothing to say until the client's full text arrives
            return
        settings = self.settings_for(document)
        if settings is not document.settings:  # a node type or a settings file changed
            document.reconfigure(settings)
        wanted = self._wanted(document)
        if wanted or document.published:
            self.diagnostics_changed.set()
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=document.uri,
                    version=document.version,
                    diagnostics=self._diagnostics(document) if wanted else [],
                )
            )
            document.published = wanted

    # ----- closed site files --------------------------------------------------------------------
    def closed_diagnostics(self, path: str) -> list[types.Diagnostic] | None:
        """A closed site file's diagnostics (its own findings and its cross-file ones, under
        the settings an open buffer of it would have), None when no site holds it."""
        text = self.host.text(path)
        if text is None:
            return None
        file = Path(path)
        uri = file.as_uri()
        settings = self.settings.for_uri(uri)
        findings = self.host.findings(file, settings)  # (the host would ask the same: once)
        if not findings:
            return []
        lines = LineIndex(text)
        encoding, related = self.encoding, self.supports_related_information
        return [
            to_diagnostic(f, lines, encoding, uri, None, settings.docs_url, related, self.locate)
            for f in findings
        ]

    def publish_closed(self, path: str) -> None:
        """Push a closed site file's diagnostics (workspace scope), or clear them once when it
        left its site, was deleted or the scope became `open`."""
        diagnostics = self.closed_diagnostics(path) if self.workspace_scope else None
        self.diagnostics_changed.set()
        if diagnostics is None:
            if path in self.site_published:
                self.site_published.discard(path)
                self.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=Path(path).as_uri(), diagnostics=[])
                )
            return
        self.site_published.add(path)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=Path(path).as_uri(), diagnostics=diagnostics)
        )

    def publish_site_file(self, path: str) -> None:
        document = self.documents.at_path(path)
        if document is not None:
            self.schedule(document.uri)
        elif not self.host.is_loading(Path(path)):  # its site's end of reading publishes it
            self.publish_closed(path)

    def schedule_site(self, paths: Iterable[str]) -> None:
        """Re-publish these site files once the loop is free (open ones from their buffers)."""
        for path in paths:
            self._site_dirty[path] = None
        if self._site_dirty and (self._site_task is None or self._site_task.done()):
            self._site_task = asyncio.ensure_future(self._flush_site())

    async def _flush_site(self) -> None:
        await asyncio.sleep(0)
        began = time.monotonic()
        while self._site_dirty:
            path = next(iter(self._site_dirty))
            del self._site_dirty[path]
            try:
                self.publish_site_file(path)
            except Exception as error:  # noqa: BLE001
                self.log_error(f"publishing {path}", error)
            if time.monotonic() - began > SITE_SLICE:
                await asyncio.sleep(0)
                began = time.monotonic()

    def schedule(self, uri: str) -> None:
        """Mark a document for analysis; one task drains the dirty set once the loop is free."""
        now = time.monotonic()
        # A change hard on the heels of another means a burst (typing fast, a macro, a paste
        # split in many changes): wait for it to settle instead of analysing every version. An
        # isolated keystroke is analysed at once.
        self._in_burst = now - self._last_change < BURST_GAP
        self._last_change = now
        self._dirty[uri] = None
        if self._flush_task is None or self._flush_task.done():
            self._flush_task = asyncio.ensure_future(self._flush())

    async def _flush(self) -> None:
        await asyncio.sleep(0)  # let already-received changes land first
        waited = 0.0
        while (
            self._in_burst
            and time.monotonic() - self._last_change < BURST_QUIET
            and waited < BURST_MAX_WAIT
        ):
            await asyncio.sleep(BURST_QUIET)
            waited += BURST_QUIET
        published: list[Document] = []
        while self._dirty:
            uri = next(iter(self._dirty))
            del self._dirty[uri]
            document = self.documents.get(uri)
            if document is None:
                continue
            try:
                self.publish(document)
                published.append(document)
            except Exception as error:  # noqa: BLE001
                self.log_error(f"analysing {uri}", error)
            await asyncio.sleep(0)
        # Every publish out: what a whole read left for later (its parse freed, the line index
        # the next edit needs: WorkflowDocument.settle), done before the next message is read.
        for document in published:
            if self.documents.get(document.uri) is document:  # still open
                document.workflow.settle()

    def republish_all(self) -> None:
        """After a settings change: re-read every open document under its settings, publish."""
        self.settings.invalidate()
        show_new_problems(self)
        for document in self.documents.all():
            document.reconfigure(self.settings_for(document))
            self.schedule(document.uri)
        # Closed site files too: their settings (node types, scope) may have changed. Each keeps
        # its own findings while its settings stay equal.
        self.host.forget_own_findings()
        self.schedule_site([*self.host.site_files(), *self.site_published])
        if self.read_workspace_later is not None:  # the scope may have become `workspace`
            self.read_workspace_later()
        # Inlay hints and code lenses are pulled by the client after edits, not after a settings
        # change: ask for them again where the client lets us.
        if self.capability("workspace", "inlay_hint", "refresh_support"):
            self.workspace_inlay_hint_refresh(None)
        if self.capability("workspace", "code_lens", "refresh_support"):
            self.workspace_code_lens_refresh(None)
