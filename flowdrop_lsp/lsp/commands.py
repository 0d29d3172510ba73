"""`workspace/executeCommand` `flowdrop.stats`: what the last change of a document re-did.

Arguments: `[uri]`. Answers `{"uri", "version", "fullReread", "elementsReread",
"consumersRecomputed", "findings"}` — for tests and for anyone curious why a keystroke was slow.
"""

from __future__ import annotations

from typing import Any

from flowdrop_lsp.lsp.server import FlowdropServer

STATS = "flowdrop.stats"


def register(server: FlowdropServer) -> None:
    @server.command(STATS)
    def stats(ls: FlowdropServer, *args: Any) -> dict[str, Any] | None:
        uri = args[0] if args and isinstance(args[0], str) else None
        if uri is None and args and isinstance(args[0], list) and args[0]:
            uri = args[0][0]  # some clients wrap the arguments in a list
        document = ls.documents.get(uri) if isinstance(uri, str) else None
        if document is None:
            return None
        findings = document.findings()
        return {
            "uri": document.uri,
            "version": document.version,
            "findings": len(findings),
            **document.engine.stats.as_dict(),
        }
