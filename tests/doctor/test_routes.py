"""The two routes at the root and under /api/flowdrop answer as FlowDrop's editor reads them,
and every other request is refused as JSON with a stable code."""

from __future__ import annotations

import json
import logging

import pytest

from tests.support.doctor_front import FakeDoctor, ServeDoctor, draft

PREFIXES = ("", "/api/flowdrop")


@pytest.mark.parametrize("prefix", PREFIXES)
async def test_diagnose_answers_the_problems_of_the_draft(
    serve_doctor: ServeDoctor, prefix: str
) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    response = await client.post(f"{prefix}/workflow/research/diagnose", json=draft("mine"))
    assert response.status == 200
    assert response.content_type == "application/json"
    body = await response.json()
    assert body["success"] is True
    (problem,) = body["data"]["problems"]
    assert problem["id"] == "p-mine"
    assert problem["message"] == "research/mine: node n1 names no plugin"
    assert [remedy["id"] for remedy in problem["remedies"]] == ["remove", "replace"]
    assert fake.calls == [("diagnose", "research", draft("mine"))]


async def test_the_workflow_id_is_taken_from_the_path_decoded(serve_doctor: ServeDoctor) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    response = await client.post("/workflow/brand%20studio/diagnose", json=draft())
    assert response.status == 200
    assert fake.calls[0][1] == "brand studio"


@pytest.mark.parametrize("prefix", PREFIXES)
async def test_remedy_answers_the_operations(serve_doctor: ServeDoctor, prefix: str) -> None:
    fake = FakeDoctor()
    client = await serve_doctor(fake)
    response = await client.post(
        f"{prefix}/workflow/research/remedy",
        json={"draft": draft("mine"), "code": "R1_PLUGIN_MISSING", "target": "p-mine",
              "remedy": "replace", "params": {"node_type_id": "chat_output"}},
    )  # fmt: skip
    assert response.status == 200
    assert await response.json() == {
        "success": True,
        "data": {
            "operations": [
                {"op": "updateNodeData", "nodeId": "n1", "patch": {"nodeTypeId": "chat_output"}}
            ]
        },
    }
    assert fake.calls == [("remedy", "research", draft("mine"))]


async def test_remedy_without_params_or_code(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor()
    response = await client.post(
        "/workflow/research/remedy", json={"draft": draft("a"), "target": "p-a", "remedy": "remove"}
    )
    assert response.status == 200
    assert (await response.json())["data"]["operations"] == [{"op": "removeNode", "nodeId": "n1"}]


async def test_a_problem_gone_is_a_409_conflict(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor()
    response = await client.post(
        "/api/flowdrop/workflow/research/remedy",
        json={"draft": draft("now"), "code": "X", "target": "p-before", "remedy": "remove"},
    )
    assert response.status == 409
    assert await response.json() == {
        "success": False,
        "error": "p-before is not a problem of this draft",
        "error_code": "CONFLICT",
    }


@pytest.mark.parametrize(
    ("remedy", "params", "code"),
    [("nonsense", None, "REMEDY_UNKNOWN"), ("replace", {}, "REMEDY_PARAM_MISSING")],
)
async def test_a_bad_remedy_is_a_400_with_its_own_code(
    serve_doctor: ServeDoctor, remedy: str, params: dict[str, str] | None, code: str
) -> None:
    client = await serve_doctor()
    response = await client.post(
        "/workflow/research/remedy",
        json={"draft": draft("a"), "target": "p-a", "remedy": remedy, "params": params},
    )
    assert response.status == 400
    body = await response.json()
    assert body["success"] is False and body["error_code"] == code and body["error"]


async def test_any_string_a_draft_carries_comes_back_intact(serve_doctor: ServeDoctor) -> None:
    client = await serve_doctor()
    for name in ("caf\u00e9 \u2192 \U0001f600", "lone \ud800 surrogate", "nul \u0000"):
        data = json.dumps(draft(name)).encode()  # as JSON.stringify writes it: escaped
        response = await client.post(
            "/workflow/w/diagnose", data=data, headers={"Content-Type": "application/json"}
        )
        assert response.status == 200, await response.text()
        (problem,) = json.loads(await response.read())["data"]["problems"]
        assert problem["message"] == f"w/{name}: node n1 names no plugin"


async def test_an_analysis_that_breaks_is_a_422_logged_never_a_5xx(
    serve_doctor: ServeDoctor, caplog: pytest.LogCaptureFixture
) -> None:
    client = await serve_doctor()
    with caplog.at_level(logging.ERROR, logger="flowdrop_lsp.doctor"):
        response = await client.post("/workflow/research/diagnose", json=draft("explode"))
    assert response.status == 422
    body = await response.json()
    assert body["success"] is False and body["error_code"] == "ANALYSIS_FAILED"
    assert "the analysis broke" in caplog.text  # the traceback is logged, not sent
    assert "the analysis broke" not in body["error"]
    # …and the Doctor goes on answering.
    assert (await client.post("/workflow/research/diagnose", json=draft())).status == 200


async def test_an_answer_that_is_not_json_is_a_422(serve_doctor: ServeDoctor) -> None:
    class Unencodable(FakeDoctor):
        def diagnose(self, workflow_id: str, draft: dict) -> list:
            return [{"id": "p", "message": object()}]

    client = await serve_doctor(Unencodable())
    response = await client.post("/workflow/research/diagnose", json=draft())
    assert response.status == 422
    assert (await response.json())["error_code"] == "ANALYSIS_FAILED"


@pytest.mark.parametrize(
    "path",
    [
        "/workflow/research/validate",
        "/workflows/research/diagnose",
        "/api/workflow/research/diagnose",
        "/workflow/research/diagnose/",
        "/",
    ],
)
async def test_an_unknown_route_is_a_json_404(serve_doctor: ServeDoctor, path: str) -> None:
    client = await serve_doctor()
    response = await client.post(path, json=draft())
    assert response.status == 404
    body = await response.json()
    assert body["success"] is False and body["error_code"] == "NOT_FOUND"


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH"])
async def test_a_wrong_method_is_a_json_405(serve_doctor: ServeDoctor, method: str) -> None:
    client = await serve_doctor()
    response = await client.request(method, "/api/flowdrop/workflow/research/remedy")
    assert response.status == 405
    assert response.headers["Allow"] == "POST"
    body = await response.json()
    assert body["success"] is False and body["error_code"] == "METHOD_NOT_ALLOWED"
