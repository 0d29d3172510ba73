"""`workspace/executeCommand` `flowdrop.stats`: what the last change of a document re-did.

Arguments: `[uri]`. Answers `{"uri", "version", "fullReread", "elementsReread",
"consumersRecomputed", "findings"}` — for tests and for anyone curious why a keystroke was slow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer

STATS = "flowdrop.stats"


def stats(ls: FlowdropServer, *args: Any) -> dict[str, Any] | None:
    uri = args[0] if args and isinstance(args[0], str) else None
    if uri is None and args and isinstance(args[0], list) and args[0]:
        uri = args[0][0]  # some clients wrap the arguments in a list
    document = ls.documents.get(uri) if isinstance(uri, str) else None
    if document is None:
        return None
    return {"uri": document.uri, "version": document.version, **document.workflow.stats()}


def register(server: FlowdropServer) -> None:
    # No `ls` parameter: pygls reads a command handler's type hints at run time, and the server
    # type is imported for the type checker only (lsp/server.py imports no feature).
    @server.command(STATS)
    def on_stats(*args: Any) -> dict[str, Any] | None:
        return stats(server, *args)
