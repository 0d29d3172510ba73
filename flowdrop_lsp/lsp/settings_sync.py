"""Settings over LSP: `workspace/configuration` (section `flowdrop`) and
`workspace/didChangeConfiguration`, which re-publishes every open document. Problems with the
settings are shown to the user (`window/showMessage`) once each, and kept in the log.
(`initializationOptions` arrive with `initialize`: lsp/lifecycle.py.)"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.lsp.configuration import SECTION

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer

CONFIGURATION_TIMEOUT = 5.0


async def pull_configuration(ls: FlowdropServer) -> None:
    """Ask the client for the `flowdrop` section (where it can answer), and keep it."""
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
    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(
        ls: FlowdropServer, params: types.DidChangeConfigurationParams
    ) -> None:
        pushed = params.settings
        if isinstance(pushed, dict) and pushed.get(SECTION) is not None:
            ls.settings.set_client_settings(pushed)
        await pull_configuration(ls)
        ls.republish_all()
        show_new_problems(ls)
