"""The facade the server asks about sites: the site indexes of a workspace (one per site
folder), fed by open buffers and by the disk, an open buffer always winning over the disk.

A site folder is a folder holding workflow config files or node-type definitions
(core/workspace/site.py); a file belongs to the site of its own folder.

Besides the indexes it answers a closed file's diagnostics as the editor shows them: its own
single-file analysis (the same engine and settings as an open buffer, kept as findings only —
never the analysis, for memory) and its cross-file findings, the settings applied to both.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import apply_settings
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.ide.service import WorkflowService
from flowdrop_lsp.core.workspace.site import (
    SiteIndex,
    is_site_file,
    is_workflow_config_file,
    syntax_of_path,
)

ReadText = Callable[[Path], str]

# Folders never walked for sites: version control, dependencies, hidden folders.
SKIPPED_FOLDERS = frozenset({"node_modules", "vendor", "__pycache__"})


def is_site_path(path: os.PathLike[str] | str) -> bool:
    """Whether `path` is named like a site file (a workflow config or a node type)."""
    return is_site_file(path)


def find_site_folders(folder: Path, skip: Callable[[Path], bool] | None = None) -> list[Path]:
    """The site folders under `folder` (itself included), sorted: folders holding a workflow
    config file or a node-type definition. Hidden folders, `node_modules` and `vendor` are not
    walked, nor folders `skip` says to leave out (the settings' `exclude`)."""
    found: list[Path] = []
    for current, folders, files in os.walk(folder):
        folders[:] = sorted(
            name
            for name in folders
            if not name.startswith(".")
            and name not in SKIPPED_FOLDERS
            and (skip is None or not skip(Path(current, name)))
        )
        if any(is_site_file(name) for name in files):
            found.append(Path(current))
    return sorted(found)


class SiteService:
    """Site indexes by folder, created on first use and read from disk then (or opened by the
    server's background indexing, `open_site` + `load`), with the open buffers laid over them."""

    def __init__(self) -> None:
        self._indexes: dict[Path, SiteIndex] = {}
        self._not_sites: set[Path] = set()
        self._loading: set[Path] = set()  # sites still being read (cross-file findings wait)
        self._buffers: set[str] = set()  # files whose open buffer is what the index holds
        # Each closed workflow's single-file findings, with the settings they were made under.
        self._single: dict[str, tuple[str, Settings, tuple[Finding, ...]]] = {}

    # ----- the indexes --------------------------------------------------------------------------
    def indexes(self) -> list[SiteIndex]:
        return [self._indexes[root] for root in sorted(self._indexes)]

    def index_for(self, path: Path) -> SiteIndex | None:
        """The index of the site `path` belongs to (its folder's), None when that folder holds
        no site file. The first call for a folder reads it whole."""
        folder = path.parent
        index = self._indexes.get(folder)
        if index is not None or folder in self._not_sites:
            return index
        index = SiteIndex(folder)
        files = index.scan()
        if not files and not is_site_file(path):
            self._not_sites.add(folder)
            return None
        index.load(files)
        self._indexes[folder] = index
        return index

    def knows(self, folder: Path) -> bool:
        """Whether `folder` was looked at: its site read (or being read), or found no site."""
        return folder in self._indexes or folder in self._not_sites

    def files_of(self, folder: Path) -> list[str]:
        """The files of the site of `folder` (none when it has none)."""
        index = self._indexes.get(folder)
        return index.files if index is not None else []

    def known_index(self, path: Path) -> SiteIndex | None:
        """The index `path`'s folder already has (never reads anything)."""
        return self._indexes.get(path.parent)

    def open_site(self, root: Path) -> list[Path]:
        """Start indexing the site folder `root`: its index is created (empty, marked loading)
        and its files answered, for the caller to `load` one by one (with progress) and then
        `finish`. A site already indexed answers no file."""
        if root in self._indexes:
            return []
        index = SiteIndex(root)
        self._indexes[root] = index
        self._not_sites.discard(root)
        self._loading.add(root)
        return index.scan()

    def load(self, path: Path, settings: Settings | None = None) -> None:
        """Read one file of a site being opened from disk (an open buffer already given to the
        index stays: the buffer wins). With the file's `settings`, a workflow is analysed in the
        same read (its own findings kept for `single_file_findings`, its facts from the same
        syntax tree): one parse per file."""
        key = str(path)
        index = self._indexes.get(path.parent)
        if index is None or key in self._buffers:
            return
        if settings is None or not is_workflow_config_file(path):
            index.read(path)
            return
        text = index.read_text(path)
        if text is None:
            return
        service = WorkflowService(text, settings, syntax=syntax_of_path(path), site_facts=True)
        found = service.findings()
        facts = service.site_facts
        service.close()
        index.read(path, text, facts)
        self._single[key] = (text, settings, found)

    def finish(self, root: Path) -> None:
        self._loading.discard(root)

    def is_loading(self, path: Path) -> bool:
        return path.parent in self._loading

    def site_files(self) -> list[str]:
        """Every file of every site (workflows and node types), sorted."""
        return sorted(path for index in self._indexes.values() for path in index.files)

    def text(self, path: Path | str) -> str | None:
        """The text the index holds for `path` (the open buffer's, else the disk's)."""
        index = self._indexes.get(Path(path).parent)
        return index.text(path) if index is not None else None

    # ----- buffers and the disk -----------------------------------------------------------------
    def set_buffer(self, path: Path, text: str) -> set[str]:
        """An open buffer of a site file: the index reads it instead of the disk. Answers the
        files whose cross-file findings may have changed (none when the text is the same)."""
        index = self.index_for(path)
        if index is None:
            return set()
        key = str(path)
        self._buffers.add(key)
        if index.text(key) == text:
            return set()
        return index.update(path, text)

    def has_buffer(self, path: Path) -> bool:
        """Whether the site holds an open buffer's text for `path`."""
        return str(path) in self._buffers

    def drop_buffer(self, path: Path) -> set[str]:
        """The buffer closed: the disk wins again."""
        key = str(path)
        if key not in self._buffers:
            return set()
        self._buffers.discard(key)
        index = self._indexes.get(path.parent)
        if index is None:
            return set()
        self._single.pop(key, None)
        return index.update(path)

    def disk_changed(self, path: Path, deleted: bool = False) -> set[str]:
        """A file of a site folder changed, appeared or went on disk. An open buffer wins: its
        file is not re-read. A config file that is no site file still counts (dependencies)."""
        key = str(path)
        if key in self._buffers:
            return set()
        index = self._indexes.get(path.parent)
        if index is None:
            if deleted or not is_site_file(path):
                return set()
            index = self.index_for(path)  # a new site folder: read it whole
            return set(index.files) if index is not None else set()
        self._single.pop(key, None)
        return index.remove(path) if deleted or not path.is_file() else index.update(path)

    # ----- findings -----------------------------------------------------------------------------
    def cross_file_findings(self, path: Path, settings: Settings) -> tuple[Finding, ...]:
        """`path`'s cross-file findings (spans into `text(path)`), the settings applied; none
        while its site is still being read (they would name files not read yet)."""
        index = self._indexes.get(path.parent)
        if index is None or path.parent in self._loading:
            return ()
        found = index.findings(path)
        return apply_settings(found, settings) if found else ()

    def single_file_findings(self, path: Path, settings: Settings) -> tuple[Finding, ...]:
        """A closed workflow's own findings, read from the index's text under `settings` exactly
        as an open buffer is analysed; kept (findings only) until its text or settings change.
        A node-type definition has none of its own."""
        key = str(path)
        text = self.text(key)
        if text is None or not is_workflow_config_file(path):
            return ()
        cached = self._single.get(key)
        if cached is not None and cached[0] is text and cached[1] == settings:
            return cached[2]
        # The facade an open buffer has, read once and dropped: its findings are all we keep.
        service = WorkflowService(text, settings, syntax=syntax_of_path(path))
        found = service.findings()
        service.close()
        self._single[key] = (text, settings, found)
        return found

    def closed_findings(self, path: Path, settings: Settings) -> tuple[Finding, ...]:
        """What a closed site file shows: its own findings and its cross-file ones."""
        own = self.single_file_findings(path, settings)
        cross = self.cross_file_findings(path, settings)
        if not cross:
            return own
        return tuple(sorted((*own, *cross), key=Finding.sort_key))

    def forget_single_file_findings(self) -> None:
        """Settings changed everywhere (the node types, the client's): judge every file again."""
        self._single.clear()

    def __iter__(self) -> Iterator[SiteIndex]:
        return iter(self.indexes())
