"""A site's first read in the editor, through the CLI's batch: the analyses of its closed
workflows computed together (worker processes, the result cache), then taken by the host's
`load` one by one instead of computed there. A restarted editor on an unchanged site reads
its analyses from the cache; the cache is where a check by the CLI would put it when one did
(core/workspace/cache.py `editor_cache_folder`), so that the two share their entries.

A `SitePreload` is one folder's: the loop gives it the jobs as it makes them (`preload_jobs`,
a few dozen files between two turns), a thread `run`s it — each job analysed as it comes
(batch.py `AnalysisStream`: the workers start on the first jobs while the loop reads the
next) — and the loop takes the files whose analysis `arrived` and `load`s them meanwhile, so
that the site is read when the last analysis comes. The thread touches only the batch and the
`preloaded` field of the files' records, which `preload_jobs` made on the loop (it adds
nothing to the host's dicts, which the loop reads meanwhile); `load` (on the loop) takes them.
The cache entries of what was computed are written last (`store`), once the files are
published.
"""

from __future__ import annotations

import queue
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import is_workflow_config_file
from flowdrop_lsp.core.workspace.batch import (
    MIN_FILES_FOR_POOL,
    AnalysisJob,
    Batch,
    StreamAnswer,
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

    def site_preload(self, notify: Callable[[], None] = lambda: None) -> SitePreload:
        """A first read of one site folder, its jobs given as they are made (`SitePreload`);
        `notify` is called (from another thread) when analyses arrived."""
        return SitePreload(self.state, self.batch, notify)

    def preload(self, jobs: Sequence[tuple[str, AnalysisJob]]) -> int:
        """Analyse the jobs together through the batch (its result cache, its worker processes):
        `load` then takes each analysis instead of computing it (if the text and settings are
        still the same). Touches nothing else of the host: the server runs it in a thread.
        Answers how many were taken from the cache."""
        run = self.site_preload()
        run.add(jobs)
        run.close()
        cached = run.run()
        run.store()
        return cached

    def forget(self, root: Path | None) -> None:
        """The site of folder `root` is read (None: a folder that holds none): the analyses it
        did not take are dropped, judged under what may change from now on."""
        for key, record in self.state.files.items():
            if record.preloaded is not None and (root is None or Path(key).parent == root):
                record.preloaded = None


class SitePreload:
    """One site folder's first read through the batch, its jobs given by the loop as it makes
    them and analysed in a thread as they come (see the module docstring)."""

    def __init__(self, state: HostState, batch: Batch, notify: Callable[[], None]) -> None:
        self.state = state
        self.notify = notify
        self._given: queue.SimpleQueue[Sequence[tuple[str, AnalysisJob]] | None] = (
            queue.SimpleQueue()
        )
        # Key, text, settings by the stream's number, until answered (the text is the index's
        # to keep, not this one's).
        self._jobs: list[tuple[str, str, Settings] | None] = []
        self._arrived: deque[str] = deque()
        self._stream = batch.stream(self._answer)
        self.done = False

    # ----- the loop ------------------------------------------------------------------------------
    def add(self, jobs: Sequence[tuple[str, AnalysisJob]]) -> None:
        """More jobs (made on the loop by `preload_jobs`)."""
        if jobs:
            self._given.put(jobs)

    def close(self) -> None:
        """No more jobs: `run` returns once every one is answered."""
        self._given.put(None)

    def arrived(self) -> list[str]:
        """The keys of the files whose analysis arrived since last asked (preloaded, or failed:
        `load` then analyses it alone)."""
        taken = []
        while self._arrived:
            taken.append(self._arrived.popleft())
        return taken

    # ----- the thread ----------------------------------------------------------------------------
    def run(self) -> int:
        """Analyse the jobs as they are given until `close`; answers how many were taken from
        the cache."""
        try:
            while (jobs := self._given.get()) is not None:
                self._jobs.extend((key, job.text, job.settings) for key, job in jobs)
                self._stream.add([job for _, job in jobs])
            self._stream.finish()
        except BaseException:
            self._stream.abandon()
            raise
        finally:
            self.done = True
            self.notify()
        return self._stream.given - self._stream.computed

    def store(self) -> None:
        """Write the cache entries of what was computed (after the files are published)."""
        self._stream.store()

    def _answer(self, number: int, analysis: StreamAnswer) -> None:
        job, self._jobs[number] = self._jobs[number], None
        assert job is not None  # (each job is answered once)
        key, text, settings = job
        if analysis is not None:
            self.state.files[key].preloaded = Preloaded(text, settings, analysis)
        self._arrived.append(key)
        self.notify()
