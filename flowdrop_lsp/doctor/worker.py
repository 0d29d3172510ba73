"""The one thread the Doctor's service lives on. `DoctorService` is not thread-safe and its
analysis is CPU-bound: it is made, and every call is run, on a single worker thread, one call at
a time, so that the event loop keeps reading requests and answering refusals while it works.

Calls wait in line; past `max_queued` waiting, a call is refused at once (`Busy`) rather than
holding its draft in memory for an answer that would come late."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Doctor(Protocol):
    """What the front asks of `flowdrop_lsp.core.doctor.DoctorService` (and of the tests'
    stand-in)."""

    @property
    def site_label(self) -> str: ...

    def diagnose(self, workflow_id: str, draft: dict[str, Any]) -> list[dict[str, Any]]: ...

    def remedy(
        self,
        workflow_id: str,
        draft: dict[str, Any],
        target: str,
        remedy: str,
        params: dict[str, Any] | None,
    ) -> list[dict[str, Any]]: ...


DoctorFactory = Callable[[Path | None], Doctor]


class Busy(Exception):
    """Too many calls already wait for the worker."""


class DoctorWorker:
    def __init__(self, max_queued: int = 16) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="flowdrop-doctor")
        self._service: Doctor | None = None
        self._max_queued = max_queued
        self._in_line = 0  # calls submitted and not answered, the running one included

    async def start(self, factory: DoctorFactory, site: Path | None) -> str:
        """Make the service on the worker thread (it reads the site there) and answer its
        label."""

        def make() -> str:
            self._service = factory(site)
            return self._service.site_label

        return await asyncio.get_running_loop().run_in_executor(self._executor, make)

    async def call(self, job: Callable[[Doctor], T]) -> T:
        """`job(service)` on the worker thread, after the calls before it."""
        if self._in_line > self._max_queued:
            raise Busy(f"{self._in_line - 1} requests already wait for the Doctor")
        service = self._service
        if service is None:
            raise RuntimeError("the Doctor's worker was not started")
        self._in_line += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, job, service)
        finally:
            self._in_line -= 1

    def close(self) -> None:
        """Drop the calls still waiting, let the running one finish."""
        self._executor.shutdown(wait=True, cancel_futures=True)
