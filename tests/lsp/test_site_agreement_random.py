"""Random disk edits of the real site, each followed by the watched-file events a client sends,
and after each one the server's publishes equal what `check --no-cache` reports (issue 25;
tests/support/site_agreement.py).

Each example starts its own server on its own copy of the site (a temporary folder), under one
of the two client profiles, and applies a few edits to a handful of files that depend on one
another: the colour specialist and brand_studio, which calls it; the node type that calls it;
the weather workflow; the audit agent (which has findings of its own). Its examples are few
by default (a server and a CLI run per step); `--slow` (`make fuzz`) raises them.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.support.builders import CORPUS_CONFIG
from tests.support.lsp import CLIENTS, WAIT, server_command, start_session
from tests.support.site import copy_site
from tests.support.site_agreement import until_agreed, watched

FILES = (
    "flowdrop_workflow.flowdrop_workflow.aincient_brand_specialist_colour.yml",
    "flowdrop_workflow.flowdrop_workflow.brand_studio.yml",
    "flowdrop_node_type.flowdrop_node_type."
    "flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_colour.yml",
    "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml",
    "flowdrop_workflow.flowdrop_workflow.aincient_audit_agent.yml",
)
OPTIONS = {"diagnostics": {"scope": "workspace"}}
Event = tuple[Path, types.FileChangeType]


def _rewrite(path: Path, change: Callable[[bytes], bytes]) -> list[Event]:
    """Apply `change` to the file's bytes (nothing when it is gone or unchanged)."""
    if not path.exists():
        return []
    data = path.read_bytes()
    new = change(data)
    if new == data:
        return []
    path.write_bytes(new)
    return [(path, types.FileChangeType.Changed)]


def _first(pattern: bytes, replacement: bytes) -> Callable[[bytes], bytes]:
    return lambda data: re.sub(pattern, replacement, data, count=1, flags=re.M)


def edit_label(path: Path, n: int) -> list[Event]:
    label = f"label: 'Edited {n} 🎨 配色'".encode()
    return _rewrite(path, _first(rb"^label: .*$", label))


def delete(path: Path, n: int) -> list[Event]:
    if not path.exists():
        return []
    path.unlink()
    return [(path, types.FileChangeType.Deleted)]


def restore(path: Path, n: int) -> list[Event]:
    existed = path.exists()
    shutil.copyfile(CORPUS_CONFIG / path.name, path)
    kind = types.FileChangeType.Changed if existed else types.FileChangeType.Created
    return [(path, kind)]


def break_yaml(path: Path, n: int) -> list[Event]:
    return _rewrite(path, lambda data: data + b"nodes: [\n")


def latin1(path: Path, n: int) -> list[Event]:
    return _rewrite(path, _first(rb"^label: '", "label: 'Été ".encode("latin-1")))


def rename_node_id(path: Path, n: int) -> list[Event]:
    # A workflow's first node; a node type's own id.
    if path.name.startswith("flowdrop_node_type."):
        return _rewrite(path, _first(rb"^id: (\S+)$", rb"id: \1_r" + str(n).encode()))
    return _rewrite(path, _first(rb"^  -\n    id: (\S+)$", rb"  -\n    id: \1_r" + str(n).encode()))


def add_dependency(path: Path, n: int) -> list[Event]:
    entry = f"    - flowdrop_node_type.flowdrop_node_type.missing_{n}\n".encode()
    return _rewrite(path, _first(rb"^  config:\n", b"  config:\n" + entry))


def drop_dependency(path: Path, n: int) -> list[Event]:
    return _rewrite(path, _first(rb"^    - flowdrop_node_type\.flowdrop_node_type\.\S+\n", b""))


EDITS = {
    edit.__name__: edit
    for edit in (
        edit_label,
        delete,
        restore,
        break_yaml,
        latin1,
        rename_node_id,
        add_dependency,
        drop_dependency,
    )
}
STEPS = st.lists(
    st.tuples(st.sampled_from(sorted(EDITS)), st.integers(0, len(FILES) - 1)),
    min_size=1,
    max_size=5,
)


async def _agree_after_each(steps: list[tuple[str, int]], kind: str, folder: Path) -> None:
    root = folder / "ws"
    site = copy_site(root, "config/sync")
    client = await ClientServerConfig(server_command=server_command()).start()
    assert isinstance(client, LanguageClient)
    try:
        session = await start_session(client, kind, init_options=OPTIONS, workspace=root.as_uri())
        await until_agreed(session, [site], step="the start")
        for n, (edit, index) in enumerate(steps, 1):
            events = EDITS[edit](site / FILES[index], n)
            if events:
                watched(session, *events)
            await until_agreed(session, [site], step=f"step {n}, {edit} {FILES[index]}")
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.shutdown_session(), WAIT)
        await client.stop()


# Few examples (each starts a server); a failing example is reported as drawn, not shrunk:
# shrinking would start a server, and wait for agreement, dozens of times more.
@settings(
    max_examples=max(3, settings.default.max_examples // 50),
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
@given(steps=STEPS, kind=st.sampled_from(CLIENTS))
# Every kind of edit at least once, whatever is drawn (the draws change with the source).
@example(
    steps=[
        ("drop_dependency", 3),
        ("delete", 0),
        ("restore", 0),
        ("rename_node_id", 2),
        ("edit_label", 1),
        ("add_dependency", 1),
        ("break_yaml", 3),
        ("latin1", 4),
        ("restore", 4),
    ],
    kind="neovim",
)
def test_random_site_edits_keep_the_server_publishing_what_check_reports(
    steps: list[tuple[str, int]], kind: str
) -> None:
    with tempfile.TemporaryDirectory(prefix="flowdrop-agree-") as folder:
        asyncio.run(_agree_after_each(steps, kind, Path(folder)))
