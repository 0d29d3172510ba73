"""The server's own store of open documents, each kept analysed by the incremental engine.

The server keeps its own buffers instead of pygls's workspace (whose text sync rebuilds the
whole document per change, see the protocol override in server.py), so that what we analyse
is always exactly the buffer the client sent — unsaved and untitled ones included, never the
disk — and an edit costs what it touches. Each buffer is analysed by the editor facade
(core/ide/service.py), which answers every feature about it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlparse

from flowdrop_lsp.core.facade import Edit, EditableText, Encoding, Finding, Settings, is_site_file
from flowdrop_lsp.core.ide.service import WorkflowFacts, WorkflowService, syntax_of


@dataclass(frozen=True)
class Change:
    """One content change: a range in the client's encoding, or None for the whole text."""

    range: tuple[int, int, int, int] | None  # start line, start character, end line, end character
    text: str


class ChangeRejected(ValueError):
    """A didChange whose content changes cannot all be applied; the buffer is as it was."""


# LSP's `uinteger`: what a position's line and character must be.
UINTEGER_MAX = 2**31 - 1
# Edits kept for carrying a site's findings to the current text (more: the site reads it again).
MAX_SITE_EDITS = 10_000


def _is_uinteger(value: object) -> bool:
    return type(value) is int and 0 <= value <= UINTEGER_MAX


def unappliable(change: Change) -> str | None:
    """Why `change` cannot be applied, or None when it can.

    Only a position that is no unsigned integer (negative, over 2^31 - 1, not an integer) is
    refused: the client's text cannot be known from it. Anything else is applied as LSP and
    its reference implementation (vscode-languageserver-textdocument) do: a character past
    its line's end is the line's end, a line past the last one the end of the text, and a
    range that ends before it starts is its swap."""
    if change.range is None:
        return None
    if not all(_is_uinteger(value) for value in change.range):
        return f"a position is no unsigned integer: {change.range}"
    return None


def _json_uinteger(value: object) -> bool:
    """A JSON number that is an unsigned integer (`3.0` too; `true` is no number)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return _is_uinteger(value)


def mark_unsound_positions(message: Any, mark: int = -1) -> dict[str, Any] | None:
    """A raw `didChange` message with every position whose line or character is no unsigned
    integer replaced by `{"line": mark, "character": mark}` (a copy; None when all are sound,
    or when it is no didChange).

    lsprotocol refuses such a message whole (a negative line) or reads it wrong (`1.5` as 1,
    `"3"` as 3), and a notification that does not deserialise is dropped: the change would be
    lost silently and our buffer would drift from the client's. Marked, the change reaches
    `Document.apply`, which refuses it (the document waits for the full text)."""
    if not isinstance(message, dict) or message.get("method") != "textDocument/didChange":
        return None
    params = message.get("params")
    if not isinstance(params, dict) or not isinstance(
        changes := params.get("contentChanges"), list
    ):
        return None
    bad = {"line": mark, "character": mark}
    marked_changes: list[Any] = []
    found = False
    for change in changes:
        if not isinstance(change, dict) or "range" not in change:
            marked_changes.append(change)
            continue
        span = change["range"]
        if not isinstance(span, dict):
            found = True
            marked_changes.append({**change, "range": {"start": bad, "end": bad}})
            continue
        ends = {}
        for name in ("start", "end"):
            at = span.get(name)
            sound = isinstance(at, dict) and all(
                _json_uinteger(at.get(key)) for key in ("line", "character")
            )
            ends[name] = at if sound else dict(bad)
            found = found or not sound
        marked_changes.append({**change, "range": {**span, **ends}})
    if not found:
        return None
    return {**message, "params": {**params, "contentChanges": marked_changes}}


def uri_path(uri: str) -> PurePosixPath | None:
    parsed = urlparse(uri)
    if parsed.scheme not in ("file", "vscode-remote", ""):
        return None
    return PurePosixPath(unquote(parsed.path))


class Document:
    def __init__(
        self, uri: str, language_id: str, version: int, text: str, settings: Settings
    ) -> None:
        self.uri = uri
        self.language_id = language_id
        self.version = version
        self.settings = settings
        self.workflow = self._analysed(text)
        self.published = False  # whether diagnostics were published (so they can be cleared)
        # After a change we could not apply, our buffer no longer matches the client's: only a
        # full-text change (or reopening) brings them back together.
        self.out_of_sync = False
        self.warned = False  # the user was told to reopen the file
        self._flowdrop_verdict: tuple[tuple[object, ...], bool] | None = None
        # The edits made since the buffer's text was last given to its site (code points, in
        # order), so that the site's findings can be carried to the current text until the site
        # reads it again; None: not known (the text was restored, or too many edits to keep).
        self.site_edits: list[Edit] | None = []

    @property
    def syntax(self) -> str:
        return syntax_of(self.uri, self.language_id)

    @property
    def allow_comments(self) -> bool:
        return self.language_id == "jsonc" or self.uri.endswith(".jsonc")

    @property
    def lines(self) -> EditableText:
        """Positions and offsets of the current text (the LineIndex interface)."""
        return self.workflow.lines

    @property
    def text(self) -> str:
        return self.workflow.text

    def apply(self, changes: Iterable[Change], version: int, encoding: Encoding) -> None:
        """Apply the content changes of one didChange, in order, as LSP says: all of them, or
        (raising ChangeRejected) none.

        Each change is checked against the text as the previous ones leave it; when a later one
        is bad, the text from before the first is restored. An out-of-sync document takes only
        what follows a full-text change."""
        pending = list(changes)
        full = [i for i, change in enumerate(pending) if change.range is None]
        if self.out_of_sync:
            if not full:
                raise ChangeRejected("the document is out of sync: waiting for its full text")
            pending = pending[full[-1] :]
        # A single change is checked before anything is applied; with several, the text from
        # before the first is kept to restore (each is checked against its predecessors' result).
        before = self.workflow.text if len(pending) > 1 else None
        for change in pending:
            if why := unappliable(change):
                if before is not None:
                    self._reset(before)
                self.out_of_sync = True
                raise ChangeRejected(why)
            buffer = self.workflow.lines
            if change.range is None:
                start, end = 0, len(buffer)
            else:
                start_line, start_char, end_line, end_char = change.range
                if (end_line, end_char) < (start_line, start_char):  # reversed: its swap
                    start_line, start_char, end_line, end_char = change.range[2:] + change.range[:2]
                # Past a line's end or the last line: clamped by the conversion, as LSP says.
                start = buffer.offset(start_line, start_char, encoding)
                end = max(start, buffer.offset(end_line, end_char, encoding))
            # A whole line or the whole text sent for one keystroke is applied as that
            # keystroke (the engine leaves out what did not change): the site's findings are
            # carried through the edit as made.
            self._edited(*self.workflow.apply_edit(start, end, change.text))
        self.out_of_sync = False
        self.version = version

    def _edited(self, start: int, end: int, length: int) -> None:
        edits = self.site_edits
        if edits is not None and (start < end or length):  # no change: the site's text still is
            edits.append((start, end, length))
            if len(edits) > MAX_SITE_EDITS:
                self.site_edits = None

    def _analysed(self, text: str) -> WorkflowService:
        # The server closes every analysis it drops (`_reset`, DocumentStore.close), so the
        # engine may keep it out of the collector's way (see WorkflowService).
        return WorkflowService(
            text,
            self.settings,
            allow_comments=self.allow_comments,
            syntax=self.syntax,
            release_on_close=True,
        )

    def _reset(self, text: str) -> None:
        self.workflow.close()
        self.workflow = self._analysed(text)
        self.site_edits = None  # restored: the edits since the site's read no longer tell

    def reconfigure(self, settings: Settings) -> None:
        """New settings: re-read the text under them (only when they differ)."""
        if settings != self.settings:
            self.settings = settings
            self._reset(self.workflow.text)

    def findings(self) -> tuple[Finding, ...]:
        return self.workflow.findings()

    def is_flowdrop(self, workspace_folder: PurePosixPath | None) -> bool:
        """A FlowDrop workflow: a path matching the configured globs (relative to the settings
        file's folder, else `workspace_folder`), or JSON whose content is FlowDrop's shape
        (WorkflowService.is_flowdrop). Unrelated JSON gets nothing."""
        # Every request asks (hover, definition, code lens…), and the answer costs glob matching
        # or element parses: it is kept until the text, the settings or the folder change.
        key = (self.version, id(self.workflow), self.settings, workspace_folder)
        if self._flowdrop_verdict is not None and self._flowdrop_verdict[0] == key:
            return self._flowdrop_verdict[1]
        verdict = self.workflow.is_flowdrop(uri_path(self.uri), workspace_folder)
        self._flowdrop_verdict = (key, verdict)
        return verdict


def file_path(uri: str) -> Path | None:
    """The file a `file:` URI names (None for another scheme: an unsaved buffer)."""
    if not uri.startswith("file:"):
        return None
    path = uri_path(uri)
    return Path(path) if path is not None else None


def site_path(uri: str) -> Path | None:
    """The file a `file:` URI names when it is named like a site file (a workflow config or a
    node type), else None: only those take part in a site. A name check, nothing more."""
    if not uri.startswith("file:"):
        return None
    path = uri_path(uri)
    if path is None or not is_site_file(path.name):
        return None
    return Path(path)


class OpenBuffer:
    """An open document as the host asks it (core/workspace/host_state.py `OpenFile`): its
    buffer, its own findings (a workflow's: `is_flowdrop` says which documents are) and its
    site facts, from the engine's analysis of it."""

    def __init__(self, document: Document, is_flowdrop: Callable[[Document], bool]) -> None:
        self._document = document
        self._is_flowdrop = is_flowdrop

    @property
    def text(self) -> str:
        return self._document.text

    @property
    def settings(self) -> Settings:
        return self._document.settings

    @property
    def site_edits(self) -> list[Edit] | None:
        return self._document.site_edits

    @site_edits.setter
    def site_edits(self, edits: list[Edit] | None) -> None:
        self._document.site_edits = edits

    def own_findings(self) -> tuple[Finding, ...]:
        document = self._document
        return document.findings() if self._is_flowdrop(document) else ()

    def site_facts(self) -> WorkflowFacts | None:
        return self._document.workflow.site_facts()


def _same_file(path: Path) -> str:
    """One spelling per file: its folder's real path (a site is one site however its folder is
    spelled, through a link or `..`), and its name."""
    return os.path.join(os.path.realpath(path.parent), path.name)


class DocumentStore:
    def __init__(self) -> None:
        self._documents: dict[str, Document] = {}
        self._by_path: dict[str, str] = {}  # open site files: path → uri

    def open(
        self, uri: str, language_id: str, version: int, text: str, settings: Settings
    ) -> Document:
        self.close(uri)  # reopened without a close: the old engine is closed all the same
        document = Document(uri, language_id, version, text, settings)
        self._documents[uri] = document
        if (path := site_path(uri)) is not None:
            self._by_path[_same_file(path)] = uri
        return document

    def get(self, uri: str) -> Document | None:
        return self._documents.get(uri)

    def at_path(self, path: str) -> Document | None:
        """The open document of a site file, by its path (clients spell URIs their own way)."""
        if not self._by_path:  # (no open site file: no real path asked, 1,420 times a site)
            return None
        uri = self._by_path.get(_same_file(Path(path)))
        return self._documents.get(uri) if uri is not None else None

    def close(self, uri: str) -> Document | None:
        document = self._documents.pop(uri, None)
        if document is not None:
            document.workflow.close()
            if (path := site_path(uri)) is not None and self._by_path.get(_same_file(path)) == uri:
                del self._by_path[_same_file(path)]
        return document

    def all(self) -> list[Document]:
        return list(self._documents.values())
