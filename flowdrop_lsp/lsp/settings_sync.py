"""Settings over LSP: `initializationOptions`, `workspace/configuration` (section `flowdrop`),
and `workspace/didChangeConfiguration`, which re-publishes every open document. Problems with
the settings are shown to the user (`window/showMessage`) once each, and kept in the log."""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types

from flowdrop_lsp.lsp.configuration import SECTION
from flowdrop_lsp.lsp.server import FlowdropServer

CONFIGURATION_TIMEOUT = 5.0


async def _pull_configuration(ls: FlowdropServer) -> None:
    if not ls.supports_configuration:
        return
    try:
        result = await asyncio.wait_for(
            ls.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
            ),
            CONFIGURATION_TIMEOUT,
        )
    except Exception as error:  # noqa: BLE001 - a client that cannot answer keeps the defaults
        ls.log_error("workspace/configuration", error)
        return
    if result and isinstance(result[0], dict):
        ls.settings.set_client_settings(result[0])


def show_new_problems(ls: FlowdropServer) -> None:
    """Show the settings problems found since the last call: a warning the user sees once, and
    the same line in the log for later."""
    for problem in ls.settings.drain_new_problems():
        ls.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Warning, message=problem)
        )
        ls.window_log_message(
            types.LogMessageParams(type=types.MessageType.Warning, message=problem)
        )


def register(server: FlowdropServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: FlowdropServer, params: types.InitializeParams) -> None:
        options: Any = params.initialization_options or {}
        ls.settings.set_initialization_options(options)
        from flowdrop_lsp.lsp.diagnostics import enable_pull_diagnostics

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
        from flowdrop_lsp.lsp.node_types_sync import start_watching

        start_watching(ls)
        await _pull_configuration(ls)
        ls.republish_all()
        show_new_problems(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(
        ls: FlowdropServer, params: types.DidChangeConfigurationParams
    ) -> None:
        pushed = params.settings
        if isinstance(pushed, dict) and pushed.get(SECTION) is not None:
            ls.settings.set_client_settings(pushed)
        await _pull_configuration(ls)
        ls.republish_all()
        show_new_problems(ls)
