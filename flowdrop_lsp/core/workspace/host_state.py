"""The host's state (core/workspace/host.py), as records: one per file it knows (`HostedFile`,
by its key), one per folder it looked at (`SiteFolder`, by the folder's real path), both held in
one `HostState` that the host and its two parts (checking.py, the CLI's; preloading.py, the
editor's first read of a site) share. What each field may hold, and when it is still valid, is
said once, in the records' docstrings (and in docs/architecture.md, "One host").

An open buffer's protocol (`OpenFile`) is here too, since a file's record holds one; and the
one "not UTF-8" finding (`undecodable`), since a record holds it and the CLI shows it alike."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Protocol

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.site_facts import WorkflowFacts
from flowdrop_lsp.core.findings import Edit, Finding
from flowdrop_lsp.core.workspace.batch import FileAnalysis
from flowdrop_lsp.core.workspace.cache import loads
from flowdrop_lsp.core.workspace.site import SiteIndex


class OpenFile(Protocol):
    """An editor's open buffer of a file, as the host asks it."""

    @property
    def text(self) -> str: ...

    @property
    def settings(self) -> Settings: ...

    # The edits made since its text was last given to its site (code points, in order): the
    # site's findings are carried through them. None: not known (the site reads it again).
    site_edits: list[Edit] | None

    def own_findings(self) -> tuple[Finding, ...]:
        """Its single-file findings (settings applied; none when it is no workflow)."""
        ...

    def site_facts(self) -> WorkflowFacts | None:
        """Its site facts, from what the engine read of its current text."""
        ...


@dataclass(frozen=True, slots=True)
class OwnFindings:
    """A file's own findings (settings applied) and the text and settings they were made
    under: they are its findings for that text and those settings only."""

    text: str
    settings: Settings
    findings: tuple[Finding, ...]

    def made_under(self, text: str, settings: Settings) -> bool:
        return self.text == text and self.settings == settings


class Undecodable(NamedTuple):
    """A file that is not UTF-8: its text as shown (bad bytes replaced) and its one FD-SYNTAX
    finding, at the first bad byte (the reader's: core/workspace/reading.py `SiteFile`)."""

    text: str
    finding: Finding


@dataclass(frozen=True, slots=True)
class ClosedFacts:
    """What a workflow's buffer closed as saved told of that text: its site facts (its own
    findings are kept as the file's `own`)."""

    text: str
    facts: WorkflowFacts | None


@dataclass(frozen=True, slots=True)
class Preloaded:
    """A workflow's analysis computed before its site read it (core/workspace/preloading.py),
    with the text and settings it was made under. `analysis` may still be pickled, as a worker
    process sent it: the read that takes it unpickles it (`taken`), on the loop, where what it
    holds is kept — not in the thread that received it."""

    text: str
    settings: Settings
    analysis: FileAnalysis | bytes

    def taken(self) -> FileAnalysis:
        analysis = self.analysis
        return loads(analysis) if isinstance(analysis, bytes) else analysis


@dataclass(slots=True)
class HostedFile:
    """What the host holds of one file, by its key (`Host.key`: as its site spells it, else its
    absolute path; `-` for the CLI's anonymous standard input). Each field is one thing the
    host knows of the file, and says when it holds:

    - `buffer`: the editor's open buffer. It wins over the disk: while it is open, its own
      findings are its engine's, its site never reads the file from disk (`load`,
      `disk_changed`), and `close` gives the disk back.
    - `site_holds_buffer`: the site index holds the buffer's text (given by `sync_buffer`, not
      the disk's), until `close`; a large buffer's cross-file findings are carried through the
      edits made since (`buffer.site_edits`).
    - `own`: its own findings, valid only for the text and settings stored with them (asked
      again otherwise); forgotten when the settings of every file change.
    - `undecodable`: the file is not UTF-8: its shown text and its one finding are its text and
      its own findings (its site holds it without facts).
    - `given`: the settings the caller judged it under (the CLI's, its command line applied),
      used over the resolver's for a closed file.
    - `closed`: a workflow closed as saved before its site read it: its facts for that text,
      which the site's read takes (with `own`) instead of reading the file again.
    - `preloaded`: its analysis computed ahead of its site's read, taken by that read for the
      same text and settings, dropped when the read finishes.
    """

    buffer: OpenFile | None = None
    site_holds_buffer: bool = False
    own: OwnFindings | None = None
    undecodable: Undecodable | None = None
    given: Settings | None = None
    closed: ClosedFacts | None = None
    preloaded: Preloaded | None = None


@dataclass(slots=True)
class SiteFolder:
    """A folder the host looked at, by its real path (one site however its folder is spelled):
    `index` its site's index, None when the folder holds no site file (it is not looked at again
    until a site is opened there); `loading` while its site is being read (`open_site` …
    `finish`), when its cross-file findings wait (they would name files not read yet)."""

    index: SiteIndex | None
    loading: bool = False


def real_folder(folder: Path) -> Path:
    """A folder's real path (links and `..` resolved): how the host keys a site."""
    return Path(os.path.realpath(folder))


@dataclass
class HostState:
    """Everything the host holds: its files and its folders. `reals` is a memo, not state: the
    real paths of folders as spelled, asked ~10 times per file of a check (0.35 s of a
    1,000-workflow one), forgotten at every disk change and site opened (a link may have
    moved)."""

    files: dict[str, HostedFile] = field(default_factory=dict)
    folders: dict[Path, SiteFolder] = field(default_factory=dict)
    reals: dict[Path, Path] = field(default_factory=dict)

    def file(self, key: str) -> HostedFile:
        """The record of `key`, made empty the first time."""
        record = self.files.get(key)
        if record is None:
            record = self.files[key] = HostedFile()
        return record

    def real_folder(self, folder: Path) -> Path:
        real = self.reals.get(folder)
        if real is None:
            real = self.reals[folder] = real_folder(folder)
        return real

    def folder(self, folder: Path) -> SiteFolder | None:
        """What the host knows of `folder` (however spelled), if it looked at it."""
        return self.folders.get(self.real_folder(folder))

    def index_of(self, path: Path) -> SiteIndex | None:
        """The index of the site holding `path` (its folder, however spelled), if it is read."""
        site = self.folder(path.parent)
        return site.index if site is not None else None

    def add_site(self, folder: Path, index: SiteIndex) -> None:
        self.folders[self.real_folder(folder)] = SiteFolder(index)

    def undecodable_keys(self) -> set[str]:
        return {key for key, record in self.files.items() if record.undecodable is not None}

    def forget_own_findings(self) -> None:
        for record in self.files.values():
            record.own = None
