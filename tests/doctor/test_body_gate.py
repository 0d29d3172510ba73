"""The body gate (the spec's API-1 with STORE-1's bounds): 8 MiB, refused before it is read
whole; nesting at most 64 deep, refused before any analysis; UTF-8 JSON of the route's shape;
a JSON media type. Every refusal is JSON with a stable code, and the service is never asked."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from flowdrop_lsp.doctor.body import Limits
from tests.support.doctor_front import FakeDoctor, ServeDoctor, draft, read_answer, send_raw

MiB = 1024 * 1024
JSON = {"Content-Type": "application/json"}


def padded(size: int) -> bytes:
    """A draft of exactly `size` bytes."""
    empty = json.dumps(draft(description="")).encode()
    text = json.dumps(draft(description="x" * (size - len(empty)))).encode()
    assert len(text) == size
    return text


def nested(depth: int) -> dict[str, Any]:
    """A draft whose deepest value sits `depth` arrays and objects deep, the draft itself 1."""
    value: Any = 1
    for _ in range(depth - 2):
        value = [value]
    return draft(deep={"x": value})


async def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status == status, await response.text()
    body = await response.json()
    assert body["success"] is False and body["error_code"] == code and body["error"]
    return body


async def test_a_body_of_exactly_8_mib_is_read(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    response = await client.post("/workflow/w/diagnose", data=padded(8 * MiB), headers=JSON)
    assert response.status == 200
    assert len(fake.calls) == 1


async def test_one_byte_more_is_413(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    response = await client.post("/workflow/w/diagnose", data=padded(8 * MiB + 1), headers=JSON)
    await refused(response, 413, "BODY_TOO_LARGE")
    assert fake.calls == []


async def test_a_declared_length_over_8_mib_is_refused_before_the_body_is_sent(
    serve_doctor: ServeDoctor,
) -> None:
    client = await serve_doctor()
    # 1 GiB announced, 20 bytes sent: the answer cannot have waited for the rest.
    reader, writer = await send_raw(
        client,
        "POST /workflow/w/diagnose HTTP/1.1\nHost: 127.0.0.1\n"
        f"Content-Type: application/json\nContent-Length: {1024 * MiB}\n",
        b'{"nodes": [], "name"',
    )
    try:
        status, body = await read_answer(reader, timeout=5)
    finally:
        writer.close()
    assert status == 413
    assert json.loads(body)["error_code"] == "BODY_TOO_LARGE"


async def test_a_chunked_body_without_length_is_cut_at_8_mib(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"name": "'
        for _ in range(20):  # 20 MiB if it were all read
            yield b"x" * MiB
        yield b'"}'

    response = await client.post("/workflow/w/diagnose", data=chunks(), headers=JSON)
    assert "Content-Length" not in response.request_info.headers
    await refused(response, 413, "BODY_TOO_LARGE")
    assert fake.calls == []


async def test_nesting_64_deep_is_analysed(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    response = await client.post("/workflow/w/diagnose", json=nested(64))
    assert response.status == 200
    assert fake.calls[0][2] == nested(64)


async def test_nesting_65_deep_is_refused_before_any_analysis(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    response = await client.post("/workflow/w/diagnose", json=nested(65))
    body = await refused(response, 400, "BODY_TOO_DEEP")
    assert "65" in body["error"] and "64" in body["error"]
    assert fake.calls == []


async def test_the_remedy_body_counts_its_own_level(serve_doctor: ServeDoctor) -> None:
    """The remedy body wraps the draft: a draft 64 deep is 65 deep in it."""
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    request = {"draft": nested(63), "target": "p-research", "remedy": "remove"}
    assert (await client.post("/workflow/w/remedy", json=request)).status == 200
    request["draft"] = nested(64)
    await refused(await client.post("/workflow/w/remedy", json=request), 400, "BODY_TOO_DEEP")
    assert len(fake.calls) == 1


async def test_a_million_brackets_are_refused_quickly(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor()
    started = time.monotonic()
    response = await client.post(
        "/workflow/w/diagnose", data=b"[" * 1_000_000 + b"]" * 1_000_000, headers=JSON
    )
    await refused(response, 400, "BODY_TOO_DEEP")
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b'{"name": "caf\xe9"}', "INVALID_ENCODING"),  # Latin-1
        (b'{"name": "\xed\xa0\x80"}', "INVALID_ENCODING"),  # a surrogate written in UTF-8
        (b"\xff\xfe{\x00}\x00", "INVALID_ENCODING"),  # UTF-16
        (b"", "INVALID_JSON"),
        (b'{"nodes": [', "INVALID_JSON"),
        (b"{nodes: []}", "INVALID_JSON"),
        (b'{"a": NaN}', "INVALID_JSON"),
        (b'{"a": 1} {"b": 2}', "INVALID_JSON"),
        (b'"unterminated', "INVALID_JSON"),
    ],
)
async def test_what_is_not_utf8_json_is_400(
    serve_doctor: ServeDoctor, data: bytes, code: str
) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    response = await client.post("/workflow/w/diagnose", data=data, headers=JSON)
    await refused(response, 400, code)
    assert fake.calls == []


@pytest.mark.parametrize(
    "body",
    [[], "a draft", 3, None, {"nodes": {}}, {"edges": "e1"}, {"nodes": [], "edges": None}],
    ids=repr,
)
async def test_a_diagnose_body_that_is_no_draft_is_400(
    serve_doctor: ServeDoctor, body: Any
) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    data = json.dumps(body).encode()  # `json=None` would send no body at all
    response = await client.post("/workflow/w/diagnose", data=data, headers=JSON)
    await refused(response, 400, "INVALID_BODY")
    assert fake.calls == []


GOOD_REMEDY = {"draft": draft("a"), "code": "X", "target": "p-a", "remedy": "remove"}


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"draft": None}, "'draft'"),
        ({"draft": []}, "'draft'"),
        ({"draft": {"nodes": "n"}}, "'nodes'"),
        ({"target": 3}, "'target'"),
        ({"target": None}, "'target'"),
        ({"remedy": ["remove"]}, "'remedy'"),
        ({"params": []}, "'params'"),
        ({"params": "node_type_id"}, "'params'"),
    ],
    ids=repr,
)
async def test_a_remedy_body_of_the_wrong_shape_is_400(
    serve_doctor: ServeDoctor, change: dict[str, Any], said: str
) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    response = await client.post("/workflow/w/remedy", json={**GOOD_REMEDY, **change})
    body = await refused(response, 400, "INVALID_BODY")
    assert said in body["error"]
    assert fake.calls == []


@pytest.mark.parametrize("missing", ["draft", "target", "remedy"])
async def test_a_remedy_body_missing_a_member_is_400(
    serve_doctor: ServeDoctor, missing: str
) -> None:
    client = await serve_doctor()
    request = {key: value for key, value in GOOD_REMEDY.items() if key != missing}
    body = await refused(await client.post("/workflow/w/remedy", json=request), 400, "INVALID_BODY")
    assert repr(missing) in body["error"]


async def test_a_remedy_body_that_is_a_list_is_400(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor()
    await refused(await client.post("/workflow/w/remedy", json=[GOOD_REMEDY]), 400, "INVALID_BODY")


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", None])
async def test_a_body_that_is_not_said_to_be_json_is_415(
    serve_doctor: ServeDoctor, kind: str | None
) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    headers = {"Content-Type": kind} if kind else {}
    response = await client.post(
        "/workflow/w/diagnose", data=json.dumps(draft()).encode(), headers=headers
    )
    await refused(response, 415, "UNSUPPORTED_MEDIA_TYPE")
    assert fake.calls == []


@pytest.mark.parametrize("kind", ["application/json; charset=utf-8", "application/vnd.x+json"])
async def test_json_media_types_are_read(serve_doctor: ServeDoctor, kind: str) -> None:
    client = await serve_doctor()
    response = await client.post(
        "/workflow/w/diagnose", data=json.dumps(draft()).encode(), headers={"Content-Type": kind}
    )
    assert response.status == 200


async def test_a_body_that_does_not_arrive_in_time_is_408(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake, limits=Limits(body_timeout=0.3))
    reader, writer = await send_raw(
        client,
        "POST /workflow/w/diagnose HTTP/1.1\nHost: 127.0.0.1\n"
        "Content-Type: application/json\nContent-Length: 100\n",
        b'{"name": ',
    )
    try:
        status, body = await read_answer(reader, timeout=5)
    finally:
        writer.close()
    assert status == 408
    assert json.loads(body)["error_code"] == "BODY_TIMEOUT"
    assert fake.calls == []
