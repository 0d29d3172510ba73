"""Node-type definitions over LSP: keeping the site's registry (core/config/node_types.py) current.

The registry of a document's folder is read at first use (`SettingsManager.for_uri`). This
module watches the definitions: where the client supports it, it registers
`workspace/didChangeWatchedFiles` for `**/flowdrop_node_type.flowdrop_node_type.*.{yml,yaml}`
dynamically after `initialized`; a change to one invalidates the cached registries and
re-publishes every open document. An open definition's buffer wins over the disk: the
diagnostics handlers call `buffer_changed` on open, change and close, and the buffer's text is
given to the registry as an overlay until the document is closed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.core.config.node_types import is_definition_file
from flowdrop_lsp.lsp.documents import uri_path
from flowdrop_lsp.lsp.settings_sync import show_new_problems

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer

log = logging.getLogger(__name__)
WATCH_GLOB = "**/flowdrop_node_type.flowdrop_node_type.*.{yml,yaml}"
REGISTRATION_ID = "flowdrop.nodeTypes.watch"


def _definition_path(uri: str) -> Path | None:
    path = uri_path(uri)
    if path is None or not uri.startswith("file:") or not is_definition_file(path):
        return None
    return Path(path)


def _reload(ls: FlowdropServer) -> None:
    ls.republish_all()  # invalidates the settings and the registries, re-analyses, publishes
    show_new_problems(ls)  # an invalid definition is shown once


def supports_watching(ls: FlowdropServer) -> bool:
    return bool(ls._capability("workspace", "did_change_watched_files", "dynamic_registration"))


async def _register_watch(ls: FlowdropServer) -> None:
    try:
        await ls.client_register_capability_async(
            types.RegistrationParams(
                registrations=[
                    types.Registration(
                        id=REGISTRATION_ID,
                        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(
                            watchers=[types.FileSystemWatcher(glob_pattern=WATCH_GLOB)]
                        ),
                    )
                ]
            )
        )
    except Exception as error:  # noqa: BLE001 - without a watch, definitions are read once
        # (and again at every settings change); nothing the user must act on.
        log.warning("the client refused to watch node-type definitions: %s", error)


def start_watching(ls: FlowdropServer) -> None:
    """After `initialized`: ask the client to watch the definitions, where it can."""
    if supports_watching(ls):
        asyncio.ensure_future(_register_watch(ls))


def buffer_changed(ls: FlowdropServer, uri: str, *, closed: bool = False) -> None:
    """An open document changed (or closed): if it is a node-type definition, its buffer is
    now what the registry reads (on close, the disk again)."""
    path = _definition_path(uri)
    if path is None:
        return
    document = None if closed else ls.documents.get(uri)
    ls.settings.node_types.set_overlay(path, document.text if document is not None else None)
    _reload(ls)


def files_changed(ls: FlowdropServer, changes: Sequence[types.FileEvent]) -> None:
    """Watched files changed (lsp/workspace.py handles the notification): a definition among
    them reloads the registries."""
    if any(_definition_path(getattr(change, "uri", "")) is not None for change in changes):
        _reload(ls)
