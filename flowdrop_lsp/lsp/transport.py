"""The stdio transport: LSP base-protocol framing and JSON-RPC dispatch no client can knock over.

This replaces pygls's stdio loop (`pygls.io_.run_async`), which dies on a Content-Length too
large for `read()`, matches only the exact header `Content-Length: N\\r\\n`, loses the stream
for good after one body shorter or longer than its header says, and answers nothing when a
body is not JSON or a request's params do not deserialise (see the report in the commit log).

`Framer` is pure (bytes in, frames out), so it is tested and fuzzed without a process. It
resynchronises on the next `Content-Length` header: a valid JSON body can never contain
`content-length: <digits>` followed by a raw line break (raw CR/LF are not allowed in JSON
strings, and the words are not JSON outside them), so finding one inside a body means the body
was cut short and a new message began.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import stat
import sys
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, BinaryIO

import orjson
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
)
from pygls.io_ import StdoutWriter
from pygls.protocol import JsonRPCProtocol

log = logging.getLogger("flowdrop_lsp.transport")

MAX_BODY = 256 * 1024 * 1024  # a larger Content-Length is refused (and its bytes skipped)
MAX_HEADER_BYTES = 64 * 1024  # bytes kept while looking for the end of a header block
READ_CHUNK = 1024 * 1024  # at most what one read takes (a pipe holds what `_widen_pipe` got)
PIPE_SIZE = 1024 * 1024  # what stdin's pipe is asked to hold (Linux's default limit for a user)
F_SETPIPE_SZ = 1031  # Linux's fcntl command (fcntl.F_SETPIPE_SZ from Python 3.10, not on macOS)

HEADERS_END = b"\r\n\r\n"
# The last complete Content-Length header of a block wins: junk before it is skipped.
CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*([0-9]+)[ \t]*(?=\r\n|\Z)", re.I)
# The start of the next message, met where a body was expected.
NEXT_HEADER = re.compile(rb"content-length[ \t]*:[ \t]*[0-9]+[ \t]*\r\n", re.I)
HEADER_LINES = re.compile(rb"(?:[!-9;-~]+[ \t]*:[^\r\n]*\r\n)*")


@dataclass(frozen=True)
class Body:
    """A complete message body, as many bytes as its Content-Length said."""

    data: bytes


@dataclass(frozen=True)
class Broken:
    """A body cut short by the start of the next message."""

    data: bytes


@dataclass(frozen=True)
class Skipped:
    """Bytes that belong to no message (junk, or a refused header), and why."""

    size: int
    reason: str


Frame = Body | Broken | Skipped


class Framer:
    """Splits a byte stream into LSP message bodies (headers are case-insensitive)."""

    def __init__(self, max_body: int = MAX_BODY) -> None:
        self.max_body = max_body
        self.buffer = bytearray()
        self.length: int | None = None  # of the body being read, or None between messages
        self.scanned = 0  # how far the body being read was searched for a next header

    def feed(self, data: bytes) -> list[Frame]:
        self.buffer += data
        frames: list[Frame] = []
        while self._step(frames):
            pass
        return frames

    def _step(self, frames: list[Frame]) -> bool:
        """Take one frame off the buffer; False when more bytes are needed."""
        buffer = self.buffer
        if self.length is None:
            end = buffer.find(HEADERS_END)
            if end < 0:
                if len(buffer) > MAX_HEADER_BYTES:  # keep a tail: a header may straddle it
                    drop = len(buffer) - 256
                    del buffer[:drop]
                    frames.append(Skipped(drop, "no header block end in sight"))
                return False
            block = bytes(buffer[:end])
            del buffer[: end + len(HEADERS_END)]
            matches = list(CONTENT_LENGTH.finditer(block))
            if not matches:
                frames.append(Skipped(len(block) + 4, "a header block without Content-Length"))
                return True
            found = matches[-1]
            prefix = block[: found.start()]
            if HEADER_LINES.fullmatch(prefix) is None:
                frames.append(Skipped(len(prefix), "bytes before a Content-Length header"))
            digits = found.group(1)
            length = int(digits) if len(digits) <= 12 else self.max_body + 1
            if length > self.max_body:
                frames.append(Skipped(len(block) + 4, f"Content-Length {digits[:30]!r} refused"))
                return True
            self.length, self.scanned = length, 0
            return True
        length = self.length
        # Search only what is new (with an overlap for a header split between reads).
        start = max(0, self.scanned - 64)
        stop = min(len(buffer), length + 64)
        nxt = _next_header(buffer, start, stop)
        if nxt is not None and nxt < length:
            frames.append(Broken(_taken(buffer, nxt)))
            self.length = None
            return True
        if len(buffer) >= length:
            frames.append(Body(_taken(buffer, length)))
            self.length = None
            return True
        self.scanned = len(buffer)
        return False


def _next_header(buffer: bytearray, start: int, stop: int) -> int | None:
    """Where `NEXT_HEADER.search(buffer, start, stop)` matches, or None, found as fast as
    `bytearray.find`: a header ends with a raw CRLF, which a compact JSON body never holds, so
    only the stretch before each CRLF (a header holds none) is searched. (The case-insensitive
    search over a body of megabytes cost as much as decoding it.)"""
    line_start = start
    while (crlf := buffer.find(b"\r\n", line_start, stop)) >= 0:
        found = NEXT_HEADER.search(buffer, line_start, crlf + 2)
        if found is not None:
            return found.start()
        line_start = crlf + 2
    return None


def _taken(buffer: bytearray, length: int) -> bytes:
    """The first `length` bytes of `buffer`, removed from it (copied once, not twice)."""
    with memoryview(buffer) as view:
        taken = view[:length].tobytes()
    del buffer[:length]
    return taken


def _valid_id(value: Any) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _answer_error(protocol: JsonRPCProtocol, msg_id: Any, error: JsonRpcException) -> None:
    # Written by hand: pygls's converter drops `"id": null`, which JSON-RPC requires here.
    body = {"jsonrpc": "2.0", "id": msg_id, "error": {"code": error.code, "message": error.message}}
    protocol._send_data(body)  # noqa: SLF001 - pygls sends a raw body no other way


def _decode(body: bytes) -> Any:
    """A message body's JSON: by orjson (a large didOpen or full-text didChange decodes several
    times faster), else by the standard library, which also reads what orjson refuses and a
    JSON-RPC peer may still send (a lone surrogate escape, an integer past 64 bits)."""
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return json.loads(body)


def dispatch(protocol: JsonRPCProtocol, frame: Frame) -> None:
    """Hand one frame to pygls's protocol, answering what pygls would leave unanswered."""
    if isinstance(frame, Skipped):
        log.warning("skipped %d bytes of input: %s", frame.size, frame.reason)
        return
    if isinstance(frame, Broken):
        log.warning("a message body was cut short by the next message (%d bytes)", len(frame.data))
        _answer_error(protocol, None, JsonRpcParseError("message body cut short"))
        return
    try:
        data = _decode(frame.data)
    except (ValueError, RecursionError) as error:
        log.warning("a message body is not JSON: %s", error)
        _answer_error(protocol, None, JsonRpcParseError(f"body is not JSON: {error}"))
        return
    dispatch_message(protocol, data)


def dispatch_message(protocol: JsonRPCProtocol, data: Any) -> None:
    if not isinstance(data, dict) or data.get("jsonrpc") != JsonRPCProtocol.VERSION:
        msg_id = data.get("id") if isinstance(data, dict) else None
        log.warning("not a JSON-RPC 2.0 message")
        _answer_error(
            protocol,
            msg_id if _valid_id(msg_id) else None,
            JsonRpcInvalidRequest("not a JSON-RPC 2.0 message"),
        )
        return
    method, msg_id = data.get("method"), data.get("id")
    if ("method" in data and not isinstance(method, str)) or (
        "id" in data and not _valid_id(msg_id)
    ):
        if "method" in data or "id" in data:  # a request or a response, not a notification
            _answer_error(
                protocol,
                msg_id if _valid_id(msg_id) else None,
                JsonRpcInvalidRequest("invalid method or id"),
            )
        return
    is_request = "method" in data and "id" in data
    # The one shutdown refusal: every message passes here, before its params are read. pygls
    # would drop a request after `shutdown` unanswered; LSP wants InvalidRequest (whatever the
    # params). Notifications other than `exit` are dropped by pygls, as LSP says.
    if is_request and getattr(protocol, "_shutdown", False):
        log.warning("request %r after shutdown refused", method)
        _answer_error(protocol, msg_id, JsonRpcInvalidRequest(f"{method}: the server is shut down"))
        return
    try:
        message = protocol.structure_message(data)
    except Exception as error:  # noqa: BLE001 - pygls raises InvalidParams or InternalError
        cause = error.__cause__ or error
        log.warning(
            "%s %r: invalid params: %s", "request" if is_request else "message", method, cause
        )
        if is_request:
            _answer_error(protocol, msg_id, JsonRpcInvalidParams(f"invalid params for {method}"))
        return
    try:
        protocol.handle_message(message)
    except Exception:  # one bad message never stops the server (logged: not a blind except)
        log.exception("handling %r failed", method)


async def serve(protocol: JsonRPCProtocol, read: Callable[[], Awaitable[bytes]]) -> None:
    """Read, frame and dispatch until the input ends (`exit` raises SystemExit)."""
    framer = Framer()
    while True:
        data = await read()
        if not data:
            return
        for frame in framer.feed(data):
            dispatch(protocol, frame)


def _widen_pipe(stream: BinaryIO) -> None:
    """Ask for a larger pipe when stdin is one (Linux's default holds 64 KiB): a large didOpen
    (8 MB for 10,000 nodes) then arrives in a few reads instead of a hundred, each of which
    woke the event loop, and the client's writes wait less. Anywhere else (another system, a
    file, a user over the kernel's limit) stdin is left as it is."""
    try:
        import fcntl  # not on Windows

        descriptor = stream.fileno()
        if stat.S_ISFIFO(os.fstat(descriptor).st_mode):
            fcntl.fcntl(descriptor, F_SETPIPE_SZ, PIPE_SIZE)
    except (ImportError, OSError, ValueError, AttributeError):
        pass  # io.UnsupportedOperation (no descriptor) is an OSError and a ValueError


def _read_some(stream: BinaryIO) -> bytes:
    read1 = getattr(stream, "read1", None)
    return read1(READ_CHUNK) if read1 is not None else stream.read(READ_CHUNK)


class ClientOutput(StdoutWriter):
    """stdout as pygls writes to it, silent once closed: `exit` closes it, then asyncio.run
    cancels the background tasks (a site read, a progress report) and what they still send on
    their way out is dropped, not written to a closed file (pygls would report that failure by
    sending a message, which failed in turn: tests/lsp/test_transport.py)."""

    def __init__(self, stdout: BinaryIO) -> None:
        super().__init__(stdout)
        self.closed = False

    def close(self) -> None:
        self.closed = True
        super().close()

    def write(self, data: bytes) -> None:
        if not self.closed:
            super().write(data)


def serve_stdio(server: Any, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Serve `server` over stdio; the exit code LSP asks for (0 after shutdown, else 1)."""
    stream = stdin or sys.stdin.buffer
    _widen_pipe(stream)
    server._stop_event = threading.Event()  # noqa: SLF001 - pygls's serve loop's, replaced here
    server.protocol.set_writer(ClientOutput(stdout or sys.stdout.buffer))
    reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="flowdrop-stdin")

    async def read() -> bytes:
        return await asyncio.get_running_loop().run_in_executor(reader, _read_some, stream)

    code = 0
    try:
        asyncio.run(serve(server.protocol, read))
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BrokenPipeError:
        log.error("the connection to the client is lost")
        code = 1
    except KeyboardInterrupt:
        code = 1
    finally:
        server.shutdown()
        reader.shutdown(wait=False)
    return code


def serve_tcp(server: Any, host: str, port: int) -> int:
    """Serve one client at a time over TCP (for debugging), with the same framing as stdio."""

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        server.protocol.set_writer(writer)
        await serve(server.protocol, lambda: reader.read(READ_CHUNK))
        server.shutdown()

    async def listen() -> None:
        listening = await asyncio.start_server(connection, host, port)
        server._server = listening  # noqa: SLF001 - pygls's shutdown closes it
        async with listening:
            await listening.serve_forever()

    server._stop_event = threading.Event()  # noqa: SLF001 - pygls's serve loop's, replaced here
    try:
        asyncio.run(listen())
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 1
    except (asyncio.CancelledError, KeyboardInterrupt):
        pass
    return 0
