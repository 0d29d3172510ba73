"""The host: the one answer to "the findings of this file", for the CLI and the server alike.

A file's findings are its own (its single-file analysis: the engine reading its text, settings
applied) and, for a file of a site, its cross-file ones (FD-CALL, FD-CONTRACT, FD-DEPENDENCY,
R4, R10: its site index, core/workspace/site.py, settings applied), merged in position order.
The host holds everything that takes: the site indexes (one per site folder, however its path
is spelled), the node-type definitions they share with the settings' registries
(core/workspace/node_types.py, each file parsed once), the open buffers an editor gives it
(`OpenFile`: its text, its own findings and its site facts from the incremental engine, winning
over the disk), the closed files' own findings (computed once per text and settings; the CLI
has them computed up front, cached and in parallel, by `check`), and the undecodable files
(one FD-SYNTAX finding each, as the CLI reports them).

The server asks `findings(path)` to publish a file, open or closed, and tells the host what
changes: `open`/`close` a buffer, `sync_buffer` after an edit (its text and facts given to its
site), `disk_changed` for a watched file. Each answers the files whose findings may have
changed (`Changes`): the server re-publishes them. The CLI makes its host with `for_check`
(its cache and processes), walks its paths (`walk`), `check`s the files, asks `findings` for
each, applies the fixes it chose (`fixes`, `fixed`) and `refresh`es a file it fixed. As
core/ide/service.py is the server's facade over a buffer, this module is the CLI's way into the
core: what a run needs besides the host is named here (`__all__`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from flowdrop_lsp.core.config.selection import (
    Candidate,
    Skipped,
    syntax_of,
    syntax_of_text,
    walk,
)
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import (
    WATCH_GLOBS,
    is_config_file,
    is_node_type_file,
    is_project_settings_file,
    is_services_file,
    is_site_file,
    is_workflow_config_file,
    skipped_folder,
)
from flowdrop_lsp.core.domain.site_facts import WorkflowFacts
from flowdrop_lsp.core.engine.document import apply_settings
from flowdrop_lsp.core.findings import Edit, Finding, through_edits
from flowdrop_lsp.core.rules.document import undecodable_finding
from flowdrop_lsp.core.workspace.batch import AnalysisJob, Batch, FileAnalysis, analyse_file
from flowdrop_lsp.core.workspace.cache import CACHE_DIR_ENV, CACHE_DIR_NAME
from flowdrop_lsp.core.workspace.checking import CheckedFile, Checking, real_folder
from flowdrop_lsp.core.workspace.node_types import (
    TooLarge,
    definition_findings,
    read_site_text,
)
from flowdrop_lsp.core.workspace.preloading import Preloading
from flowdrop_lsp.core.workspace.reading import ReadOnce as ReadOnce  # the CLI's reads
from flowdrop_lsp.core.workspace.resolver import (
    SettingsResolver,
    current_rule_codes,
    unknown_rule_codes,
)
from flowdrop_lsp.core.workspace.site import SiteIndex, syntax_of_path

# What the server asks here besides the host: which files are a site's, what to watch.
__all__ = [
    "SITE_SYNC_CHARS",
    "WATCH_GLOBS",
    "CACHE_DIR_ENV",
    "CACHE_DIR_NAME",
    "Candidate",
    "Changes",
    "CheckedFile",
    "Edit",
    "Host",
    "OpenFile",
    "SettingsResolver",
    "Skipped",
    "find_site_folders",
    "is_project_settings_file",
    "is_services_file",
    "is_site_file",
    "current_rule_codes",
    "syntax_of",
    "syntax_of_text",
    "unknown_rule_codes",
    "walk",
]

# An open site file larger than this is given to its site once typing pauses (the caller's
# timer), not on every change: the largest real workflow is ~50 kB.
SITE_SYNC_CHARS = 128 * 1024

SettingsFor = Callable[[Path], Settings]
ReadBytes = Callable[[Path], bytes]


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


@dataclass
class Changes:
    """What a change did: the files (index keys) whose findings may have changed, and whether
    the settings of files changed (node types or a project settings file): the open buffers
    are then judged again under their new settings when next published."""

    stale: set[str] = field(default_factory=set)
    settings_changed: bool = False
    # (sync_buffer) The buffer's site is not read yet: the caller reads it in the background.
    needs_site: Path | None = None
    # (sync_buffer) A large buffer: the caller syncs it again once typing pauses (`now=True`).
    deferred: bool = False


def find_site_folders(folder: Path, skip: Callable[[Path], bool] | None = None) -> list[Path]:
    """The site folders under `folder` (itself included), sorted: folders holding a workflow
    config file or a node-type definition. Hidden folders, `node_modules` and `vendor` are not
    walked, nor folders `skip` says to leave out (the settings' `exclude`)."""
    found: list[Path] = []
    for current, folders, files in os.walk(folder):
        folders[:] = sorted(
            name
            for name in folders
            if not skipped_folder(name) and (skip is None or not skip(Path(current, name)))
        )
        if any(is_site_file(name) for name in files):
            found.append(Path(current))
    return sorted(found)


class Host(Checking, Preloading):
    """The findings of every file of a workspace (see the module docstring; what only the CLI
    asks is core/workspace/checking.py's)."""

    def __init__(
        self,
        resolver: SettingsResolver,
        settings_for: SettingsFor | None = None,
        *,
        batch: Batch | None = None,
        read_text: Callable[[Path], str] = read_site_text,
        workers: int | None = 1,
    ) -> None:
        self.resolver = resolver
        self.settings_for: SettingsFor = settings_for or resolver.for_file
        # The definitions read for the settings' registries: every site index reads the same.
        self.node_types = resolver.node_types.files
        # (The server's batch computes a site's first read with `workers` processes, None:
        # one per core; core/workspace/preloading.py.)
        self.batch = batch if batch is not None else Batch(None, workers, self.node_types)
        self._read_text = read_text
        self._indexes: dict[Path, SiteIndex] = {}  # by the real path of the site's folder
        self._not_sites: set[Path] = set()
        self._loading: set[Path] = set()  # sites still being read (cross-file findings wait)
        self._open: dict[str, OpenFile] = {}
        self._buffers: set[str] = set()  # site files whose open buffer is what the index holds
        # Each closed file's own findings, with the text and settings they were made under.
        self._own: dict[str, tuple[str, Settings, tuple[Finding, ...]]] = {}
        # Files that are not UTF-8: the text shown (undecodable bytes replaced), its finding.
        self._undecodable: dict[str, tuple[str, Finding]] = {}
        # The settings the caller judged a file under (the CLI's, its command line applied).
        self._given: dict[str, Settings] = {}
        # A workflow closed as saved before its site was read: its text and facts, taken when
        # the site reads it (with its own findings, kept in `_own`).
        self._closed_facts: dict[str, tuple[str, WorkflowFacts | None]] = {}
        # The analyses of a site's closed workflows computed together before it is read
        # (`preload`): key → the text and settings they were made under, the analysis.
        self._preloaded: dict[str, tuple[str, Settings, FileAnalysis]] = {}
        # Folders' real paths, asked ~10 times per file of a check (0.35 s of a 1,000-workflow
        # one); forgotten at every disk change and site opened, where a symlink may have moved.
        self._reals: dict[Path, Path] = {}

    def _real_folder(self, folder: Path) -> Path:
        real = self._reals.get(folder)
        if real is None:
            real = self._reals[folder] = real_folder(folder)
        return real

    # ----- where a file belongs --------------------------------------------------------------
    def index_of(self, path: Path) -> SiteIndex | None:
        """The index of the site holding `path` (its folder, however spelled), if it is read."""
        return self._indexes.get(self._real_folder(path.parent))

    def key(self, path: Path) -> str:
        """How the host knows a file: as its site spells it (the site's folder as it was found,
        the file's name), else its absolute path."""
        index = self.index_of(path)
        if index is not None:
            return str(index.root / path.name)
        return os.path.abspath(path)

    def in_site(self, path: Path) -> bool:
        """Whether `path` is a file its site holds (read, or given as a buffer)."""
        index = self.index_of(path)
        return index is not None and self.key(path) in index

    def indexes(self) -> list[SiteIndex]:
        return [self._indexes[root] for root in sorted(self._indexes)]

    def __iter__(self) -> Iterator[SiteIndex]:
        return iter(self.indexes())

    def knows(self, folder: Path) -> bool:
        """Whether `folder` was looked at: its site read (or being read), or found no site."""
        real = self._real_folder(folder)
        return real in self._indexes or real in self._not_sites

    def index_for(self, path: Path) -> SiteIndex | None:
        """The index of the site `path` belongs to, None when its folder holds no site file.
        The first call for a folder reads it whole."""
        real = self._real_folder(path.parent)
        index = self._indexes.get(real)
        if index is not None or real in self._not_sites:
            return index
        index = self._new_index(path.parent)
        files = index.scan()
        if not files and not is_site_file(path):
            self._not_sites.add(real)
            return None
        self._indexes[real] = index
        for file in files:
            self._read_into(index, file)
        return index

    def _new_index(self, root: Path) -> SiteIndex:
        return SiteIndex(root, self._read_text, self.node_types)

    def files_of(self, folder: Path) -> list[str]:
        """The files of the site of `folder`, readable or not (an undecodable file has its
        finding), sorted."""
        index = self._indexes.get(self._real_folder(folder))
        if index is None:
            return []
        root = str(index.root)
        undecodable = {key for key in self._undecodable if os.path.dirname(key) == root}
        return sorted(set(index.files) | undecodable)

    def site_files(self) -> list[str]:
        """Every file of every site (workflows and node types, readable or not), sorted."""
        return sorted(
            {path for index in self._indexes.values() for path in index.files}
            | set(self._undecodable)
        )

    def text(self, path: Path | str) -> str | None:
        """The text the host holds for `path`: the site's (an open buffer's, else the disk's),
        or an undecodable file's as shown."""
        path = Path(path)
        key = self.key(path)
        index = self.index_of(path)
        text = index.text(key) if index is not None else None
        if text is None and key in self._undecodable:
            return self._undecodable[key][0]
        return text

    def is_loading(self, path: Path) -> bool:
        return self._real_folder(path.parent) in self._loading

    # ----- reading sites in the background (the server) --------------------------------------
    def open_site(self, root: Path) -> list[Path]:
        """Start indexing the site folder `root`: its index is created (empty, marked loading)
        and its files answered, for the caller to `load` one by one (with progress) and then
        `finish`. A site already indexed answers no file."""
        self._reals.clear()
        real = self._real_folder(root)
        if real in self._indexes:
            return []
        index = self._new_index(root)
        self._indexes[real] = index
        self._not_sites.discard(real)
        self._loading.add(real)
        return index.scan()

    def load(self, path: Path) -> None:
        """Read one file of a site being opened from disk; an open buffer already given to the
        site stays (the buffer wins). A workflow is analysed in the same read (its own findings
        kept, its facts from the same syntax tree): one parse per file."""
        index = self.index_of(path)
        if index is None:
            return
        key = str(index.root / path.name)
        if key in self._buffers or key in self._open:
            return  # its buffer is given to the site when it is published
        self._read_into(index, Path(key))

    def finish(self, root: Path) -> None:
        real = self._real_folder(root)
        self._loading.discard(real)
        index = self._indexes.get(real)
        for key in [k for k in self._preloaded if index is None or Path(k).parent == index.root]:
            del self._preloaded[key]  # not taken: judged under what may change from now on

    def _read_into(self, index: SiteIndex, path: Path, *, update: bool = False) -> set[str]:
        """Read a site file from disk into its index (a workflow analysed in the same read)."""
        key = str(path)
        kept_own = self._own.pop(key, None)
        kept_facts = self._closed_facts.pop(key, None)
        self._undecodable.pop(key, None)
        try:
            text = self._read_text(path)
        except (OSError, UnicodeDecodeError, TooLarge) as error:
            if isinstance(error, UnicodeDecodeError):
                self._note_undecodable(key, path)
            # In the site all the same, without facts: a call of it is no call of a missing
            # workflow (its own finding says what is wrong).
            return index.update(key) if update else set()
        facts: WorkflowFacts | None = None
        if is_workflow_config_file(path):
            settings = self.settings_for(path)
            if (
                kept_own is not None
                and kept_facts is not None
                and kept_own[0] == text == kept_facts[0]
                and kept_own[1] == settings
            ):
                # A buffer closed as it was saved told us what this text holds: no re-read.
                self._own[key] = (text, settings, kept_own[2])
                facts = kept_facts[1]
            else:
                preloaded = self._preloaded.pop(key, None)
                if preloaded is not None and preloaded[:2] == (text, settings):
                    analysis = preloaded[2]
                else:
                    analysis = self._analyse(text, settings, syntax_of_path(path), site_file=True)
                self._own[key] = (text, settings, analysis.findings)
                facts = analysis.facts if isinstance(analysis.facts, WorkflowFacts) else None
        if update:
            return index.update(key, text, facts)
        index.read(key, text, facts)
        return set()

    def _note_undecodable(self, key: str, path: Path) -> None:
        try:
            raw = path.read_bytes()
            raw.decode("utf-8")
        except UnicodeDecodeError as error:
            shown = raw.decode("utf-8", "replace")
            offset = len(raw[: error.start].decode("utf-8", "replace"))
            self._undecodable[key] = (
                shown,
                undecodable_finding(shown, offset, raw[error.start] if raw else 0),
            )
        except OSError:
            return

    def _definition_findings(self, key: str, text: str, settings: Settings) -> tuple[Finding, ...]:
        """A node-type definition's own findings (core/rules/node_type_*.py), judged on the
        tree the registries and the site read it into (`NodeTypeFiles`: the same text is not
        parsed again), kept per text and settings as a workflow's are."""
        kept = self._own.get(key)
        if kept is not None and (kept[0] is text or kept[0] == text) and kept[1] == settings:
            return kept[2]
        read = self.node_types.read(Path(key), text)
        found = apply_settings(definition_findings(key, text, read), settings)
        self._own[key] = (text, settings, found)
        return found

    def _analyse(self, text: str, settings: Settings, syntax: str, site_file: bool) -> FileAnalysis:
        return analyse_file(AnalysisJob(text, b"", settings, syntax, site_file=site_file))

    # ----- open buffers (the server) ----------------------------------------------------------
    def open(self, path: Path, buffer: OpenFile) -> None:
        """An editor opened `path`: its buffer wins over the disk from now on."""
        self._open[self.key(path)] = buffer

    def is_open(self, path: Path) -> bool:
        return self.key(path) in self._open

    def close(self, path: Path) -> Changes:
        """The buffer closed: the disk wins again (its site reads the file), and a node type's
        registry reads the disk again. A buffer saved as it is (the usual close) costs no read:
        its findings and facts are the disk's."""
        key = self.key(path)
        buffer = self._open.pop(key, None)
        changes = Changes()
        if is_node_type_file(path):
            changes.settings_changed = self._definition_changed(path, None)
        workflow = is_workflow_config_file(path)
        disk = self._disk_text(Path(key)) if workflow or key in self._buffers else None
        saved = buffer is not None and disk is not None and disk == buffer.text
        if saved and workflow:
            assert buffer is not None and disk is not None
            # Kept for the disk's text: its site (now, or when it is read) takes them as read.
            self._own[key] = (disk, buffer.settings, buffer.own_findings())
            self._closed_facts[key] = (disk, buffer.site_facts())
        if key not in self._buffers:
            return changes
        self._buffers.discard(key)
        index = self.index_of(path)
        if index is None:
            return changes
        if saved:
            assert disk is not None
            facts = self._closed_facts.pop(key, (None, None))[1]
            changes.stale |= self._node_types_follow(
                index, key, lambda: index.update(key, disk, facts)
            )
        else:
            changes.stale |= self._node_types_follow(
                index, key, lambda: self._read_into(index, Path(key), update=True)
            )
        return changes

    def _disk_text(self, path: Path) -> str | None:
        try:
            return self._read_text(path)
        except (OSError, UnicodeDecodeError, TooLarge):
            return None

    def _node_types_follow(
        self, index: SiteIndex, key: str, change: Callable[[], set[str]]
    ) -> set[str]:
        """`change` (a file of `index` re-read), and the files it makes stale: the index's
        dependants, and when it was a node type whose coming or going changes the site's
        types, the workflows with a type the site does not define (their R9 names them)."""
        if not is_node_type_file(key):
            return change()
        before = index.node_type_ids()
        stale = change()
        if index.node_type_ids() != before:
            stale |= index.workflows_with_undefined_types()
        return stale

    def has_buffer(self, path: Path) -> bool:
        """Whether the site holds an open buffer's text for `path`."""
        return self.key(path) in self._buffers

    def sync_buffer(self, path: Path, *, now: bool = False) -> Changes:
        """Give an open site file's buffer to its site: at once when it is small, else (unless
        `now`) the caller is told to come back when typing pauses. Answers what it changed."""
        key = self.key(path)
        buffer = self._open.get(key)
        if buffer is None or not is_site_file(path):
            return Changes()
        edits = buffer.site_edits
        if edits == [] and key in self._buffers:
            return Changes()  # the site holds this very text
        if not self.knows(path.parent):
            return Changes(needs_site=path.parent)
        large = len(buffer.text) > SITE_SYNC_CHARS
        if not now and large and edits is not None and key in self._buffers:
            return Changes(deferred=True)
        changes = self._set_buffer(path, buffer)
        buffer.site_edits = []
        changes.stale.discard(key)
        return changes

    def _set_buffer(self, path: Path, buffer: OpenFile) -> Changes:
        index = self.index_for(path)
        changes = Changes()
        if is_node_type_file(path):
            changes.settings_changed = self._definition_changed(path, buffer.text)
        if index is None:
            return changes
        key = str(index.root / path.name)
        self._buffers.add(key)
        text = buffer.text
        if index.text(key) == text:
            return changes
        facts = buffer.site_facts() if is_workflow_config_file(path) else None
        changes.stale |= self._node_types_follow(index, key, lambda: index.update(key, text, facts))
        return changes

    def _definition_changed(self, path: Path, text: str | None) -> bool:
        """A node type's buffer changed (None: closed): the settings' registry reads it (the
        same record the site index reads). Whether the registry of its folder changed."""
        locator = self.resolver.node_types
        before = locator.overlay.get(Path(os.path.abspath(path)))
        if before == text:
            return False
        locator.set_overlay(path, text)
        self.resolver.node_types_changed()
        return True

    # ----- the disk (watched files) -----------------------------------------------------------
    def disk_changed(self, path: Path, deleted: bool = False) -> Changes:
        """A file changed, appeared or went on disk. An open buffer wins: its file is not
        re-read. Any config file counts (a dependency may name it); a project settings file
        changes the settings of every file."""
        self._reals.clear()
        if is_project_settings_file(path) or is_services_file(path):
            # A module's services file says which of its classes add to Twig: the site's Twig
            # names are read again with the settings (core/workspace/twig_extensions.py).
            self.resolver.invalidate()
            self._own.clear()
            return Changes(set(self.site_files()), settings_changed=True)
        if not is_config_file(path):
            return Changes()
        changes = Changes()
        if is_node_type_file(path):
            self.resolver.node_types.invalidate_folder(path.parent)
            self.resolver.node_types.files.forget(path)
            self.resolver.node_types_changed()
            changes.settings_changed = True
        index = self.index_of(path)
        if index is None:
            if deleted or not is_site_file(path) or not self.knows(path.parent):
                return changes  # no site read there: the caller decides whether to read one
            return changes
        key = str(index.root / path.name)
        if key in self._buffers:
            return changes
        self._own.pop(key, None)
        self._undecodable.pop(key, None)
        if deleted or not os.path.isfile(key):
            changes.stale |= self._node_types_follow(index, key, lambda: index.remove(key))
        else:
            changes.stale |= self._node_types_follow(
                index, key, lambda: self._read_into(index, Path(key), update=True)
            )
        changes.stale.add(key)
        return changes

    def forget_own_findings(self) -> None:
        """Settings changed everywhere (the client's): judge every closed file again."""
        self._own.clear()

    # ----- findings ---------------------------------------------------------------------------
    def findings(self, path: Path | str) -> tuple[Finding, ...]:
        """Every finding of the file `path`: its own and its cross-file ones, its settings
        applied, in position order. An open buffer's own findings are its engine's; the site's
        findings of a buffer the site read a while ago are carried through the edits since."""
        if str(path) == "-":
            return self.stdin_findings()
        path = Path(path)
        key = self.key(path)
        buffer = self._open.get(key)
        if buffer is not None:
            settings = buffer.settings
        else:
            settings = self._given.get(key) or self.settings_for(path)
        if buffer is not None and is_node_type_file(path):
            own = self._definition_findings(key, buffer.text, settings)
        elif buffer is not None:
            own = buffer.own_findings()
        else:
            own = self.own_findings(path, settings)
        cross = self.cross_file_findings(path, settings)
        if cross and buffer is not None and key in self._buffers and buffer.site_edits:
            carried = (through_edits(finding, buffer.site_edits) for finding in cross)
            cross = tuple(finding for finding in carried if finding is not None)
        if not cross:
            return own
        return tuple(sorted((*own, *cross), key=Finding.sort_key))

    def cross_file_findings(self, path: Path, settings: Settings) -> tuple[Finding, ...]:
        """`path`'s cross-file findings (spans into `text(path)`), settings applied; none while
        its site is still being read (they would name files not read yet)."""
        index = self.index_of(path)
        if index is None or self._real_folder(path.parent) in self._loading:
            return ()
        found = index.findings(str(index.root / path.name))
        return apply_settings(found, settings) if found else ()

    def own_findings(self, path: Path, settings: Settings) -> tuple[Finding, ...]:
        """A closed file's own findings under `settings`, kept until its text or settings
        change. A node-type definition's are the node-type rules' (`_definition_findings`)."""
        key = self.key(path)
        if key in self._undecodable:
            finding = self._undecodable[key][1]
            return (finding,) if finding.code not in settings.ignore else ()
        if is_node_type_file(path):
            text = self.text(key)
            return self._definition_findings(key, text, settings) if text is not None else ()
        kept = self._own.get(key)
        text = self.text(key)
        if text is None:  # not in a site: the text it was checked with (the CLI's files)
            if kept is None:
                return ()
            text = kept[0]
        if kept is not None and kept[0] is text and kept[1] == settings:
            return kept[2]
        found = self._analyse(text, settings, syntax_of_path(path), site_file=False).findings
        self._own[key] = (text, settings, found)
        return found
