"""A site's first read in the editor goes through the CLI's batch and result cache
(core/workspace/preloading.py): a restarted server on an unchanged site publishes exactly
what the first one published, every workflow's analysis taken from the cache; a file changed
in between is analysed again, alone. The cache is the one named by $FLOWDROP_LSP_CACHE_DIR
here; where it is otherwise is tests/core/workspace/test_editor_cache.py's."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from flowdrop_lsp.core.workspace.batch import MIN_FILES_FOR_POOL
from tests.support.raw_lsp import RawServer, frame, notification, request
from tests.support.site import copy_site

WAIT = 60.0


def _publishes_until_read(
    server: RawServer, workflows: set[str]
) -> tuple[dict[str, list[Any]], str]:
    """Answer the server's requests; collect the last publish of every file until the
    reading's progress ends and every workflow was published: (uri → diagnostics, the end
    message)."""
    published: dict[str, list[Any]] = {}
    end = None
    deadline = time.monotonic() + WAIT
    while end is None or not workflows <= published.keys():
        assert time.monotonic() < deadline, (end, len(published))
        message = server.next_message(WAIT)
        method = message.get("method")
        if "id" in message and method is not None:  # a request of the server's: answer it
            items = (message.get("params") or {}).get("items")
            result = [None] * len(items) if method == "workspace/configuration" else None
            server.send(_response(message["id"], result))
        elif method == "textDocument/publishDiagnostics":
            params = message["params"]
            published[params["uri"]] = sorted(
                (
                    d["range"]["start"]["line"],
                    d["range"]["start"]["character"],
                    d["code"],
                    d["message"],
                )
                for d in params["diagnostics"]
            )
        elif method == "$/progress" and message["params"]["value"].get("kind") == "end":
            end = message["params"]["value"].get("message", "")
    return published, end


def _response(msg_id: Any, result: Any) -> bytes:
    return frame({"jsonrpc": "2.0", "id": msg_id, "result": result})


def _read_site(root: Path, cache: Path, workflows: set[str]) -> tuple[dict[str, list[Any]], str]:
    server = RawServer(env={**os.environ, "FLOWDROP_LSP_CACHE_DIR": str(cache)})
    try:
        capabilities = {"window": {"workDoneProgress": True}}
        server.send(
            request(0, "initialize", {"capabilities": capabilities, "rootUri": root.as_uri()})
        )
        server.response(0, WAIT)
        server.send(notification("initialized", {}))
        return _publishes_until_read(server, workflows)
    finally:
        server.close()


def test_a_restarted_server_publishes_an_unchanged_site_from_the_cache(tmp_path: Path) -> None:
    root = tmp_path / "project"
    site = copy_site(root)
    # Three copies of a workflow under ids of their own: 18 workflows, enough for the batch's
    # worker processes (started from a server with threads: never forked from it).
    original = (site / "flowdrop_workflow.flowdrop_workflow.reason.yml").read_text("utf-8")
    for copy in range(3):
        text = original.replace("\nid: reason\n", f"\nid: reason_copy{copy}\n", 1)
        (site / f"flowdrop_workflow.flowdrop_workflow.reason_copy{copy}.yml").write_text(text)
    cache = tmp_path / "cache"
    files = sorted(site.glob("flowdrop_workflow.*.yml"))
    workflows = {path.as_uri() for path in files}
    assert len(workflows) == 18 >= MIN_FILES_FOR_POOL

    first, first_end = _read_site(root, cache, workflows)
    assert "from the cache" not in first_end
    assert any(cache.rglob("*")), "the first read kept nothing"
    assert any(first[uri] for uri in workflows), "the real site has findings to compare"

    second, second_end = _read_site(root, cache, workflows)
    assert second_end.endswith("(18 workflows from the cache)"), second_end
    assert second == first

    # One workflow changed while no editor ran: it alone is analysed again.
    changed = files[0]
    text = changed.read_text(encoding="utf-8")
    changed.write_text(text.replace("\nnodes:\n", "\ntimout: 30\nnodes:\n", 1), encoding="utf-8")
    third, third_end = _read_site(root, cache, workflows)
    assert third_end.endswith("(17 workflows from the cache)"), third_end
    assert third[changed.as_uri()] != first[changed.as_uri()]
    assert {u: d for u, d in third.items() if u != changed.as_uri()} == {
        u: d for u, d in first.items() if u != changed.as_uri()
    }
