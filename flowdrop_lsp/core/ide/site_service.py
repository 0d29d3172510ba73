"""The facade the server asks about sites: the site indexes of a workspace (one per site
folder), fed by open buffers and by the disk, an open buffer always winning over the disk.

A site folder is a folder holding workflow config files or node-type definitions
(core/workspace/site.py); a file belongs to the site of its own folder.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from flowdrop_lsp.core.workspace.site import SiteIndex, is_site_file

ReadText = Callable[[Path], str]


class SiteService:
    """Site indexes by folder, created on first use and read from disk then."""

    def __init__(self) -> None:
        self._indexes: dict[Path, SiteIndex] = {}
        self._not_sites: set[Path] = set()

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
