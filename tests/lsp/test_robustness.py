"""No client can knock the server over: mis-framed input, bad params, and the shutdown/exit
protocol, written to `flowdrop-lsp serve` as raw bytes."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.raw_lsp import RawServer, frame, notification, request

URI = "file:///workspace/a.flowdrop.json"


@pytest.fixture
def server() -> Iterator[RawServer]:
    raw = RawServer()
    raw.initialize()
    yield raw
    raw.close()


def still_serving(server: RawServer) -> None:
    server.send(request(424242, "shutdown"))
    assert server.response(424242) == {"jsonrpc": "2.0", "id": 424242, "result": None}


# ----- 1. framing -------------------------------------------------------------------------------
def test_an_absurd_content_length_is_refused_and_the_server_resynchronises(
    server: RawServer,
) -> None:
    server.send(b"Content-Length: 99999999999999999999\r\n\r\n{}")
    server.send(b"Content-Length: 300000000\r\n\r\n{}")  # over the 256 MiB limit
    still_serving(server)
    assert server.process.poll() is None
    deadline = time.monotonic() + 5  # stderr is read by a thread: give it a moment
    while server.stderr.count(b"refused") < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.stderr.count(b"refused") == 2


def test_a_body_shorter_than_its_content_length_is_a_parse_error(server: RawServer) -> None:
    server.send(b'Content-Length: 500\r\n\r\n{"jsonrpc": "2.0"}')
    still_serving(server)
    [error] = server.errors_with_null_id()
    assert error["error"]["code"] == -32700


def test_a_body_longer_than_its_content_length_is_a_parse_error(server: RawServer) -> None:
    server.send(b'Content-Length: 10\r\n\r\n{"jsonrpc": "2.0", "id": 5, "method": "shutdown"}')
    still_serving(server)
    [error] = server.errors_with_null_id()
    assert error["error"]["code"] == -32700
    assert all(m.get("id") != 5 for m in server.seen)


def test_headers_are_case_insensitive(server: RawServer) -> None:
    server.send(request(1, "textDocument/codeAction", None).replace(b"Content-Length", b"x"))
    body = b'{"jsonrpc": "2.0", "id": 7, "method": "shutdown"}'
    server.send(b"content-length:%d\r\ncontent-type: application/json\r\n\r\n" % len(body) + body)
    assert server.response(7) == {"jsonrpc": "2.0", "id": 7, "result": None}


@pytest.mark.parametrize("body", [b"not json", b"{", b"", b"\xff\xfe"])
def test_a_body_that_is_not_json_gets_a_parse_error_with_a_null_id(
    server: RawServer, body: bytes
) -> None:
    server.send(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    still_serving(server)
    [error] = server.errors_with_null_id()
    assert error == {"jsonrpc": "2.0", "id": None, "error": error["error"]}
    assert error["error"]["code"] == -32700


@pytest.mark.parametrize(
    "message",
    [[1, 2], "text", 3, {"id": 8, "method": "shutdown"}, {"jsonrpc": "2.0", "id": 8, "method": 1}],
)
def test_what_is_not_a_json_rpc_request_gets_invalid_request(
    server: RawServer, message: Any
) -> None:
    server.send(frame(message))
    still_serving(server)
    errors = [m for m in server.seen if "error" in m]
    assert [e["error"]["code"] for e in errors] == [-32600]


# ----- 2. params that do not deserialise --------------------------------------------------------
GOOD_RANGE = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}
CONTEXT: dict[str, list[Any]] = {"diagnostics": []}


@pytest.mark.parametrize(
    "params",
    [
        {"textDocument": {"uri": URI}, "range": "abc", "context": CONTEXT},
        {
            "textDocument": {"uri": URI},
            "range": {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": -5}},
            "context": CONTEXT,
        },
        {"textDocument": {"uri": URI}, "range": GOOD_RANGE},  # no context
        None,
        [1, 2],
    ],
    ids=["range-abc", "negative", "no-context", "null", "list"],
)
def test_a_code_action_with_bad_params_gets_invalid_params(server: RawServer, params: Any) -> None:
    message = {"jsonrpc": "2.0", "id": 11, "method": "textDocument/codeAction", "params": params}
    server.send(frame(message))
    answer = server.response(11)
    assert answer["error"]["code"] == -32602
    still_serving(server)


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("textDocument/diagnostic", {"textDocument": 3}),
        ("workspace/executeCommand", {"command": 5}),
        ("textDocument/hover", {"textDocument": {"uri": URI}, "position": "x"}),
    ],
)
def test_any_request_with_bad_params_gets_invalid_params(
    server: RawServer, method: str, params: Any
) -> None:
    server.send(frame({"jsonrpc": "2.0", "id": 12, "method": method, "params": params}))
    assert server.response(12)["error"]["code"] == -32602
    still_serving(server)


def test_a_notification_with_bad_params_is_dropped_quietly(server: RawServer) -> None:
    server.send(notification("textDocument/didOpen", {"textDocument": "abc"}))
    still_serving(server)
    assert not [m for m in server.seen if "error" in m]


# ----- 3. shutdown and exit ---------------------------------------------------------------------
def test_requests_after_shutdown_get_invalid_request_and_exit_then_exits_0() -> None:
    server = RawServer()
    server.initialize()
    server.send(request(1, "shutdown"))
    assert server.response(1)["result"] is None
    server.send(request(2, "textDocument/codeAction", {"textDocument": {"uri": URI}}))
    assert server.response(2)["error"]["code"] == -32600
    server.send(notification("exit"))
    assert server.process.wait(timeout=15) == 0


def test_exit_without_shutdown_exits_1() -> None:
    server = RawServer()
    server.initialize()
    server.send(notification("exit"))
    assert server.process.wait(timeout=15) == 1


def test_the_end_of_input_ends_the_server() -> None:
    server = RawServer()
    server.initialize()
    server.process.stdin.close()  # type: ignore[union-attr]
    assert server.process.wait(timeout=15) in (0, 1)


# ----- 4. a didChange that cannot be applied ----------------------------------------------------
def test_an_unappliable_change_is_refused_with_one_warning(server: RawServer) -> None:
    text = '{"nodes": []}\n'
    server.send(
        notification(
            "textDocument/didOpen",
            {"textDocument": {"uri": URI, "languageId": "json", "version": 1, "text": text}},
        )
    )
    bad = {"range": {"start": {"line": 0.5, "character": 0}, "end": {"line": 1, "character": 0}}}
    good = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}}
    for version in (2, 3):
        server.send(
            notification(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": URI, "version": version},
                    "contentChanges": [{**good, "text": " "}, {**bad, "text": "x"}],
                },
            )
        )
    still_serving(server)
    warnings = [m for m in server.seen if m.get("method") == "window/showMessage"]
    assert len(warnings) == 1
    assert warnings[0]["params"]["type"] == 2  # Warning


def test_the_tcp_transport_frames_the_same_way() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "flowdrop_lsp", "serve", "--tcp", f"127.0.0.1:{port}"],
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=15)
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        with sock:
            sock.sendall(b"Content-Length: 99999999999999999999\r\n\r\n{}")
            sock.sendall(request(1, "initialize", {"capabilities": {}}))
            sock.sendall(request(2, "shutdown") + notification("exit"))
            received = b""
            while b'"id": 2' not in received:
                chunk = sock.recv(65536)
                assert chunk, received
                received += chunk
        assert b'"id": 2, "jsonrpc": "2.0", "result": null' in received
        assert process.wait(timeout=15) == 0
    finally:
        if process.poll() is None:
            process.kill()
