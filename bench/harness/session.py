"""One timed server session, and the records it leaves: a fresh process is started, the
document opened, the plan's edits sent one step at a time, and every step's time to its
diagnostics recorded as a `Sample`; the session's RSS, check and failure as a `SessionInfo`.

Every benchmark that times diagnostics goes through `run_session`, so that all of them time the
same thing the same way; a scenario brings its documents, its plan and its check.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.client import LspClient, LspError, Publish, ServerDied, ServerTimeout
from harness.paths import LOGS, REPO, make_log

log = make_log("bench")

#: One edit: (start, end, new text), code-point offsets against the text left by the
#: previous edit of the same step.
Edit = tuple[int, int, str]
#: A session's steps: (kind, the edits of one didChange).
Plan = list[tuple[str, list[Edit]]]


@dataclass
class ServerSpec:
    """How to start one server and configure it (the peers are in harness/peers.py)."""

    name: str
    cmd: list[str]
    init_options: Any = None
    settings: Any = field(default_factory=dict)  # answered to workspace/configuration
    did_change_configuration: Any = None
    pull: bool = False  # timed through textDocument/diagnostic (no push debounce)


@dataclass
class Document:
    """A generated document and what was planted in it (the checks need it)."""

    size: int
    path: Path
    text: str
    leaves: list[str]
    toolboxes: list[str]
    agents: list[str]
    collisions: list
    language_id: str = "json"  # languageId sent with didOpen (bench/yaml_bench.py: "yaml")
    schema_error_at: int | None = None  # offset of the planted schema error (generate.py)
    minified: bool = False

    @property
    def schema_error_line(self) -> int | None:
        if self.schema_error_at is None:
            return None
        return self.text.count("\n", 0, self.schema_error_at)

    @property
    def uri(self) -> str:
        return self.path.as_uri()


@dataclass
class Sample:
    server: str
    size: int
    round: int
    step: int  # 0 = didOpen
    kind: str  # open | label | add_edge | delete | paste
    ms: float | None  # None: timeout / failure
    version_sent: int
    version_got: int | None = None
    n_diags: int | None = None
    digest: str | None = None
    status: str = "ok"  # ok | timeout | died | error | skipped
    scenario: str = "edits"  # edits | typing | minified
    # What was published, positions left out: the same findings in two layouts of a document
    # (minified, pretty-printed) have equal content digests.
    content: str | None = None


@dataclass
class SessionInfo:
    server: str
    size: int
    round: int
    rss_open: int | None = None
    rss_end: int | None = None
    peak: int | None = None
    error: str | None = None
    note: str | None = None
    check: str | None = None  # does the open's answer prove the server validated? (OK/FAILED)
    scenario: str = "edits"


#: Does the open's answer prove that the server validated? (server, document, diagnostics)
#: → "OK: …" / "FAILED: …", or None when there is nothing to check.
Check = Callable[[str, Document, list[dict]], "str | None"]


def diag_digest(diags: list[dict]) -> str:
    """Order-independent fingerprint of a publish: equal digests, equal diagnostics."""
    norm = sorted(
        json.dumps(
            [d.get("range"), d.get("severity"), d.get("code"), d.get("message")],
            sort_keys=True,
            ensure_ascii=False,
        )
        for d in diags
    )
    return hashlib.sha1("\n".join(norm).encode()).hexdigest()[:12]


def content_digest(diags: list[dict]) -> str:
    """`diag_digest` without the ranges: what was found, wherever the line breaks are."""
    return diag_digest([{**d, "range": None} for d in diags])


def rotate(names: list[str], round_no: int) -> list[str]:
    """The order of servers in a round: rotated every round, so that no server always meets
    the machine in the same state."""
    k = round_no % len(names)
    return names[k:] + names[:k]


def client_for(spec: ServerSpec, **kwargs: Any) -> LspClient:
    return LspClient(
        spec.cmd,
        settings=spec.settings,
        init_options=spec.init_options,
        did_change_configuration=spec.did_change_configuration,
        name=spec.name,
        pull_diagnostics=spec.pull,
        **kwargs,
    )


async def open_once(
    spec: ServerSpec,
    uri: str,
    text: str,
    *,
    language_id: str = "json",
    timeout: float = 30,
    root: str | None = None,
    settle: float = 0.0,
    **client_kwargs: Any,
) -> Publish:
    """Start the server, open one document, return its diagnostics, stop the server (the
    checks that a peer really validates, made before anything is measured)."""
    client = client_for(spec, **client_kwargs)
    try:
        await client.start()
        await client.initialize(timeout=30, root=root)
        if settle:
            await asyncio.sleep(settle)
        return await client.open(uri, text, language_id=language_id, timeout=timeout)
    finally:
        with contextlib.suppress(Exception):
            await client.stop(timeout=5)


def _not_run(spec: ServerSpec, doc: Document, round_no: int, scenario: str):
    """A Sample factory for the steps of this session that produced no time."""

    def sample(step: int, kind: str, status: str) -> Sample:
        return Sample(
            spec.name,
            doc.size,
            round_no,
            step,
            kind,
            None,
            step + 1,
            status=status,
            scenario=scenario,
        )

    return sample


async def run_session(
    spec: ServerSpec,
    doc: Document,
    round_no: int,
    plan: Plan,
    cfg: argparse.Namespace,
    *,
    think: float | None = None,
    scenario: str = "edits",
    check: Check | None = None,
) -> tuple[list[Sample], SessionInfo]:
    """A fresh server process: open `doc`, then every step of `plan`, each timed to the
    diagnostics of its version. Never raises for a server's failure: it is recorded."""
    LOGS.mkdir(parents=True, exist_ok=True)
    stderr_path = LOGS / f"{spec.name}-{doc.size}-{scenario}-r{round_no}.stderr"
    think = cfg.think if think is None else think
    scale = cfg.timeout_scale
    open_timeout = (30 + 3 * doc.size / 1000) * scale
    edit_timeout = (15 + 1.0 * doc.size / 1000) * scale
    client = client_for(spec, stderr_path=stderr_path, cwd=str(REPO))
    not_run = _not_run(spec, doc, round_no, scenario)
    samples: list[Sample] = []
    info = SessionInfo(spec.name, doc.size, round_no, scenario=scenario)
    # The harness's own garbage must not be collected in the middle of a measurement.
    gc.collect()
    gc.freeze()
    step = 0
    kind = "open"
    t_session = time.perf_counter()
    try:
        try:
            await client.start()
        except OSError as e:
            info.error = f"cannot start {spec.cmd[0]}: {e}"
            samples.append(not_run(0, "open", "error"))
            return samples, info
        await client.initialize(timeout=30 * scale, root=str(REPO))
        # Let the server finish its post-`initialized` work (configuration pull, …) first.
        await asyncio.sleep(0.3)
        pub = await client.open(
            doc.uri, doc.text, version=1, language_id=doc.language_id, timeout=open_timeout
        )
        samples.append(
            Sample(
                spec.name,
                doc.size,
                round_no,
                0,
                "open",
                pub.elapsed * 1e3,
                1,
                pub.version,
                pub.count,
                diag_digest(pub.diagnostics),
                scenario=scenario,
                content=content_digest(pub.diagnostics),
            )
        )
        info.check = check(spec.name, doc, pub.diagnostics) if check else None
        await asyncio.sleep(0.5)
        info.rss_open = client.rss_bytes()
        for step, (kind, edits) in enumerate(plan, start=1):
            if time.perf_counter() - t_session > cfg.session_cap:
                info.note = f"session cap ({cfg.session_cap:.0f} s) reached: {len(plan) - step + 1} edits not run"
                for s2, (k2, _) in enumerate(plan[step - 1 :], start=step):
                    samples.append(not_run(s2, k2, "capped"))
                log(f"  {spec.name} {doc.size} r{round_no}: {info.note}")
                break
            await asyncio.sleep(think)
            pub = await client.change(doc.uri, edits, timeout=edit_timeout)
            samples.append(
                Sample(
                    spec.name,
                    doc.size,
                    round_no,
                    step,
                    kind,
                    pub.elapsed * 1e3,
                    client.version(doc.uri),
                    pub.version,
                    pub.count,
                    diag_digest(pub.diagnostics),
                    scenario=scenario,
                    content=content_digest(pub.diagnostics),
                )
            )
        info.rss_end, info.peak = client.rss_and_peak()
        # VmHWM is updated lazily by the kernel: never report a peak below a sample.
        info.peak = max(info.peak, info.rss_end, info.rss_open or 0)
    except (ServerTimeout, ServerDied, LspError, OSError, ConnectionError) as e:
        status = (
            "timeout"
            if isinstance(e, ServerTimeout)
            else "died"
            if isinstance(e, ServerDied)
            else "error"
        )
        info.error = f"{type(e).__name__}: {e}"
        if step == 0 and not samples:
            samples.append(not_run(0, "open", status))
        else:
            samples.append(not_run(step, kind, status))
        for s2, (k2, _) in enumerate(plan[step:], start=step + 1):
            samples.append(not_run(s2, k2, "skipped"))
        with contextlib.suppress(Exception):
            info.rss_end, info.peak = client.rss_and_peak()
        tail = stderr_tail(stderr_path)
        if tail:
            info.error += f" | stderr: {tail}"
        log(f"  {spec.name} {doc.size} r{round_no}: {info.error}")
        client.kill()  # a stuck server is not waited for
    finally:
        gc.unfreeze()
        with contextlib.suppress(Exception):
            await client.stop(timeout=5)
    return samples, info


def stderr_tail(p: Path, n: int = 300) -> str:
    """The last bytes a server wrote to stderr, on one line (for the failure report)."""
    try:
        data = p.read_bytes()[-n:]
    except OSError:
        return ""
    return data.decode("utf-8", "replace").strip().replace("\n", " ⏎ ")


async def timed_request(
    client: LspClient,
    method: str,
    params: Any,
    timeout: float,
    *,
    answer_errors: bool = False,
) -> tuple[float, Any]:
    """Milliseconds from writing a request to reading its answer in full, and the answer.
    With `answer_errors`, an error answer counts as an answer (the floor has no handler)."""
    start = time.perf_counter()
    try:
        answer = await client.request(method, params, timeout=timeout)
    except LspError as error:
        if not answer_errors:
            raise
        answer = error
    return (time.perf_counter() - start) * 1000, answer
