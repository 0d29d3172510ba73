"""The benchmark's LSP client: one asyncio client over stdio that owns the wire (framing,
JSON-RPC), its copy of every open document, and the timing of a notification to its answer.

No pygls dependency: Content-Length framing and JSON-RPC by hand. The client keeps
its own copy of each open document's text and computes incremental ``contentChanges``
ranges in UTF-16 code units from it (and updates it), like an editor does.

Typical use::

    client = LspClient(["flowdrop-lsp", "serve"], settings={}, init_options={})
    await client.start()
    await client.initialize()
    t_open = await client.open(uri, text)             # -> Publish (with .elapsed)
    pub = await client.change(uri, [(start, end, "x")])  # offsets in code points
    rss = client.rss_bytes()
    await client.stop()

Timing: a measurement starts just before the notification's bytes are written and
ends when the matching ``textDocument/publishDiagnostics`` has been read in full.
A publish matches when its ``version`` equals the version just sent; a server that
sends no ``version`` is matched by the first publish for the URI after the notification.

Pull mode (``pull_diagnostics=True``): the client advertises ``textDocument.diagnostic``,
and right after each didOpen/didChange asks ``textDocument/diagnostic``; the measurement
ends when that answer has been read. This is how vscode-json-language-server is timed:
in push mode it waits 500 ms before validating (a debounce, not work); in pull mode it
registers no timer at all and validates when asked (its ``registerDiagnosticsPullSupport``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class LspError(Exception):
    pass


class ServerTimeout(LspError):
    pass


class ServerDied(LspError):
    pass


@dataclass
class Publish:
    uri: str
    version: int | None
    diagnostics: list[dict]
    t: float  # perf_counter when fully read
    seq: int
    elapsed: float = float("nan")  # seconds, filled by the waiter

    @property
    def count(self) -> int:
        return len(self.diagnostics)


@dataclass
class _Doc:
    uri: str
    text: str
    version: int
    language_id: str


def utf16_len(s: str) -> int:
    # Fast path for ASCII / BMP-only text: one code unit per code point.
    if s.isascii():
        return len(s)
    return len(s.encode("utf-16-le")) // 2


def offset_to_position(text: str, offset: int) -> dict:
    """Code-point offset -> LSP Position (line, UTF-16 character). Lines end at '\\n'."""
    line = text.count("\n", 0, offset)
    line_start = text.rfind("\n", 0, offset) + 1
    return {"line": line, "character": utf16_len(text[line_start:offset])}


def client_capabilities(pull_diagnostics: bool = False, extra: dict | None = None) -> dict:
    """What the client advertises; `extra` adds textDocument capabilities (hover, inlay
    hints …) for the benchmarks that send those requests."""
    caps = {
        "general": {"positionEncodings": ["utf-16"]},
        "workspace": {
            "configuration": True,
            "didChangeConfiguration": {"dynamicRegistration": False},
            "workspaceFolders": False,
        },
        "textDocument": {
            "synchronization": {
                "dynamicRegistration": False,
                "didSave": False,
                "willSave": False,
                "willSaveWaitUntil": False,
            },
            "publishDiagnostics": {
                "relatedInformation": True,
                "versionSupport": True,
                "codeDescriptionSupport": True,
                "dataSupport": True,
            },
        },
        "window": {"workDoneProgress": False},
    }
    if pull_diagnostics:
        caps["textDocument"]["diagnostic"] = {  # type: ignore[index]
            "dynamicRegistration": False,
            "relatedDocumentSupport": False,
        }
    caps["textDocument"].update(extra or {})  # type: ignore[attr-defined]
    return caps


def _lookup_section(settings: Any, section: str | None) -> Any:
    """Answer one workspace/configuration item: the dotted section if the settings hold
    it, else the whole settings object."""
    if not section or not isinstance(settings, dict):
        return settings
    cur: Any = settings
    for part in section.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            return settings
    return cur


def process_tree_rss(pid: int) -> tuple[int, int]:
    """(sum of VmRSS, sum of VmHWM) in bytes over pid and its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # ppid is the 2nd field after the ')' that closes the command name.
        rest = stat[stat.rfind(b")") + 2 :].split()
        with contextlib.suppress(IndexError, ValueError):
            children.setdefault(int(rest[1]), []).append(int(entry))
    rss = hwm = 0
    todo = [pid]
    seen: set[int] = set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1]) * 1024
                    elif line.startswith("VmHWM:"):
                        hwm += int(line.split()[1]) * 1024
        except OSError:
            continue
        todo.extend(children.get(p, ()))
    return rss, hwm


@dataclass
class LspClient:
    cmd: Sequence[str]
    settings: Any = field(default_factory=dict)  # answered to workspace/configuration
    init_options: Any = None  # initializationOptions
    did_change_configuration: Any = None  # if not None, sent after `initialized`
    stderr_path: str | os.PathLike | None = None
    env: dict | None = None
    cwd: str | None = None
    name: str = "server"
    pull_diagnostics: bool = False  # ask textDocument/diagnostic instead of waiting for a push
    extra_capabilities: dict | None = None  # more textDocument capabilities (an editor's)

    def __post_init__(self) -> None:
        self.proc: asyncio.subprocess.Process | None = None
        self._next_id = 0
        self._pending: dict[int, asyncio.Future] = {}
        self._answered_at: dict[int, float] = {}  # request id -> perf_counter of the answer
        self._publishes: list[Publish] = []
        self._seq = 0
        self._publish_event = asyncio.Event()
        self._reader_task: asyncio.Task | None = None
        self._stderr_file = None
        self._docs: dict[str, _Doc] = {}
        self._dead: BaseException | None = None
        self.server_capabilities: dict = {}
        self.server_info: dict = {}
        self.log_messages: list[str] = []
        self.server_requests: list[str] = []

    # ------------------------------------------------------------------ process
    async def start(self) -> None:
        if self.stderr_path is not None:
            self._stderr_file = open(self.stderr_path, "wb")  # noqa: SIM115
        self.proc = await asyncio.create_subprocess_exec(
            *self.cmd,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=self._stderr_file if self._stderr_file else asyncio.subprocess.DEVNULL,
            env=self.env,
            cwd=self.cwd,
            limit=2**20,
        )
        self._reader_task = asyncio.create_task(self._reader())

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def rss_bytes(self) -> int:
        return process_tree_rss(self.pid)[0]

    def rss_and_peak(self) -> tuple[int, int]:
        return process_tree_rss(self.pid)

    async def stop(self, timeout: float = 10.0) -> None:
        """shutdown + exit, then make sure the process is gone (kill it if needed)."""
        if self.proc is None:
            return
        try:
            if self._dead is None and self.proc.returncode is None:
                with contextlib.suppress(LspError, OSError, ConnectionError):
                    await self.request("shutdown", None, timeout=timeout)
                with contextlib.suppress(OSError, ConnectionError, LspError):
                    await self.notify("exit", None)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except asyncio.TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self.proc.wait()
        finally:
            if self._reader_task:
                self._reader_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._reader_task
            if self._stderr_file:
                self._stderr_file.close()
                self._stderr_file = None

    def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()

    # ------------------------------------------------------------------ wire
    async def _write(self, msg: dict, drain: bool = True) -> float:
        """Send one message; returns the perf_counter taken just before writing."""
        if self._dead is not None:
            raise ServerDied(f"{self.name}: server is gone ({self._dead})")
        assert self.proc is not None and self.proc.stdin is not None
        body = json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        data = f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body
        t0 = time.perf_counter()
        self.proc.stdin.write(data)
        if drain:
            await self.proc.stdin.drain()
        return t0

    async def _reader(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = await out.readline()
                    if not line:
                        raise ServerDied("server closed stdout")
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if length is None:
                    continue
                body = await out.readexactly(length)
                t = time.perf_counter()
                msg = json.loads(body)
                await self._dispatch(msg, t)
        except (asyncio.IncompleteReadError, ServerDied, ConnectionError) as e:
            self._dead = e
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - a broken server must not kill the run
            self._dead = e
        finally:
            if self._dead is None:
                self._dead = ServerDied("reader stopped")
            for fut in self._pending.values():
                if not fut.done():
                    fut.set_exception(ServerDied(f"{self.name}: server is gone ({self._dead})"))
            self._publish_event.set()

    async def _dispatch(self, msg: dict, t: float) -> None:
        if "method" in msg:
            method = msg["method"]
            if "id" in msg:  # server -> client request
                self.server_requests.append(method)
                result: Any = None
                if method == "workspace/configuration":
                    items = (msg.get("params") or {}).get("items") or [{}]
                    result = [_lookup_section(self.settings, it.get("section")) for it in items]
                # No drain here: the reader must never block on a full stdin pipe.
                await self._write(
                    {"jsonrpc": "2.0", "id": msg["id"], "result": result}, drain=False
                )
            elif method == "textDocument/publishDiagnostics":
                p = msg.get("params") or {}
                self._seq += 1
                self._publishes.append(
                    Publish(
                        p.get("uri"), p.get("version"), p.get("diagnostics") or [], t, self._seq
                    )
                )
                if len(self._publishes) > 64:
                    del self._publishes[:-64]
                self._publish_event.set()
            elif method in ("window/logMessage", "window/showMessage"):
                m = (msg.get("params") or {}).get("message", "")
                self.log_messages.append(m[:500])
                if len(self.log_messages) > 200:
                    del self.log_messages[:-200]
            return
        fut = self._pending.pop(msg.get("id"), None)
        if fut is not None:
            self._answered_at[msg["id"]] = t
        if fut is not None and not fut.done():
            if "error" in msg:
                fut.set_exception(LspError(f"{self.name}: {msg['error']}"))
            else:
                fut.set_result(msg.get("result"))

    async def request(self, method: str, params: Any, timeout: float = 30.0) -> Any:
        return (await self.timed_request(method, params, timeout))[0]

    async def timed_request(
        self, method: str, params: Any, timeout: float = 30.0
    ) -> tuple[Any, float]:
        """(result, perf_counter when the answer had been read in full)."""
        self._next_id += 1
        rid = self._next_id
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        await self._write({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        try:
            result = await asyncio.wait_for(fut, timeout)
        except asyncio.TimeoutError:
            self._pending.pop(rid, None)
            raise ServerTimeout(
                f"{self.name}: no answer to {method} within {timeout:.0f} s"
            ) from None
        return result, self._answered_at.pop(rid, time.perf_counter())

    async def notify(self, method: str, params: Any) -> float:
        msg: dict = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        return await self._write(msg)

    # ------------------------------------------------------------------ LSP
    async def initialize(self, timeout: float = 30.0, root: str | None = None) -> dict:
        root_uri = Path(root or os.getcwd()).resolve().as_uri()
        params = {
            "processId": os.getpid(),
            "clientInfo": {"name": "flowdrop-bench", "version": "1"},
            "rootUri": root_uri,
            "capabilities": client_capabilities(self.pull_diagnostics, self.extra_capabilities),
            "initializationOptions": self.init_options,
            "workspaceFolders": None,
        }
        result = await self.request("initialize", params, timeout=timeout)
        self.server_capabilities = (result or {}).get("capabilities", {})
        self.server_info = (result or {}).get("serverInfo", {}) or {}
        await self.notify("initialized", {})
        if self.did_change_configuration is not None:
            await self.notify(
                "workspace/didChangeConfiguration", {"settings": self.did_change_configuration}
            )
        return result

    def text(self, uri: str) -> str:
        return self._docs[uri].text

    def version(self, uri: str) -> int:
        return self._docs[uri].version

    def _mark(self) -> int:
        return self._seq

    async def pull(self, uri: str, version: int, t0: float, timeout: float) -> Publish:
        """Ask textDocument/diagnostic right away; the answer stands in for a publish."""
        result, t = await self.timed_request(
            "textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=timeout
        )
        items = (result or {}).get("items") or []
        self._seq += 1
        publish = Publish(uri, version, items, t, self._seq)
        publish.elapsed = t - t0
        return publish

    async def wait_publish(
        self, uri: str, version: int | None, after_seq: int, t0: float, timeout: float
    ) -> Publish:
        """First publish for `uri` after `after_seq` whose version is `version`, or that
        has no version at all (servers without versionSupport)."""
        deadline = time.perf_counter() + timeout
        idx_seq = after_seq
        while True:
            for p in self._publishes:
                if p.seq <= idx_seq:
                    continue
                idx_seq = p.seq
                if p.uri != uri:
                    continue
                if p.version is None or version is None or p.version == version:
                    p.elapsed = p.t - t0
                    return p
            if self._dead is not None:
                raise ServerDied(f"{self.name}: server is gone ({self._dead})")
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise ServerTimeout(
                    f"{self.name}: no publishDiagnostics for version {version} within {timeout:.0f} s"
                )
            self._publish_event.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._publish_event.wait(), remaining)

    async def open(
        self,
        uri: str,
        text: str,
        version: int = 1,
        language_id: str = "json",
        timeout: float = 60.0,
    ) -> Publish:
        self._docs[uri] = _Doc(uri, text, version, language_id)
        mark = self._mark()
        t0 = await self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": language_id,
                    "version": version,
                    "text": text,
                }
            },
        )
        if self.pull_diagnostics:
            return await self.pull(uri, version, t0, timeout)
        return await self.wait_publish(uri, version, mark, t0, timeout)

    def make_changes(self, uri: str, edits: Sequence[tuple[int, int, str]]) -> list[dict]:
        """Apply edits (code-point offsets, each against the text left by the previous
        one) to our copy; return the matching incremental contentChanges (UTF-16)."""
        doc = self._docs[uri]
        text = doc.text
        changes = []
        for start, end, new in edits:
            if not (0 <= start <= end <= len(text)):
                raise ValueError(f"bad edit range {start}..{end} (len {len(text)})")
            rng = {"start": offset_to_position(text, start), "end": offset_to_position(text, end)}
            changes.append({"range": rng, "text": new})
            text = text[:start] + new + text[end:]
        doc.text = text
        return changes

    async def change(
        self, uri: str, edits: Sequence[tuple[int, int, str]], timeout: float = 60.0
    ) -> Publish:
        changes = self.make_changes(uri, edits)
        doc = self._docs[uri]
        doc.version += 1
        mark = self._mark()
        t0 = await self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": doc.version}, "contentChanges": changes},
        )
        if self.pull_diagnostics:
            return await self.pull(uri, doc.version, t0, timeout)
        return await self.wait_publish(uri, doc.version, mark, t0, timeout)

    async def close(self, uri: str) -> None:
        await self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        self._docs.pop(uri, None)
