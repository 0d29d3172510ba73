"""Settings for the server, merged from every place a user may set them.

Precedence, lowest first: defaults; the project file the CLI reads (`flowdrop-lsp.toml` or
`[tool.flowdrop-lsp]` in `pyproject.toml`, nearest to the document); `initializationOptions`;
the client's `workspace/configuration` section `flowdrop`. Then the node-type registry of the
document's folder (core/config/node_types.py) sets the node-type roles, under the rules of
`Settings.with_registry`; so settings are cached per project file AND folder.

Problems never stop the server. An unknown key or rule code is reported and skipped, and the rest
of that source applies (editors send keys of their own, and a typo should not cost the user their
other settings); a value of the wrong kind makes the whole source ignored, as its other values
may be just as wrong. Each distinct problem is recorded once; `drain_new_problems` hands out the
ones not yet shown, so the user sees each once rather than at every publish.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from flowdrop_lsp.core.config.node_types import NodeTypeLocator, NodeTypeRegistry
from flowdrop_lsp.core.config.settings import (
    Settings,
    SettingsError,
    find_project_settings,
    read_settings_file,
)
from flowdrop_lsp.lsp.documents import uri_path

SECTION = "flowdrop"
log = logging.getLogger(__name__)


def _section(options: Any) -> dict[str, Any]:
    """Clients send either the section's content or `{"flowdrop": {...}}`."""
    if not isinstance(options, Mapping):
        return {}
    inner = options.get(SECTION)
    return dict(inner) if isinstance(inner, Mapping) else dict(options)


class SettingsManager:
    def __init__(self) -> None:
        self.initialization_options: dict[str, Any] = {}
        self.client_settings: dict[str, Any] = {}
        self._project_files: dict[str, Path | None] = {}
        self._cache: dict[tuple[str, str], Settings] = {}
        # Node-type definitions, read at first use per folder; lsp/node_types_sync.py keeps it
        # current (watched files, open buffers of definitions).
        self.node_types = NodeTypeLocator()
        # Every distinct problem found so far, in order; the first `_shown` were drained.
        self.problems: list[str] = []
        self._shown = 0

    def set_initialization_options(self, options: Any) -> None:
        self.initialization_options = _section(options)
        self._cache.clear()
        # Checked now, not at the first document: problems are shown after `initialized`.
        self._apply(Settings(), self.initialization_options, "initializationOptions")

    def set_client_settings(self, settings: Any) -> None:
        self.client_settings = _section(settings)
        self._cache.clear()
        self._apply(Settings(), self.client_settings, "workspace/configuration")

    def invalidate(self) -> None:
        self._cache.clear()
        self._project_files.clear()
        self.node_types.invalidate()

    def drain_new_problems(self) -> list[str]:
        """The problems found since the last call (each distinct problem is returned once)."""
        new = self.problems[self._shown :]
        self._shown = len(self.problems)
        return new

    def _report(self, message: str) -> None:
        if message not in self.problems:
            self.problems.append(message)
            log.warning(message)

    def _project_file(self, uri: str) -> Path | None:
        path = uri_path(uri)
        if path is None or not uri.startswith("file:"):
            return None
        folder = str(path.parent)
        if folder not in self._project_files:
            try:
                self._project_files[folder] = find_project_settings(Path(folder))
            except OSError:
                self._project_files[folder] = None
        return self._project_files[folder]

    def _apply(self, settings: Settings, values: Mapping[str, Any], origin: str) -> Settings:
        found: list[str] = []
        try:
            applied = settings.with_overrides(values, problems=found)
        except SettingsError as error:
            self._report(f"flowdrop: ignoring settings from {origin}: {error}")
            return settings
        for problem in found:
            self._report(f"flowdrop: {origin}: {problem}")
        return applied

    def for_uri(self, uri: str) -> Settings:
        """The settings of the document `uri`: its folder's, with its `per-file-ignores`."""
        settings = self._for_folder(uri)
        path = uri_path(uri)
        if path is None or not uri.startswith("file:"):
            return settings
        # Globs without a settings file of their own match the whole path (`**/legacy/**`).
        return settings.for_file(Path(path), None)

    def _for_folder(self, uri: str) -> Settings:
        project_file = self._project_file(uri)
        path = uri_path(uri)
        on_disk = path is not None and uri.startswith("file:")
        key = (str(project_file), str(path.parent) if on_disk and path is not None else "")
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        settings = Settings()
        if project_file is not None:
            try:
                values = read_settings_file(project_file)
            except SettingsError as error:  # unreadable: the message names the file
                self._report(f"flowdrop: {error}")
            else:
                settings = self._apply(settings, values, str(project_file))
            # Globs resolve against the project file's folder even when its values were refused.
            settings = replace(settings, config_dir=project_file.absolute().parent)
        settings = self._apply(settings, self.initialization_options, "initializationOptions")
        settings = self._apply(settings, self.client_settings, "workspace/configuration")
        if on_disk and path is not None:
            settings = settings.with_registry(self._registry(Path(path), settings))
        self._cache[key] = settings
        return settings

    def _registry(self, path: Path, settings: Settings) -> NodeTypeRegistry | None:
        try:
            registry = self.node_types.for_workflow(path, settings)
        except OSError as error:  # an unreadable folder: the defaults stand
            self._report(f"flowdrop: cannot read node-type definitions for {path}: {error}")
            return None
        for problem in registry.problems if registry is not None else ():
            self._report(f"flowdrop: node types: {problem}")
        return registry
