"""A site's first read in the editor, through the CLI's batch: the analyses of its closed
workflows computed together (worker processes, the result cache), then taken by the host's
`load` one by one instead of computed there. A restarted editor on an unchanged site reads
its analyses from the cache; the cache is where a check by the CLI would put it when one did
(core/workspace/cache.py `editor_cache_folder`), so that the two share their entries.

The server runs `preload` in a thread while the loop serves requests: it touches only the
batch and, at its end, `_preloaded`, which `load` (on the loop) takes from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import is_workflow_config_file
from flowdrop_lsp.core.workspace.batch import (
    MIN_FILES_FOR_POOL,
    AnalysisJob,
    Batch,
    FileAnalysis,
    start_workers_early,
)
from flowdrop_lsp.core.workspace.cache import ResultCache, editor_cache_folder
from flowdrop_lsp.core.workspace.node_types import TooLarge, read_site_bytes
from flowdrop_lsp.core.workspace.resolver import SettingsResolver
from flowdrop_lsp.core.workspace.site import SiteIndex, syntax_of_path


class Preloading:
    """The editor's half of the host for a site's first read (it reads and writes the host's
    state declared here)."""

    resolver: SettingsResolver
    batch: Batch
    settings_for: Callable[[Path], Settings]
    index_of: Callable[[Path], SiteIndex | None]
    registry_print: Callable[[Path], str]
    _buffers: set[str]
    _open: dict
    _preloaded: dict[str, tuple[str, Settings, FileAnalysis]]

    def start_workers(self, files: int) -> None:
        """About to analyse `files` site files: start what the workers come from now, when
        there are enough for the pool (core/workspace/batch.py `start_workers_early`)."""
        if files >= MIN_FILES_FOR_POOL and self.batch.workers > 1:
            start_workers_early()

    def use_cache_of(self, root: Path, workspace: Path | None) -> None:
        """Keep the results of the site folder `root` in its project's cache (the folder of
        its settings file, else the workspace folder holding it, else its own)."""
        try:
            project = self.resolver.project_file(root)
        except OSError:
            project = None
        folder = project.parent if project is not None else (workspace or root)
        self.batch.cache = ResultCache(editor_cache_folder(folder))

    def preload_jobs(self, paths: Sequence[Path]) -> list[tuple[str, AnalysisJob]]:
        """The analysis jobs of the closed workflows among `paths` (files of a site being
        opened), for `preload`: as the CLI's, so that the two share their cache entries."""
        jobs: list[tuple[str, AnalysisJob]] = []
        prints: dict[Path, str] = {}
        for path in paths:
            index = self.index_of(path)
            key = str(index.root / path.name) if index is not None else ""
            if not key or not is_workflow_config_file(path):
                continue
            if key in self._buffers or key in self._open:
                continue  # its buffer is judged
            try:
                data = read_site_bytes(path)
                text = data.decode("utf-8")
            except (OSError, UnicodeDecodeError, TooLarge):
                continue  # `load` tells what is wrong with it
            registry = prints.get(path.parent)
            if registry is None:
                registry = prints[path.parent] = self.registry_print(path)
            settings = self.settings_for(path)
            syntax = syntax_of_path(path)
            jobs.append((key, AnalysisJob(text, data, settings, syntax, False, True, registry)))
        return jobs

    def preload(self, jobs: Sequence[tuple[str, AnalysisJob]]) -> int:
        """Analyse the jobs together through the batch (its result cache, its worker processes):
        `load` then takes each analysis instead of computing it (if the text and settings are
        still the same). Touches nothing else of the host: the server runs it in a thread.
        Answers how many were taken from the cache."""
        computed = self.batch.computed
        analyses = self.batch.analyse([job for _, job in jobs])
        self._preloaded.update(
            (key, (job.text, job.settings, analysis))
            for (key, job), analysis in zip(jobs, analyses, strict=True)
        )
        return len(jobs) - (self.batch.computed - computed)  # taken from the cache
