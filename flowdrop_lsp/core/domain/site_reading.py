"""What one workflow file tells the site, read: the facts of core/domain/site_facts.py.

A workflow's nodes and edges are the model's (`site_node`, `site_edge` of core/domain/model.py's
`Node` and `Edge`), their ports as core/domain/ports.py reads them (`OwnPorts`); its top level is
read from the format-neutral syntax tree (`workflow_header`). The engine makes an open buffer's
facts from what it already read (core/engine/document.py `site_facts`); a file read for its facts
alone reads its nodes and edges into the same model (`workflow_facts`). Both give equal facts;
they never raise, whatever the tree holds (a wrong type is simply not a fact).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.domain.node_types import WORKFLOW_ID_SETTING, Located
from flowdrop_lsp.core.domain.ports import own_ports
from flowdrop_lsp.core.domain.site_facts import (
    ConfigList,
    ContractShape,
    PortBinding,
    SiteEdge,
    SiteNode,
    WorkflowFacts,
)
from flowdrop_lsp.core.domain.tree_reading import expand, read_edge, read_node
from flowdrop_lsp.core.syntax.tree import (
    JArray,
    JLiteral,
    JNumber,
    JObject,
    JsonValue,
    JString,
    OpaqueValue,
    value_at,
)
from flowdrop_lsp.core.text.positions import Span

# The keys Drupal writes before `dependencies` in a config entity's file: a created
# `dependencies` goes before the first other top-level key.
KEYS_BEFORE_DEPENDENCIES = frozenset({"uuid", "langcode", "status", "_core"})
# Reading a node or an edge for its facts needs no setting of the user's.
_PLAIN_SETTINGS = Settings()

# What an entry of `input_ports` / `output_ports` must name (a contract name bound to a node).
BINDING_KEYS = ("name", "node_id")


SpanMaker = Callable[[JsonValue], Span]


def _absolute(value: JsonValue) -> Span:
    return Span(value.start, value.end)


class _Reading:
    """Reads a workflow's top level into facts; `span` makes each token's span (absolute, or
    anchored where the engine keeps the text moving under them)."""

    def __init__(self, text: str, span: SpanMaker = _absolute) -> None:
        self.text = text
        self.span = span

    def located(self, value: JsonValue | None) -> Located | None:
        if isinstance(value, JString) and value.value:
            return Located(value.value, self.span(value))
        return None

    def keys(self, value: JsonValue | None) -> tuple[Located, ...]:
        obj = _object(value)
        if obj is None:
            return ()
        return tuple(Located(m.key.value, self.span(m.key)) for m in obj.members)

    def items(self, value: JsonValue | None) -> Iterator[JsonValue | None]:
        value = self.full(value)
        if isinstance(value, JArray):
            for item in value.items:
                yield self.full(item)

    def full(self, value: JsonValue | None) -> JsonValue | None:
        return expand(value, self.text) if isinstance(value, OpaqueValue) else value

    def strings(self, value: JsonValue | None) -> tuple[Located, ...]:
        found = (self.located(item) for item in self.items(value))
        return tuple(item for item in found if item is not None)

    def contract_shape(self, key: str, value: JsonValue | None) -> Iterator[ContractShape]:
        """What of a side of the contract FlowDrop cannot read as one: a value that is no list
        (Drupal writes an empty one `{  }`, and null is nothing), an entry that is no mapping or
        lacks a `name` or `node_id` string."""
        value = self.full(value)
        if not _listing(value):
            yield ContractShape(
                key,
                f"{key} is {_kind(value)}, not a list of entries (each with a name, a node_id "
                "and a port): the workflow declares no contract on this side",
                self.span(value) if value is not None else Span(0, 0),
                whole=True,
            )
            return
        for item in self.items(value):
            obj = _object(item)
            if obj is None and item is not None:
                yield ContractShape(
                    key,
                    f"this {key} entry is {_kind(item)}, not a mapping with a name, a node_id "
                    "and a port: it is dropped",
                    self.span(item),
                )
            if obj is None:
                continue
            lacking = [k for k in BINDING_KEYS if self.located(obj.get(k)) is None]
            if lacking:
                yield ContractShape(
                    key,
                    f"this {key} entry has no {' and no '.join(lacking)} (a non-empty string): "
                    "it binds nothing",
                    self.span(obj),
                )

    def port_bindings(self, value: JsonValue | None) -> tuple[PortBinding, ...]:
        bindings: list[PortBinding] = []
        for index, item in enumerate(self.items(value)):
            obj = _object(item)
            if obj is None:
                continue
            bindings.append(
                PortBinding(
                    self.located(obj.get("name")),
                    self.located(obj.get("node_id")),
                    self.located(obj.get("port")),
                    self.span(obj),
                    index,
                )
            )
        return tuple(bindings)

    def config_list(self, root: JObject) -> ConfigList:
        member = root.member("dependencies")
        if member is None:
            return ConfigList((), None, None, None)
        dependencies = self.full(member.value)
        obj = _object(dependencies)
        config = obj.get("config") if obj is not None else None
        other = tuple(k for k in self.keys(obj) if k.value != "config")
        config_member = obj.member("config") if obj is not None else None
        return ConfigList(
            self.strings(config),
            self.span(member.key),
            self.span(dependencies) if dependencies is not None else None,
            self.span(config) if isinstance(config, JArray) else None,
            other,
            self.span(config_member.key) if config_member is not None else None,
        )


def _object(value: JsonValue | None) -> JObject | None:
    return value if isinstance(value, JObject) else None


def _declares(root: JObject, key: str, reading: _Reading) -> bool:
    """Whether the workflow declares a side of its contract: it has the key, written as a list
    (a value that is no list is reported, not read as an empty contract to compare)."""
    member = root.member(key)
    return member is not None and _listing(reading.full(member.value))


def _listing(value: JsonValue | None) -> bool:
    """Whether a contract side's value reads as a list: a list, Drupal's empty `{  }`, null."""
    if isinstance(value, JObject):
        return not value.members
    return (
        value is None
        or isinstance(value, JArray)
        or (isinstance(value, JLiteral) and value.value is None)
    )


_KINDS = ((JString, "a string"), (JNumber, "a number"), (JArray, "a list"), (JObject, "a mapping"))


def _kind(value: JsonValue | None) -> str:
    """What a value is, as a message says it."""
    if isinstance(value, JLiteral):
        return "null" if value.value is None else "a boolean"
    return next((word for kind, word in _KINDS if isinstance(value, kind)), "no value")


def _plain_string(value: JsonValue | None) -> str | None:
    return value.value if isinstance(value, JString) else None


def workflow_header(
    root: JsonValue | None, text: str, span: SpanMaker = _absolute
) -> WorkflowFacts | None:
    """The facts of a workflow's top level, without its nodes and edges (None when the root is
    not an object): what the engine reads at each whole read, its elements' facts coming from
    their models (`site_node`, `site_edge`)."""
    obj = _object(root)
    if obj is None:
        return None
    reading = _Reading(text, span)
    # (A fast path reads scalars whole too: a string is a string however it was read.)
    label = _plain_string(reading.full(obj.get("label"))) or _plain_string(
        reading.full(obj.get("name"))
    )
    schema = _object(reading.full(obj.get("parameter_schema")))
    first_after = next(
        (m.key for m in obj.members if m.key.value not in KEYS_BEFORE_DEPENDENCIES), None
    )
    return WorkflowFacts(
        id=reading.located(reading.full(obj.get("id"))),
        label=label,
        description=_plain_string(reading.full(obj.get("description"))),
        dependencies=reading.config_list(obj),
        input_ports=reading.port_bindings(obj.get("input_ports")),
        output_ports=reading.port_bindings(obj.get("output_ports")),
        required_parameters=reading.strings(schema.get("required")) if schema else (),
        nodes=(),
        edges=(),
        has_contract=any(
            obj.member(key) is not None
            for key in ("input_ports", "output_ports", "parameter_schema")
        ),
        has_input_ports=_declares(obj, "input_ports", reading),
        has_output_ports=_declares(obj, "output_ports", reading),
        dependencies_at=span(first_after) if first_after is not None else None,
        contract_shape=tuple(
            shape
            for key in ("input_ports", "output_ports")
            for shape in reading.contract_shape(key, obj.get(key))
        ),
    )


def site_node(node: Node, locate: Callable[[tuple[str | int, ...]], Span | None]) -> SiteNode:
    """What the site needs of a node of the model; `locate` finds the span of a value below it
    (asked only for a literal `config.workflow_id`)."""
    spans = node.spans
    if node.label and spans.label_span is not None:
        anchor = spans.label_span
    elif spans.id_span is not None:
        anchor = spans.id_span
    else:
        anchor = Span(node.span.start, node.span.start + 1, node.span.base)
    config = node.config if isinstance(node.config, dict) else None
    workflow_id = None
    called = config.get(WORKFLOW_ID_SETTING) if config is not None else None
    if isinstance(called, str) and called:
        where = locate(("data", "config", WORKFLOW_ID_SETTING))
        if where is not None:
            workflow_id = Located(called, where)
    shown = node.id if node.id is not None else "?"
    return SiteNode(
        node.id,
        Located(node.type_id, spans.type_span)
        if node.type_id is not None and spans.type_span is not None
        else None,
        anchor,
        f'"{node.label}" ({shown})' if node.label else shown,
        node.label,
        workflow_id,
        own_ports(config, node.stored_ports),
    )


def site_edge(edge: Edge) -> SiteEdge:
    """What the site needs of an edge of the model."""
    spans = edge.spans
    anchor = spans.target_handle_span or spans.id_span
    return SiteEdge(
        edge.id,
        edge.source,
        edge.target,
        edge.source_handle,
        edge.target_handle,
        anchor
        if anchor is not None
        else Span(edge.span.start, edge.span.start + 1, edge.span.base),
    )


def workflow_facts(root: JsonValue | None, text: str) -> WorkflowFacts | None:
    """The facts of a workflow read into `root` (None when it is not an object), its nodes and
    edges read into the model as the engine reads them."""
    header = workflow_header(root, text)
    if header is None:
        return None
    assert isinstance(root, JObject)
    reading = _Reading(text)
    nodes = []
    for index, value in enumerate(reading.items(root.get("nodes"))):
        if isinstance(value, JObject):
            node = read_node(index, value, _PLAIN_SETTINGS, text)
            nodes.append(site_node(node, _locator(value, text)))
    edges = [
        site_edge(read_edge(index, value, _PLAIN_SETTINGS))
        for index, value in enumerate(reading.items(root.get("edges")))
        if isinstance(value, JObject)
    ]
    return replace(header, nodes=tuple(nodes), edges=tuple(edges))


def _locator(value: JsonValue, text: str) -> Callable[[tuple[str | int, ...]], Span | None]:
    """Where the value at a path below `value` is: a value read whole on the way (a node's
    config) re-read from `text` with its spans."""

    def locate(path: tuple[str | int, ...]) -> Span | None:
        found = value_at(value, path, text)
        return _absolute(found) if found is not None else None

    return locate
