"""What an author wants to see without running anything: which tools each consumer is offered and
under which names, where each tool goes, what a toolbox forwards, which tool a gateway branch
selects.

Pure queries on the incremental engine's current state (core/engine/document.py): the tool graph
(core/domain/graph.py, read through its public methods) and the rule context's cached flattened sets,
so a question costs what it is about, never a re-read of the document. Finding what is under
a cursor bisects the engine's element offsets (O(log n) at any document size); what is in a
visible range walks only the elements in it. Hover, inlay hints and code lenses
(core/ide/hover.py, hints.py, lenses.py) put these into words; the same facts could serve the
CLI.

Roles are by node id, as in the graph: a node that is not the first definition of its id plays
no part in the workflow (R2 reports it), so nothing is said about it here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from flowdrop_lsp.core.domain.model import Edge, Node, doc_order
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.engine.elements import ElementList
from flowdrop_lsp.core.rules.base import RuleContext
from flowdrop_lsp.core.rules.cmp9 import RULE as CMP9
from flowdrop_lsp.core.rules.tool_route import routed_consumers
from flowdrop_lsp.core.text.positions import Span

BRANCH_VALUE_PATH = ("config", "branches")


# ----- answers ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class OfferedTool:
    """One leaf tool as a consumer (or a toolbox) sees it."""

    tool_name: str
    node: str  # the leaf's id
    route: tuple[str, ...]  # the toolboxes it passes, from the tool's side to the consumer's
    colliding_with: tuple[str, ...]  # other leaves with the same tool name there, doc order

    @property
    def collides(self) -> bool:
        return bool(self.colliding_with)


@dataclass(frozen=True, slots=True)
class ConsumerTools:
    """A consumer's flattened tool set, sorted by tool name (then document order)."""

    consumer: str
    tools: tuple[OfferedTool, ...]

    @property
    def collisions(self) -> int:
        """How many tool names are shared by more than one of its tools (each is one CMP-9
        collision at this consumer)."""
        return len({tool.tool_name for tool in self.tools if tool.collides})


@dataclass(frozen=True, slots=True)
class Reach:
    """One consumer a tool reaches."""

    consumer: str
    route: tuple[str, ...]
    colliding_with: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ToolReach:
    """Where one tool goes: every consumer it reaches, through which toolboxes."""

    tool: str
    tool_name: str
    reaches: tuple[Reach, ...]  # consumers in the order a forward walk finds them


@dataclass(frozen=True, slots=True)
class ToolboxForwarding:
    """What a toolbox forwards (the leaf tools reaching it; `route` counts the toolboxes between
    the tool and this one) and the consumers it forwards them to."""

    toolbox: str
    tools: tuple[OfferedTool, ...]
    consumers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BranchSelection:
    """Which tool a gateway branch value selects at each consumer whose chosen tool's name is
    routed to the gateway; nothing selected means the branch never fires (FD-TOOL-ROUTE)."""

    gateway: str
    index: int
    name: str | None
    value: str
    is_default: bool
    consumers: tuple[str, ...]
    selected: tuple[tuple[str, str], ...]  # (consumer, leaf) pairs whose tool name is `value`


@dataclass(frozen=True, slots=True)
class NodeTarget:
    """A node under the cursor: `span` is the token hovered (its label, id or type string)."""

    node: Node
    span: Span


@dataclass(frozen=True, slots=True)
class BranchTarget:
    """A gateway branch value under the cursor."""

    gateway: Node
    index: int
    span: Span


Target = NodeTarget | BranchTarget


# ----- roles -----------------------------------------------------------------------------------
def is_tool(ctx: RuleContext, node_id: str) -> bool:
    """A leaf tool: the source of a tool edge that is not a toolbox."""
    return bool(ctx.graph.outgoing.get(node_id)) and not ctx.graph.is_passthrough(node_id)


def is_consumer(ctx: RuleContext, node_id: str) -> bool:
    return ctx.graph.is_consumer(node_id)


def is_toolbox(ctx: RuleContext, node_id: str) -> bool:
    return ctx.graph.is_passthrough(node_id)


def tool_name_of(ctx: RuleContext, node_id: str) -> str | None:
    node = ctx.node(node_id)
    return node.tool_name if node is not None else None


# ----- queries ---------------------------------------------------------------------------------
def _by_name(ctx: RuleContext, leaves: Iterator[str] | list[str]) -> dict[str, list[str]]:
    """Defined leaves grouped by tool name (an undefined leaf has no name: R8 reports it)."""
    groups: dict[str, list[str]] = {}
    for leaf in leaves:
        name = tool_name_of(ctx, leaf)
        if name is not None:
            groups.setdefault(name, []).append(leaf)
    return groups


def _order(ctx: RuleContext, node_id: str) -> int:
    node = ctx.node(node_id)
    return doc_order(node) if node is not None else -1


def consumer_tools(ctx: RuleContext, consumer: str) -> ConsumerTools:
    """What `consumer` is offered: tool name → node, route through toolboxes, collisions."""
    flat = ctx.flat(consumer)  # cached by the rules: free after the analysis
    groups = _by_name(ctx, list(flat.leaves))
    tools: list[OfferedTool] = []
    for name, leaves in groups.items():
        leaves.sort(key=lambda leaf: _order(ctx, leaf))
        for leaf in leaves:
            others = tuple(other for other in leaves if other != leaf)
            tools.append(OfferedTool(name, leaf, flat.route(leaf), others))
    tools.sort(key=lambda tool: (tool.tool_name, _order(ctx, tool.node)))
    return ConsumerTools(consumer, tuple(tools))


@dataclass(frozen=True, slots=True)
class ToolCount:
    """How many tools a consumer is offered and how many tool names collide there."""

    tools: int
    collisions: int


def tool_count(ctx: RuleContext, consumer: str) -> ToolCount:
    """`consumer_tools`' two numbers without building the table: the flattened set and CMP-9's
    collision groups are both kept by the rule context, so this costs one pass over the
    consumer's leaves (a code lens on each of thousands of agents stays cheap)."""
    defined = ctx.graph.nodes_by_id
    tools = sum(1 for leaf in ctx.flat(consumer).leaves if leaf in defined)
    return ToolCount(tools, len(ctx.results_of(CMP9.code).get(consumer, ())))


def tool_reach(ctx: RuleContext, tool: str) -> ToolReach:
    """Every consumer `tool` reaches, through which toolboxes, and what it collides with there."""
    name = tool_name_of(ctx, tool) or ""
    reaches: list[Reach] = []
    for consumer in ctx.graph.consumers_reached_from(tool):
        flat = ctx.flat(consumer)
        if tool not in flat.leaves:  # wired only through a cycle back into itself
            continue
        same = [leaf for leaf in flat.leaves if leaf != tool and tool_name_of(ctx, leaf) == name]
        same.sort(key=lambda leaf: _order(ctx, leaf))
        reaches.append(Reach(consumer, flat.route(tool), tuple(same)))
    return ToolReach(tool, name, tuple(reaches))


def toolbox_forwarding(ctx: RuleContext, toolbox: str) -> ToolboxForwarding:
    """The leaf tools reaching `toolbox` (through any toolboxes before it) and the consumers it
    forwards them to. Collisions are the consumers' business: none are marked here."""
    # Walking backwards from a toolbox is walking from a consumer: the graph's own flattening.
    flat = ctx.graph.flatten_tools(toolbox)
    tools = [
        OfferedTool(tool_name_of(ctx, leaf) or "", leaf, flat.route(leaf), ())
        for leaf in flat.leaves
        if ctx.node(leaf) is not None
    ]
    tools.sort(key=lambda tool: (tool.tool_name, _order(ctx, tool.node)))
    return ToolboxForwarding(
        toolbox, tuple(tools), tuple(ctx.graph.consumers_reached_from(toolbox))
    )


def branch_selection(ctx: RuleContext, gateway: Node, index: int) -> BranchSelection | None:
    """What branch `index` of `gateway` selects, or None when it has no such branch."""
    routing = gateway.routing
    if gateway.id is None or routing is None or not 0 <= index < len(routing.branches):
        return None
    name, value = routing.branches[index]
    default = (routing.default_branch or "").casefold()
    is_default = bool(default) and default in (value.casefold(), (name or "").casefold())
    consumers = tuple(routed_consumers(ctx, gateway.id))
    selected = tuple(
        (consumer, leaf)
        for consumer in consumers
        if ctx.graph.is_consumer(consumer)
        for leaf in sorted(ctx.flat(consumer).leaves, key=lambda leaf: _order(ctx, leaf))
        if tool_name_of(ctx, leaf) == value
    )
    return BranchSelection(gateway.id, index, name, value, is_default, consumers, selected)


# ----- where things are ------------------------------------------------------------------------
def _first_ending_at_or_after(owner: ElementList, offset: int) -> int:
    """The index of the first element whose end is at or after `offset` (elements are in
    document order and do not overlap, so their ends are sorted)."""
    low, high = 0, len(owner)
    while low < high:
        middle = (low + high) // 2
        if owner.end(middle) < offset:
            low = middle + 1
        else:
            high = middle
    return low


def _live_node(document: WorkflowDocument, owner: ElementList, index: int) -> Node | None:
    """The node read from element `index`, when it is its id's first definition."""
    model = owner.elements[index].model
    if not isinstance(model, Node) or model.id is None:
        return None
    return model if document.graph.nodes_by_id.get(model.id) is model else None


def nodes_in(document: WorkflowDocument, start: int, end: int) -> Iterator[Node]:
    """The live nodes overlapping `[start, end]` (code points), in document order."""
    if not document.is_workflow:  # also brings a pending re-read up to date
        return
    owner = document.lists["nodes"]
    index = _first_ending_at_or_after(owner, start)
    while index < len(owner) and owner.start(index) <= end:
        node = _live_node(document, owner, index)
        if node is not None:
            yield node
        index += 1


def edge_at(document: WorkflowDocument, offset: int) -> Edge | None:
    """The edge whose element holds `offset` (its ends included), if any."""
    if not document.is_workflow:
        return None
    owner = document.lists["edges"]
    index = _first_ending_at_or_after(owner, offset)
    if index < len(owner) and owner.start(index) <= offset:
        model = owner.elements[index].model
        return model if isinstance(model, Edge) else None
    return None


def _resolved(span: Span | None) -> Span | None:
    return span.resolve() if span is not None else None


def target_at(document: WorkflowDocument, offset: int) -> Target | None:
    """What is at `offset`: a node's label (or the string its tool name comes from), id or type
    string, or a gateway branch's value; None elsewhere."""
    node = next(nodes_in(document, offset, offset), None)
    if node is None:
        return None
    spans = node.spans
    for span in (spans.name_source_span, spans.label_span, spans.id_span, spans.type_span):
        resolved = _resolved(span)
        if resolved is not None and resolved.contains(offset):
            return NodeTarget(node, resolved)
    if node.routing is not None and node.routing.branches:
        values = frozenset(value for _name, value in node.routing.branches)
        for string in node.strings_equal_to(values):
            path = string.path
            if len(path) == 4 and path[:2] == BRANCH_VALUE_PATH and path[3] == "value":
                resolved = string.span.resolve()
                if resolved.contains(offset) and isinstance(path[2], int):
                    return BranchTarget(node, path[2], resolved)
    return None


def node_span(node: Node) -> Span:
    """Where the whole node is in the text now (no re-read of its inner spans: cheap)."""
    return node.span.resolve()


# ----- naming ----------------------------------------------------------------------------------
NAME_LIMIT = 60  # characters of a label quoted in an answer (a label may be megabytes long)


def node_label(ctx: RuleContext, node_id: str) -> str | None:
    """The text a node is named by (its label, else what its tool name comes from), cut to
    `NAME_LIMIT`; None for an id no node defines or a node with no name."""
    node = ctx.node(node_id)
    if node is None:
        return None
    text = node.label or node.name_source
    return short_text(text, NAME_LIMIT) if text else None


def route_labels(ctx: RuleContext, route: tuple[str, ...], limit: int = 4) -> list[str]:
    """The toolboxes of a route by name (label, else id), eliding the middle of a long chain."""
    names = [node_label(ctx, box) or short_text(box, NAME_LIMIT) for box in route]
    if len(names) > limit:
        return [*names[:2], f"… {len(names) - 3} more …", names[-1]]
    return names
