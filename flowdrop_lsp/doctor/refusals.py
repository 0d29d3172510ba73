"""Every answer the front gives that is not a success: JSON `{"success": false, "error",
"error_code"}` with a stable code (the spec's API-8), never an HTML page and never a 5xx.

FlowDrop's editor shows `error`; a 404 switches its Doctor off quietly, any other non-2xx shows
as an error. So an unexpected failure is a 422 (`ANALYSIS_FAILED` in the analysis,
`REQUEST_FAILED` anywhere else), logged here with its traceback: the editor shows it as it would
a 500, and a 5xx stays what a proxy or the browser says when the Doctor is down or unreachable.
docs/doctor.md lists every code."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from aiohttp import hdrs, web

if TYPE_CHECKING:
    from aiohttp.typedefs import Handler

LOG = logging.getLogger("flowdrop_lsp.doctor")

# The stable codes, as docs/doctor.md lists them.
BODY_TOO_LARGE = "BODY_TOO_LARGE"  # 413
BODY_TOO_DEEP = "BODY_TOO_DEEP"  # 400
BODY_TIMEOUT = "BODY_TIMEOUT"  # 408
INVALID_ENCODING = "INVALID_ENCODING"  # 400
INVALID_JSON = "INVALID_JSON"  # 400
INVALID_BODY = "INVALID_BODY"  # 400
UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"  # 415
UNAUTHORIZED = "UNAUTHORIZED"  # 401
HOST_NOT_ALLOWED = "HOST_NOT_ALLOWED"  # 403
ORIGIN_NOT_ALLOWED = "ORIGIN_NOT_ALLOWED"  # 403
NOT_FOUND = "NOT_FOUND"  # 404
METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"  # 405
CONFLICT = "CONFLICT"  # 409
ANALYSIS_FAILED = "ANALYSIS_FAILED"  # 422
REQUEST_FAILED = "REQUEST_FAILED"  # 422
BUSY = "BUSY"  # 429

# What aiohttp itself raises (routing, its own body limit), said in our words.
_AIOHTTP_CODES = {
    404: (
        NOT_FOUND,
        "No such route: the Doctor answers POST /workflow/{id}/diagnose and "
        "/workflow/{id}/remedy, also under /api/flowdrop",
    ),
    405: (METHOD_NOT_ALLOWED, "Method not allowed: the Doctor's routes take POST"),
    413: (BODY_TOO_LARGE, "The request body is over the size limit"),
}
UNEXPECTED_STATUS = 422


class Refusal(Exception):
    """A request the front will not answer with a success: its status, code and message."""

    def __init__(
        self, status: int, error_code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.error_code = error_code
        self.message = message
        self.headers = headers or {}


def refusal_response(refusal: Refusal) -> web.Response:
    response = web.json_response(
        {"success": False, "error": refusal.message, "error_code": refusal.error_code},
        status=refusal.status,
        headers=refusal.headers,
    )
    if refusal.status in (408, 413):
        response.force_close()  # the rest of the body is not wanted on this connection
    return response


def refusal_for_http_error(error: web.HTTPException) -> Refusal:
    """aiohttp's own refusal (no such route, wrong method…) in the contract's words."""
    headers = {str(name): error.headers[name] for name in (hdrs.ALLOW,) if name in error.headers}
    if error.status in _AIOHTTP_CODES:
        code, message = _AIOHTTP_CODES[error.status]
        return Refusal(error.status, code, message, headers)
    status = error.status if 400 <= error.status < 500 else UNEXPECTED_STATUS
    code = error.reason.upper().replace(" ", "_").replace("-", "_") or REQUEST_FAILED
    return Refusal(status, code, error.text or error.reason, headers)


@web.middleware
async def answer_refusals(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every way a request can fail, as JSON: our refusals, aiohttp's own HTTP errors (no
    route, wrong method), and anything unexpected (logged, 422)."""
    try:
        return await handler(request)
    except Refusal as refusal:
        return refusal_response(refusal)
    except web.HTTPException as error:
        if error.status < 400:
            raise  # a redirect or a success raised: not a refusal
        return refusal_response(refusal_for_http_error(error))
    except ConnectionError:
        raise  # the client is gone: no one to answer
    except Exception:
        LOG.exception("%s %s failed", request.method, request.path)
        return refusal_response(
            Refusal(
                UNEXPECTED_STATUS,
                REQUEST_FAILED,
                "The Doctor failed on this request (flowdrop-lsp doctor logged why)",
            )
        )
