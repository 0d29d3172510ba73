"""A site's node types: what one definition says, read once, for every rule that asks.

A FlowDrop site keeps each node type as config, `flowdrop_node_type.flowdrop_node_type.<id>.yml`
(core/config/site_files.py), beside its workflows. One definition is read here, from the syntax
tree of its text (the YAML reader of core/syntax), into a `NodeTypeDefinition`: its tool roles,
its parameters and outputs with their gate flags and defaults, `reserved_port_exposure`,
`supported_visual_types` and its own `visual_type`, its `executor_plugin` (a call of a workflow), and the spans of what
the cross-file rules point at. The launch checks (through `Settings.node_type_catalog`), the
node-type roles (`Settings.with_registry`) and the cross-file rules (through the site index)
all read these same records: a definition file is parsed once.

From each definition, the tool roles:
- `executor_plugin` ending in `:toolbox` → a toolbox (passthrough) type;
- `parameters.tool.connectable: true` → the type accepts tools;
- `outputs.tool.exposed: true` or `tool_exposed: true` → the type may be offered as a tool.

Config YAML is data, never code: the tree reader composes, it never constructs an object from a
tag. An invalid definition is a problem naming its file, never an exception. Finding the files
(and the disk) is core/workspace/node_types.py's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flowdrop_lsp.core.config.site_files import MAX_SITE_FILE_BYTES
from flowdrop_lsp.core.syntax.reader import reader_for
from flowdrop_lsp.core.syntax.tree import (
    JLiteral,
    JObject,
    JsonValue,
    JString,
    SyntaxProblem,
    to_python,
)
from flowdrop_lsp.core.text.positions import Span

# A node type calling one workflow: `flowdrop_workflow_executor:flowdrop_workflow:<workflow id>`.
# With two segments (`flowdrop_workflow_executor:workflow_executor`) the type picks its workflow
# at run time, from the node's `config.workflow_id`.
CALL_PLUGIN_PREFIX = "flowdrop_workflow_executor:flowdrop_workflow:"
GENERIC_CALL_PLUGIN_PREFIX = "flowdrop_workflow_executor:"
WORKFLOW_ID_SETTING = "workflow_id"


@dataclass(frozen=True, slots=True)
class Located:
    """A string and the span of its token (for a mapping key: the key's token)."""

    value: str
    span: Span


@dataclass(frozen=True)
class ParameterSpec:
    """One entry of a definition's `parameters`: its gate flags as written (None: not said) and
    its declared default. `default` is the YAML value itself (for a fix that writes it);
    `default_text` its stable JSON text, what equality and hashing compare. `key_span`: its key
    in the definition's file."""

    name: str
    configurable: bool | None = None
    connectable: bool | None = None
    required: bool | None = None
    exposed_by_default: bool | None = None
    has_default: bool = False
    default_text: str = ""
    default: Any = field(default=None, compare=False, hash=False, repr=False)
    key_span: Span | None = field(default=None, compare=False, hash=False, repr=False)

    @property
    def located(self) -> Located:
        return Located(self.name, self.key_span or Span(0, 0))


@dataclass(frozen=True)
class OutputSpec:
    """One entry of a definition's `outputs`: whether it is exposed (None: not said)."""

    name: str
    exposed: bool | None = None
    exposed_by_default: bool | None = None
    key_span: Span | None = field(default=None, compare=False, hash=False, repr=False)

    @property
    def located(self) -> Located:
        return Located(self.name, self.key_span or Span(0, 0))


@dataclass(frozen=True)
class DefinitionSpans:
    """Where a definition's parts are in its file (for cross-file findings and navigation)."""

    id: Span | None = None
    executor_plugin: Span | None = None
    # The `parameters` / `outputs` keys themselves (None when absent).
    parameters_key: Span | None = None
    outputs_key: Span | None = None


@dataclass(frozen=True)
class NodeTypeDefinition:
    """What one definition says: its tool roles, the parameters and outputs a node of the type
    has (what the launch checks compare a node's `config` and edges with), and what a call type
    calls. Equality and hashing leave out what no check of a workflow reads (spans, label,
    description): a definition edited only there judges every workflow as before."""

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
    # The type's own visual type (`visual_type`: the editor's default rendering), None unsaid.
    visual_type: str | None = None
    # A definition in the pre-1.0 format (`version` and a `config:` block of defaults, no
    # `parameters`): its config keys are read as its configurable parameters; its ports are
    # declared by its processor in code, so none is known from the file (`in_code_ports`).
    legacy_format: bool = False
    # The instance-level confirmation choices the type grants its authors
    # (`confirmation.author_controls`: `waive`, `require`); None when it says nothing of
    # confirmation at all, () for `confirmation: {  }` (none granted). RT-GATE-8 reads it.
    confirmation_controls: tuple[str, ...] | None = None
    # The modules its config depends on (`dependencies.module`): the ones providing it (R1.a).
    modules: tuple[str, ...] = ()
    label: str | None = field(default=None, compare=False, hash=False)
    description: str | None = field(default=None, compare=False, hash=False, repr=False)
    spans: DefinitionSpans = field(default=DefinitionSpans(), compare=False, hash=False, repr=False)

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
    def offered_visual_types(self) -> tuple[str, ...]:
        """The visual types a node of this type may take (`config.nodeType`): its
        `supported_visual_types`, and its own `visual_type` — the value FlowDrop writes as the
        key's default (SCH-20), offered even where the list leaves it out or says nothing (the
        editor falls back to the type's visual type then: `getAvailableNodeTypes` in
        flowdrop-io/flowdrop, libs/flowdrop/src/lib/utils/nodeTypes.ts). () when the type says
        neither."""
        own = (self.visual_type,) if self.visual_type else ()
        return tuple(dict.fromkeys((*self.supported_visual_types, *own)))

    @property
    def parameter_names(self) -> frozenset[str]:
        return frozenset(spec.name for spec in self.parameters)

    @property
    def output_names(self) -> frozenset[str]:
        return frozenset(spec.name for spec in self.outputs)

    @property
    def located_id(self) -> Located:
        return Located(self.id, self.spans.id or Span(0, 0))

    @property
    def located_plugin(self) -> Located | None:
        """The `executor_plugin` token (None when it is no non-empty string)."""
        if not self.executor_plugin or self.spans.executor_plugin is None:
            return None
        return Located(self.executor_plugin, self.spans.executor_plugin)

    @property
    def called_workflow(self) -> str | None:
        """The workflow this type calls (`…:flowdrop_workflow:<id>`), else None."""
        plugin = self.executor_plugin
        if not plugin or not plugin.startswith(CALL_PLUGIN_PREFIX):
            return None
        return plugin[len(CALL_PLUGIN_PREFIX) :]

    @property
    def is_generic_call(self) -> bool:
        """A type that picks its workflow at run time from the node's `config.workflow_id`."""
        plugin = self.executor_plugin
        return (
            bool(plugin)
            and plugin is not None
            and plugin.startswith(GENERIC_CALL_PLUGIN_PREFIX)
            and plugin.count(":") == 1
            and self.parameter(WORKFLOW_ID_SETTING) is not None
        )


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
        return self._hash  # type: ignore[attr-defined]

    def get(self, type_id: str | None) -> NodeTypeDefinition | None:
        if type_id is None:
            return None
        return self._by_id.get(type_id)  # type: ignore[attr-defined]

    @property
    def ids(self) -> list[str]:
        return list(self._by_id)  # type: ignore[attr-defined]


# ----- what a definition may say ---------------------------------------------------------------

# The top-level keys of a FlowDrop 1.0 definition: every key the 90 definitions of a real site
# (tests/corpus/atelier-cms) write, which are the keys of the config entity as Drupal exports it
# (`_core` is Drupal's own, written by `drush cex` for config a module shipped).
DEFINITION_KEYS = (
    "uuid",
    "langcode",
    "status",
    "dependencies",
    "_core",
    "id",
    "label",
    "description",
    "category",
    "icon",
    "plugin_version",
    "enabled",
    "parameters",
    "outputs",
    "tags",
    "executor_plugin",
    "visual_type",
    "supported_visual_types",
    "unified_input_exposed",
    "unified_output_exposed",
    "tool_exposed",
    "confirmation",
    "reserved_port_exposure",
)
# What the pre-1.0 format wrote instead (`version`, `inputs`/`outputs` lists, `config:` defaults
# and `config_schema`, `color`): a definition holding them and no `parameters` is that format.
LEGACY_KEYS = ("version", "inputs", "config", "config_schema", "color")
# A `parameters` entry's keys: the gate flags (spec CFG-1; `exposed_by_default`, CFG-2), the
# node type's default (CFG-3), and a schema where a definition states one inline (`type`,
# `enum`: what FD-NODE-TYPE-DEFAULT compares the default with).
PARAMETER_FLAGS = ("configurable", "connectable", "required", "exposed_by_default")
PARAMETER_KEYS = (*PARAMETER_FLAGS, "default", "schema")
# An `outputs` entry's keys: its exposure flags.
OUTPUT_FLAGS = ("exposed", "exposed_by_default")
OUTPUT_KEYS = OUTPUT_FLAGS


# ----- reading one definition -------------------------------------------------------------------


def _flag(value: JsonValue | None) -> bool | None:
    return value.value if isinstance(value, JLiteral) and isinstance(value.value, bool) else None


def _object(value: JsonValue | None) -> JObject | None:
    return value if isinstance(value, JObject) else None


def _string(value: JsonValue | None) -> str | None:
    return value.value if isinstance(value, JString) else None


def _span(value: JsonValue | None) -> Span | None:
    return Span(value.start, value.end) if value is not None else None


def _stable_json(value: Any) -> str:
    # YAML may hold values JSON has no word for: their text is enough to compare.
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _parameters(raw: JObject | None) -> tuple[ParameterSpec, ...]:
    specs = []
    for member in raw.members if raw is not None else ():
        entry = _object(member.value)
        default_member = entry.member("default") if entry is not None else None
        default = to_python(default_member.value) if default_member is not None else None
        specs.append(
            ParameterSpec(
                member.key.value,
                configurable=_flag(entry.get("configurable")) if entry else None,
                connectable=_flag(entry.get("connectable")) if entry else None,
                required=_flag(entry.get("required")) if entry else None,
                exposed_by_default=_flag(entry.get("exposed_by_default")) if entry else None,
                has_default=default_member is not None,
                default_text=_stable_json(default) if default_member is not None else "",
                default=default,
                key_span=_span(member.key),
            )
        )
    return _last_of_each(specs)


def _modules(dependencies: JObject | None) -> tuple[str, ...]:
    listed = to_python(dependencies.get("module")) if dependencies is not None else None
    return tuple(m for m in listed if isinstance(m, str)) if isinstance(listed, list) else ()


def _controls(confirmation: JObject | None) -> tuple[str, ...] | None:
    if confirmation is None:
        return None
    granted = to_python(confirmation.get("author_controls"))
    return tuple(c for c in granted if isinstance(c, str)) if isinstance(granted, list) else ()


def _legacy_parameters(config: JObject | None) -> tuple[ParameterSpec, ...]:
    """A pre-1.0 definition's `config:` block (defaults by key) as the parameters it stands for:
    each key configurable, with its default; required-ness and connectability unsaid."""
    specs = []
    for member in config.members if config is not None else ():
        default = to_python(member.value)
        specs.append(
            ParameterSpec(
                member.key.value,
                configurable=True,
                has_default=True,
                default_text=_stable_json(default),
                default=default,
                key_span=_span(member.key),
            )
        )
    return _last_of_each(specs)


def _outputs(raw: JObject | None) -> tuple[OutputSpec, ...]:
    specs = []
    for member in raw.members if raw is not None else ():
        entry = _object(member.value)
        specs.append(
            OutputSpec(
                member.key.value,
                exposed=_flag(entry.get("exposed")) if entry else None,
                exposed_by_default=_flag(entry.get("exposed_by_default")) if entry else None,
                key_span=_span(member.key),
            )
        )
    return _last_of_each(specs)


def _last_of_each(specs: list[Any]) -> tuple[Any, ...]:
    """One spec per name, the last written (as a mapping read by Symfony keeps the last of a
    repeated key), in the order of their first appearance."""
    by_name: dict[str, Any] = {}
    for spec in specs:
        by_name[spec.name] = spec
    return tuple(by_name.values())


def too_large(path: Path) -> str:
    return f"{path}: larger than {MAX_SITE_FILE_BYTES} bytes; skipped"


def is_legacy_format(data: JObject) -> bool:
    """The pre-1.0 format: no `parameters`, and a `config:` block of defaults or a `version`."""
    if data.member("parameters") is not None:
        return False
    return isinstance(data.get("config"), JObject) or data.member("version") is not None


def definition_from_tree(root: JsonValue | None, path: Path) -> NodeTypeDefinition | str:
    """The definition a tree holds (read from `path`), or a problem naming the file."""
    data = _object(root)
    if data is None:
        return f"{path}: not a node-type definition (expected a mapping at the top level)"
    id_value = data.get("id")
    type_id = _string(id_value)
    if not type_id:
        return f"{path}: not a node-type definition (no string 'id')"
    plugin_value = data.get("executor_plugin")
    plugin = _string(plugin_value)
    parameters = _object(data.get("parameters"))
    outputs = _object(data.get("outputs"))
    legacy = is_legacy_format(data)
    legacy_config = _object(data.get("config")) if legacy else None
    tool_parameter = _object(parameters.get("tool")) if parameters else None
    tool_output = _object(outputs.get("tool")) if outputs else None
    reserved = _object(data.get("reserved_port_exposure"))
    visual = to_python(data.get("supported_visual_types"))
    parameters_member = data.member("parameters")
    outputs_member = data.member("outputs")
    return NodeTypeDefinition(
        id=type_id,
        path=path,
        toolbox=plugin is not None and plugin.endswith(":toolbox"),
        accepts_tools=tool_parameter is not None
        and _flag(tool_parameter.get("connectable")) is True,
        tool_exposed=(tool_output is not None and _flag(tool_output.get("exposed")) is True)
        or _flag(data.get("tool_exposed")) is True,
        executor_plugin=plugin,
        parameters=_legacy_parameters(legacy_config) if legacy else _parameters(parameters),
        outputs=_outputs(outputs),
        legacy_format=legacy,
        confirmation_controls=_controls(_object(data.get("confirmation"))),
        modules=_modules(_object(data.get("dependencies"))),
        reserved_port_exposure=tuple(
            (name, flag)
            for name, flag in (
                {m.key.value: _flag(m.value) for m in reserved.members}.items() if reserved else ()
            )
            if flag is not None
        ),
        supported_visual_types=tuple(
            v for v in (visual if isinstance(visual, list) else ()) if isinstance(v, str)
        ),
        visual_type=_string(data.get("visual_type")),
        label=_string(data.get("label")),
        description=_string(data.get("description")),
        spans=DefinitionSpans(
            id=_span(id_value),
            executor_plugin=_span(plugin_value) if plugin else None,
            parameters_key=_span(parameters_member.key) if parameters_member else None,
            outputs_key=_span(outputs_member.key) if outputs_member else None,
        ),
    )


@dataclass(frozen=True)
class NodeTypeRead:
    """What one definition file's text holds, read once: the definition (or the problem that
    kept the text from being one), its syntax tree and the problems met reading it (for the
    node-type rules, which judge the file itself: core/rules/node_type_*.py). Equality leaves
    the tree out."""

    definition: NodeTypeDefinition | str
    root: JsonValue | None = field(default=None, compare=False, hash=False, repr=False)
    problems: tuple[SyntaxProblem, ...] = ()
    # Over MAX_SITE_FILE_BYTES: never parsed.
    too_large: bool = False


def read_node_type(text: str, path: Path) -> NodeTypeRead:
    """The definition in `text` (the content of `path`) with the tree it was read from. A text
    with a syntax error is no definition (Drupal would not import it); nor is one over the
    size every reader of site files keeps to."""
    if len(text) > MAX_SITE_FILE_BYTES or len(text.encode("utf-8", "replace")) > (
        MAX_SITE_FILE_BYTES
    ):
        return NodeTypeRead(too_large(path), too_large=True)
    try:
        parsed = reader_for("yaml").read(text).parsed
    except (RecursionError, ValueError, MemoryError) as error:  # deeply nested or odd input
        return NodeTypeRead(f"{path}: cannot read: {error}")
    problems = tuple(parsed.problems)
    broken = next((p for p in problems if p.kind == "syntax"), None)
    if broken is not None:
        message = broken.message.removeprefix("YAML: ")
        return NodeTypeRead(
            f"{path}: not valid YAML: {' '.join(message.split())}", parsed.root, problems
        )
    return NodeTypeRead(definition_from_tree(parsed.root, path), parsed.root, problems)


def read_definition(text: str, path: Path) -> NodeTypeDefinition | str:
    """The definition in `text` (the content of `path`), or a problem naming the file."""
    return read_node_type(text, path).definition


# ----- a site's definitions ----------------------------------------------------------------------


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
