"""Requests at once: every analysis runs on the one worker thread, one at a time, each answer
the right one; the event loop answers while an analysis runs; a client that stalls or drops
half-way through its body holds up no one; past the queue's bound a request is refused."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest

from flowdrop_lsp.doctor import app as doctor_app
from flowdrop_lsp.doctor.body import Limits
from tests.support.doctor_front import FakeDoctor, ServeDoctor, draft, read_answer, send_raw

HEAD = "POST /workflow/w/diagnose HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\n"


async def test_concurrent_diagnoses_are_answered_each_its_own(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    names = [f"draft{i}" for i in range(12)]
    prefixes = ["", "/api/flowdrop"]

    async def diagnose(i: int, name: str) -> str:
        response = await client.post(f"{prefixes[i % 2]}/workflow/wf{i}/diagnose", json=draft(name))
        assert response.status == 200
        (problem,) = (await response.json())["data"]["problems"]
        return str(problem["message"])

    answers = await asyncio.gather(*(diagnose(i, name) for i, name in enumerate(names)))
    assert answers == [f"wf{i}/{name}: node n1 names no plugin" for i, name in enumerate(names)]
    assert len(fake.calls) == 12
    assert len(fake.threads) == 1, "every call on the one worker thread"
    assert threading.get_ident() not in fake.threads
    assert not fake.overlapped


async def test_the_loop_answers_while_an_analysis_runs(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    fake.gate = threading.Event()
    client = await serve_doctor(fake)
    held = asyncio.ensure_future(client.post("/workflow/w/diagnose", json=draft("held")))
    queued = asyncio.ensure_future(client.post("/workflow/w/diagnose", json=draft("queued")))
    assert await asyncio.to_thread(fake.entered.wait, 5)
    # The analysis is held on the worker: refusals and routing are still answered.
    refused = await asyncio.wait_for(client.post("/workflow/w/diagnose", json=[]), 5)
    assert refused.status == 400
    missing = await asyncio.wait_for(client.post("/nowhere", json=draft()), 5)
    assert missing.status == 404
    assert not held.done() and not queued.done()
    fake.gate.set()
    first, second = await asyncio.wait_for(asyncio.gather(held, queued), 10)
    assert [first.status, second.status] == [200, 200]
    assert [call[2]["name"] for call in fake.calls] == ["held", "queued"]
    assert not fake.overlapped


async def test_bodies_are_parsed_off_the_event_loop(
    serve_doctor: ServeDoctor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """8 MiB of JSON takes a while to measure and parse: not on the thread answering the rest."""
    parsed_on: list[int] = []
    parse = doctor_app.parse_json

    def recorded(data: bytes, limits: Limits) -> Any:
        parsed_on.append(threading.get_ident())
        return parse(data, limits)

    monkeypatch.setattr(doctor_app, "parse_json", recorded)
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    assert (await client.post("/workflow/w/diagnose", json=draft())).status == 200
    assert len(parsed_on) == 1
    assert parsed_on[0] != threading.get_ident(), "parsed on the event loop's thread"
    assert parsed_on[0] not in fake.threads, "parsed on the service's thread"


async def test_a_stalled_client_holds_up_no_one(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake, limits=Limits(body_timeout=1.5))
    # Half a body, then nothing.
    reader, writer = await send_raw(client, HEAD + "Content-Length: 200\n", b'{"name": "stall')
    try:
        for name in ("after1", "after2"):
            response = await asyncio.wait_for(
                client.post("/workflow/w/diagnose", json=draft(name)), 2
            )
            assert response.status == 200
        assert [call[2]["name"] for call in fake.calls] == ["after1", "after2"]
        # …and it is let go once its time is up.
        status, body = await read_answer(reader, timeout=5)
        assert status == 408 and json.loads(body)["error_code"] == "BODY_TIMEOUT"
    finally:
        writer.close()
    assert len(fake.calls) == 2


async def test_a_client_that_drops_half_way_is_forgotten(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    for _ in range(5):
        await send_raw(client, HEAD + "Content-Length: 5000\n", b'{"name": "gone', then_close=True)
    response = await asyncio.wait_for(client.post("/workflow/w/diagnose", json=draft("here")), 5)
    assert response.status == 200
    assert [call[2]["name"] for call in fake.calls] == ["here"]


async def test_past_the_queue_bound_a_request_is_429(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    fake.gate = threading.Event()
    client = await serve_doctor(fake, limits=Limits(max_queued=2))
    running = asyncio.ensure_future(client.post("/workflow/w/diagnose", json=draft("r")))
    assert await asyncio.to_thread(fake.entered.wait, 5)
    waiting = [
        asyncio.ensure_future(client.post("/workflow/w/diagnose", json=draft(f"w{i}")))
        for i in range(2)
    ]
    await asyncio.sleep(0.2)  # both read and in line
    busy = await asyncio.wait_for(client.post("/workflow/w/diagnose", json=draft("x")), 5)
    assert busy.status == 429
    assert busy.headers["Retry-After"] == "1"
    assert (await busy.json())["error_code"] == "BUSY"
    fake.gate.set()
    answers = await asyncio.wait_for(asyncio.gather(running, *waiting), 10)
    assert [response.status for response in answers] == [200, 200, 200]
    # Once the line is short again, requests are taken.
    assert (await client.post("/workflow/w/diagnose", json=draft("y"))).status == 200
