"""The host: the one answer to "the findings of this file", for the CLI and the server alike.

A file's findings are its own (its single-file analysis: the engine reading its text, settings
applied) and, for a file of a site, its cross-file ones (FD-CALL, FD-CONTRACT, FD-DEPENDENCY,
R4, R10: its site index, core/workspace/site.py, settings applied), merged in position order.
The host holds everything that takes, as one record per file and one per site folder
(core/workspace/host_state.py, whose docstrings say what each field holds and when it is
valid): the site indexes (one per site folder, however its path is spelled), the open buffers
an editor gives it (`OpenFile`: its text, its own findings and its site facts from the
incremental engine, winning over the disk), the closed files' own findings (kept per text and
settings; the CLI has them computed up front, cached and in parallel, by `check`), and the
undecodable files (one FD-SYNTAX finding each, as the CLI reports them). The node-type
definitions the indexes share with the settings' registries are core/workspace/node_types.py's
(each file parsed once). It reads a site file from disk in one place (host_reading.py).

The server asks `findings(path)` to publish a file, open or closed, and tells the host what
changes: `open`/`close` a buffer, `sync_buffer` after an edit (its text and facts given to its
site), `disk_changed` for a watched file. Each answers the files whose findings may have
changed (`Changes`): the server re-publishes them. The CLI makes its host with `for_check`
(its cache and processes), `check`s the files, asks `findings` for each and `refresh`es a file
it fixed (checking.py, the host's CLI part). Both reach the host, and the little else of the
core they use, through core/facade.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import (
    is_config_file,
    is_node_type_file,
    is_project_settings_file,
    is_services_file,
    is_site_file,
    is_workflow_config_file,
    skipped_folder,
)
from flowdrop_lsp.core.engine.document import apply_settings
from flowdrop_lsp.core.findings import Finding, through_edits
from flowdrop_lsp.core.workspace.batch import AnalysisJob, Batch
from flowdrop_lsp.core.workspace.checking import CheckedFile, Checking, check_batch
from flowdrop_lsp.core.workspace.host_reading import HostReading
from flowdrop_lsp.core.workspace.host_state import (
    ClosedFacts,
    HostState,
    OpenFile,
    OwnFindings,
    SiteFolder,
)
from flowdrop_lsp.core.workspace.node_types import definition_findings
from flowdrop_lsp.core.workspace.preloading import Preloading, SitePreload
from flowdrop_lsp.core.workspace.resolver import SettingsResolver
from flowdrop_lsp.core.workspace.site import SiteIndex, syntax_of_path

# An open site file larger than this is given to its site once typing pauses (the caller's
# timer), not on every change: the largest real workflow is ~50 kB.
SITE_SYNC_CHARS = 128 * 1024

SettingsFor = Callable[[Path], Settings]


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


class Host:
    """The findings of every file of a workspace (see the module docstring). Its state is one
    `HostState` (core/workspace/host_state.py: a record per file, one per site folder), which
    the parts it owns share: its reading of site files from disk (host_reading.py), what only
    the CLI asks (checking.py), a site's first read in the editor (preloading.py). The host
    answers for all three: a front asks the host alone."""

    def __init__(
        self,
        resolver: SettingsResolver,
        settings_for: SettingsFor | None = None,
        *,
        batch: Batch | None = None,
        workers: int | None = 1,
    ) -> None:
        self.resolver = resolver
        self.settings_for: SettingsFor = settings_for or resolver.for_file
        # The definitions read for the settings' registries: every site index reads the same.
        self.node_types = resolver.node_types.files
        # (The server's batch computes a site's first read with `workers` processes, None:
        # one per core; core/workspace/preloading.py.)
        self.batch = batch if batch is not None else Batch(None, workers, self.node_types)
        self.state = HostState()
        self._reading = HostReading(self.state, self.settings_for, self.node_types)
        self._checking = Checking(
            self.state, resolver, self.batch, self.settings_for, self.findings
        )
        self._preloading = Preloading(
            self.state,
            resolver,
            self.batch,
            self.settings_for,
            self._checking.registry_print,
            self._reading.read_file,
        )

    @classmethod
    def for_check(
        cls,
        resolver: SettingsResolver,
        settings_for: SettingsFor,
        *,
        cache: bool = True,
        cache_dir: str | None = None,
        jobs: int | None = None,
    ) -> Host:
        """The CLI's host: its result cache and worker processes (checking.py `check_batch`)."""
        batch = check_batch(resolver, cache=cache, cache_dir=cache_dir, jobs=jobs)
        return cls(resolver, settings_for, batch=batch)

    # ----- where a file belongs --------------------------------------------------------------
    def index_of(self, path: Path) -> SiteIndex | None:
        """The index of the site holding `path` (its folder, however spelled), if it is read."""
        return self.state.index_of(path)

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
        folders = self.state.folders
        return [index for real in sorted(folders) if (index := folders[real].index) is not None]

    def __iter__(self) -> Iterator[SiteIndex]:
        return iter(self.indexes())

    def knows(self, folder: Path) -> bool:
        """Whether `folder` was looked at: its site read (or being read), or found no site."""
        return self.state.folder(folder) is not None

    def index_for(self, path: Path) -> SiteIndex | None:
        """The index of the site `path` belongs to, None when its folder holds no site file.
        The first call for a folder reads it whole."""
        real = self.state.real_folder(path.parent)
        site = self.state.folders.get(real)
        if site is not None:
            return site.index
        index = self._reading.new_index(path.parent)
        files = index.scan()
        if not files and not is_site_file(path):
            self.state.folders[real] = SiteFolder(None)
            return None
        self.state.folders[real] = SiteFolder(index)
        for file in files:
            self._reading.read_into(index, file)
        return index

    def files_of(self, folder: Path) -> list[str]:
        """The files of the site of `folder`, readable or not (an undecodable file has its
        finding), sorted."""
        site = self.state.folder(folder)
        if site is None or site.index is None:
            return []
        root = str(site.index.root)
        undecodable = {k for k in self.state.undecodable_keys() if os.path.dirname(k) == root}
        return sorted(set(site.index.files) | undecodable)

    def site_files(self) -> list[str]:
        """Every file of every site (workflows and node types, readable or not), sorted."""
        return sorted(
            {path for index in self.indexes() for path in index.files}
            | self.state.undecodable_keys()
        )

    def text(self, path: Path | str) -> str | None:
        """The text the host holds for `path`: the site's (an open buffer's, else the disk's),
        or an undecodable file's as shown."""
        path = Path(path)
        key = self.key(path)
        index = self.index_of(path)
        text = index.text(key) if index is not None else None
        record = self.state.files.get(key)
        if text is None and record is not None and record.undecodable is not None:
            return record.undecodable.text
        return text

    def is_loading(self, path: Path) -> bool:
        site = self.state.folder(path.parent)
        return site is not None and site.loading

    # ----- reading sites in the background (the server) --------------------------------------
    def open_site(self, root: Path) -> list[Path]:
        """Start indexing the site folder `root`: its index is created (empty, marked loading)
        and its files answered, for the caller to `load` one by one (with progress) and then
        `finish`. A site already indexed answers no file."""
        self.state.reals.clear()
        real = self.state.real_folder(root)
        site = self.state.folders.get(real)
        if site is not None and site.index is not None:
            return []
        index = self._reading.new_index(root)
        self.state.folders[real] = SiteFolder(index, loading=True)
        return index.scan()

    def load(self, path: Path) -> None:
        """Read one file of a site being opened from disk; an open buffer already given to the
        site stays (the buffer wins). A workflow is analysed in the same read (its own findings
        kept, its facts from the same syntax tree): one parse per file."""
        index = self.index_of(path)
        if index is None:
            return
        key = str(index.root / path.name)
        record = self.state.files.get(key)
        if record is not None and (record.site_holds_buffer or record.buffer is not None):
            return  # its buffer is given to the site when it is published
        self._reading.read_into(index, Path(key))

    def finish(self, root: Path) -> None:
        site = self.state.folder(root)
        if site is not None:
            site.loading = False
        self._preloading.forget(site.index.root if site is not None and site.index else None)

    def _definition_findings(self, key: str, text: str, settings: Settings) -> tuple[Finding, ...]:
        """A node-type definition's own findings (core/rules/node_type_*.py), judged on the
        tree the registries and the site read it into (`NodeTypeFiles`: the same text is not
        parsed again), kept per text and settings as a workflow's are."""
        record = self.state.file(key)
        if record.own is not None and record.own.made_under(text, settings):
            return record.own.findings
        read = self.node_types.read(Path(key), text)
        found = apply_settings(definition_findings(key, text, read), settings)
        record.own = OwnFindings(text, settings, found)
        return found

    # ----- open buffers (the server) ----------------------------------------------------------
    def open(self, path: Path, buffer: OpenFile) -> None:
        """An editor opened `path`: its buffer wins over the disk from now on."""
        self.state.file(self.key(path)).buffer = buffer

    def is_open(self, path: Path) -> bool:
        record = self.state.files.get(self.key(path))
        return record is not None and record.buffer is not None

    def close(self, path: Path) -> Changes:
        """The buffer closed: the disk wins again (its site reads the file), and a node type's
        registry reads the disk again. A buffer saved as it is (the usual close) costs no read:
        its findings and facts are the disk's."""
        key = self.key(path)
        record = self.state.file(key)
        buffer, record.buffer = record.buffer, None
        changes = Changes()
        if is_node_type_file(path):
            changes.settings_changed = self._definition_changed(path, None)
        workflow = is_workflow_config_file(path)
        disk = self._reading.disk_text(Path(key)) if workflow or record.site_holds_buffer else None
        saved = buffer is not None and disk is not None and disk == buffer.text
        if saved and workflow:
            assert buffer is not None and disk is not None
            # Kept for the disk's text: its site (now, or when it is read) takes them as read.
            record.own = OwnFindings(disk, buffer.settings, buffer.own_findings())
            record.closed = ClosedFacts(disk, buffer.site_facts())
        if not record.site_holds_buffer:
            return changes
        record.site_holds_buffer = False
        index = self.index_of(path)
        if index is None:
            return changes
        if saved:
            assert disk is not None
            closed, record.closed = record.closed, None
            facts = closed.facts if closed is not None else None
            changes.stale |= self._node_types_follow(
                index, key, lambda: index.update(key, disk, facts)
            )
        else:
            changes.stale |= self._node_types_follow(
                index, key, lambda: self._reading.read_into(index, Path(key), update=True)
            )
        return changes

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
        record = self.state.files.get(self.key(path))
        return record is not None and record.site_holds_buffer

    def sync_buffer(self, path: Path, *, now: bool = False) -> Changes:
        """Give an open site file's buffer to its site: at once when it is small, else (unless
        `now`) the caller is told to come back when typing pauses. Answers what it changed."""
        key = self.key(path)
        record = self.state.files.get(key)
        if record is None or record.buffer is None or not is_site_file(path):
            return Changes()
        buffer = record.buffer
        edits = buffer.site_edits
        if edits == [] and record.site_holds_buffer:
            return Changes()  # the site holds this very text
        if not self.knows(path.parent):
            return Changes(needs_site=path.parent)
        large = len(buffer.text) > SITE_SYNC_CHARS
        if not now and large and edits is not None and record.site_holds_buffer:
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
        self.state.file(key).site_holds_buffer = True
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
        self.state.reals.clear()
        if is_project_settings_file(path) or is_services_file(path):
            # A module's services file says which of its classes add to Twig: the site's Twig
            # names are read again with the settings (core/workspace/twig_extensions.py).
            self.resolver.invalidate()
            self.state.forget_own_findings()
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
            return changes  # no site read there: the caller decides whether to read one
        key = str(index.root / path.name)
        record = self.state.file(key)
        if record.site_holds_buffer:
            return changes
        record.own = record.undecodable = None
        if deleted or not os.path.isfile(key):
            changes.stale |= self._node_types_follow(index, key, lambda: index.remove(key))
        else:
            changes.stale |= self._node_types_follow(
                index, key, lambda: self._reading.read_into(index, Path(key), update=True)
            )
        changes.stale.add(key)
        return changes

    def forget_own_findings(self) -> None:
        """Settings changed everywhere (the client's): judge every closed file again."""
        self.state.forget_own_findings()

    # ----- findings ---------------------------------------------------------------------------
    def findings(self, path: Path | str, settings: Settings | None = None) -> tuple[Finding, ...]:
        """Every finding of the file `path`: its own and its cross-file ones, its settings
        applied, in position order. An open buffer's own findings are its engine's; the site's
        findings of a buffer the site read a while ago are carried through the edits since.
        `settings`: a closed file's settings when the caller has them (`settings_for`'s)."""
        if str(path) == "-":
            return self._checking.stdin_findings()
        path = Path(path)
        key = self.key(path)
        record = self.state.file(key)
        buffer = record.buffer
        if buffer is not None:
            settings = buffer.settings
        else:
            settings = record.given or settings or self.settings_for(path)
        if buffer is not None and is_node_type_file(path):
            own = self._definition_findings(key, buffer.text, settings)
        elif buffer is not None:
            own = buffer.own_findings()
        else:
            own = self.own_findings(path, settings)
        cross = self.cross_file_findings(path, settings)
        if cross and buffer is not None and record.site_holds_buffer and buffer.site_edits:
            carried = (through_edits(finding, buffer.site_edits) for finding in cross)
            cross = tuple(finding for finding in carried if finding is not None)
        if not cross:
            return own
        return tuple(sorted((*own, *cross), key=Finding.sort_key))

    def cross_file_findings(self, path: Path, settings: Settings) -> tuple[Finding, ...]:
        """`path`'s cross-file findings (spans into `text(path)`), settings applied; none while
        its site is still being read (they would name files not read yet)."""
        site = self.state.folder(path.parent)
        if site is None or site.index is None or site.loading:
            return ()
        found = site.index.findings(str(site.index.root / path.name))
        return apply_settings(found, settings) if found else ()

    def own_findings(self, path: Path, settings: Settings) -> tuple[Finding, ...]:
        """A closed file's own findings under `settings`, kept until its text or settings
        change. A node-type definition's are the node-type rules' (`_definition_findings`)."""
        key = self.key(path)
        record = self.state.file(key)
        if record.undecodable is not None:
            finding = record.undecodable.finding
            return (finding,) if finding.code not in settings.ignore else ()
        if is_node_type_file(path):
            text = self.text(key)
            return self._definition_findings(key, text, settings) if text is not None else ()
        kept = record.own
        text = self.text(key)
        if text is None:  # not in a site: the text it was checked with (the CLI's files)
            if kept is None:
                return ()
            text = kept.text
        # (The very text the findings were made for: the site's, as read or as checked.)
        if kept is not None and kept.text is text and kept.settings == settings:
            return kept.findings
        found = self._reading.analyse(
            text, settings, syntax_of_path(path), site_file=False
        ).findings
        record.own = OwnFindings(text, settings, found)
        return found

    # ----- the CLI's part (checking.py) and the editor's first read (preloading.py) -----------
    def check(self, files: Sequence[CheckedFile]) -> None:
        self._checking.check(files)

    def dependents(self, path: Path) -> list[str]:
        return self._checking.dependents(path)

    def registry_print(self, path: Path) -> str:
        return self._checking.registry_print(path)

    def refresh(self, checked: CheckedFile, text: str) -> CheckedFile:
        return self._checking.refresh(checked, text)

    def rejudge(self, checked: CheckedFile) -> CheckedFile:
        return self._checking.rejudge(checked)

    def walked_node_types(
        self, walked: Iterable[Path], checked: set[str]
    ) -> list[tuple[str, tuple[Finding, ...]]]:
        return self._checking.walked_node_types(walked, checked)

    def start_workers(self, files: int) -> None:
        self._preloading.start_workers(files)

    def use_cache_of(self, root: Path, workspace: Path | None) -> None:
        self._preloading.use_cache_of(root, workspace)

    def preload_jobs(self, paths: Sequence[Path]) -> list[tuple[str, AnalysisJob]]:
        return self._preloading.preload_jobs(paths)

    def preload(self, jobs: Sequence[tuple[str, AnalysisJob]]) -> int:
        return self._preloading.preload(jobs)

    def site_preload(self, notify: Callable[[], None]) -> SitePreload:
        return self._preloading.site_preload(notify)
