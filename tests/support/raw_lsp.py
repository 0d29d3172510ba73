"""A hand-driven `flowdrop-lsp serve`: framed (or deliberately mis-framed) bytes in, parsed
messages out, for tests about what no real client would send."""

from __future__ import annotations

import io
import json
import queue
import subprocess
import threading
from typing import Any, cast

from flowdrop_lsp.lsp.transport import Body, Framer
from tests.support.forks import FORKS

WAIT = 15.0


def frame(message: Any, header: str = "Content-Length") -> bytes:
    body = json.dumps(message).encode()
    return f"{header}: {len(body)}\r\n\r\n".encode() + body


def request(msg_id: int, method: str, params: Any = None) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        message["params"] = params
    return frame(message)


def notification(method: str, params: Any = None) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return frame(message)


class RawServer:
    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            FORKS.command("flowdrop_lsp", "serve"),  # as `python -m`, forked (support/forks.py)
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self) -> None:
        framer = Framer()
        assert self.process.stdout is not None
        stdout = cast(io.BufferedReader, self.process.stdout)  # Popen's, buffered
        while data := stdout.read1(65536):
            for item in framer.feed(data):
                assert isinstance(item, Body), item  # the server itself always frames right
                self.messages.put(json.loads(item.data))

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        stderr = cast(io.BufferedReader, self.process.stderr)
        while data := stderr.read1(65536):
            self.stderr += data

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def initialize(self) -> None:
        self.send(request(0, "initialize", {"capabilities": {}}))
        self.response(0)
        self.send(notification("initialized", {}))

    def next_message(self, timeout: float = WAIT) -> dict[str, Any]:
        message = self.messages.get(timeout=timeout)
        self.seen.append(message)
        return message

    def response(self, msg_id: Any, timeout: float = WAIT) -> dict[str, Any]:
        """The response with `msg_id` (earlier messages are kept in `seen`)."""
        while True:
            message = self.next_message(timeout)
            if "method" not in message and message.get("id") == msg_id:
                return message

    def errors_with_null_id(self) -> list[dict[str, Any]]:
        return [m for m in self.seen if "error" in m and m.get("id") is None]

    def close(self) -> int:
        """Shut down and exit properly, returning the exit code."""
        if self.process.poll() is None:
            try:
                self.send(request(999_999, "shutdown"))
                self.send(notification("exit"))
                self.process.stdin.close()  # type: ignore[union-attr]
            except (BrokenPipeError, OSError):
                pass
        try:
            return self.process.wait(timeout=WAIT)
        finally:
            if self.process.poll() is None:
                self.process.kill()


# ----- fuzz: random mutations of a few messages, then a valid request that must be answered ----
SEEDS = [
    request(1, "textDocument/codeAction", {"textDocument": {"uri": "file:///a.json"}}),
    frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {}}}),
    frame({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 3}}),
    request(2, "workspace/executeCommand", {"command": "flowdrop.stats", "arguments": []}),
]
