"""Settings for the server: the shared resolver (core/workspace/resolver.py), lenient, fed with
the editor's settings, its problems shown once each.

Precedence, lowest first: defaults; the project file the CLI reads (`flowdrop-lsp.toml` or
`[tool.flowdrop-lsp]` in `pyproject.toml`, nearest to the document); `initializationOptions`;
the client's `workspace/configuration` section `flowdrop`. Then the node-type registry of the
document's folder (core/config/node_types.py) sets the node-type roles, under the rules of
`Settings.with_registry`; then the document's `per-file-ignores`.

Problems never stop the server. An unknown key or rule code is reported and skipped, and the rest
of that source applies (editors send keys of their own, and a typo should not cost the user their
other settings); a value of the wrong kind makes the whole source ignored, as its other values
may be just as wrong. Each distinct problem is recorded once; `drain_new_problems` hands out the
ones not yet shown, so the user sees each once rather than at every publish.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flowdrop_lsp.core.config.node_types import NodeTypeLocator
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.workspace.resolver import SettingsResolver
from flowdrop_lsp.lsp.documents import uri_path

SECTION = "flowdrop"
INITIALIZATION_OPTIONS = "initializationOptions"
CLIENT_SETTINGS = "workspace/configuration"
log = logging.getLogger(__name__)


def _section(options: Any) -> dict[str, Any]:
    """Clients send either the section's content or `{"flowdrop": {...}}`."""
    if not isinstance(options, Mapping):
        return {}
    inner = options.get(SECTION)
    return dict(inner) if isinstance(inner, Mapping) else dict(options)


class SettingsManager:
    """The server's side of the resolver: documents by URI, the editor's two layers, and the
    problems to show."""

    def __init__(self) -> None:
        self.initialization_options: dict[str, Any] = {}
        self.client_settings: dict[str, Any] = {}
        # Every distinct problem found so far, in order; the first `_shown` were drained.
        self.problems: list[str] = []
        self._known_problems: set[str] = set()  # the same, to look up (a list costs its length)
        self._shown = 0
        self._resolver = SettingsResolver(
            layers=(INITIALIZATION_OPTIONS, CLIENT_SETTINGS), report=self._report
        )

    @property
    def node_types(self) -> NodeTypeLocator:
        """The node-type definitions, read at first use per folder; lsp/node_types_sync.py keeps
        them current (watched files, open buffers of definitions)."""
        return self._resolver.node_types

    def set_initialization_options(self, options: Any) -> None:
        self.initialization_options = _section(options)
        self._resolver.set_layer(INITIALIZATION_OPTIONS, self.initialization_options)

    def set_client_settings(self, settings: Any) -> None:
        self.client_settings = _section(settings)
        self._resolver.set_layer(CLIENT_SETTINGS, self.client_settings)

    def invalidate(self) -> None:
        self._resolver.invalidate()

    def drain_new_problems(self) -> list[str]:
        """The problems found since the last call (each distinct problem is returned once)."""
        new = self.problems[self._shown :]
        self._shown = len(self.problems)
        return new

    def _report(self, problem: str) -> None:
        message = f"flowdrop: {problem}"
        if message not in self._known_problems:
            self._known_problems.add(message)
            self.problems.append(message)
            log.warning(message)

    def for_uri(self, uri: str) -> Settings:
        """The settings of the document `uri`: its folder's, with its `per-file-ignores`. A
        document not on disk (an unsaved buffer) has no folder: no project file, no registry."""
        path = uri_path(uri)
        if path is None or not uri.startswith("file:"):
            return self._resolver.for_folder(None)
        return self._resolver.for_file(Path(path))
