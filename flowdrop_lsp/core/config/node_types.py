"""A site's node-type registry: what its Drupal node-type definitions say about tools.

A FlowDrop site keeps each node type as config, `flowdrop_node_type.flowdrop_node_type.<id>.yml`,
in the same folder as its workflows (`config/sync`). From each definition:

- `executor_plugin` ending in `:toolbox` → a toolbox (passthrough) type;
- `parameters.tool.connectable: true` → the type accepts tools;
- `outputs.tool.exposed: true` or `tool_exposed: true` → the type may be offered as a tool.

`NodeTypeRegistry` is the frozen result; `Settings.with_registry` turns it into node-type roles,
so the rules and the engine never see it. `NodeTypeLocator` finds the registry of a workflow
(the definitions in its own folder plus the `node-types` setting) and caches what it read per
folder, because the CLI checks hundreds of files from a handful of folders.

Config YAML is data, never code: it is read with PyYAML's safe loader (no object is ever
constructed from a tag), files over `MAX_DEFINITION_BYTES` are skipped, and an unreadable or
invalid file is a problem the registry records, never an exception.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from wcmatch import glob

from flowdrop_lsp.core.config.settings import Settings

try:
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader

FILE_PREFIX = "flowdrop_node_type.flowdrop_node_type."
FILE_SUFFIXES = (".yml", ".yaml")
MAX_DEFINITION_BYTES = 1024 * 1024
_GLOB_FLAGS = glob.GLOBSTAR | glob.BRACE | glob.DOTGLOB


def is_definition_file(path: os.PathLike[str] | str) -> bool:
    """Whether `path` is named like a node-type definition."""
    name = os.path.basename(os.fspath(path))
    return name.startswith(FILE_PREFIX) and name.endswith(FILE_SUFFIXES)


@dataclass(frozen=True)
class ParameterSpec:
    """One entry of a definition's `parameters`: its gate flags as written (None: not said) and
    its declared default. `default` is the YAML value itself (for a fix that writes it);
    `default_text` its stable JSON text, what equality and hashing compare."""

    name: str
    configurable: bool | None = None
    connectable: bool | None = None
    required: bool | None = None
    exposed_by_default: bool | None = None
    has_default: bool = False
    default_text: str = ""
    default: Any = field(default=None, compare=False, hash=False, repr=False)


@dataclass(frozen=True)
class OutputSpec:
    """One entry of a definition's `outputs`: whether it is exposed (None: not said)."""

    name: str
    exposed: bool | None = None
    exposed_by_default: bool | None = None


@dataclass(frozen=True)
class NodeTypeDefinition:
    """What one definition says: its tool roles, and the parameters and outputs a node of the
    type has (what the launch checks compare a node's `config` and edges with)."""

    id: str
    path: Path
    toolbox: bool
    accepts_tools: bool
    tool_exposed: bool
    executor_plugin: str | None = None
    parameters: tuple[ParameterSpec, ...] = ()
    outputs: tuple[OutputSpec, ...] = ()
    # `reserved_port_exposure` (trigger, error, tool, loop_back → exposed), as written.
    reserved_port_exposure: tuple[tuple[str, bool], ...] = ()
    supported_visual_types: tuple[str, ...] = ()

    def parameter(self, name: str) -> ParameterSpec | None:
        for spec in self.parameters:
            if spec.name == name:
                return spec
        return None

    def output(self, name: str) -> OutputSpec | None:
        for spec in self.outputs:
            if spec.name == name:
                return spec
        return None

    @property
    def parameter_names(self) -> frozenset[str]:
        return frozenset(spec.name for spec in self.parameters)

    @property
    def output_names(self) -> frozenset[str]:
        return frozenset(spec.name for spec in self.outputs)


@dataclass(frozen=True)
class NodeTypeCatalog:
    """A site's definitions by id, for the rules that read a node's type (launch checks). Frozen
    and hashed once: it is part of every `Settings` of the site's workflows."""

    definitions: tuple[NodeTypeDefinition, ...] = ()

    def __post_init__(self) -> None:
        # Not fields: neither compared nor part of the stable text the cache keys on.
        object.__setattr__(self, "_by_id", {d.id: d for d in self.definitions})
        object.__setattr__(self, "_hash", hash(self.definitions))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    def get(self, type_id: str | None) -> NodeTypeDefinition | None:
        if type_id is None:
            return None
        return self._by_id.get(type_id)  # type: ignore[attr-defined, no-any-return]

    @property
    def ids(self) -> list[str]:
        return list(self._by_id)  # type: ignore[attr-defined]


def _flag(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _parameters(raw: Any) -> tuple[ParameterSpec, ...]:
    if not isinstance(raw, Mapping):
        return ()
    specs = []
    for name, entry in raw.items():
        if not isinstance(name, str):
            continue
        entry = entry if isinstance(entry, Mapping) else {}
        has_default = "default" in entry
        default = entry.get("default")
        specs.append(
            ParameterSpec(
                name,
                configurable=_flag(entry.get("configurable")),
                connectable=_flag(entry.get("connectable")),
                required=_flag(entry.get("required")),
                exposed_by_default=_flag(entry.get("exposed_by_default")),
                has_default=has_default,
                default_text=_stable_json(default) if has_default else "",
                default=default,
            )
        )
    return tuple(specs)


def _outputs(raw: Any) -> tuple[OutputSpec, ...]:
    if not isinstance(raw, Mapping):
        return ()
    return tuple(
        OutputSpec(
            name,
            exposed=_flag(entry.get("exposed")) if isinstance(entry, Mapping) else None,
            exposed_by_default=_flag(entry.get("exposed_by_default"))
            if isinstance(entry, Mapping)
            else None,
        )
        for name, entry in raw.items()
        if isinstance(name, str)
    )


def _stable_json(value: Any) -> str:
    # YAML may hold values JSON has no word for (dates): their text is enough to compare.
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _get(value: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def read_definition(text: str, path: Path) -> NodeTypeDefinition | str:
    """The definition in `text` (the content of `path`), or a problem naming the file."""
    if len(text) > MAX_DEFINITION_BYTES or len(text.encode("utf-8", "replace")) > (
        MAX_DEFINITION_BYTES
    ):
        return f"{path}: larger than {MAX_DEFINITION_BYTES} bytes; skipped"
    try:
        data = yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader, see above
    except yaml.YAMLError as error:
        return f"{path}: not valid YAML: {' '.join(str(error).split())}"
    except (RecursionError, ValueError) as error:  # deeply nested or odd input
        return f"{path}: cannot read: {error}"
    if not isinstance(data, Mapping):
        return f"{path}: not a node-type definition (expected a mapping at the top level)"
    type_id = data.get("id")
    if not isinstance(type_id, str) or not type_id:
        return f"{path}: not a node-type definition (no string 'id')"
    plugin = data.get("executor_plugin")
    reserved = data.get("reserved_port_exposure")
    visual = data.get("supported_visual_types")
    return NodeTypeDefinition(
        id=type_id,
        path=path,
        toolbox=isinstance(plugin, str) and plugin.endswith(":toolbox"),
        accepts_tools=_get(data, "parameters", "tool", "connectable") is True,
        tool_exposed=_get(data, "outputs", "tool", "exposed") is True
        or data.get("tool_exposed") is True,
        executor_plugin=plugin if isinstance(plugin, str) else None,
        parameters=_parameters(data.get("parameters")),
        outputs=_outputs(data.get("outputs")),
        reserved_port_exposure=tuple(
            (name, flag)
            for name, flag in (reserved.items() if isinstance(reserved, Mapping) else ())
            if isinstance(name, str) and isinstance(flag, bool)
        ),
        supported_visual_types=tuple(
            v for v in (visual if isinstance(visual, list) else ()) if isinstance(v, str)
        ),
    )


@dataclass(frozen=True)
class NodeTypeRegistry:
    """The node types a site defines and their roles, with where they came from and the problems
    met while reading them."""

    types: frozenset[str] = frozenset()
    toolbox_types: frozenset[str] = frozenset()
    tool_accepting_types: frozenset[str] = frozenset()
    tool_exposed_types: frozenset[str] = frozenset()
    # The folders (or explicit files) searched, and the definition files read.
    sources: tuple[Path, ...] = ()
    files: tuple[Path, ...] = ()
    problems: tuple[str, ...] = ()
    definitions: tuple[NodeTypeDefinition, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_definitions(
        cls,
        definitions: Iterable[NodeTypeDefinition],
        *,
        sources: Sequence[Path] = (),
        problems: Sequence[str] = (),
    ) -> NodeTypeRegistry:
        by_id: dict[str, NodeTypeDefinition] = {}
        found = list(problems)
        for definition in definitions:
            earlier = by_id.get(definition.id)
            if earlier is not None and earlier.path != definition.path:
                # As config import would: one entity per id; the later file wins.
                found.append(
                    f"{definition.path}: node type '{definition.id}' is also defined in "
                    f"{earlier.path}; using this one"
                )
            by_id[definition.id] = definition
        chosen = list(by_id.values())
        return cls(
            types=frozenset(by_id),
            toolbox_types=frozenset(d.id for d in chosen if d.toolbox),
            tool_accepting_types=frozenset(d.id for d in chosen if d.accepts_tools),
            tool_exposed_types=frozenset(d.id for d in chosen if d.tool_exposed),
            sources=tuple(dict.fromkeys(sources)),
            files=tuple(d.path for d in chosen),
            problems=tuple(dict.fromkeys(found)),
            definitions=tuple(chosen),
        )

    @classmethod
    def from_texts(
        cls, texts: Iterable[tuple[Path, str]], *, sources: Sequence[Path] = ()
    ) -> NodeTypeRegistry:
        """The registry of definition texts, each with the path it came from."""
        definitions: list[NodeTypeDefinition] = []
        problems: list[str] = []
        for path, text in texts:
            read = read_definition(text, path)
            if isinstance(read, str):
                problems.append(read)
            else:
                definitions.append(read)
        return cls.from_definitions(definitions, sources=sources, problems=problems)

    @property
    def catalog(self) -> NodeTypeCatalog:
        return NodeTypeCatalog(self.definitions)

    def describe(self, relative_to: Path | None = None) -> str:
        """`90 definitions from config/sync` (paths relative to `relative_to` when below it)."""
        places = ", ".join(_shown(source, relative_to) for source in self.sources) or "nowhere"
        count = len(self.types)
        return f"{count} definition{'s' if count != 1 else ''} from {places}"


def _shown(path: Path, base: Path | None) -> str:
    if base is not None:
        try:
            return str(path.relative_to(base)) or "."
        except ValueError:
            pass
    return str(path)


def _has_magic(pattern: str) -> bool:
    return any(c in pattern for c in "*?[{")


ReadText = Callable[[Path], str]


def _read_file(path: Path) -> str:
    # Checked before reading: a huge file is never loaded into memory.
    if path.stat().st_size > MAX_DEFINITION_BYTES:
        raise _TooLarge
    return path.read_text(encoding="utf-8")


class _TooLarge(Exception):
    pass


class NodeTypeLocator:
    """Finds and caches the node-type registry of each workflow.

    A workflow's registry: the definition files in its own folder, plus the folders, files or
    globs of the `node-types` setting (relative to the settings file's folder, else `base`, the
    working directory). None when no definition file is found: the built-in defaults stand.

    What each folder holds is read once and cached until `invalidate`. `overlay` (path → text)
    holds texts that win over the disk: an editor's unsaved buffers of definition files."""

    def __init__(self, base: Path | None = None, read_text: ReadText = _read_file) -> None:
        self.base = base
        self._read_text = read_text
        self.overlay: dict[Path, str] = {}
        self._folders: dict[Path, tuple[tuple[NodeTypeDefinition, ...], tuple[str, ...]]] = {}
        self._registries: dict[tuple[Path, ...], NodeTypeRegistry | None] = {}

    def invalidate(self) -> None:
        self._folders.clear()
        self._registries.clear()

    def set_overlay(self, path: Path, text: str | None) -> None:
        """An open buffer's text for `path` (None: closed, the disk counts again)."""
        path = Path(os.path.abspath(path))
        if text is None:
            self.overlay.pop(path, None)
        else:
            self.overlay[path] = text
        self.invalidate()

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
                for suffix in FILE_SUFFIXES
                for p in source.glob(f"{FILE_PREFIX}*{suffix}")
            }
            paths |= {p for p in self.overlay if p.parent == source and is_definition_file(p)}
        elif source.is_file() or source in self.overlay:
            paths = {source}
        else:
            paths = set()
        definitions: list[NodeTypeDefinition] = []
        problems: list[str] = []
        for path in sorted(paths):
            try:
                text = self.overlay[path] if path in self.overlay else self._read_text(path)
            except _TooLarge:
                problems.append(f"{path}: larger than {MAX_DEFINITION_BYTES} bytes; skipped")
                continue
            except (OSError, UnicodeDecodeError) as error:
                problems.append(f"{path}: cannot read: {error}")
                continue
            read = read_definition(text, path)
            if isinstance(read, str):
                problems.append(read)
            else:
                definitions.append(read)
        result = (tuple(definitions), tuple(problems))
        self._folders[source] = result
        return result
