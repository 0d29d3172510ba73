"""The workflow model: the records a workflow's nodes and edges are read into, each keeping its
source spans (given, or re-read when first asked).

Reading them from the syntax tree is core/domain/tree_reading.py (the fast path's readers:
core/domain/value_reading.py); which candidate names a node's type is
core/domain/node_type_resolution.py; whether an edge carries tools, core/domain/tool_edges.py; how
a message names a node, core/domain/wording.py. All follow docs/domain.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from flowdrop_lsp.core.domain.element_facts import NO_CONFIG, EdgeQuirks, ElementEditor
from flowdrop_lsp.core.domain.names import sanitize_tool_name
from flowdrop_lsp.core.domain.string_hint import StringHint, bits_of
from flowdrop_lsp.core.domain.wording import id_text, short_text
from flowdrop_lsp.core.text.positions import Span


class SpanSource(Protocol):
    """What gives a node's or edge's spans: a SpanDetail, or (the engine's fast path) the
    element it was read from, which re-reads them once, when first asked."""

    def get(self) -> Any: ...


class SpanDetail:
    """The spans of one node or edge: given, or computed on first use. A document read by the
    fast path (whole elements through the C scanner) has values but no spans; spans are only
    needed for the few elements a finding or fix is about, so each is re-read then."""

    __slots__ = ("_value", "_compute")

    def __init__(self, value: Any = None, compute: Callable[[], Any] | None = None) -> None:
        self._value = value
        self._compute = compute

    def get(self) -> Any:
        if self._value is None:
            assert self._compute is not None
            self._value = self._compute()
            self._compute = None
        return self._value


def _span_field(name: str) -> Any:
    """A property reading one span of a node or edge from its (possibly lazy) `spans`."""
    return property(lambda self: getattr(self.spans, name), doc=f"The element's {name}.")


@dataclass(frozen=True, slots=True)
class NodeSpans:
    id_span: Span | None
    type_span: Span | None
    label_span: Span | None  # the data.label value token, whatever its JSON type
    data_span: Span | None  # the data object, when `data` is an object
    name_source_span: Span | None
    data_value_span: Span | None  # the `data` value token, whatever its JSON type


NO_NODE_SPANS = NodeSpans(None, None, None, None, None, None)  # of an item that is not an object


@dataclass(frozen=True, slots=True)
class DataString:
    """A string value (not a key) somewhere inside a node's `data`: where it is below `data`,
    what it says, and its token's span. Other parts of a workflow refer to tools by such
    strings (a gateway's `config.branches[].value` equal to a tool name)."""

    path: tuple[str | int, ...]
    value: str
    span: Span


StringFinder = Callable[[frozenset[str]], tuple[DataString, ...]]
# The spans of the items of a list at a path below `data` (e.g. ("config", "branches")).
ItemFinder = Callable[[tuple[str | int, ...]], tuple[Span, ...]]


@dataclass(frozen=True, slots=True)
class Routing:
    """What a node's `data.config` says about routing: a gateway's `branches` (name, value —
    the value compared with its `expression` input), its `default_branch`, and a data
    extractor's `path`. Read for every node, whatever its type (sites define their own)."""

    branches: tuple[tuple[str | None, str], ...] = ()
    default_branch: str | None = None
    extract_path: str | None = None


def routing_of(config: Any) -> Routing | None:
    """The routing facts of a `data.config` (a Python value), or None when it has none."""
    if not isinstance(config, dict):
        return None
    raw = config.get("branches")
    branches = tuple(
        (item.get("name") if isinstance(item.get("name"), str) else None, item["value"])
        for item in (raw if isinstance(raw, list) else ())
        if isinstance(item, dict) and isinstance(item.get("value"), str)
    )
    default = config.get("default_branch")
    path = config.get("path")
    if not branches and not isinstance(path, str):
        return None
    return Routing(
        branches,
        default if isinstance(default, str) else None,
        path if isinstance(path, str) else None,
    )


@dataclass(frozen=True, slots=True)
class Node:
    index: int
    span: Span
    id: str | None
    type_id: str | None
    label: str | None  # data.label when it is a string
    data_is_empty: bool
    name_source: str  # what the tool name derives from: label, else the type id
    tool_name: str
    detail: SpanSource = field(compare=False, repr=False)
    # Finds string values in `data`, on demand (rarely needed: CMP-9 looks for references to
    # a tool name only when there is a collision).
    string_finder: StringFinder | None = field(default=None, compare=False, repr=False)
    routing: Routing | None = None
    item_finder: ItemFinder | None = field(default=None, compare=False, repr=False)
    # Which strings `data` may hold outside its label and metadata, as a bit mask over their
    # hashes made when first asked (see `StringHint`); None: unknown (every question goes to
    # `string_finder`).
    string_hint: StringHint | None = field(default=None, compare=False, repr=False)
    # `data.config` as a plain value (NO_CONFIG: the node has none), for the launch checks.
    config: Any = field(default=NO_CONFIG, compare=False, repr=False)
    editor: ElementEditor | None = field(default=None, compare=False, repr=False)
    # The key token of each member of `data.config` (the last of a repeated key), when the read
    # had them at hand (a tree read: YAML, JSON read in full); None: ask `editor.locate`.
    config_keys: Mapping[str, Span] | None = field(default=None, compare=False, repr=False)
    # The ports `data.metadata.inputs` / `.outputs` list, as `stored_ports` reads them.
    stored_ports: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)
    # The config schema its stored metadata carries (`stored_config_schema`), for R6.d–h.
    config_schema: Any = field(default=None, compare=False, repr=False)
    # `own_ports` of its config, once asked (the rules ask it per edge end); not an argument,
    # so a `replace` (a new config) starts without it.
    ports_memo: list[Any] = field(default_factory=list, init=False, compare=False, repr=False)

    @property
    def has_config(self) -> bool:
        return self.config is not NO_CONFIG

    @property
    def spans(self) -> NodeSpans:
        return self.detail.get()

    def strings_equal_to(self, values: frozenset[str]) -> tuple[DataString, ...]:
        """The string values in `data` equal to one of `values`, in document order. Strings in
        `data.label` and `data.metadata` are left out when the hint rules a node out: they are
        names, never references (the only use of this, CMP-9's fixes, skips them)."""
        if self.string_finder is None:
            return ()
        hint = self.string_hint
        if hint is not None and not hint.bits() & bits_of(values):
            # The usual case: looking a node's text over costs ≈30 µs, this well under 1.
            return ()
        return self.string_finder(values)

    def list_items(self, path: tuple[str | int, ...]) -> tuple[Span, ...]:
        """The spans of the items of the list at `path` below `data` (none when it is not a
        list), computed on demand."""
        return self.item_finder(path) if self.item_finder is not None else ()

    id_span = _span_field("id_span")
    type_span = _span_field("type_span")
    label_span = _span_field("label_span")
    data_span = _span_field("data_span")
    name_source_span = _span_field("name_source_span")
    data_value_span = _span_field("data_value_span")

    @property
    def anchor(self) -> Span:
        """Where findings about this node are shown: the string its tool name comes from (its
        label, or instanceTitle where that setting is on), else its id, else its start."""
        spans = self.spans
        if spans.name_source_span is not None and spans.name_source_span != spans.type_span:
            return spans.name_source_span
        if spans.id_span is not None:
            return spans.id_span
        return Span(self.span.start, self.span.start + 1, self.span.base)

    @property
    def display(self) -> str:
        """How messages name the node: `"Web Search" (tool_a)`."""
        if self.label:
            return f'"{short_text(self.label)}" ({id_text(str(self.id))})'
        return f"{id_text(str(self.id))} (type {short_text(self.type_id or 'unknown')})"


@dataclass(frozen=True, slots=True)
class EdgeSpans:
    source_span: Span | None
    target_span: Span | None
    target_handle_span: Span | None
    declared_type_span: Span | None
    source_handle_span: Span | None = None
    id_span: Span | None = None  # the id token, when it is a string


NO_EDGE_SPANS = EdgeSpans(None, None, None, None)


@dataclass(frozen=True, slots=True)
class Edge:
    index: int
    span: Span
    id: str | None
    source: str | None
    target: str | None
    source_handle: str | None
    target_handle: str | None
    declared_type: str | None  # data.edgeType when it is a non-empty string
    is_tool: bool
    detail: SpanSource = field(compare=False, repr=False)
    quirks: EdgeQuirks | None = None
    editor: ElementEditor | None = field(default=None, compare=False, repr=False)

    @property
    def spans(self) -> EdgeSpans:
        return self.detail.get()

    source_span = _span_field("source_span")
    target_span = _span_field("target_span")
    target_handle_span = _span_field("target_handle_span")
    declared_type_span = _span_field("declared_type_span")
    source_handle_span = _span_field("source_handle_span")

    @property
    def anchor(self) -> Span:
        spans = self.spans
        return (
            spans.target_span
            or spans.source_span
            or Span(self.span.start, self.span.start + 1, self.span.base)
        )


def edge_locator(edge: Edge) -> str:
    """The spec's locator of an edge: `edge.{index}`, its position in `edges` now."""
    return f"edge.{edge.editor.position() if edge.editor is not None else edge.index}"


def doc_order(item: Node | Edge) -> int:
    """Where an element is in the document now (its index can be stale after an insertion)."""
    span = item.span
    return span.start if span.base is None else span.start + span.base.offset()


@dataclass(frozen=True, slots=True)
class Workflow:
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]


def not_an_object_node(index: int, span: Span) -> Node:
    """The node of an item of `nodes` that is not an object (both readers agree on it): no id,
    no type, no spans; it names no tool."""
    return Node(
        index, span, None, None, None, True, "", sanitize_tool_name(""), SpanDetail(NO_NODE_SPANS)
    )
