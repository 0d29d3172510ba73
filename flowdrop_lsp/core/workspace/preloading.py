"""A site's first read in the editor, through the CLI's batch: the analyses of its closed
workflows computed together (worker processes, the result cache), then taken by the host's
`load` one by one instead of computed there. A restarted editor on an unchanged site reads
its analyses from the cache; the cache is where a check by the CLI would put it when one did
(core/workspace/cache.py `editor_cache_folder`), so that the two share their entries.

The server runs `preload` in a thread while the loop serves requests: it touches only the
batch and, at its end, the `preloaded` field of the files' records, which `preload_jobs` made on
the loop (the thread adds nothing to the host's dicts, which the loop reads meanwhile); the
host's `load` (on the loop) takes them.
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
    start_workers_early,
)
from flowdrop_lsp.core.workspace.cache import ResultCache, editor_cache_folder
from flowdrop_lsp.core.workspace.host_state import HostState, Preloaded
from flowdrop_lsp.core.workspace.reading import ReadSiteFile
from flowdrop_lsp.core.workspace.resolver import SettingsResolver
from flowdrop_lsp.core.workspace.site import syntax_of_path


class Preloading:
    """The editor's part of the host for a site's first read: the host owns one and asks it.
    It reads the host's state (`HostState`) and sets the files' `preloaded` analyses; it reads
    a file through the host's one reader (`read_file`: a `SiteFile`)."""

    def __init__(
        self,
        state: HostState,
        resolver: SettingsResolver,
        batch: Batch,
        settings_for: Callable[[Path], Settings],
        registry_print: Callable[[Path], str],
        read_file: ReadSiteFile,
    ) -> None:
        self.state = state
        self.resolver = resolver
        self.batch = batch
        self.settings_for = settings_for
        self.registry_print = registry_print
        self.read_file = read_file

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
            index = self.state.index_of(path)
            key = str(index.root / path.name) if index is not None else ""
            if not key or not is_workflow_config_file(path):
                continue
            record = self.state.file(key)  # made here, on the loop: `preload` only fills it
            if record.site_holds_buffer or record.buffer is not None:
                continue  # its buffer is judged
            file = self.read_file(path)
            text = file.text
            if text is None:
                continue  # `load` tells what is wrong with it
            data = file.data
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
        for (key, job), analysis in zip(jobs, analyses, strict=True):
            self.state.file(key).preloaded = Preloaded(job.text, job.settings, analysis)
        return len(jobs) - (self.batch.computed - computed)  # taken from the cache

    def forget(self, root: Path | None) -> None:
        """The site of folder `root` is read (None: a folder that holds none): the analyses it
        did not take are dropped, judged under what may change from now on."""
        for key, record in self.state.files.items():
            if record.preloaded is not None and (root is None or Path(key).parent == root):
                record.preloaded = None
