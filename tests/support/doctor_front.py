"""What the tests of the Doctor's HTTP front (tests/doctor/) share: `FakeDoctor`, a stand-in
for `flowdrop_lsp.core.doctor.DoctorService` with the same interface, so that the front is tested
on what it does with a service's answers and refusals, not on the analysis; `draft`; and
`send_raw`/`read_answer`, HTTP/1.1 by hand, for what a client library will not do (a body
shorter than its Content-Length, a stall, no Host).

FakeDoctor: each draft named `name` has one problem, `p-<name>`, on node `n1`, with two
remedies: `remove` (destructive) and `replace` (asks for `node_type_id`). It records every call,
the threads it was called on and whether two calls ever overlapped; `gate`, when set, holds
every call until it is opened (`entered` says one is held). A site folder named `unreadable`
cannot be read."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from flowdrop_lsp.core.doctor import BadRemedy, ProblemGone

# The `serve_doctor` fixture's type (tests/doctor/conftest.py): a started front, its test client.
ServeDoctor = Callable[..., Awaitable[TestClient]]


def draft(name: str = "research", **extra: Any) -> dict[str, Any]:
    return {"id": "research", "name": name, "nodes": [], "edges": [], **extra}


class FakeDoctor:
    def __init__(self, site: Path | None = None) -> None:
        if site is not None and site.name == "unreadable":
            raise ValueError("this site cannot be read")
        self.site = site
        self.calls: list[tuple[str, str, dict[str, Any]]] = []
        self.threads: set[int] = set()
        self.overlapped = False
        self.gate: threading.Event | None = None
        self.entered = threading.Event()
        self._running = threading.Lock()

    @property
    def site_label(self) -> str:
        name = self.site.name if self.site is not None else "none"
        return f"site {name}: 2 workflows (fake)"

    def _enter(self, kind: str, workflow_id: str, draft: dict[str, Any]) -> None:
        if not self._running.acquire(blocking=False):
            self.overlapped = True
            self._running.acquire()
        self.threads.add(threading.get_ident())
        self.calls.append((kind, workflow_id, draft))
        self.entered.set()
        if self.gate is not None:
            self.gate.wait(30)

    def diagnose(self, workflow_id: str, draft: dict[str, Any]) -> list[dict[str, Any]]:
        self._enter("diagnose", workflow_id, draft)
        try:
            return self._problems(workflow_id, draft)
        finally:
            self._running.release()

    @staticmethod
    def _problems(workflow_id: str, draft: dict[str, Any]) -> list[dict[str, Any]]:
        name = draft.get("name", "")
        if name == "explode":
            raise RuntimeError("the analysis broke")
        return [
            {
                "id": f"p-{name}",
                "code": "R1_PLUGIN_MISSING",
                "severity": "error",
                "message": f"{workflow_id}/{name}: node n1 names no plugin",
                "node": "n1",
                "remedies": [
                    {"id": "remove", "label": "Remove the node", "destructive": True},
                    {
                        "id": "replace",
                        "label": "Replace the node type",
                        "destructive": False,
                        "params": {"choices": {"chat_output": "Chat output"}},
                    },
                ],
            }
        ]

    def remedy(
        self,
        workflow_id: str,
        draft: dict[str, Any],
        target: str,
        remedy: str,
        params: dict[str, Any] | None,
    ) -> list[dict[str, Any]]:
        self._enter("remedy", workflow_id, draft)
        try:
            if target not in {problem["id"] for problem in self._problems(workflow_id, draft)}:
                raise ProblemGone(f"{target} is not a problem of this draft")
            if remedy == "remove":
                return [{"op": "removeNode", "nodeId": "n1"}]
            if remedy == "replace":
                if not params or "node_type_id" not in params:
                    raise BadRemedy("REMEDY_PARAM_MISSING", "replace needs node_type_id")
                return [
                    {
                        "op": "updateNodeData",
                        "nodeId": "n1",
                        "patch": {"nodeTypeId": params["node_type_id"]},
                    }
                ]
            raise BadRemedy("REMEDY_UNKNOWN", f"{remedy} is not a remedy of {target}")
        finally:
            self._running.release()


async def send_raw(
    client: TestClient,
    head: str,
    body: bytes = b"",
    *,
    then_close: bool = False,
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Open a connection of our own to the client's server and write `head` (CRLF line ends
    added) and `body`."""
    assert client.server.host is not None and client.server.port is not None
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    writer.write(head.replace("\n", "\r\n").encode("latin-1") + b"\r\n" + body)
    await writer.drain()
    if then_close:
        writer.close()
    return reader, writer


async def read_answer(reader: asyncio.StreamReader, timeout: float = 5.0) -> tuple[int, bytes]:
    """The status and the rest of a raw answer (read until the server closes or `timeout`)."""

    async def read() -> bytes:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = await reader.read(65536)
            if not chunk:
                break
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        length = next(
            (
                int(line.split(b":", 1)[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            ),
            None,
        )
        while length is not None and len(rest) < length:
            chunk = await reader.read(65536)
            if not chunk:
                break
            rest += chunk
        return head + b"\r\n\r\n" + rest

    data = await asyncio.wait_for(read(), timeout)
    status = int(data.split(b" ", 2)[1])
    return status, data.partition(b"\r\n\r\n")[2]
