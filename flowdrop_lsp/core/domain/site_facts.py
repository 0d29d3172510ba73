"""What one file tells the site about itself: the facts the cross-file rules check.

A site (a Drupal `config/sync`, or any folder of workflows and node-type definitions) is read
file by file into small frozen records, and the site index (core/workspace/site.py) joins them.
A workflow file gives `WorkflowFacts`: its `id`, label and description, its `dependencies.config`
list, its contract (`input_ports`, `output_ports`, `parameter_schema.required`), and per node
and edge the few things a call or a dependency needs. A node-type definition gives
`NodeTypeFacts`: its `id`, `executor_plugin`, and the names of its `parameters` and `outputs`.
Every value keeps the span of its token (absolute code-point offsets into that file's text as
it was read), so a finding can be anchored in the file it is about.

The facts are read from the format-neutral syntax tree (`core/syntax/tree.py`), so JSON and
YAML workflows give the same facts; they never raise, whatever the tree holds (a wrong type is
simply not a fact).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from flowdrop_lsp.core.domain.model import expand, resolve_node_type
from flowdrop_lsp.core.syntax.tree import JArray, JLiteral, JObject, JsonValue, JString, OpaqueValue
from flowdrop_lsp.core.text.positions import Span

WORKFLOW_CONFIG_PREFIX = "flowdrop_workflow.flowdrop_workflow."
NODE_TYPE_CONFIG_PREFIX = "flowdrop_node_type.flowdrop_node_type."
# A node type calling one workflow: `flowdrop_workflow_executor:flowdrop_workflow:<workflow id>`.
# With two segments (`flowdrop_workflow_executor:workflow_executor`) the type picks its workflow
# at run time, from the node's `config.workflow_id`.
CALL_PLUGIN_PREFIX = "flowdrop_workflow_executor:flowdrop_workflow:"
GENERIC_CALL_PLUGIN_PREFIX = "flowdrop_workflow_executor:"
WORKFLOW_ID_SETTING = "workflow_id"
INPUT_HANDLE = "-input-"
OUTPUT_HANDLE = "-output-"
CONFIG_SUFFIXES = (".yml", ".yaml")
# The keys Drupal writes before `dependencies` in a config entity's file: a created
# `dependencies` goes before the first other top-level key.
KEYS_BEFORE_DEPENDENCIES = frozenset({"uuid", "langcode", "status", "_core"})


def is_workflow_config_file(path: os.PathLike[str] | str) -> bool:
    """Whether `path` is named like a Drupal workflow config file."""
    name = os.path.basename(os.fspath(path))
    return name.startswith(WORKFLOW_CONFIG_PREFIX) and name.endswith(CONFIG_SUFFIXES)


def config_kind(name: str) -> str:
    """The kind of a config name: all but its last segment (`flowdrop_node_type.
    flowdrop_node_type.chat_input` → `flowdrop_node_type.flowdrop_node_type`)."""
    return name.rpartition(".")[0]


@dataclass(frozen=True, slots=True)
class Located:
    """A string and the span of its token (for a mapping key: the key's token)."""

    value: str
    span: Span


@dataclass(frozen=True, slots=True)
class PortBinding:
    """One entry of a workflow's `input_ports` / `output_ports`: the contract's port `name`,
    bound to `port` of node `node_id`. `span` is the whole entry."""

    name: Located | None
    node_id: Located | None
    port: Located | None
    span: Span
    index: int = 0  # its position in its side's list (the spec's `schema.{side}.{index}`)


@dataclass(frozen=True, slots=True)
class SiteNode:
    """What the site needs of one node: its id, its type (the token naming it), where findings
    about it go (`anchor`: its label, else its id), how messages name it, its literal
    `config.workflow_id` (a generic executor's callee) and the ports it declares itself
    (`config.ports`, `config.dynamicInputs` / `dynamicOutputs`, gateway branches)."""

    id: str | None
    type_id: Located | None
    anchor: Span
    display: str
    label: str | None
    workflow_id: Located | None
    own_inputs: frozenset[str]
    own_outputs: frozenset[str]
    # The node's own exposure overrides (`config.ports.{inputs,outputs}[]` entries with an
    # `exposed` key): (direction "input"/"output", port id, exposed: anything but an exact
    # false shows the port, R7.c/CFG-2).
    exposure_overrides: tuple[tuple[str, str, bool], ...] = ()


@dataclass(frozen=True, slots=True)
class SiteEdge:
    """What the site needs of one edge: its ends and the ports its handles name
    (`<node>-input-<port>` / `<node>-output-<port>`), with the target handle's span."""

    id: str | None
    source: str | None
    target: str | None
    target_port: str | None
    source_port: str | None
    anchor: Span


@dataclass(frozen=True, slots=True)
class ConfigList:
    """A workflow's `dependencies.config`: its entries, and where a new entry would go.

    `key_span` is the `dependencies` key (None when there is none), `list_span` the `config`
    list value (None when `dependencies` has no `config` list), `dependencies_span` the value of
    `dependencies` (a mapping, possibly empty)."""

    entries: tuple[Located, ...]
    key_span: Span | None
    dependencies_span: Span | None
    list_span: Span | None
    # Other keys of `dependencies` (module, theme, enforced…) and their key spans: Drupal sorts
    # them, `config` first.
    other_keys: tuple[Located, ...] = ()
    # The `config` key of `dependencies` (None when there is none).
    config_key: Span | None = None


@dataclass(frozen=True, slots=True)
class WorkflowFacts:
    id: Located | None
    label: str | None
    description: str | None
    dependencies: ConfigList
    input_ports: tuple[PortBinding, ...]
    output_ports: tuple[PortBinding, ...]
    required_parameters: tuple[Located, ...]
    nodes: tuple[SiteNode, ...]
    edges: tuple[SiteEdge, ...]
    # Whether the file declares a contract at all (`input_ports`/`output_ports`/`parameter_schema`).
    has_contract: bool = False
    # Whether it has the `input_ports` / `output_ports` key (a side it declares, even empty).
    has_input_ports: bool = False
    has_output_ports: bool = False
    # Where a `dependencies` key would be created: the start of the first top-level key Drupal
    # writes after it (None: no such key).
    dependencies_at: int | None = None

    @property
    def workflow_id(self) -> str | None:
        return self.id.value if self.id is not None else None


@dataclass(frozen=True, slots=True)
class NodeTypeFacts:
    id: Located | None
    label: str | None
    description: str | None
    executor_plugin: Located | None
    parameters: tuple[Located, ...]
    outputs: tuple[Located, ...]
    # The `parameters` / `outputs` keys themselves (None when absent).
    parameters_key: Span | None = None
    outputs_key: Span | None = None
    # The declared ports the type hides unless a node shows them: (direction, port) for a
    # parameter `exposed_by_default: false`, an output `exposed_by_default: false` (else
    # `exposed: false`), as core/config/node_types.py and core/domain/ports.py read them.
    hidden_by_default: frozenset[tuple[str, str]] = frozenset()

    @property
    def type_id(self) -> str | None:
        return self.id.value if self.id is not None else None

    @property
    def called_workflow(self) -> str | None:
        """The workflow this type calls (`…:flowdrop_workflow:<id>`), else None."""
        plugin = self.executor_plugin
        if plugin is None or not plugin.value.startswith(CALL_PLUGIN_PREFIX):
            return None
        return plugin.value[len(CALL_PLUGIN_PREFIX) :]

    @property
    def is_generic_call(self) -> bool:
        """A type that picks its workflow at run time from the node's `config.workflow_id`."""
        plugin = self.executor_plugin
        return (
            plugin is not None
            and plugin.value.startswith(GENERIC_CALL_PLUGIN_PREFIX)
            and plugin.value.count(":") == 1
            and any(p.value == WORKFLOW_ID_SETTING for p in self.parameters)
        )


# ----- reading ---------------------------------------------------------------------------------


def _span(value: JsonValue) -> Span:
    return Span(value.start, value.end)


def _object(value: JsonValue | None) -> JObject | None:
    return value if isinstance(value, JObject) else None


def _located(value: JsonValue | None) -> Located | None:
    if isinstance(value, JString) and value.value:
        return Located(value.value, _span(value))
    return None


def _plain_string(value: JsonValue | None) -> str | None:
    return value.value if isinstance(value, JString) else None


def _keys(value: JsonValue | None) -> tuple[Located, ...]:
    obj = _object(value)
    if obj is None:
        return ()
    return tuple(Located(m.key.value, _span(m.key)) for m in obj.members)


def _items(value: JsonValue | None, text: str) -> Iterator[JsonValue | None]:
    if isinstance(value, OpaqueValue):
        value = expand(value, text)
    if isinstance(value, JArray):
        for item in value.items:
            yield expand(item, text) if isinstance(item, OpaqueValue) else item


def _full(value: JsonValue | None, text: str) -> JsonValue | None:
    return expand(value, text) if isinstance(value, OpaqueValue) else value


def _strings(value: JsonValue | None, text: str) -> tuple[Located, ...]:
    found = (_located(item) for item in _items(value, text))
    return tuple(item for item in found if item is not None)


def _ids_in(value: JsonValue | None, text: str, key: str = "id") -> frozenset[str]:
    """The `key` strings of a list of objects (`config.ports.inputs[].id`), or the strings of
    a list of strings."""
    found: set[str] = set()
    for item in _items(value, text):
        if isinstance(item, JString):
            found.add(item.value)
        elif isinstance(item, JObject):
            named = item.get(key)
            if isinstance(named, JString):
                found.add(named.value)
    return frozenset(found)


def _port_bindings(value: JsonValue | None, text: str) -> tuple[PortBinding, ...]:
    bindings: list[PortBinding] = []
    for index, item in enumerate(_items(value, text)):
        obj = _object(item)
        if obj is None:
            continue
        bindings.append(
            PortBinding(
                _located(obj.get("name")),
                _located(obj.get("node_id")),
                _located(obj.get("port")),
                _span(obj),
                index,
            )
        )
    return tuple(bindings)


def _site_node(value: JsonValue | None, text: str) -> SiteNode | None:
    node = _object(value)
    if node is None:
        return None
    node_id = _plain_string(node.get("id"))
    type_token = resolve_node_type(node)
    data = _object(node.get("data"))
    label_value = data.get("label") if data is not None else None
    label = _plain_string(label_value)
    if isinstance(label_value, JString) and label_value.value:
        anchor = _span(label_value)
    elif isinstance(node.get("id"), JString):
        anchor = _span(node.get("id"))  # type: ignore[arg-type]
    else:
        anchor = Span(node.start, node.start + 1)
    config = _object(data.get("config")) if data is not None else None
    inputs: set[str] = set()
    outputs: set[str] = set()
    workflow_id = None
    overrides: list[tuple[str, str, bool]] = []
    if config is not None:
        workflow_id = _located(config.get(WORKFLOW_ID_SETTING))
        ports = _object(_full(config.get("ports"), text))
        if ports is not None:
            inputs |= _ids_in(ports.get("inputs"), text)
            outputs |= _ids_in(ports.get("outputs"), text)
            overrides = _overrides(ports, text)
        inputs |= _ids_in(config.get("dynamicInputs"), text, "name")
        inputs |= _ids_in(config.get("dynamicInputs"), text, "id")
        outputs |= _ids_in(config.get("dynamicOutputs"), text, "name")
        outputs |= _ids_in(config.get("dynamicOutputs"), text, "id")
        outputs |= _ids_in(config.get("branches"), text, "name")
    shown = node_id if node_id is not None else "?"
    display = f'"{label}" ({shown})' if label else shown
    return SiteNode(
        node_id,
        Located(type_token.value, _span(type_token)) if type_token is not None else None,
        anchor,
        display,
        label,
        workflow_id,
        frozenset(inputs),
        frozenset(outputs),
        tuple(overrides),
    )


def _overrides(ports: JObject, text: str) -> list[tuple[str, str, bool]]:
    found = []
    for direction, key in (("input", "inputs"), ("output", "outputs")):
        for item in _items(ports.get(key), text):
            entry = _object(item)
            port = _plain_string(entry.get("id")) if entry is not None else None
            if entry is None or port is None or entry.member("exposed") is None:
                continue
            exposed = entry.get("exposed")
            found.append(
                (direction, port, not (isinstance(exposed, JLiteral) and exposed.value is False))
            )
    return found


def _handle_port(handle: str | None, node: str | None, marker: str) -> str | None:
    """The port a handle names: `<node>-input-<port>` → port (None when it is not shaped so)."""
    if handle is None:
        return None
    if node is not None and handle.startswith(node + marker):
        return handle[len(node) + len(marker) :]
    at = handle.rfind(marker)
    return handle[at + len(marker) :] if at >= 0 else None


def _site_edge(value: JsonValue | None) -> SiteEdge | None:
    edge = _object(value)
    if edge is None:
        return None
    source = _plain_string(edge.get("source"))
    target = _plain_string(edge.get("target"))
    target_handle = edge.get("targetHandle")
    anchor_value = target_handle if isinstance(target_handle, JString) else edge.get("id")
    anchor = (
        _span(anchor_value)
        if isinstance(anchor_value, JString)
        else Span(edge.start, edge.start + 1)
    )
    return SiteEdge(
        _plain_string(edge.get("id")),
        source,
        target,
        _handle_port(_plain_string(target_handle), target, INPUT_HANDLE),
        _handle_port(_plain_string(edge.get("sourceHandle")), source, OUTPUT_HANDLE),
        anchor,
    )


def _config_list(root: JObject, text: str) -> ConfigList:
    member = root.member("dependencies")
    if member is None:
        return ConfigList((), None, None, None)
    dependencies = _full(member.value, text)
    obj = _object(dependencies)
    config = obj.get("config") if obj is not None else None
    other = tuple(k for k in _keys(obj) if k.value != "config")
    config_member = obj.member("config") if obj is not None else None
    return ConfigList(
        _strings(config, text),
        _span(member.key),
        _span(dependencies) if dependencies is not None else None,
        _span(config) if isinstance(config, JArray) else None,
        other,
        _span(config_member.key) if config_member is not None else None,
    )


def workflow_facts(root: JsonValue | None, text: str) -> WorkflowFacts | None:
    """The facts of a workflow read into `root` (None when it is not an object)."""
    obj = _object(root)
    if obj is None:
        return None
    label = _plain_string(obj.get("label")) or _plain_string(obj.get("name"))
    schema = _object(_full(obj.get("parameter_schema"), text))
    nodes = tuple(n for n in (_site_node(v, text) for v in _items(obj.get("nodes"), text)) if n)
    edges = tuple(e for e in (_site_edge(v) for v in _items(obj.get("edges"), text)) if e)
    return WorkflowFacts(
        id=_located(obj.get("id")),
        label=label,
        description=_plain_string(obj.get("description")),
        dependencies=_config_list(obj, text),
        input_ports=_port_bindings(obj.get("input_ports"), text),
        output_ports=_port_bindings(obj.get("output_ports"), text),
        required_parameters=_strings(schema.get("required"), text) if schema else (),
        nodes=nodes,
        edges=edges,
        has_contract=any(
            obj.member(key) is not None
            for key in ("input_ports", "output_ports", "parameter_schema")
        ),
        has_input_ports=obj.member("input_ports") is not None,
        has_output_ports=obj.member("output_ports") is not None,
        dependencies_at=next(
            (m.key.start for m in obj.members if m.key.value not in KEYS_BEFORE_DEPENDENCIES),
            None,
        ),
    )


def _key_span(obj: JObject, key: str) -> Span | None:
    member = obj.member(key)
    return _span(member.key) if member is not None else None


def node_type_facts(root: JsonValue | None) -> NodeTypeFacts | None:
    """The facts of a node-type definition read into `root` (None when it is not a mapping
    with a string `id`)."""
    obj = _object(root)
    if obj is None or _located(obj.get("id")) is None:
        return None
    return NodeTypeFacts(
        id=_located(obj.get("id")),
        label=_plain_string(obj.get("label")),
        description=_plain_string(obj.get("description")),
        executor_plugin=_located(obj.get("executor_plugin")),
        parameters=_keys(obj.get("parameters")),
        outputs=_keys(obj.get("outputs")),
        parameters_key=_key_span(obj, "parameters"),
        outputs_key=_key_span(obj, "outputs"),
        hidden_by_default=_hidden_by_default(obj),
    )


def _hidden_by_default(definition: JObject) -> frozenset[tuple[str, str]]:
    def flag(entry: JObject | None, key: str) -> bool | None:
        value = entry.get(key) if entry is not None else None
        return (
            value.value if isinstance(value, JLiteral) and isinstance(value.value, bool) else None
        )

    hidden: set[tuple[str, str]] = set()
    for direction, key in (("input", "parameters"), ("output", "outputs")):
        ports = _object(definition.get(key))
        for member in ports.members if ports is not None else ():
            entry = _object(member.value)
            stated = flag(entry, "exposed_by_default")
            if stated is None and direction == "output":
                stated = flag(entry, "exposed")
            if stated is False:
                hidden.add((direction, member.key.value))
    return frozenset(hidden)


# ----- what a cross-file rule sees ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SiteWorkflow:
    """A workflow of the site: its file and its facts."""

    path: str
    facts: WorkflowFacts


@dataclass(frozen=True, slots=True)
class SiteNodeType:
    """A node type of the site: its definition file and its facts."""

    path: str
    facts: NodeTypeFacts


@dataclass(frozen=True, slots=True)
class CallStep:
    """One call on a call cycle: in workflow `caller` (its file `path`), node `node` calls
    workflow `callee`."""

    caller: str
    path: str
    node: SiteNode
    callee: str


class SiteView(Protocol):
    """What the cross-file rules may ask of the site (core/workspace/site.py answers)."""

    def workflow(self, workflow_id: str) -> SiteWorkflow | None:
        """The workflow with this `id` (the first by path when several share it)."""
        ...

    def node_type(self, type_id: str) -> SiteNodeType | None: ...

    def has_config(self, name: str) -> bool:
        """Whether config `name` (a file `<name>.yml` of the site's folder) exists."""
        ...

    def has_node_types(self) -> bool:
        """Whether the site defines any node type (without them, types are not judged)."""
        ...

    def has_workflows(self) -> bool:
        """Whether the site holds any workflow."""
        ...

    def unreadable_workflow(self, workflow_id: str) -> bool:
        """Whether the file of this workflow is in the site but could not be read (its own
        check reports why): a call of it is not a call of a missing workflow."""
        ...

    def has_config_kind(self, name: str) -> bool:
        """Whether the site holds any config of the kind of config `name` (the same name but
        its last segment: `flowdrop_node_type.flowdrop_node_type.*`, `system.*`)."""
        ...

    def call_cycle(self, workflow_id: str) -> tuple[CallStep, ...]:
        """The calls of one cycle through this workflow, starting at it (empty: none)."""
        ...

    def call_path(self, start: str, goal: str) -> tuple[CallStep, ...]:
        """The calls of one shortest chain from workflow `start` to workflow `goal` (empty:
        `goal` is not reached; a workflow reaches itself only through at least one call)."""
        ...

    def callee_of(self, node: SiteNode) -> str | None:
        """The workflow a node calls: its type's workflow, or a generic executor's literal
        `config.workflow_id`; None when it calls none."""
        ...


@dataclass(frozen=True, slots=True)
class SiteContext:
    """One file checked against its site: a workflow or a node-type definition."""

    path: str
    site: SiteView
    workflow: WorkflowFacts | None = None
    node_type: NodeTypeFacts | None = None
    # The file's text as the index read it (the facts' spans are offsets into it).
    text: str = ""
