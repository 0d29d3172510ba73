"""Settings for the server, merged from every place a user may set them.

Precedence, lowest first: defaults; the project file the CLI reads (`flowdrop-lsp.toml` or
`[tool.flowdrop-lsp]` in `pyproject.toml`, nearest to the document); `initializationOptions`;
the client's `workspace/configuration` section `flowdrop`. A setting with a wrong value is
reported in the log and that source is ignored, never the whole server.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flowdrop_lsp.core.settings import (
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
        self._cache: dict[str, Settings] = {}
        self.problems: list[str] = []

    def set_initialization_options(self, options: Any) -> None:
        self.initialization_options = _section(options)
        self._cache.clear()

    def set_client_settings(self, settings: Any) -> None:
        self.client_settings = _section(settings)
        self._cache.clear()

    def invalidate(self) -> None:
        self._cache.clear()
        self._project_files.clear()

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
        try:
            return settings.with_overrides(values)
        except SettingsError as error:
            message = f"flowdrop: ignoring settings from {origin}: {error}"
            if message not in self.problems:
                self.problems.append(message)
                log.warning(message)
            return settings

    def for_uri(self, uri: str) -> Settings:
        project_file = self._project_file(uri)
        key = str(project_file)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        settings = Settings()
        if project_file is not None:
            try:
                settings = self._apply(
                    settings, read_settings_file(project_file), str(project_file)
                )
            except SettingsError as error:
                self.problems.append(str(error))
                log.warning("flowdrop: %s", error)
        settings = self._apply(settings, self.initialization_options, "initializationOptions")
        settings = self._apply(settings, self.client_settings, "workspace/configuration")
        self._cache[key] = settings
        return settings
