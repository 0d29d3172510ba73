"""The Doctor's HTTP front over the fake service (tests/support/doctor_front.py), in the test's
own event loop: `serve_doctor` starts one (a started worker, the application, a real socket on
127.0.0.1) and answers an aiohttp test client."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable

import pytest
from aiohttp.test_utils import TestClient, TestServer

from flowdrop_lsp.doctor.app import make_app
from flowdrop_lsp.doctor.body import Limits
from flowdrop_lsp.doctor.worker import DoctorWorker
from tests.support.doctor_front import FakeDoctor, ServeDoctor


@pytest.fixture
async def serve_doctor() -> AsyncIterator[ServeDoctor]:
    started: list[tuple[TestClient, DoctorWorker, FakeDoctor]] = []

    async def serve(
        fake: FakeDoctor | None = None,
        *,
        token: str | None = None,
        origins: Iterable[str] = (),
        limits: Limits | None = None,
    ) -> TestClient:
        service = fake or FakeDoctor()
        worker = DoctorWorker((limits or Limits()).max_queued)
        await worker.start(lambda site: service, None)
        app = make_app(worker, token=token, allowed_origins=frozenset(origins), limits=limits)
        client = TestClient(TestServer(app, host="127.0.0.1"))
        await client.start_server()
        started.append((client, worker, service))
        return client

    yield serve
    for client, worker, service in started:
        if service.gate is not None:
            service.gate.set()  # let a held call finish: closing the worker waits for it
        await client.close()
        worker.close()
