"""`initialize` and `initialized`: the moments that bring settings, diagnostics and the
node-type watch together — the initialization options are read, pull diagnostics offered when
wanted, the definitions and the site files watched, the client's settings pulled, every open
document published and the workspace's sites read in the background (lsp/workspace.py).

Its own module because it is the one place that needs all three of lsp/settings_sync.py,
lsp/diagnostics.py and lsp/workspace.py, none of which then needs another's handlers.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from flowdrop_lsp.lsp.configuration import SECTION
from flowdrop_lsp.lsp.diagnostics import enable_pull_diagnostics
from flowdrop_lsp.lsp.settings_sync import pull_configuration, show_new_problems
from flowdrop_lsp.lsp.workspace import start_indexing
from flowdrop_lsp.lsp.workspace import start_watching as watch_sites

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer


def register(server: FlowdropServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: FlowdropServer, params: types.InitializeParams) -> None:
        options: Any = params.initialization_options or {}
        ls.settings.set_initialization_options(options)
        # `pullDiagnostics: false` may sit at the top level or inside a `flowdrop` section
        # (editors merge user options with ours, so both shapes happen).
        levels = [options, options.get(SECTION)] if isinstance(options, dict) else []
        wants_pull = not any(
            isinstance(level, dict) and level.get("pullDiagnostics") is False for level in levels
        )
        if ls.supports_pull_diagnostics and wants_pull:
            enable_pull_diagnostics(ls)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: FlowdropServer, params: types.InitializedParams) -> None:
        watch_sites(ls)
        configured = asyncio.ensure_future(pull_configuration(ls))
        # The sites are read in the background once the settings are in (requests are served
        # meanwhile); started now, so that a `workspace/diagnostic` already waits for it.
        start_indexing(ls, configured)
        await configured
        ls.republish_all()
        show_new_problems(ls)
