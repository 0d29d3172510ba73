"""The settings in force for a file: the one resolver the CLI and the server share.

For a file, lowest first: the defaults; the explicit settings file (the CLI's `--config`), else
the nearest project file (`flowdrop-lsp.toml`, or `[tool.flowdrop-lsp]` in `pyproject.toml`;
found once per folder); the override layers, in the order declared (the server's
`initializationOptions`, then `workspace/configuration`; the CLI has none); the node-type
registry of the file's folder (`Settings.with_registry`); the Twig names the site's modules add
(`Settings.with_site_twig`, core/workspace/twig_extensions.py); then the file's `per-file-ignores`.
Settings are cached per (project file, folder), with and without the registry; a folder first
met reads its project file afresh, as the server (which does not watch project files) always did.

It sits above the rules because it parses settings told the rule catalogue (`RULE_CODES`), so
that config, below the rules, never imports them.

One code path, two policies, chosen by `report`:
- strict (`report` None, the CLI): a settings problem raises SettingsError naming its source;
  an unreadable folder or node-type source raises OSError. Node-type problems are no errors:
  the caller reads them from `registry_for` (the CLI prints them once per registry).
- lenient (`report` given, the server): each problem is reported and the rest applies. An
  unknown key or rule code is skipped; a value of the wrong kind makes its whole source
  ignored, as its other values may be just as wrong; an unreadable project file leaves the
  defaults, and a folder that cannot be searched has no project file. Node-type problems are
  reported too. `report` may be called again with a problem
  already reported: showing each once is the caller's business.

Paths are matched as the caller spells them (`canonical`): the CLI resolves symbolic links, as
it does for the files it walks; the server keeps the editor's paths, which may run through a
linked folder, so that the project file's folder and the document's stay comparable.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from flowdrop_lsp.core.config.renamed_codes import current_code
from flowdrop_lsp.core.config.settings import (
    Settings,
    SettingsError,
    find_project_settings,
    read_settings_file,
    unknown_codes,
)
from flowdrop_lsp.core.domain.node_types import NodeTypeRegistry
from flowdrop_lsp.core.rules.registry import RULES_BY_CODE
from flowdrop_lsp.core.workspace.node_types import NodeTypeFiles, NodeTypeLocator
from flowdrop_lsp.core.workspace.reading import ReadSiteFile, read_site_file
from flowdrop_lsp.core.workspace.twig_extensions import TwigExtensionScanner

# The rule catalogue the settings are checked against, in the documented order.
RULE_CODES: tuple[str, ...] = tuple(RULES_BY_CODE)

Report = Callable[[str], None]
# How many files' per-file settings are kept (more are forgotten all at once).
MAX_FILES_KEPT = 4096


def current_rule_codes(codes: Iterable[str]) -> tuple[str, ...]:
    """`codes` as the rules are called today: a renamed rule's old code (FD-TOOLBOX-CYCLE) is
    its new one (DATA-10), so that a command line written before the rename keeps working."""
    return tuple(current_code(code) for code in codes)


def unknown_rule_codes(name: object, codes: Iterable[str]) -> list[str]:
    """A problem for each of `codes` that is no rule code, with the closest match; `name` says
    where the codes were given (a setting; None when the caller says it, as `--select` does)."""
    return unknown_codes(name, codes, RULE_CODES)


class SettingsResolver:
    """The settings of each file of a workspace (see the module docstring)."""

    def __init__(
        self,
        *,
        config: Path | None = None,
        layers: Sequence[str] = (),
        report: Report | None = None,
        node_types: NodeTypeLocator | None = None,
        canonical: Callable[[Path], Path] = Path.absolute,
        fallback_base: Path | None = None,
    ) -> None:
        """`config`: the settings file for every file (checked now: a strict caller stops
        before reading anything), else each folder's project file. `layers`: the names of the
        override layers, lowest first, all empty until `set_layer`. `report`: None for the
        strict policy, else where problems go. `fallback_base`: what `per-file-ignores` globs
        are relative to without a settings file (the CLI's working directory; the server:
        none, they match the whole path)."""
        self.config = config
        self.report = report
        self.canonical = canonical
        self.fallback_base = fallback_base
        # Read at first use per folder; the host keeps it current (open buffers, watched files).
        self.node_types = node_types if node_types is not None else NodeTypeLocator()
        # The Twig names each site's modules add, read once per site root until `invalidate`.
        self.twig_extensions = TwigExtensionScanner()
        self._layers: dict[str, Mapping[str, Any]] = {name: {} for name in layers}
        self._project_files: dict[Path, Path | None] = {}
        # (project file, folder) → the folder's settings; and with the folder's registry.
        self._by_folder: dict[tuple[Path | None, Path | None], Settings] = {}
        self._by_workflow_folder: dict[tuple[Path | None, Path], Settings] = {}
        # file → (the settings its per-file-ignores were matched under, the result): requests
        # ask again and again, and a table of thousands of globs costs to match.
        self._by_file: dict[Path, tuple[Settings, Settings]] = {}
        if config is not None:
            self._project_settings(config)

    @classmethod
    def for_check(
        cls, config: Path | None, cwd: Path, read_file: ReadSiteFile = read_site_file
    ) -> SettingsResolver:
        """The CLI's settings, strict: a bad settings file raises SettingsError naming it.
        Paths are resolved, as the walk resolves the folders it finds; `per-file-ignores`
        without a settings file are relative to the working directory `cwd`. Site files are
        read by `read_file` (a `check`'s `ReadOnce`: the registries, the check and the sites
        share each file's one read)."""
        return cls(
            config=config,
            node_types=NodeTypeLocator(base=cwd, files=NodeTypeFiles(read_file)),
            # Once per path in a run (a path is asked for several times: its settings, its
            # registry, its folder's), not a system call each time.
            canonical=functools.lru_cache(maxsize=16384)(Path.resolve),
            fallback_base=cwd,
        )

    @property
    def strict(self) -> bool:
        return self.report is None

    def set_layer(self, name: str, values: Mapping[str, Any]) -> None:
        """Replace the override layer `name` (a layer not declared comes last). Checked now,
        not at the next file: the server shows problems as soon as the client sends them."""
        self._layers[name] = dict(values)
        self._by_folder.clear()
        self._by_workflow_folder.clear()
        self._by_file.clear()
        self._apply(Settings(), values, name)

    def invalidate(self) -> None:
        """Forget every settings file and node-type definition read (they changed on disk)."""
        self._project_files.clear()
        self._by_folder.clear()
        self._by_workflow_folder.clear()
        self._by_file.clear()
        self.node_types.invalidate()
        self.twig_extensions.invalidate()

    def node_types_changed(self) -> None:
        """A node-type definition changed (its buffer, or on disk; the locator knows which
        folder): the settings made with the registries are made again when next asked. The
        project files stay as they were read."""
        self._by_workflow_folder.clear()
        self._by_file.clear()

    def project_file(self, folder: Path | None) -> Path | None:
        """The settings file of `folder`: `config`, else the nearest project file (None: no
        folder, an unsaved buffer; or none found)."""
        if self.config is not None:
            return self.config
        if folder is None:
            return None
        folder = self.canonical(folder)
        if folder not in self._project_files:
            try:
                self._project_files[folder] = find_project_settings(folder)
            except OSError:
                if self.strict:
                    raise
                self._project_files[folder] = None  # an unreadable folder: the defaults
        return self._project_files[folder]

    def for_folder(self, folder: Path | None) -> Settings:
        """The settings of `folder` (None: no folder) without any registry: what a walk needs
        (`files`, `exclude`), and standard input's."""
        if folder is not None:
            folder = self.canonical(folder)
        project_file = self.project_file(folder)
        key = (project_file, folder)
        cached = self._by_folder.get(key)
        if cached is None:
            cached = self._by_folder[key] = self._project_settings(project_file)
        return cached

    def for_workflow(self, path: Path) -> Settings:
        """The settings of the workflow file `path`, before its `per-file-ignores`: its folder's,
        with the node-type registry found for it."""
        folder = self.canonical(path).parent
        key = (self.project_file(folder), folder)
        cached = self._by_workflow_folder.get(key)
        if cached is None:
            registry = self.registry_for(path)
            site = self.twig_extensions.for_folder(folder)
            cached = (
                self.for_folder(folder)
                .with_registry(registry)
                .with_site_twig(
                    site.filters,
                    site.functions,
                    site.tests,
                    site.tags,
                    complete=site.complete,
                    origin=", ".join(str(f) for f in site.code_folders),
                )
            )
            self._by_workflow_folder[key] = cached
        return cached

    def for_file(self, path: Path) -> Settings:
        """The settings in force for the workflow file `path`, its `per-file-ignores` included."""
        return self.with_file_ignores(self.for_workflow(path), path)

    def with_file_ignores(self, settings: Settings, path: Path) -> Settings:
        """`settings` with the `per-file-ignores` matching `path` added to `ignore` (the CLI adds
        its command line's rule choice first, so that it cannot undo them). Kept per file while
        it is asked with the same settings object (the server's, until they change)."""
        path = self.canonical(path)
        cached = self._by_file.get(path)
        if cached is not None and cached[0] is settings:
            return cached[1]
        result = settings.for_file(path, self.fallback_base)
        if len(self._by_file) >= MAX_FILES_KEPT:  # the CLI's files each come once: no growth
            self._by_file.clear()
        self._by_file[path] = (settings, result)
        return result

    def registry_for(self, path: Path) -> NodeTypeRegistry | None:
        """The node-type registry of the workflow file `path` (None: no definitions found)."""
        settings = self.for_folder(self.canonical(path).parent)
        try:
            registry = self.node_types.for_workflow(path, settings)
        except OSError as error:
            if self.report is None:
                raise
            self.report(f"cannot read node-type definitions for {path}: {error}")
            return None  # the defaults stand
        if self.report is not None and registry is not None:
            for problem in registry.problems:
                self.report(f"node types: {problem}")
        return registry

    def _project_settings(self, project_file: Path | None) -> Settings:
        """The defaults, the settings file `project_file`, then every layer (not cached)."""
        settings = Settings()
        if project_file is not None:
            settings = self._read_settings_file(project_file)
        for name, values in self._layers.items():
            settings = self._apply(settings, values, name)
        return settings

    def _read_settings_file(self, path: Path) -> Settings:
        try:
            values = read_settings_file(path)
        except SettingsError as error:  # unreadable: the message names the file
            if self.report is None:
                raise
            self.report(str(error))
            settings = Settings()
        else:
            settings = self._apply(Settings(), values, str(path))
        # Globs resolve against the file's folder even when its values were refused.
        return replace(settings, config_dir=self.canonical(path).parent)

    def _apply(self, settings: Settings, values: Mapping[str, Any], origin: str) -> Settings:
        """`settings` with the source `values` applied, under the policy; `origin` names it."""
        if self.report is None:
            try:
                return settings.with_overrides(values, rule_codes=RULE_CODES)
            except SettingsError as error:
                raise SettingsError(f"{origin}: {error}") from None
        found: list[str] = []
        try:
            applied = settings.with_overrides(values, rule_codes=RULE_CODES, problems=found)
        except SettingsError as error:
            self.report(f"ignoring settings from {origin}: {error}")
            return settings
        for problem in found:
            self.report(f"{origin}: {problem}")
        return applied
