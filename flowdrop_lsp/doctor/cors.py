"""CORS for the origins `--allow-origin` names, and for no other: FlowDrop's editor runs in a
page of the Drupal site, so its requests to the Doctor cross origins and a browser lets the page
read an answer only when it carries `Access-Control-Allow-Origin` with the page's exact origin.

The editor sends `Content-Type: application/json` (and `Authorization` with a token), so the
browser asks first (a preflight `OPTIONS`): answered here, before the token is checked (a
browser never sends credentials on a preflight), 204 for an allowed origin, 403 otherwise."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import hdrs, web

from flowdrop_lsp.doctor.refusals import (
    ORIGIN_NOT_ALLOWED,
    Refusal,
    refusal_for_http_error,
    refusal_response,
)

if TYPE_CHECKING:
    from aiohttp.typedefs import Handler, Middleware

ALLOW_METHODS = "POST, OPTIONS"
ALLOW_HEADERS = "Content-Type, Authorization"
MAX_AGE = "600"  # seconds a browser may keep a preflight's answer (Chromium keeps at most 7200)


def _is_preflight(request: web.Request) -> bool:
    return (
        request.method == hdrs.METH_OPTIONS
        and hdrs.ORIGIN in request.headers
        and hdrs.ACCESS_CONTROL_REQUEST_METHOD in request.headers
    )


def _preflight(request: web.Request, allowed: bool) -> web.StreamResponse:
    missing = request.match_info.http_exception
    if isinstance(missing, web.HTTPNotFound):
        return refusal_response(refusal_for_http_error(missing))  # no such route, as for a POST
    if not allowed:
        return refusal_response(
            Refusal(
                403,
                ORIGIN_NOT_ALLOWED,
                f"Origin {request.headers[hdrs.ORIGIN]} is not allowed: start the Doctor with "
                "--allow-origin for it",
            )
        )
    return web.Response(
        status=204,
        headers={
            hdrs.ACCESS_CONTROL_ALLOW_METHODS: ALLOW_METHODS,
            hdrs.ACCESS_CONTROL_ALLOW_HEADERS: ALLOW_HEADERS,
            hdrs.ACCESS_CONTROL_MAX_AGE: MAX_AGE,
        },
    )


def cors_middleware(origins: frozenset[str]) -> Middleware:
    """The outermost middleware: every answer to an allowed origin carries its CORS header,
    refusals included (so the editor can read why)."""

    @web.middleware
    async def cors(request: web.Request, handler: Handler) -> web.StreamResponse:
        origin = request.headers.get(hdrs.ORIGIN)
        allowed = origin is not None and origin in origins
        if _is_preflight(request):
            response = _preflight(request, allowed)
        else:
            response = await handler(request)
        if origins:
            # The answer differs by Origin: a cache between must not give one origin's to another.
            response.headers.add(hdrs.VARY, hdrs.ORIGIN)
        if allowed and origin is not None:
            response.headers[hdrs.ACCESS_CONTROL_ALLOW_ORIGIN] = origin
        return response

    return cors
