"""Checking many files at once: the CLI's facade over the engine, the cache and the site index.

`Batch.analyse` gives each file its single-file analysis (`FileAnalysis`: its findings, settings
applied, and, for a workflow of a site, its site facts from the same read), taken from the cache
(core/workspace/cache.py) when an entry matches, else computed — in a pool of worker processes
when many files are left to compute. `Batch.site` then fills a `SiteIndex` with the facts of
every site file of a folder (the files checked give theirs; the others are read for their facts
alone, cached too) and the caller asks it for each file's cross-file findings.

The order of the results is the order of the jobs, however they were computed: output never
depends on the cache or the pool.

`AnalysisStream` is the editor's way (core/workspace/preloading.py): jobs given as they are
made, each analysis answered as it comes, the pool's workers sent the settings once.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import (
    is_node_type_file,
    is_workflow_config_file,
)
from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition
from flowdrop_lsp.core.domain.site_facts import WorkflowFacts
from flowdrop_lsp.core.engine.document import WorkflowDocument, refused_by_size
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.syntax.door import MAX_WORKFLOW_BYTES
from flowdrop_lsp.core.text.positions import Span
from flowdrop_lsp.core.workspace.cache import (
    ResultCache,
    dumps,
    entry_key,
    loads,
    settings_fingerprint,
)
from flowdrop_lsp.core.workspace.node_types import NodeTypeFiles
from flowdrop_lsp.core.workspace.site import (
    SiteIndex,
    read_facts,
    syntax_of_path,
)

# Fewer files than this left to compute are analysed in this process: starting workers costs
# more than it saves.
MIN_FILES_FOR_POOL = 16
# Jobs per call of a worker of an `AnalysisStream`: small, so that the two workers end together
# (the last call of one is the other's idle time) and the first answers come early; enough
# that a call's own cost (a message each way) stays small beside 8 analyses (~40 ms).
STREAM_TASK_JOBS = 8

Facts = WorkflowFacts | NodeTypeDefinition | None


@dataclass(frozen=True, slots=True)
class FileAnalysis:
    """One file's single-file analysis: its findings (spans plain offsets, settings applied,
    sorted) and, for a workflow of a site, its site facts."""

    findings: tuple[Finding, ...]
    facts: Facts = None


@dataclass(frozen=True)
class AnalysisJob:
    """One file to analyse: its text and bytes, settings, syntax; `site_file` when it is a
    workflow of a site (its facts are read from the same parse). `registry` is the node-type
    registry's fingerprint (part of the cache key)."""

    text: str
    data: bytes
    settings: Settings
    syntax: str = "json"
    allow_comments: bool = False
    site_file: bool = False
    registry: str = ""


def _plain(span: Span) -> Span:
    return span.resolve() if span.base is not None else span


def portable(finding: Finding) -> Finding:
    """The finding with plain spans: nothing anchored to the document's elements, so that it
    can be pickled (for the cache, or from a worker) without the analysis behind it."""
    return finding.map_spans(_plain)


def analyse_file(job: AnalysisJob) -> FileAnalysis:
    """The engine reading one file's text once: its findings and (a site's workflow) facts."""
    if len(job.data) > MAX_WORKFLOW_BYTES:
        # STORE-1's door decided by the bytes read: no document is made (its line index and
        # chunks alone cost a quarter second on a 53 MB export), the one finding is the same.
        return FileAnalysis(refused_by_size(len(job.data), len(job.text), job.settings), None)
    document = WorkflowDocument(
        job.text,
        job.settings,
        allow_comments=job.allow_comments,
        syntax=job.syntax,
        site_facts=job.site_file,
    )
    findings = tuple(portable(finding) for finding in document.findings())
    facts = document.site_facts() if job.site_file else None
    document.close()  # freed by reference counting now, not by a later cyclic collection
    return FileAnalysis(findings, facts)


def _analyse_pickled(job: AnalysisJob) -> bytes:
    """A worker's answer: the analysis already pickled as a cache entry is."""
    return dumps(analyse_file(job))


# The jobs of the pool being run, for its forked workers (Batch._compute).
_INHERITED_JOBS: Sequence[AnalysisJob] = ()


def _analyse_inherited(index: int) -> bytes:
    return _analyse_pickled(_INHERITED_JOBS[index])


# The settings a stream's worker was started with (`_start_stream_worker`): its jobs name them
# by number instead of carrying them (a site's settings hold its node-type catalogue: 0.5 MB,
# 11 ms to pickle and as long to unpickle, once per worker instead of once per call).
_WORKER_SETTINGS: tuple[Settings, ...] = ()


def _start_stream_worker(settings: tuple[Settings, ...]) -> None:
    global _WORKER_SETTINGS
    _WORKER_SETTINGS = settings


# A job as a stream sends it to a worker: (text, bytes, syntax, allow_comments, site_file,
# settings number, settings). The settings by number in the worker's table (then None), else
# carried (settings met after the workers started); the bytes only when their size decides
# (STORE-1's door, `analyse_file`), else the text is enough.
_SentJob = tuple[str, bytes, str, bool, bool, int, Settings | None]


def _analyse_sent(jobs: Sequence[_SentJob]) -> list[bytes]:
    answers = []
    for text, data, syntax, comments, site_file, number, carried in jobs:
        settings = carried if carried is not None else _WORKER_SETTINGS[number]
        answers.append(
            _analyse_pickled(AnalysisJob(text, data, settings, syntax, comments, site_file))
        )
    return answers


def default_workers() -> int:
    return os.cpu_count() or 1


def _pool_context() -> multiprocessing.context.BaseContext:
    # Forking starts a worker in milliseconds with everything imported; elsewhere (macOS,
    # Windows) the platform's default start method is the safe one. A process with other
    # threads (the language server: its stdin reader) is never forked: a lock one of them
    # holds at the fork stays held in the child, which hangs on it (the first thing a forked
    # worker does is close its stdin, whose lock the reader holds). Its workers come from a
    # fork server instead, a fresh single-threaded process that imported the engine once.
    if threading.active_count() > 1 and "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def start_workers_early() -> None:
    """Start the fork server now, where the pool's workers would come from one (see
    `_pool_context`): it imports the engine (0.4 s) while the caller reads the files the
    workers will analyse, instead of after."""
    context = _pool_context()
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver  # (the stdlib's; only where it exists)

        forkserver.ensure_running()


class Batch:
    """The files of one run: analysed (cached, in parallel), then joined per site folder."""

    def __init__(
        self,
        cache: ResultCache | None,
        workers: int | None = None,
        node_types: NodeTypeFiles | None = None,
    ) -> None:
        self.cache = cache
        # The definitions read for the settings' registries: the site reads the same records.
        self.node_types = node_types if node_types is not None else NodeTypeFiles()
        self.workers = default_workers() if workers is None else max(1, workers)
        self._fingerprints: dict[Settings, str] = {}
        self.computed = 0  # files analysed in this run (not taken from the cache)

    def key(self, job: AnalysisJob) -> str:
        fingerprint = self._fingerprints.get(job.settings)
        if fingerprint is None:
            fingerprint = self._fingerprints[job.settings] = settings_fingerprint(job.settings)
        return entry_key(
            "analysis",
            job.data,
            job.syntax,
            "comments" if job.allow_comments else "",
            "site" if job.site_file else "",
            fingerprint,
            job.registry,
        )

    def cached(
        self, job: AnalysisJob, cache: ResultCache | None
    ) -> tuple[str | None, FileAnalysis | None]:
        """The job's cache key and, when `cache` holds it, its analysis (no key without a
        cache). The cache is given: a stream keeps the one it began with (`AnalysisStream`)."""
        if cache is None:
            return None, None
        key = self.key(job)
        found = cache.get(key)
        return key, found if isinstance(found, FileAnalysis) else None

    def analyse(self, jobs: Sequence[AnalysisJob]) -> list[FileAnalysis]:
        """Each job's analysis, in the order of `jobs`."""
        results: list[FileAnalysis | None] = [None] * len(jobs)
        keys: list[str | None] = [None] * len(jobs)
        missing: list[int] = []
        for index, job in enumerate(jobs):
            keys[index], results[index] = self.cached(job, self.cache)
            if results[index] is None:
                missing.append(index)
        self.computed += len(missing)
        for index, data in zip(missing, self._compute([jobs[i] for i in missing]), strict=True):
            stored = keys[index]
            if stored is not None and self.cache is not None:
                self.cache.put(stored, data)
            results[index] = loads(data)
        return [result for result in results if result is not None]

    def _compute(self, jobs: Sequence[AnalysisJob]) -> Iterator[bytes]:
        """Each job's analysis pickled, in order, yielded as it comes: the caller stores and
        reads each while the workers compute the next (0.3 s of a 1,000-workflow run that
        came after the pool's work, not during it)."""
        global _INHERITED_JOBS
        if len(jobs) < MIN_FILES_FOR_POOL or self.workers < 2:
            yield from (_analyse_pickled(job) for job in jobs)
            return
        workers = min(self.workers, len(jobs))
        chunk = max(1, len(jobs) // (workers * 8))
        context = _pool_context()
        analyse: Callable[[Any], bytes] = _analyse_pickled
        sent: Sequence[Any] = jobs
        if context.get_start_method() == "fork":
            # Forked workers inherit the jobs: only their numbers are sent. Pickled, every
            # chunk carried its settings' node-type registry (~0.5 MB, 30 ms to pickle and
            # unpickle: 16 chunks made a 1,000-workflow check 9 % slower) and every text.
            _INHERITED_JOBS = jobs
            analyse, sent = _analyse_inherited, range(len(jobs))
        try:
            with ProcessPoolExecutor(workers, mp_context=context) as pool:
                yield from pool.map(analyse, sent, chunksize=chunk)
        finally:
            _INHERITED_JOBS = ()

    def stream(self, answer: Callable[[int, StreamAnswer], None]) -> AnalysisStream:
        """A stream of jobs analysed as they are given, each answered as it comes."""
        return AnalysisStream(self, answer)

    # ----- the site ---------------------------------------------------------------------------
    def facts_of(self, path: Path, text: str, data: bytes) -> Facts:
        """The site facts of a file read for them alone (a node type, or a workflow of the
        site not being checked), cached by its bytes."""
        if is_node_type_file(path):
            # Read once per run, shared with the settings' registries (no cache entry: the
            # registry has read it already).
            return read_facts(path, text, self.node_types)
        syntax = syntax_of_path(path)
        key = entry_key("facts", data, syntax)
        if self.cache is not None:
            found = self.cache.get(key)
            if isinstance(found, FileAnalysis):
                return found.facts
        facts = read_facts(path, text, self.node_types)
        if self.cache is not None:
            self.cache.put(key, dumps(FileAnalysis((), facts)))
        return facts

    def site(self, root: Path, known: Mapping[str, tuple[str, Facts]]) -> SiteIndex:
        """The site index of folder `root`: every site file of it, the facts of those in
        `known` (absolute path → text, facts) as given, the others' read from disk (through
        the house's reader: a run's `ReadOnce` gives the texts its registries read)."""
        index = SiteIndex(root, node_types=self.node_types)
        for path in index.scan():
            key = str(path)
            if key in known:
                text, facts = known[key]
            else:
                file = self.node_types.read_file(path)
                if file.text is None:
                    continue  # in the site by its name alone (its own check says why)
                text, facts = file.text, self.facts_of(path, file.text, file.data)
            index.read(key, text, facts)
        return index


# A stream's answer: the analysis, or as computed, still pickled (`loads` it where it is kept:
# the thread that unpickles it allocates it), or None (not computed: the caller does it alone).
StreamAnswer = FileAnalysis | bytes | None


class AnalysisStream:
    """Jobs analysed as they are given, numbered in the order given, each answered by
    `answer(number, analysis)` as it comes, in any order: at once from the batch's cache, else
    computed — in a pool of worker processes once `MIN_FILES_FOR_POOL` are waiting (they are
    sent the settings of the jobs waiting then once, at their start, and called with
    `STREAM_TASK_JOBS` jobs at a time), else here at `finish`. A call that failed answers None
    for its jobs (the caller computes them alone). `add` and `finish` are called from one
    thread; answers come from that thread and from the pool's. The cache entries of what was
    computed are written by `store`, when the caller has used the answers: writing them
    (1,000 files) is no part of the first answer."""

    def __init__(self, batch: Batch, answer: Callable[[int, StreamAnswer], None]) -> None:
        self.batch = batch
        self.cache = batch.cache  # (the batch's may be another folder's by `store`)
        self.answer = answer
        self.given = 0
        self.computed = 0
        self._waiting: list[tuple[int, AnalysisJob, str | None]] = []
        self._pool: ProcessPoolExecutor | None = None
        self._settings: dict[int, int] = {}  # id of settings sent to the workers → number
        self._sent_settings: list[Settings] = []  # (kept: the ids above stay theirs)
        self._calls: list[Future[list[bytes]]] = []
        self._computed: list[tuple[str, bytes]] = []  # cache entries to write (`store`)
        self._lock = threading.Lock()

    def add(self, jobs: Sequence[AnalysisJob]) -> None:
        for job in jobs:
            number, self.given = self.given, self.given + 1
            key, found = self.batch.cached(job, self.cache)
            if found is not None:
                self.answer(number, found)
                continue
            self._waiting.append((number, job, key))
            self.computed += 1
        self._send(final=False)

    def finish(self) -> None:
        """Every job given is answered when this returns."""
        self._send(final=True)
        if self._pool is None:  # too few for the pool, or one worker: here
            waiting, self._waiting = self._waiting, []
            for number, job, key in waiting:
                self._done([(number, key)], [_analyse_pickled(job)])
        else:
            wait(self._calls)
            self._pool.shutdown()
            self._pool = None

    def abandon(self) -> None:
        """Stop the workers (on a failure: what they did not answer is computed alone)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def store(self) -> None:
        """Write the cache entries of what was computed (see the class docstring)."""
        with self._lock:
            computed, self._computed = self._computed, []
        if self.cache is not None:
            for key, data in computed:
                self.cache.put(key, data)

    def _send(self, final: bool) -> None:
        if self._pool is None:
            if len(self._waiting) < MIN_FILES_FOR_POOL or self.batch.workers < 2:
                return
            self._start_pool()
        while self._waiting and (final or len(self._waiting) >= STREAM_TASK_JOBS):
            task, self._waiting = (
                self._waiting[:STREAM_TASK_JOBS],
                self._waiting[STREAM_TASK_JOBS:],
            )
            sent = [self._sendable(job) for _, job, _ in task]
            assert self._pool is not None
            call = self._pool.submit(_analyse_sent, sent)
            call.add_done_callback(
                functools.partial(self._called, [(number, key) for number, _, key in task])
            )
            self._calls.append(call)

    def _start_pool(self) -> None:
        for _, job, _ in self._waiting:
            if id(job.settings) not in self._settings:
                self._settings[id(job.settings)] = len(self._sent_settings)
                self._sent_settings.append(job.settings)
        self._pool = ProcessPoolExecutor(
            min(self.batch.workers, len(self._waiting)),
            mp_context=_pool_context(),
            initializer=_start_stream_worker,
            initargs=(tuple(self._sent_settings),),
        )

    def _sendable(self, job: AnalysisJob) -> _SentJob:
        data = job.data if len(job.data) > MAX_WORKFLOW_BYTES else b""
        number = self._settings.get(id(job.settings), -1)
        carried = job.settings if number < 0 else None
        return (job.text, data, job.syntax, job.allow_comments, job.site_file, number, carried)

    def _called(self, numbered: list[tuple[int, str | None]], call: Future[list[bytes]]) -> None:
        try:
            results = call.result()
        except Exception:  # noqa: BLE001 - a broken pool: these are computed alone
            for number, _ in numbered:
                self.answer(number, None)
            return
        self._done(numbered, results)

    def _done(self, numbered: list[tuple[int, str | None]], results: list[bytes]) -> None:
        for (number, key), data in zip(numbered, results, strict=True):
            if key is not None:
                with self._lock:
                    self._computed.append((key, data))
            self.answer(number, data)


def is_site_workflow(path: Path) -> bool:
    """A workflow file of a site (named as Drupal names it): its facts join its folder's."""
    return is_workflow_config_file(path)
