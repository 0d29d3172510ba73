"""Settings for the server: the shared resolver (core/workspace/resolver.py), lenient, fed with
the editor's settings, its problems shown once each.

Precedence, lowest first: defaults; the project file the CLI reads (`flowdrop-lsp.toml` or
`[tool.flowdrop-lsp]` in `pyproject.toml`, nearest to the document); `initializationOptions`;
the client's `workspace/configuration` section `flowdrop`. Then the node-type registry of the
document's folder (core/workspace/node_types.py) sets the node-type roles, under the rules of
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

from flowdrop_lsp.core.facade import NodeTypeLocator, Settings, SettingsResolver
from flowdrop_lsp.lsp.documents import uri_path

SECTION = "flowdrop"
INITIALIZATION_OPTIONS = "initializationOptions"
CLIENT_SETTINGS = "workspace/configuration"
log = logging.getLogger(__name__)


# `flowdrop.diagnostics.scope`: which files get diagnostics. A server setting, not an analysis
# one: it is taken out of the section before the resolver reads it (see `_server_settings`).
SCOPE_WORKSPACE = "workspace"
SCOPE_OPEN = "open"
SCOPES = (SCOPE_WORKSPACE, SCOPE_OPEN)


def _section(options: Any) -> dict[str, Any]:
    """Clients send either the section's content or `{"flowdrop": {...}}`."""
    if not isinstance(options, Mapping):
        return {}
    inner = options.get(SECTION)
    return dict(inner) if isinstance(inner, Mapping) else dict(options)


def _server_settings(section: dict[str, Any]) -> tuple[dict[str, Any], str | None, str | None]:
    """The section without the server's own `diagnostics` settings, the scope it sets (None
    when it sets none) and a problem with it. Editors send it nested (`{"diagnostics":
    {"scope": "open"}}`, VS Code) or dotted (`{"diagnostics.scope": "open"}`)."""
    scope: Any = None
    nested = section.pop("diagnostics", None)
    if isinstance(nested, Mapping):
        scope = nested.get("scope")
    dotted = section.pop("diagnostics.scope", None)
    if dotted is not None:
        scope = dotted
    if scope is None:
        return section, None, None
    if scope not in SCOPES:
        return (
            section,
            None,
            (
                f"diagnostics.scope: expected one of {', '.join(SCOPES)}, got {scope!r}; "
                f"using {SCOPE_WORKSPACE!r}"
            ),
        )
    return section, scope, None


class SettingsManager:
    """The server's side of the resolver: documents by URI, the editor's two layers, and the
    problems to show."""

    def __init__(self) -> None:
        self.initialization_options: dict[str, Any] = {}
        self.client_settings: dict[str, Any] = {}
        # The scope each layer sets (the client's settings over the initialization options).
        self._scopes: dict[str, str | None] = {}
        # Every distinct problem found so far, in order; the first `_shown` were drained.
        self.problems: list[str] = []
        self._known_problems: set[str] = set()  # the same, to look up (a list costs its length)
        self._shown = 0
        self._resolver = SettingsResolver(
            layers=(INITIALIZATION_OPTIONS, CLIENT_SETTINGS), report=self._report
        )

    @property
    def resolver(self) -> SettingsResolver:
        """The shared resolver (the host keeps its node types current: watched files, open
        buffers of definitions)."""
        return self._resolver

    @property
    def node_types(self) -> NodeTypeLocator:
        """The node-type definitions, read at first use per folder."""
        return self._resolver.node_types

    def set_initialization_options(self, options: Any) -> None:
        self.initialization_options = self._take_scope(INITIALIZATION_OPTIONS, _section(options))
        self._resolver.set_layer(INITIALIZATION_OPTIONS, self.initialization_options)

    def set_client_settings(self, settings: Any) -> None:
        self.client_settings = self._take_scope(CLIENT_SETTINGS, _section(settings))
        self._resolver.set_layer(CLIENT_SETTINGS, self.client_settings)

    def _take_scope(self, layer: str, section: dict[str, Any]) -> dict[str, Any]:
        section, scope, problem = _server_settings(section)
        self._scopes[layer] = scope
        if problem is not None:
            self._report(f"{layer}: {problem}")
        return section

    @property
    def diagnostics_scope(self) -> str:
        """`workspace` (every file of the workspace's sites gets diagnostics, open or not) or
        `open` (open files only; the sites are still read for their cross-file findings)."""
        for layer in (CLIENT_SETTINGS, INITIALIZATION_OPTIONS):
            scope = self._scopes.get(layer)
            if scope is not None:
                return scope
        return SCOPE_WORKSPACE

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
