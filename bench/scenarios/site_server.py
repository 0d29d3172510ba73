"""The site scenario's server side (bench/scenarios/site.py): a client that records every
publish, the whole-site reading after `initialized`, and the contract edits of an open callee."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import site_gen
from harness.client import LspClient, client_capabilities
from harness.paths import LOGS, make_log
from harness.peers import ours_module

log = make_log("site-bench")
SETTINGS = {"flowdrop": {"diagnostics": {"scope": "workspace"}}}


@dataclass
class Figure:
    """One measured figure: seconds (or ms / MB, see `unit`) per run, or why there is none."""

    name: str
    values: list[float] = field(default_factory=list)
    unit: str = "s"
    na: str | None = None  # "not supported by this build: …"
    notes: list[str] = field(default_factory=list)

    @property
    def median(self) -> float | None:
        return statistics.median(self.values) if self.values else None

    @property
    def best(self) -> float | None:
        return min(self.values) if self.values else None


class SiteClient(LspClient):
    """The harness client, remembering every publish (per URI, in order) and the progress the
    server reports, and initializing with the site's root as the workspace folder."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.all_publishes: dict[str, list[tuple[float, list[dict]]]] = {}
        self.progress_seen: float | None = None
        self.any_event = asyncio.Event()

    async def _dispatch(self, msg: dict, t: float) -> None:
        method = msg.get("method")
        if method == "textDocument/publishDiagnostics":
            p = msg.get("params") or {}
            self.all_publishes.setdefault(p.get("uri"), []).append((t, p.get("diagnostics") or []))
            self.any_event.set()
        elif (
            method in ("$/progress", "window/workDoneProgress/create")
            and self.progress_seen is None
        ):
            self.progress_seen = t
            self.any_event.set()
        await super()._dispatch(msg, t)

    async def initialize_folder(self, root: Path, timeout: float = 60.0) -> float:
        """initialize (workspace folder = root) and initialized; the time `initialized` was sent."""
        caps = client_capabilities()
        caps["workspace"]["workspaceFolders"] = True
        caps["window"]["workDoneProgress"] = True
        params = {
            "processId": os.getpid(),
            "clientInfo": {"name": "flowdrop-bench", "version": "1"},
            "rootUri": root.as_uri(),
            "capabilities": caps,
            "initializationOptions": self.init_options,
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
        }
        result = await self.request("initialize", params, timeout=timeout)
        self.server_capabilities = (result or {}).get("capabilities", {})
        return await self.notify("initialized", {})

    async def wait_until(self, predicate, timeout: float) -> bool:
        deadline = time.perf_counter() + timeout
        while not predicate():
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or self._dead is not None:
                return False
            self.any_event.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.any_event.wait(), min(remaining, 1.0))
        return True


def contract_edit(text: str, toggle: int) -> tuple[int, int, str]:
    """Rename the first `input_ports` name (`ask` ⇄ `ask_renamed`): the callers' contract changes."""
    m = re.search(r"^input_ports:\n  -\n    name: (\S+)$", text, re.M)
    assert m, "no input_ports to rename"
    old = m.group(1)
    new = old[: -len("_renamed")] if old.endswith("_renamed") else old + "_renamed"
    del toggle
    return m.start(1), m.end(1), new


async def measure_server(
    site: site_gen.Site,
    figures: dict[str, Figure],
    checks: list[str],
    *,
    start_timeout: float,
    index_timeout: float,
    edits: int,
    edit_timeout: float,
) -> None:
    LOGS.mkdir(parents=True, exist_ok=True)
    # The server's result cache (core/workspace/preloading.py) in a folder of this run's own:
    # the first server starts cold, the restarted one reads what the first kept.
    env = {**os.environ, "FLOWDROP_LSP_CACHE_DIR": str(site.root / "server-cache")}
    workflows = {p.resolve().as_uri() for p in site.workflows}
    client = _client(env, "ours")
    await client.start()
    try:
        t0 = await client.initialize_folder(site.root)
        indexed = await _index(
            client, site, workflows, t0, figures["server_all"], checks, start_timeout, index_timeout
        )
        rss = client.rss_bytes() / 2**20
        if indexed:
            figures["rss_mb"].values.append(rss)
        else:
            figures["rss_mb"].na = "n/a (the site was not indexed by this build, see above)"
            figures["rss_mb"].notes.append(f"RSS after initialized, nothing indexed: {rss:.0f} MB")
        await _edits(client, site, figures, checks, edits, edit_timeout)
    finally:
        await client.stop()
    again = _client(env, "ours-restarted")
    await again.start()
    try:
        t0 = await again.initialize_folder(site.root)
        if await _index(
            again,
            site,
            workflows,
            t0,
            figures["server_again"],
            checks,
            start_timeout,
            index_timeout,
        ):
            differ = [
                u
                for u in workflows
                if u in client.all_publishes
                and again.all_publishes[u][0][1] != client.all_publishes[u][0][1]
            ]
            checks.append(
                ("FAILED" if differ else "OK")
                + ": the restarted server's first publishes equal the first server's"
                + (f" (not for {len(differ)}, e.g. {sorted(differ)[0]})" if differ else "")
            )
    finally:
        await again.stop()


def _client(env: dict[str, str], name: str) -> SiteClient:
    return SiteClient(
        ours_module(),
        settings=SETTINGS,
        init_options={},
        stderr_path=LOGS / f"site-{name}.log",
        name=name,
        env=env,
    )


async def _index(client, site, workflows, t0, fig, checks, start_timeout, index_timeout) -> bool:
    started = await client.wait_until(
        lambda: bool(client.all_publishes) or client.progress_seen, start_timeout
    )
    if not started:
        fig.na = (
            f"n/a (not supported by this build: no publishDiagnostics and no $/progress within "
            f"{start_timeout:.0f} s of `initialized`: no whole-site indexing)"
        )
        log(fig.na)
        return False
    done = await client.wait_until(lambda: workflows <= client.all_publishes.keys(), index_timeout)
    published = workflows & client.all_publishes.keys()
    if not done:
        fig.na = f"n/a (only {len(published)}/{len(workflows)} workflow files published within {index_timeout:.0f} s)"
        checks.append(f"FAILED: server ({client.name}): {fig.na}")
        return False
    last = max(client.all_publishes[u][0][0] for u in workflows)
    fig.values.append(last - t0)
    n_pub = sum(len(v) for u, v in client.all_publishes.items() if u in workflows)
    checks.append(
        f"OK: server ({client.name}) published all {len(workflows)} workflow files ({n_pub} publishes for them, "
        f"{len(client.all_publishes)} URIs in all) before any request"
    )
    planted = site.planted.resolve().as_uri() if site.planted else None
    if planted:
        diags = client.all_publishes[planted][-1][1]
        hit = [
            d
            for d in diags
            if d.get("code") == site_gen.PLANTED_CODE
            and d.get("range", {}).get("start", {}).get("line") == site.planted_line
        ]
        checks.append(
            ("OK" if hit else "FAILED") + f": the planted {site_gen.PLANTED_CODE} "
            f"{'is' if hit else 'is not'} in the diagnostics of {site.planted.name} (line {site.planted_line + 1}, {client.name})"
        )
    log(f"indexed: {fig.values[-1]:.2f} s")
    return True


async def _edits(client, site, figures, checks, edits, edit_timeout) -> None:
    fig = figures["edit_ms"]
    copied = [
        c
        for c, callers in site.callers.items()
        if callers and "brand_specialist" in c.name and re.search(r"_c\d{4}\.yml$", c.name)
    ]
    callee = copied[len(copied) // 2] if copied else None
    if callee is None:
        fig.na = "n/a (the generated site has no copied brand specialist with a caller)"
        return
    callers = {p.resolve().as_uri() for p in site.callers[callee]}
    uri = callee.resolve().as_uri()
    await client.open(uri, callee.read_text(encoding="utf-8"), language_id="yaml", timeout=60)
    before = {u: len(client.all_publishes.get(u, [])) for u in callers}
    first_diags = {
        u: client.all_publishes[u][-1][1] for u in callers if client.all_publishes.get(u)
    }
    for i in range(edits):
        counts = {u: len(client.all_publishes.get(u, [])) for u in callers}
        start, end, new = contract_edit(client.text(uri), i)
        changes = client.make_changes(uri, [(start, end, new)])
        client._docs[uri].version += 1
        t0 = await client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": client.version(uri)},
                "contentChanges": changes,
            },
        )
        ok = await client.wait_until(
            lambda counts=counts: any(
                len(client.all_publishes.get(u, [])) > counts[u] for u in callers
            ),
            edit_timeout,
        )
        if not ok:
            fig.na = (
                f"n/a (not supported by this build: no publish for a caller of {callee.name} within "
                f"{edit_timeout:.0f} s of the contract edit)"
            )
            log(fig.na)
            return
        t = min(
            client.all_publishes[u][counts[u]][0]
            for u in callers
            if len(client.all_publishes.get(u, [])) > counts[u]
        )
        fig.values.append((t - t0) * 1000)
    changed = sum(
        1
        for u in callers
        if client.all_publishes.get(u)
        and len(client.all_publishes[u]) > before[u]
        and any(
            client.all_publishes[u][k][1] != first_diags.get(u)
            for k in range(before[u], len(client.all_publishes[u]))
        )
    )
    checks.append(
        f"OK: each of {len(fig.values)} contract edits of {callee.name} re-published a caller "
        f"({len(callers)} callers; diagnostics changed for {changed} of them)"
    )


# --------------------------------------------------------------------------- the run
