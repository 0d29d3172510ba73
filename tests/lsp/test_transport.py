"""The framer alone (no process): resynchronisation, limits, and a bounded fuzz of the whole
reader against the real server; the output after `exit`, and a failing one."""

from __future__ import annotations

import fcntl
import io
import json
import logging
import os
import random
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from flowdrop_lsp.lsp.app import create_server
from flowdrop_lsp.lsp.transport import (
    PIPE_SIZE,
    Body,
    Broken,
    ClientOutput,
    Framer,
    Skipped,
    _widen_pipe,
)
from tests.support.raw_lsp import SEEDS, RawServer, frame, request

PING = {"jsonrpc": "2.0", "id": 1, "method": "shutdown"}
F_GETPIPE_SZ = 1032  # Linux's fcntl command


def bodies(frames: list) -> list[bytes]:
    return [f.data for f in frames if isinstance(f, Body)]


def test_frames_split_at_every_byte_still_come_out_whole() -> None:
    stream = frame(PING) * 3
    framer = Framer()
    out: list = []
    for i in range(len(stream)):
        out.extend(framer.feed(stream[i : i + 1]))
    assert bodies(out) == [json.dumps(PING).encode()] * 3
    assert len(out) == 3


def test_other_headers_and_any_case_are_accepted() -> None:
    body = b"{}"
    data = b"Content-Type: x\r\nCONTENT-LENGTH :  2 \r\n\r\n" + body
    assert Framer().feed(data) == [Body(body)]


def test_absurd_and_over_limit_lengths_are_skipped_then_the_next_message_is_read() -> None:
    framer = Framer(max_body=1000)
    out = framer.feed(b"Content-Length: 99999999999999999999\r\n\r\n{}" + frame(PING))
    out += framer.feed(b"Content-Length: 1001\r\n\r\n" + frame(PING))
    assert bodies(out) == [json.dumps(PING).encode()] * 2
    assert sum(isinstance(f, Skipped) for f in out) >= 2


def test_a_short_body_is_broken_as_soon_as_the_next_header_arrives() -> None:
    framer = Framer()
    assert framer.feed(b"Content-Length: 100\r\n\r\n{}") == []
    out = framer.feed(frame(PING))
    assert out == [Broken(b"{}"), Body(json.dumps(PING).encode())]


def test_junk_between_messages_is_skipped() -> None:
    out = Framer().feed(b"garbage}" + frame(PING) + b"\r\n\r\n" + frame(PING))
    assert bodies(out) == [json.dumps(PING).encode()] * 2


def test_endless_junk_keeps_memory_bounded() -> None:
    framer = Framer()
    for _ in range(100):
        framer.feed(b"x" * 10_000)
    assert len(framer.buffer) < 70_000


def mutate(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        what = rng.randrange(7)
        at = rng.randrange(len(out) + 1)
        if what == 0 and out:  # flip a byte
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif what == 1:  # delete a run
            del out[at : at + rng.randint(1, 8)]
        elif what == 2:  # insert random bytes
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif what == 3:  # another length
            out = bytearray(
                out.replace(b"Content-Length: ", b"Content-Length: %d" % rng.randint(0, 10**6), 1)
            )
        elif what == 4:  # header case and spacing
            out = bytearray(
                out.replace(
                    b"Content-Length: ", rng.choice([b"content-length:", b"CONTENT-LENGTH :  "]), 1
                )
            )
        elif what == 5:  # cut the end
            del out[at:]
        else:  # an absurd length
            out = bytearray(out.replace(b"Content-Length: ", b"Content-Length: 9" * 3, 1))
    return bytes(out)


@pytest.mark.parametrize("seed", [20261130, 7])
def test_fuzzed_framing_never_stops_the_server(seed: int) -> None:
    rng = random.Random(seed)
    server = RawServer()
    try:
        server.initialize()
        for case in range(200):
            junk = b"".join(mutate(rng, rng.choice(SEEDS)) for _ in range(rng.randint(1, 3)))
            server.send(junk)
            msg_id = 10_000 + case
            server.send(request(msg_id, "workspace/executeCommand", {"command": "flowdrop.stats"}))
            answer = server.response(msg_id, timeout=10)
            assert "result" in answer, (case, junk, answer)
        assert server.process.poll() is None
    finally:
        code = server.close()
    assert code == 0


def test_bodies_orjson_refuses_are_read_by_the_standard_library() -> None:
    # A lone surrogate escape and an integer past 64 bits are JSON the standard library reads;
    # the fast decoder refuses them and the transport falls back.
    from flowdrop_lsp.lsp.transport import _decode

    assert _decode(b'{"a": "\\ud800", "n": 123456789012345678901234567890}') == {
        "a": "\ud800",
        "n": 123456789012345678901234567890,
    }
    assert _decode('{"t": "数据 🚀"}'.encode()) == {"t": "数据 🚀"}


def test_what_is_sent_after_exit_closed_the_output_is_dropped() -> None:
    output = io.BytesIO()
    writer = ClientOutput(output)
    writer.write(b"before")
    assert output.getvalue() == b"before"
    writer.close()  # what pygls's `exit` does before sys.exit
    writer.write(b"a cancelled task's last progress report")  # no "I/O operation on closed file"
    assert writer.closed and output.closed


class FailingOutput:
    """An output every write to which fails, as a closed or broken one does."""

    def __init__(self) -> None:
        self.writes = 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        raise ValueError("I/O operation on closed file")

    def close(self) -> None:
        pass


def test_a_failing_output_is_reported_once_not_recursively(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """pygls reports a failed send by sending window/showMessage; when that send fails too, the
    report is only logged (it recursed a thousand levels deep, each logging its traceback)."""
    server = create_server()
    output = FailingOutput()
    server.protocol.set_writer(output)
    with caplog.at_level(logging.ERROR):
        server.window_log_message(types.LogMessageParams(type=types.MessageType.Info, message="x"))
    assert output.writes == 2  # the message, then its error report; nothing more
    assert sum("Error sending data" in r.getMessage() for r in caplog.records) == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="F_SETPIPE_SZ is Linux's")
def test_stdin_as_a_pipe_is_widened_and_anything_else_left_alone(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    try:
        with os.fdopen(read_end, "rb", closefd=False) as stream:
            _widen_pipe(stream)
        assert fcntl.fcntl(read_end, F_GETPIPE_SZ) >= PIPE_SIZE
    finally:
        os.close(read_end)
        os.close(write_end)
    with (tmp_path / "file").open("wb+") as regular:
        _widen_pipe(regular)  # a file: nothing to widen, nothing raised
    _widen_pipe(io.BytesIO(b""))  # no descriptor at all
