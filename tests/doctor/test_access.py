"""Who is answered: the bearer token of --token-file, the Host of a Doctor without one, and
CORS for the origins --allow-origin names (and no other)."""

from __future__ import annotations

import json

import pytest

from tests.support.doctor_front import FakeDoctor, ServeDoctor, draft, read_answer, send_raw

TOKEN = "s3cret-Token_1"
EDITOR = "https://cms.example.org"
PREFLIGHT = {
    "Origin": EDITOR,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "content-type,authorization",
}


# --- the token ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "authorization",
    [None, "", "Bearer", "Bearer ", "Bearer wrong", f"Basic {TOKEN}", f"Bearer {TOKEN}x",
     f"Bearer {TOKEN[:-1]}", TOKEN],
)  # fmt: skip
async def test_without_the_token_a_request_is_401(
    serve_doctor: ServeDoctor, authorization: str | None
) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake, token=TOKEN)
    headers = {} if authorization is None else {"Authorization": authorization}
    response = await client.post("/workflow/w/diagnose", json=draft(), headers=headers)
    assert response.status == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    body = await response.json()
    assert body["success"] is False and body["error_code"] == "UNAUTHORIZED"
    assert TOKEN not in json.dumps(body)
    assert fake.calls == []


@pytest.mark.parametrize("scheme", ["Bearer", "bearer", "BEARER"])
async def test_with_the_token_a_request_is_answered(serve_doctor: ServeDoctor, scheme: str) -> None:
    client = await serve_doctor(token=TOKEN)
    response = await client.post(
        "/workflow/w/diagnose", json=draft(), headers={"Authorization": f"{scheme} {TOKEN}"}
    )
    assert response.status == 200


async def test_an_unknown_route_without_the_token_is_401_not_404(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor(token=TOKEN)
    response = await client.post("/no/such/route", json=draft())
    assert response.status == 401


async def test_with_a_token_any_host_name_is_answered(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor(token=TOKEN)
    response = await client.post(
        "/workflow/w/diagnose",
        json=draft(),
        headers={"Authorization": f"Bearer {TOKEN}", "Host": "doctor.internal:8490"},
    )
    assert response.status == 200


# --- the Host without a token ------------------------------------------------------------


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8490", "localhost:8490", "LOCALHOST", "[::1]:8490", "127.0.0.2"]
)
async def test_without_a_token_a_local_host_is_answered(
    serve_doctor: ServeDoctor, host: str
) -> None:
    client = await serve_doctor()
    response = await client.post("/workflow/w/diagnose", json=draft(), headers={"Host": host})
    assert response.status == 200


@pytest.mark.parametrize(
    "host", ["evil.example:8490", "evil.example", "127.0.0.1.evil.example", "10.0.0.1:8490"]
)
async def test_without_a_token_another_host_is_403(serve_doctor: ServeDoctor, host: str) -> None:
    """A page that re-points its own name at 127.0.0.1 (DNS rebinding) is not answered."""
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    response = await client.post("/workflow/w/diagnose", json=draft(), headers={"Host": host})
    assert response.status == 403
    assert (await response.json())["error_code"] == "HOST_NOT_ALLOWED"
    assert fake.calls == []


async def test_a_request_without_host_is_answered(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor()
    data = json.dumps(draft()).encode()
    reader, writer = await send_raw(
        client,
        "POST /workflow/w/diagnose HTTP/1.0\nContent-Type: application/json\n"
        f"Content-Length: {len(data)}\n",
        data,
    )
    try:
        status, _ = await read_answer(reader)
    finally:
        writer.close()
    assert status == 200


# --- CORS --------------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["", "/api/flowdrop"])
async def test_a_preflight_from_an_allowed_origin_is_answered(
    serve_doctor: ServeDoctor, prefix: str
) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake, token=TOKEN, origins=[EDITOR, "http://localhost:5173"])
    # No token: a browser never sends credentials on a preflight.
    response = await client.options(f"{prefix}/workflow/w/remedy", headers=PREFLIGHT)
    assert response.status == 204
    assert response.headers["Access-Control-Allow-Origin"] == EDITOR
    assert response.headers["Access-Control-Allow-Methods"] == "POST, OPTIONS"
    assert response.headers["Access-Control-Allow-Headers"] == "Content-Type, Authorization"
    assert "Origin" in response.headers.getall("Vary")
    assert fake.calls == []


@pytest.mark.parametrize(
    "origin",
    ["https://evil.example", "https://cms.example.org:8443", "http://cms.example.org", "null",
     "https://cms.example.org.evil.example"],
)  # fmt: skip
async def test_a_preflight_from_another_origin_is_refused(
    serve_doctor: ServeDoctor, origin: str
) -> None:
    client = await serve_doctor(origins=[EDITOR])
    response = await client.options("/workflow/w/diagnose", headers={**PREFLIGHT, "Origin": origin})
    assert response.status == 403
    assert (await response.json())["error_code"] == "ORIGIN_NOT_ALLOWED"
    assert not any(name.startswith("Access-Control-") for name in response.headers)


async def test_a_preflight_without_allowed_origins_is_refused(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor()
    response = await client.options("/workflow/w/diagnose", headers=PREFLIGHT)
    assert response.status == 403
    assert "Access-Control-Allow-Origin" not in response.headers


async def test_a_preflight_to_an_unknown_route_is_404(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor(origins=[EDITOR])
    response = await client.options("/workflow/w/validate", headers=PREFLIGHT)
    assert response.status == 404
    assert (await response.json())["error_code"] == "NOT_FOUND"


async def test_an_options_request_that_is_no_preflight_is_405(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor(origins=[EDITOR])
    response = await client.options("/workflow/w/diagnose")
    assert response.status == 405
    assert (await response.json())["error_code"] == "METHOD_NOT_ALLOWED"


async def test_answers_to_an_allowed_origin_carry_its_header(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor(token=TOKEN, origins=[EDITOR])
    ok = await client.post(
        "/workflow/w/diagnose",
        json=draft(),
        headers={"Origin": EDITOR, "Authorization": f"Bearer {TOKEN}"},
    )
    assert ok.status == 200
    assert ok.headers["Access-Control-Allow-Origin"] == EDITOR
    # …refusals too, so that the editor can read why.
    unauthorized = await client.post(
        "/workflow/w/diagnose", json=draft(), headers={"Origin": EDITOR}
    )
    assert unauthorized.status == 401
    assert unauthorized.headers["Access-Control-Allow-Origin"] == EDITOR
    bad = await client.post(
        "/workflow/w/diagnose",
        json=[],
        headers={"Origin": EDITOR, "Authorization": f"Bearer {TOKEN}"},
    )
    assert bad.status == 400
    assert bad.headers["Access-Control-Allow-Origin"] == EDITOR


async def test_answers_to_another_origin_carry_no_cors_header(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor(origins=[EDITOR])
    response = await client.post(
        "/workflow/w/diagnose", json=draft(), headers={"Origin": "https://evil.example"}
    )
    assert not any(name.startswith("Access-Control-") for name in response.headers)
    plain = await client.post("/workflow/w/diagnose", json=draft())
    assert "Access-Control-Allow-Origin" not in plain.headers
