"""The body gate every route passes (the spec's API-1 with STORE-1's bounds): a JSON media
type, at most 8 MiB (refused from its Content-Length before a byte is read, and counted while
reading a body sent without one), read within a time limit, UTF-8, nested at most 64 deep
(measured on the bytes, before any parse), and JSON.

Reading is the event loop's (a stalled client waits alone); measuring and parsing are
`parse_json`'s, which the front runs off the loop."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from aiohttp import web

from flowdrop_lsp.doctor.refusals import (
    BODY_TIMEOUT,
    BODY_TOO_DEEP,
    BODY_TOO_LARGE,
    INVALID_ENCODING,
    INVALID_JSON,
    UNSUPPORTED_MEDIA_TYPE,
    Refusal,
)

MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """STORE-1's bounds, and how long a client may take to send its body."""

    max_body: int = 8 * MiB
    max_depth: int = 64
    body_timeout: float = 30.0
    # Analyses waiting for the worker beyond the one it runs (429 past that).
    max_queued: int = 16


def too_large(limit: int) -> Refusal:
    size = f"{limit // MiB} MiB" if limit % MiB == 0 else f"{limit} bytes"
    return Refusal(413, BODY_TOO_LARGE, f"The request body is over {size}")


def check_media_type(request: web.Request) -> None:
    """JSON only: FlowDrop's editor sends `application/json`, and a browser sends a JSON type
    across origins only after a CORS preflight, which foreign origins fail."""
    kind = request.content_type
    if kind != "application/json" and not (
        kind.startswith("application/") and kind.endswith("+json")
    ):
        raise Refusal(
            415,
            UNSUPPORTED_MEDIA_TYPE,
            f"The body must be JSON (Content-Type: application/json), not {kind}",
        )


def refuse_declared_size(request: web.Request, limits: Limits) -> None:
    length = request.content_length
    if length is not None and length > limits.max_body:
        raise too_large(limits.max_body)


async def read_body(request: web.Request, limits: Limits) -> bytes:
    """The whole body, or a refusal as soon as it is known to be too large (its declared length,
    or the bytes counted so far) or too slow."""
    refuse_declared_size(request, limits)
    chunks: list[bytes] = []
    size = 0

    async def read() -> None:
        nonlocal size
        while chunk := await request.content.readany():
            size += len(chunk)
            if size > limits.max_body:
                raise too_large(limits.max_body)
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), limits.body_timeout)
    except asyncio.TimeoutError:
        raise Refusal(
            408,
            BODY_TIMEOUT,
            f"The request body did not arrive within {limits.body_timeout:g} seconds",
        ) from None
    return b"".join(chunks)


_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


def nesting_depth(data: bytes) -> int:
    r"""How deep the arrays and objects of a JSON text nest (`{}` is 1, `{"a": []}` 2), read
    from the bytes without parsing or recursing, at C speed: the escapes that matter dropped
    (`\\` pairs first, so the quote of `\\"` still ends its string, then `\"`), then what
    lies between quotes, then everything but brackets. Exact for valid JSON; for other text, a
    number the parser's refusal makes moot."""
    unescaped = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    outside_strings = b"".join(unescaped.split(b'"')[::2])
    brackets = outside_strings.translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(data: bytes, limits: Limits) -> Any:
    """The body as JSON, once it is known to be UTF-8 and nested no deeper than the limit."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Refusal(
            400, INVALID_ENCODING, f"The body is not UTF-8 (byte {error.start})"
        ) from None
    depth = nesting_depth(data)
    if depth > limits.max_depth:
        raise Refusal(
            400,
            BODY_TOO_DEEP,
            f"The body nests {depth} arrays and objects deep; at most {limits.max_depth}",
        )
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise Refusal(400, INVALID_JSON, f"The body is not JSON: {error}") from None
