"""What one file tells the site about itself: the facts the cross-file rules check.

A site (a Drupal `config/sync`, or any folder of workflows and node-type definitions) is read
file by file into small frozen records, and the site index (core/workspace/site.py) joins them.
A workflow file gives `WorkflowFacts`: its `id`, label and description, its `dependencies.config`
list, its contract (`input_ports`, `output_ports`, `parameter_schema.required`), and per node
and edge the few things a call or a dependency needs. A node-type definition gives its
`NodeTypeDefinition` (core/domain/node_types.py), the same record the launch checks read.
Every value keeps the span of its token, so a finding can be anchored in the file it is about.

Reading them (a workflow's top level from the syntax tree, its nodes and edges from the model):
core/domain/site_reading.py.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from flowdrop_lsp.core.domain.node_types import Located
from flowdrop_lsp.core.domain.ports import Direction, OwnPorts, handle_port
from flowdrop_lsp.core.text.positions import Span


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
class ContractShape:
    """A part of `input_ports` / `output_ports` not written as FlowDrop reads it (the value, or
    one entry), which the contract silently drops: `problem` says what is wrong with it."""

    key: str
    problem: str
    span: Span
    whole: bool = False  # the value itself (no list): that side declares nothing


@dataclass(frozen=True, slots=True)
class SiteNode:
    """What the site needs of one node: its id, its type (the token naming it), where findings
    about it go (`anchor`: its label, else its id), how messages name it, its literal
    `config.workflow_id` (a generic executor's callee) and what its `config` says of its ports
    (core/domain/ports.py reads them, with its type's definition)."""

    id: str | None
    type_id: Located | None
    anchor: Span
    display: str
    label: str | None
    workflow_id: Located | None
    ports: OwnPorts = OwnPorts()

    def resolved(self) -> SiteNode:
        return replace(
            self,
            type_id=_resolved(self.type_id),
            anchor=self.anchor.resolve(),
            workflow_id=_resolved(self.workflow_id),
        )

    def shifted(self, delta: int) -> SiteNode:
        """These resolved facts of a node whose text moved by `delta` (its spans with it)."""
        return replace(
            self,
            type_id=_shifted(self.type_id, delta),
            anchor=_moved(self.anchor, delta),
            workflow_id=_shifted(self.workflow_id, delta),
        )


@dataclass(frozen=True, slots=True)
class SiteEdge:
    """What the site needs of one edge: its ends and handles, with the anchor of its findings
    (its target handle, else its id). The ports its handles name are EDGE-1's, read by
    core/domain/ports.py like every other rule's."""

    id: str | None
    source: str | None
    target: str | None
    source_handle: str | None
    target_handle: str | None
    anchor: Span

    @property
    def target_port(self) -> str | None:
        return handle_port(self.target_handle, self.target, Direction.INPUT)

    @property
    def source_port(self) -> str | None:
        return handle_port(self.source_handle, self.source, Direction.OUTPUT)

    def resolved(self) -> SiteEdge:
        return replace(self, anchor=self.anchor.resolve())

    def shifted(self, delta: int) -> SiteEdge:
        return replace(self, anchor=_moved(self.anchor, delta))


def _moved(span: Span, delta: int) -> Span:
    return Span(span.start + delta, span.end + delta)


def _shifted(located: Located | None, delta: int) -> Located | None:
    return None if located is None else Located(located.value, _moved(located.span, delta))


def _resolve_spans(value: Any) -> Any:
    """`value` (facts: dataclasses, tuples, spans) with every anchored span made absolute."""
    if isinstance(value, Span):
        return value.resolve()
    if isinstance(value, tuple):
        return tuple(_resolve_spans(item) for item in value)
    if hasattr(value, "__dataclass_fields__") and not isinstance(value, OwnPorts):
        changes = {
            name: _resolve_spans(getattr(value, name)) for name in value.__dataclass_fields__
        }
        return replace(value, **changes)
    return value


def _resolved(located: Located | None) -> Located | None:
    if located is None or located.span.base is None:
        return located
    return Located(located.value, located.span.resolve())


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
    # Where a `dependencies` key would be created: the first top-level key Drupal writes after
    # it (None: no such key).
    dependencies_at: Span | None = None
    # The parts of `input_ports` / `output_ports` not shaped as a contract (read as nothing).
    contract_shape: tuple[ContractShape, ...] = ()

    @property
    def workflow_id(self) -> str | None:
        return self.id.value if self.id is not None else None

    def resolved(self) -> WorkflowFacts:
        """These facts with every span absolute in the current text (the engine's are anchored
        to what they move with): what a site index keeps, and what can be pickled."""
        return self.resolved_with(
            tuple(node.resolved() for node in self.nodes),
            tuple(edge.resolved() for edge in self.edges),
        )

    def resolved_with(
        self, nodes: tuple[SiteNode, ...], edges: tuple[SiteEdge, ...]
    ) -> WorkflowFacts:
        """The top level's facts resolved, with `nodes` and `edges` resolved already (the
        engine keeps an element's, moved with it, until the element is read again)."""
        return replace(_resolve_spans(replace(self, nodes=(), edges=())), nodes=nodes, edges=edges)
