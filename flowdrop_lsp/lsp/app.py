"""The language server put together: a FlowdropServer with every feature registered, served
over stdio (or TCP, for debugging). The one module that knows every feature; none knows it.
"""

from __future__ import annotations

import logging
import sys

from flowdrop_lsp.lsp import (
    code_actions,
    code_lens,
    commands,
    completion,
    definition,
    diagnostics,
    highlight,
    hover,
    inlay_hints,
    lifecycle,
    references,
    rename,
    settings_sync,
    symbols,
    workspace,
)
from flowdrop_lsp.lsp.server import FlowdropServer
from flowdrop_lsp.lsp.transport import serve_stdio, serve_tcp


def create_server() -> FlowdropServer:
    server = FlowdropServer()
    lifecycle.register(server)
    settings_sync.register(server)
    diagnostics.register(server)
    code_actions.register(server)
    commands.register(server)
    hover.register(server)
    inlay_hints.register(server)
    code_lens.register(server)
    workspace.register(server)
    definition.register(server)
    references.register(server)
    highlight.register(server)
    rename.register(server)
    symbols.register(server)
    completion.register(server)
    return server


def run_server(tcp: str | None = None) -> int:
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="flowdrop-lsp: %(levelname)s %(message)s"
    )
    # stdout is the transport; keep stderr useful.
    logging.getLogger("pygls").setLevel(logging.WARNING)
    server = create_server()
    if tcp:
        host, _, port = tcp.rpartition(":")
        return serve_tcp(server, host or "127.0.0.1", int(port))
    return serve_stdio(server)  # our framing, not pygls's start_io (lsp/transport.py)
