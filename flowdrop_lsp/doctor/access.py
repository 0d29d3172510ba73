"""Who is answered. With `--token-file`, every request (but a CORS preflight, answered before
this) carries `Authorization: Bearer <token>`, compared in constant time, or gets a 401.

Without a token the Doctor listens on a loopback address only (options.py), and answers only
requests whose `Host` names a loopback address or `localhost`: a web page cannot reach it by
re-pointing its own host name at 127.0.0.1 (DNS rebinding), which would make its requests
same-origin and CORS moot."""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from aiohttp import hdrs, web

from flowdrop_lsp.doctor.options import is_loopback
from flowdrop_lsp.doctor.refusals import HOST_NOT_ALLOWED, UNAUTHORIZED, Refusal

if TYPE_CHECKING:
    from aiohttp.typedefs import Handler, Middleware


def host_name(host_header: str) -> str:
    """The name of `Host: name[:port]` (an IPv6 literal keeps its brackets off)."""
    if host_header.startswith("["):
        return host_header[1:].partition("]")[0]
    return host_header.rpartition(":")[0] if ":" in host_header else host_header


def is_local_host(host_header: str) -> bool:
    name = host_name(host_header).lower().rstrip(".")
    return name == "localhost" or is_loopback(name)


def bearer_token(request: web.Request) -> bytes | None:
    scheme, _, token = request.headers.get(hdrs.AUTHORIZATION, "").strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip().encode("utf-8", "surrogateescape")


def access_middleware(token: str | None) -> Middleware:
    expected = token.encode("utf-8") if token is not None else None

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        if expected is None:
            host = request.headers.get(hdrs.HOST)
            if host is not None and not is_local_host(host):
                raise Refusal(
                    403,
                    HOST_NOT_ALLOWED,
                    f"Host {host} is not this machine: without --token-file the Doctor answers "
                    "requests to 127.0.0.1, [::1] or localhost only",
                )
        else:
            given = bearer_token(request)
            if given is None or not hmac.compare_digest(given, expected):
                raise Refusal(
                    401,
                    UNAUTHORIZED,
                    "Missing or wrong bearer token: send Authorization: Bearer <the token of "
                    "--token-file>",
                    headers={hdrs.WWW_AUTHENTICATE: 'Bearer realm="flowdrop-lsp doctor"'},
                )
        return await handler(request)

    return guard
