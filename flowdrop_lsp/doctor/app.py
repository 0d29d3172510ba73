"""The Doctor's aiohttp application: the two routes FlowDrop's editor asks, at the root and
under its default base `/api/flowdrop`, behind the CORS, refusal and access middlewares.

A request is read and gated on the event loop (body.py, parsed off it), checked for shape
(shapes.py), then asked of the service on its one worker thread (worker.py); the service's
answer is encoded to JSON there too. Its two refusals become the contract's: `ProblemGone`
a 409 `CONFLICT`, `BadRemedy` a 400 with its own code."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from aiohttp import web

from flowdrop_lsp.core.doctor import BadRemedy, ProblemGone
from flowdrop_lsp.doctor.access import access_middleware
from flowdrop_lsp.doctor.body import Limits, check_media_type, parse_json, read_body
from flowdrop_lsp.doctor.cors import cors_middleware
from flowdrop_lsp.doctor.refusals import (
    ANALYSIS_FAILED,
    BUSY,
    CONFLICT,
    LOG,
    Refusal,
    answer_refusals,
)
from flowdrop_lsp.doctor.shapes import draft_of, remedy_request_of
from flowdrop_lsp.doctor.worker import Busy, Doctor, DoctorWorker

# The editor's default base URL, and the root (its routes pointed at the Doctor as absolute
# URLs, `http://127.0.0.1:8490/workflow/{id}/diagnose`).
PREFIXES = ("", "/api/flowdrop")
DIAGNOSE = "/workflow/{id}/diagnose"
REMEDY = "/workflow/{id}/remedy"
ROUTES = (DIAGNOSE, REMEDY)


def _encoded(data: dict[str, Any]) -> str:
    # ASCII: a lone surrogate a draft carried (`"\ud800"`) and a message repeats stays writable.
    return json.dumps({"success": True, "data": data})


class DoctorRoutes:
    def __init__(self, worker: DoctorWorker, limits: Limits) -> None:
        self._worker = worker
        self._limits = limits

    async def _json(self, request: web.Request) -> Any:
        check_media_type(request)
        data = await read_body(request, self._limits)
        # Off the loop (a thread of the default pool, not the service's): 8 MiB takes a while.
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, parse_json, data, self._limits)

    async def _ask(self, job: Callable[[Doctor], str]) -> web.Response:
        try:
            text = await self._worker.call(job)
        except ProblemGone as gone:
            raise Refusal(
                409, CONFLICT, str(gone) or "The problem is no longer in this draft"
            ) from None
        except BadRemedy as bad:
            raise Refusal(400, bad.error_code, bad.message) from None
        except Busy as busy:
            raise Refusal(429, BUSY, str(busy), headers={"Retry-After": "1"}) from None
        except Exception:  # noqa: BLE001 - any failure of the analysis is a 422, logged
            LOG.exception("the Doctor's analysis failed")
            raise Refusal(
                422,
                ANALYSIS_FAILED,
                "The Doctor could not analyse this draft (flowdrop-lsp doctor logged why)",
            ) from None
        return web.Response(text=text, content_type="application/json")

    async def diagnose(self, request: web.Request) -> web.Response:
        workflow_id = request.match_info["id"]
        draft = draft_of(await self._json(request))
        return await self._ask(
            lambda service: _encoded({"problems": service.diagnose(workflow_id, draft)})
        )

    async def remedy(self, request: web.Request) -> web.Response:
        workflow_id = request.match_info["id"]
        asked = remedy_request_of(await self._json(request))
        return await self._ask(
            lambda service: _encoded(
                {
                    "operations": service.remedy(
                        workflow_id, asked.draft, asked.target, asked.remedy, asked.params
                    )
                }
            )
        )


def make_app(
    worker: DoctorWorker,
    *,
    token: str | None = None,
    allowed_origins: frozenset[str] = frozenset(),
    limits: Limits | None = None,
) -> web.Application:
    """The application over a started worker. Middlewares, outermost first: CORS (so refusals
    carry it too), refusals as JSON, then who may ask."""
    limits = limits or Limits()
    app = web.Application(
        middlewares=[cors_middleware(allowed_origins), answer_refusals, access_middleware(token)],
        # aiohttp's own cap, for any read that is not body.py's.
        client_max_size=limits.max_body,
    )
    routes = DoctorRoutes(worker, limits)
    for prefix in PREFIXES:
        app.router.add_post(prefix + DIAGNOSE, routes.diagnose)
        app.router.add_post(prefix + REMEDY, routes.remedy)
    return app
