"""The open of a document another tool wrote (issue 39): a workflow shaped as a plain API export
rather than as our generator writes it — ASCII labels, every node with a `config` and a
`metadata`, edges with `data.edgeType` — opened by ours and by vscode-json-language-server in
the same run, interleaved, fresh process per session, no edits. The document is the shape an
outside driver measured the open on (1.55× the peer there, when our own documents said 1.10×):

- 70 % leaf tools (`http_request`: method, URL, timeout, headers), 10 % toolboxes in three
  levels (a toolbox forwards to a higher level or to an agent), 20 % agents (model, temperature,
  system prompt); nodes shuffled, positions on a grid;
- every tool wired to a toolbox (60 %) or an agent (15 % of tools twice), every toolbox once or
  twice upwards, about one `data` edge per two agents; edges shuffled;
- planted: `errors / 2` edges with an unknown edge type, `errors / 2` dangling edges, and the
  first `data` edge's `"target": ""` — the schema error each session's open must report
  (vscode-json: "shorter than the minimum length" on its line; ours: FD-SCHEMA there), so that
  the peer's figure is of a validation that ran (scenarios/edits.py `validation_check`).

Pretty-printed with an indent of 2, cached in bench/.cache/docs. `python bench/scenarios/
export_open.py` is not an entry point: bench/run.py runs it (`--export-sizes`)."""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from harness.paths import CACHE, parse_sizes
from harness.session import Document, Plan, SessionInfo
from harness.stats import (
    cell,
    failures,
    fmt_failures,
    fmt_ms,
    fmt_ratio,
    fmt_size,
    percentile,
    values,
)

NAME = "export-open"
SERVERS = ["ours-incremental", "vscode-json"]
VERSION = 1  # of the generator below: a new version makes new cached documents
WORDS = (
    *("fetch", "list", "create", "update", "delete", "sync", "export", "import", "search"),
    *("resolve", "users", "orders", "invoices", "tickets", "repos", "issues", "weather"),
    *("prices", "stock", "payments", "accounts", "calendar", "events", "files", "metrics"),
    "alerts",
)
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
PLANTED = '"target": ""'


def build_export(size: int, seed: int, errors: int = 10) -> dict[str, Any]:
    """The export-shaped workflow of `size` nodes (see the module)."""
    rng = random.Random(f"export/{size}/{seed}")
    n_tools, n_boxes = size * 7 // 10, size // 10
    n_agents = size - n_tools - n_boxes
    nodes: list[dict[str, Any]] = []
    tools: list[str] = []
    levels: tuple[list[str], list[str], list[str]] = ([], [], [])
    agents: list[str] = []

    def node(node_id: str, kind: str, label: str, config: dict, category: str) -> None:
        at = len(nodes)
        nodes.append(
            {
                "id": node_id,
                "type": kind,
                "position": {"x": (at % 200) * 240.0, "y": (at // 200) * 160.0},
                "data": {
                    "label": label,
                    "config": config,
                    "metadata": {"category": category, "version": "1.0.0"},
                },
            }
        )

    for k in range(n_tools):
        first, second = rng.choice(WORDS), rng.choice(WORDS)
        tools.append(f"http_request.{k:06d}")
        config = {
            "method": rng.choice(METHODS),
            "url": f"https://api.example.com/v1/{first}/{second}/{k}",
            "timeout": rng.choice((10, 30, 60)),
            "headers": {"Accept": "application/json"},
        }
        node(tools[-1], "http_request", f"HTTP {first} {second} #{k}", config, "tools")
    for k in range(n_boxes):
        level = rng.choice((0, 0, 0, 1, 1, 2))
        levels[level].append(f"toolbox.{k:06d}")
        label = f"Toolbox {rng.choice(WORDS)} L{level} #{k}"
        node(levels[level][-1], "toolbox", label, {"passthrough": True}, "tools")
    for k in range(n_agents):
        agents.append(f"agent.{k:06d}")
        config = {"model": "gpt-4o-mini", "temperature": 0.2, "systemPrompt": "You help."}
        node(agents[-1], "agent", f"Agent {rng.choice(WORDS)} #{k}", config, "ai")
    rng.shuffle(nodes)

    edges: list[dict[str, Any]] = []

    def edge(source: str, target: str, kind: str, out: str = "tools", into: str = "tools") -> None:
        edges.append(
            {
                "id": f"e{len(edges):07d}",
                "source": source,
                "target": target,
                "sourceHandle": f"{source}-output-{out}",
                "targetHandle": f"{target}-input-{into}",
                "data": {"edgeType": kind},
            }
        )

    boxes = [box for level in levels for box in level]
    for tool in tools:
        for _ in range(2 if rng.random() < 0.15 else 1):
            to_box = boxes and rng.random() < 0.6
            edge(tool, rng.choice(boxes) if to_box else rng.choice(agents), "tool_availability")
    for level, here in enumerate(levels):
        higher = [box for up in levels[level + 1 :] for box in up]
        for box in here:
            for _ in range(rng.choice((1, 1, 2))):
                up = higher and rng.random() < 0.5
                edge(box, rng.choice(higher) if up else rng.choice(agents), "tool_availability")
    for agent in agents:
        if rng.random() < 0.5:
            edge(agent, rng.choice(agents), "data", "output", "input")
    rng.shuffle(edges)
    for _ in range(errors // 2):
        edges[rng.randrange(len(edges))]["data"] = {"edgeType": "tool_avail"}
    for k in range(errors - errors // 2):
        edge(rng.choice(tools), f"missing.{k:04d}", "tool_availability")
    next(e for e in edges if e["data"]["edgeType"] == "data")["target"] = ""
    return {
        "id": f"wf-{size}",
        "name": f"Synthetic workflow {size}",
        "nodes": nodes,
        "edges": edges,
        "metadata": {"version": "1.0.0", "generator": "bench/scenarios/export_open.py"},
        "_roles": (tools, boxes, agents),
    }


def load_export(size: int, seed: int) -> Document:
    """The export-shaped document of `size` nodes, pretty-printed (cached)."""
    folder = CACHE / "docs"
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"export-{size}-s{seed}-v{VERSION}"
    path, roles_path = folder / f"{stem}.flowdrop.json", folder / f"{stem}.roles.json"
    if path.exists() and roles_path.exists():
        text = path.read_text(encoding="utf-8")
        tools, boxes, agents = json.loads(roles_path.read_text())
    else:
        doc = build_export(size, seed)
        tools, boxes, agents = doc.pop("_roles")
        text = json.dumps(doc, indent=2) + "\n"
        path.write_text(text, encoding="utf-8")
        roles_path.write_text(json.dumps([tools, boxes, agents]))
    planted = text.index(PLANTED) + len('"target": ')
    return Document(size, path, text, tools, boxes, agents, [], schema_error_at=planted)


# ---- what bench/run.py asks of a scenario run after the edit cycle
def sizes(cfg: argparse.Namespace) -> list[int]:
    return parse_sizes(cfg.export_sizes)


def load(size: int, seed: int) -> Document:
    return load_export(size, seed)


def rounds(cfg: argparse.Namespace, edit_rounds: dict[int, int], size: int) -> int:
    return edit_rounds.get(size, cfg.rounds)


def plan(cfg: argparse.Namespace, doc: Document, round_no: int, edits: dict[int, int]) -> Plan:
    return []  # the open alone


def think(cfg: argparse.Namespace) -> float | None:
    return None


def open_ratio(samples, size: int) -> tuple[float | None, float | None]:  # type: ignore[no-untyped-def]
    """(ours p50, vscode-json p50) of this scenario's opens at `size`."""
    return tuple(  # type: ignore[return-value]
        percentile(values(samples, server, size, "open", NAME), 0.5) for server in SERVERS
    )


def section(samples, infos: list[SessionInfo], servers: list[str]) -> list[str]:  # type: ignore[no-untyped-def]
    opened = [s for s in samples if s.scenario == NAME]
    if not opened:
        return []
    out = [
        "",
        "## Open of an export-shaped document, ms: p50 / p90 (n)",
        "",
        "A workflow shaped as another tool writes it (bench/scenarios/export_open.py: ASCII"
        " labels, a config and a metadata on every node, `data.edgeType` on every edge; planted"
        ' unknown edge types, dangling edges and one `"target": ""`), pretty-printed; opened'
        " alone, fresh process per session, servers interleaved.",
        "",
        "| server | nodes | didOpen | RSS after open | failures |",
        "|---|---|---|---|---|",
    ]
    for size in sorted({s.size for s in opened}):
        for server in [x for x in SERVERS if x in servers]:
            rss = [
                i.rss_open
                for i in infos
                if i.server == server and i.size == size and i.scenario == NAME and i.rss_open
            ]
            rss_cell = f"{percentile(rss, 0.5) / 2**20:.0f} MB" if rss else "–"
            out.append(
                f"| {server} | {fmt_size(size)} | {cell(values(samples, server, size, 'open', NAME))}"
                f" | {rss_cell} | {fmt_failures(failures(samples, server, size, NAME))} |"
            )
        ours, peer = open_ratio(samples, size)
        if ours is not None and peer:
            out.append(
                f"| ours / vscode-json | {fmt_size(size)} | **{fmt_ratio(ours / peer)}**"
                f" ({fmt_ms(ours)} ms / {fmt_ms(peer)} ms) | | |"
            )
    return out
