"""The editor's first read of a site as a stream (core/workspace/batch.py `AnalysisStream`,
core/workspace/preloading.py `SitePreload`), on copies of the real site: every job given is
answered once, with what the engine answers for it alone, however it came — computed by the
workers started on the first jobs given (from a fork server, as in the server: a thread runs
beside), its settings sent to them once or carried when met after they started, or taken from
the cache; the cache entries are written at `store`, not before. A site read file by file as
the analyses arrive reads what a site read alone reads."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from flowdrop_lsp.core.workspace.batch import (
    MIN_FILES_FOR_POOL,
    AnalysisJob,
    Batch,
    FileAnalysis,
    StreamAnswer,
    analyse_file,
)
from flowdrop_lsp.core.workspace.cache import ResultCache, loads
from flowdrop_lsp.core.workspace.host import Host
from flowdrop_lsp.core.workspace.resolver import SettingsResolver
from tests.support.site import copy_site


@pytest.fixture
def another_thread() -> Iterator[None]:
    """A thread beside the test's, as the server's stdin reader is: the pool's workers then
    come from a fork server, never from a fork of this process (batch.py `_pool_context`)."""
    stop = threading.Event()
    beside = threading.Thread(target=stop.wait)
    beside.start()
    yield
    stop.set()
    beside.join()


def _site_jobs(tmp_path: Path) -> tuple[Host, list[Path], list[tuple[str, AnalysisJob]]]:
    folder = copy_site(tmp_path, copies=1)
    host = Host(SettingsResolver(report=lambda _problem: None), workers=2)
    files = host.open_site(folder)
    jobs = host.preload_jobs(files)
    assert len(jobs) == 30 > MIN_FILES_FOR_POOL
    return host, files, jobs


def _streamed(batch: Batch, parts: list[list[AnalysisJob]]) -> dict[int, list[StreamAnswer]]:
    answers: dict[int, list[StreamAnswer]] = {}
    lock = threading.Lock()

    def answer(number: int, analysis: StreamAnswer) -> None:
        with lock:  # (answers come from two threads)
            answers.setdefault(number, []).append(analysis)

    stream = batch.stream(answer)
    for part in parts:
        stream.add(part)
    stream.finish()
    return answers


def _analysis(answer: StreamAnswer) -> FileAnalysis:
    assert answer is not None
    return loads(answer) if isinstance(answer, bytes) else answer


@pytest.mark.usefixtures("another_thread")
def test_every_job_is_answered_once_as_the_engine_answers_it_alone(tmp_path: Path) -> None:
    _host, _files, site_jobs = _site_jobs(tmp_path)
    jobs = [job for _, job in site_jobs]
    cache = ResultCache(tmp_path / "cache")
    batch = Batch(cache, workers=2)
    alone = [analyse_file(job) for job in jobs]

    # Given in two parts, as the loop reads them: the workers start on the first.
    answers = _streamed(batch, [jobs[:20], jobs[20:]])
    assert sorted(answers) == list(range(len(jobs)))
    assert all(len(given) == 1 for given in answers.values())
    assert all(isinstance(answers[n][0], bytes) for n in answers)  # computed, pickled
    assert [_analysis(answers[n][0]) for n in range(len(jobs))] == alone
    assert not (tmp_path / "cache").exists()  # written at `store`, not before

    stream = batch.stream(lambda _number, _analysis: None)
    stream.add(jobs)
    stream.finish()
    assert stream.computed == len(jobs)
    stream.store()
    again = _streamed(Batch(ResultCache(tmp_path / "cache"), workers=2), [jobs])
    assert all(isinstance(again[n][0], FileAnalysis) for n in again)  # from the cache
    assert [_analysis(again[n][0]) for n in range(len(jobs))] == alone


@pytest.mark.usefixtures("another_thread")
def test_settings_met_after_the_workers_started_are_carried(tmp_path: Path) -> None:
    _host, _files, site_jobs = _site_jobs(tmp_path)
    jobs = [job for _, job in site_jobs]
    first = jobs[0].settings
    assert all(job.settings is first for job in jobs)
    routes = "FD-TOOL-ROUTE"
    assert any(f.code == routes for job in jobs for f in analyse_file(job).findings)
    quieter = dataclasses.replace(first, ignore=first.ignore | {routes})
    later = [dataclasses.replace(job, settings=quieter) for job in jobs[MIN_FILES_FOR_POOL:]]
    given = jobs[:MIN_FILES_FOR_POOL] + later

    answers = _streamed(Batch(None, workers=2), [given[:MIN_FILES_FOR_POOL], later])
    got = [_analysis(answers[n][0]) for n in range(len(given))]
    assert got == [analyse_file(job) for job in given]
    assert not any(
        f.code == routes for analysis in got[MIN_FILES_FOR_POOL:] for f in analysis.findings
    )


@pytest.mark.usefixtures("another_thread")
def test_a_site_read_as_its_analyses_arrive_reads_what_it_reads_alone(tmp_path: Path) -> None:
    host, files, jobs = _site_jobs(tmp_path)
    made = dict(host.state.files)
    preload = host.site_preload(lambda: None)
    running = threading.Thread(target=preload.run)  # (the server's: a thread beside the loop)
    running.start()
    arrived: list[str] = []
    preload.add(jobs[:10])
    preload.add(jobs[10:])
    preload.close()
    while True:  # (the loop's part: each file read as its analysis arrives)
        done = preload.done  # (set once every analysis arrived)
        for key in preload.arrived():
            assert made[key].preloaded is not None  # filled before it is told
            host.load(Path(key))
            arrived.append(key)
        if done:
            break
        time.sleep(0.005)
    running.join()
    assert sorted(arrived) == sorted(key for key, _ in jobs)  # each once
    assert host.state.files == made and all(host.state.files[k] is made[k] for k in made)
    for path in files:
        if str(path) not in arrived:
            host.load(path)
    host.finish(files[0].parent)
    alone = Host(SettingsResolver(report=lambda _problem: None))
    for path in alone.open_site(files[0].parent):
        alone.load(path)
    alone.finish(files[0].parent)
    assert [host.findings(path) for path in files] == [alone.findings(path) for path in files]
