"""Where a workflow's node types come from: the definition files on disk (or in open buffers),
found per folder and read once.

`NodeTypeFiles` reads definition files (core/domain/node_types.py turns a text into a record)
and remembers each by its path and text: the settings' registry (`NodeTypeLocator`) and the
site index (core/workspace/site.py) ask it for the same file and get the same record, so a
definition is parsed once however many parts of the house read it (`parsed` counts). It also
carries how the house reads a site file from disk (`read_file`, core/workspace/reading.py):
the registry, the batch and the site read through it, so that a CLI run, which gives it its
`ReadOnce`, reads each file once.

`NodeTypeLocator` finds the registry of a workflow: the definition files in its own folder plus
the folders, files or globs of the `node-types` setting (relative to the settings file's
folder, else `base`, the working directory). None when no definition file is found: the
built-in defaults stand. What each folder holds is read once and cached until `invalidate`;
`overlay` (path → text) holds texts that win over the disk (an editor's unsaved buffers).
"""

from __future__ import annotations

import os
from pathlib import Path

from wcmatch import glob

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import (
    CONFIG_SUFFIXES,
    NODE_TYPE_CONFIG_PREFIX,
    is_node_type_file,
)
from flowdrop_lsp.core.domain.node_types import (
    NodeTypeDefinition,
    NodeTypeRead,
    NodeTypeRegistry,
    read_node_type,
    too_large,
)
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.base import NodeTypeContext
from flowdrop_lsp.core.rules.document import syntax_findings
from flowdrop_lsp.core.rules.registry import NODE_TYPE_RULES
from flowdrop_lsp.core.workspace.reading import ReadSiteFile, read_site_file

_GLOB_FLAGS = glob.GLOBSTAR | glob.BRACE | glob.DOTGLOB

Definition = NodeTypeDefinition | str  # a record, or the problem that kept it from being one


class NodeTypeFiles:
    """Definition files read once: each path's last text and what it holds (with the syntax
    tree it was read from, which the node-type rules judge: no second parse); and `read_file`,
    how the house reads a site file from disk (see the module docstring)."""

    def __init__(self, read_file: ReadSiteFile = read_site_file) -> None:
        self.read_file = read_file
        self._read: dict[Path, tuple[str, NodeTypeRead]] = {}
        self.parsed = 0  # how many texts were parsed (a test and the bench count them)

    def definition(self, path: Path, text: str) -> Definition:
        """What `text`, the content of definition file `path`, holds: the record read before
        for the same path and text, else read now."""
        return self.read(path, text).definition

    def read(self, path: Path, text: str) -> NodeTypeRead:
        """`definition`'s whole read: the record, the tree and the problems met."""
        path = Path(os.path.abspath(path))
        known = self._read.get(path)
        if known is not None and (known[0] is text or known[0] == text):
            return known[1]
        read = read_node_type(text, path)
        self.parsed += 1
        self._read[path] = (text, read)
        return read

    def forget(self, path: Path) -> None:
        self._read.pop(Path(os.path.abspath(path)), None)


def definition_findings(path: Path | str, text: str, read: NodeTypeRead) -> list[Finding]:
    """A definition file's own findings, from the read the site and the registries share
    (`NodeTypeFiles.read`: no second parse): its syntax (FD-SYNTAX, FD-DUPLICATE-KEY), then,
    when it is YAML at all, the node-type rules (core/rules/node_type_*.py); the host applies
    the settings. A file too large to read has none (its problem is said on the registry's
    stderr line)."""
    if read.too_large:
        return []
    found = list(syntax_findings(read.problems))
    if not any(problem.kind == "syntax" for problem in read.problems):
        definition = read.definition
        context = NodeTypeContext(
            str(path),
            text,
            read.root,
            definition if not isinstance(definition, str) else None,
            definition if isinstance(definition, str) else None,
        )
        for _rule, check in NODE_TYPE_RULES:
            found.extend(check(context))
    return found


def _has_magic(pattern: str) -> bool:
    return any(c in pattern for c in "*?[{")


class NodeTypeLocator:
    """Finds and caches the node-type registry of each workflow (see the module docstring)."""

    def __init__(self, base: Path | None = None, files: NodeTypeFiles | None = None) -> None:
        self.base = base
        self.files = files if files is not None else NodeTypeFiles()
        self.overlay: dict[Path, str] = {}
        self._folders: dict[Path, tuple[tuple[NodeTypeDefinition, ...], tuple[str, ...]]] = {}
        self._registries: dict[tuple[Path, ...], NodeTypeRegistry | None] = {}

    def invalidate(self) -> None:
        self._folders.clear()
        self._registries.clear()

    def invalidate_folder(self, folder: Path) -> None:
        """What `folder` holds changed (a definition in it, or the folder itself)."""
        folder = Path(os.path.abspath(folder))
        self._folders.pop(folder, None)
        for path in [p for p in self._folders if p.parent == folder]:
            self._folders.pop(path, None)  # an explicit file of the `node-types` setting
        self._registries = {
            sources: registry
            for sources, registry in self._registries.items()
            if not any(s == folder or s.parent == folder for s in sources)
        }

    def set_overlay(self, path: Path, text: str | None) -> None:
        """An open buffer's text for `path` (None: closed, the disk counts again)."""
        path = Path(os.path.abspath(path))
        if text is None:
            self.overlay.pop(path, None)
        else:
            self.overlay[path] = text
        self.invalidate_folder(path.parent)

    def sources_for(self, workflow: Path, settings: Settings) -> tuple[Path, ...]:
        """The folders (and explicit files) whose definitions apply to `workflow`."""
        folder = Path(os.path.abspath(workflow)).parent
        base = settings.config_dir or self.base or Path.cwd()
        found = [folder]
        for entry in settings.node_types:
            if _has_magic(entry):
                matches = glob.glob(entry, flags=_GLOB_FLAGS, root_dir=str(base))
                found += sorted(Path(os.path.abspath(base / match)) for match in matches)
            else:
                found.append(Path(os.path.abspath(base / entry)))
        return tuple(dict.fromkeys(found))

    def for_workflow(self, workflow: Path, settings: Settings) -> NodeTypeRegistry | None:
        sources = self.sources_for(workflow, settings)
        if sources not in self._registries:
            definitions: list[NodeTypeDefinition] = []
            problems: list[str] = []
            holding: list[Path] = []  # the sources that gave something: the ones to name
            for source in sources:
                read, met = self._read_source(source)
                if read or met:
                    holding.append(source)
                definitions += read
                problems += met
            self._registries[sources] = (
                NodeTypeRegistry.from_definitions(definitions, sources=holding, problems=problems)
                if holding
                else None
            )
        return self._registries[sources]

    def _read_source(self, source: Path) -> tuple[tuple[NodeTypeDefinition, ...], tuple[str, ...]]:
        cached = self._folders.get(source)
        if cached is not None:
            return cached
        if source.is_dir():
            paths = {
                Path(os.path.abspath(p))
                for suffix in CONFIG_SUFFIXES
                for p in source.glob(f"{NODE_TYPE_CONFIG_PREFIX}*{suffix}")
            }
            paths |= {p for p in self.overlay if p.parent == source and is_node_type_file(p)}
        elif source.is_file() or source in self.overlay:
            paths = {source}
        else:
            paths = set()
        definitions: list[NodeTypeDefinition] = []
        problems: list[str] = []
        for path in sorted(paths):
            text = self.overlay.get(path)
            if text is None:
                file = self.files.read_file(path)
                if file.too_large:
                    problems.append(too_large(path))
                    continue
                if file.text is None:
                    problems.append(f"{path}: cannot read: {file.error}")
                    continue
                text = file.text
            read = self.files.definition(path, text)
            if isinstance(read, str):
                problems.append(read)
            else:
                definitions.append(read)
        result = (tuple(definitions), tuple(problems))
        self._folders[source] = result
        return result
