"""CMP-9: tool names are unique per consumer, across its flattened set of leaf tools.

One finding on the label of EACH colliding leaf, however many consumers it collides at (they
are all named in the finding); never one on a toolbox (a passthrough's own name plays no part).

Fixes never break a workflow that routes on a tool name (a gateway branch whose value is the
name): the FEWEST tools are renamed. The plan goes through all colliding leaves in document
order (leaves that cannot be renamed, whose `data` is not an object, first): a leaf keeps its
name unless a leaf already keeping it shares that name at a consumer it reaches; otherwise it
gets a new numbered label that avoids every name visible at every consumer it reaches and every
name planned before it. So applying every finding's preferred fix (fix-all) leaves no collision
anywhere, and exactly one tool per group keeps the old name. A kept label's preferred fix
renames the others in its group(s); a renamed label's preferred fix is its own planned rename
(the same edit, so fix-all applies it once). Strings elsewhere in the workflow equal to a name
being changed are pointed out, and each fix's title says how many there are.

Messages name at most a few of the other tools and consumers, and related locations are capped,
so that N same-named tools cost O(N) text per finding, not a quadratic pile of it. A finding's
`consumers` list is capped too, and so are the entries' `colliding_with` lists, each and all
together (the message counts the consumers; the other tools are counted at the consumers listed). A consumer where more than
MAX_COLLIDING_PAIRS pairs of tools collide (a generated workflow: thousands of same-named tools)
gets ONE summary finding instead of one per tool there: per-tool findings would each list
thousands of others at thousands of consumers (cubic output), and a rename plan for them would
be of no use to anyone. Leaves colliding elsewhere too still get their per-tool findings there.
Past MAX_CROWDED_SUMMARIES crowded consumers, one finding counts the rest, as other rules' caps do.

Finding collisions never flattens every consumer when many nodes share names: the graph's bit
sets (graph.ReachMasks) count each consumer's tools per name, and only a consumer that is not
crowded has its colliding tools listed (tests/core/test_cmp9_counts.py: equal to flattening).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from flowdrop_lsp.core.domain.graph import (
    NameGroup,
    ReachMasks,
    RouteOutline,
    doc_order,
    lowest_bits,
    set_bits,
)
from flowdrop_lsp.core.domain.model import DataString, Node, short_text
from flowdrop_lsp.core.domain.names import sanitize_tool_name
from flowdrop_lsp.core.domain.renames import LabelNumbers, rename_blocker, rename_edit
from flowdrop_lsp.core.findings import Finding, Fix, RelatedLocation, Severity, TextEdit
from flowdrop_lsp.core.rules.base import (
    FINDINGS_PER_GROUP,
    Rule,
    RuleContext,
    first_with_summary,
)
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "CMP-9",
    "Tool name collision",
    Severity.ERROR,
    "Two leaf tools reaching one consumer, directly or through any number of toolboxes, "
    "resolve to the same tool name; the runtime would silently call only one of them.",
)

MAX_NAMED_OTHERS = 2  # other colliding tools named in a message or a fix title
MAX_NAMED_CONSUMERS = 2  # consumers named in a message
MAX_RELATED_OTHERS = 20  # other colliding tools given as related locations
MAX_RELATED_CONSUMERS = 20  # consumers given as related locations
MAX_RELATED_REFERENCES = 20  # references to a changed name given as related locations
MAX_NAMED_BOXES = 4  # toolboxes named in a route
MAX_CONSUMER_ENTRIES = 50  # consumers listed in a finding's `consumers` (the message counts all)
MAX_COLLIDING_LISTED = 100  # tools in one entry's `colliding_with` (`colliding_count` says all)
MAX_COLLIDING_PER_FINDING = 1000  # tools in all its entries' `colliding_with` together
# At one consumer; beyond it, one summary finding for the consumer. 200k pairs ≈ 630 tools of
# one name: hundreds of same-named tools still get their own findings and fixes.
MAX_COLLIDING_PAIRS = 200_000
MAX_SUMMARY_NAMES = 5  # colliding names quoted in a summary finding
# Crowded consumers summarised one by one; past them, one finding counts the rest (a chain of
# thousands of toolboxes, each to its own agent, has thousands of crowded agents).
MAX_CROWDED_SUMMARIES = FINDINGS_PER_GROUP
NAME_LIMIT = 40  # characters of a label quoted in a message


@dataclass(frozen=True)
class Collision:
    consumer: str
    tool_name: str
    # In document order: all of them, or for a crowded consumer (more than MAX_COLLIDING_PAIRS
    # pairs, which gets one summary finding) only the first KEPT_OF_CROWDED.
    leaves: tuple[str, ...]
    size: int  # how many leaves of this name the consumer sees

    @cached_property
    def members(self) -> frozenset[str]:
        return frozenset(self.leaves)


def collision(consumer: str, tool_name: str, leaves: tuple[str, ...]) -> Collision:
    return Collision(consumer, tool_name, leaves, len(leaves))


# Above this many nodes sharing tool names, a consumer's collisions are found from bit sets of
# which of them reach it (graph.ReachMasks); below, by checking which of those nodes reach it
# (cached per graph state). Flattening every consumer would cost a long chain of toolboxes,
# each wired to an agent, the square of its length.
MAX_CANDIDATES_FOR_REACH = 64
# Bit sets cost (nodes sharing names) × (toolboxes) bits at most: past this, flatten instead.
MAX_MASK_BITS = 1 << 28
KEPT_OF_CROWDED = MAX_RELATED_OTHERS // MAX_SUMMARY_NAMES  # leaves a summary names per name


def collisions_at(ctx: RuleContext, consumer: str) -> list[Collision]:
    """The groups of leaves with one tool name in `consumer`'s flattened set."""
    graph = ctx.graph
    shared = graph.shared_names
    if not shared:
        return []  # no two nodes share a tool name: no collision anywhere
    by_name: dict[str, list[str]] = {}
    candidates = sum(len(graph.ids_by_name[name]) for name in shared)
    if candidates <= MAX_CANDIDATES_FOR_REACH:
        for name in shared:
            for leaf in graph.ids_by_name[name]:
                if not graph.is_passthrough(leaf) and consumer in graph.consumers_of_leaf(leaf):
                    by_name.setdefault(name, []).append(leaf)
    elif candidates * (len(graph.passthroughs) + 1) <= MAX_MASK_BITS:
        return _collisions_by_masks(ctx, consumer)
    else:
        for leaf in ctx.flat(consumer).leaves:
            node = ctx.node(leaf)
            if node is not None:  # an undefined leaf has no name to compare (R8 reports it)
                by_name.setdefault(node.tool_name, []).append(leaf)
    collisions = []
    for name, leaves in by_name.items():
        if len(leaves) > 1:
            leaves.sort(key=lambda leaf: doc_order(graph.nodes_by_id[leaf]))
            collisions.append(collision(consumer, name, tuple(leaves)))
    collisions.sort(key=lambda c: doc_order(graph.nodes_by_id[c.leaves[0]]))
    return collisions


def _collisions_by_masks(ctx: RuleContext, consumer: str) -> list[Collision]:
    """`collisions_at` from the bits of the shared-name leaves reaching `consumer`: counted per
    name without listing them, then listed whole only where the consumer is not crowded."""
    graph = ctx.graph
    reach = graph.reach_masks()
    mask = reach.leaves_reaching(consumer)
    if not mask:
        return []
    groups = reach.groups
    counted: list[tuple[NameGroup, int, int]] = []  # (group, count, its bits in `mask`)
    if mask.bit_count() <= len(groups):  # few leaves: look at each
        bits_by_group: dict[int, int] = {}
        for bit in set_bits(mask):
            group = reach.group_of_bit[bit]
            bits_by_group[group] = bits_by_group.get(group, 0) | 1 << bit
        for index, bits in bits_by_group.items():
            counted.append((groups[index], bits.bit_count(), bits))
    else:  # many leaves: count each name's at once
        for name_group in groups:
            bits = mask & name_group.mask
            counted.append((name_group, bits.bit_count(), bits))
    counted = [c for c in counted if c[1] > 1]
    crowded = sum(n * (n - 1) // 2 for _, n, _ in counted) > MAX_COLLIDING_PAIRS
    collisions = []
    for name_group, count, bits in counted:
        listed = lowest_bits(bits, KEPT_OF_CROWDED) if crowded else set_bits(bits)
        leaves = tuple(reach.members[bit] for bit in listed)
        collisions.append(Collision(consumer, name_group.name, leaves, count))
    collisions.sort(key=lambda c: doc_order(graph.nodes_by_id[c.leaves[0]]))
    return collisions


class ConsumerEntry(dict[str, Any]):
    """One consumer where a label collides: `consumer`, `colliding_with`, `route`. A dict, so
    that JSON output renders it as an object; read-only and hashable, like the frozen Finding
    holding it."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))

    def _read_only(self, *args: object, **kwargs: object) -> Any:
        raise TypeError("a ConsumerEntry is read-only")

    __setitem__ = __delitem__ = _read_only  # type: ignore[assignment]
    update = pop = popitem = clear = setdefault = _read_only  # type: ignore[assignment]


@dataclass
class RenamePlan:
    """Which colliding leaves keep their names and the new labels of the others."""

    reach: ReachMasks  # the graph's reachability bit sets (consumers reached, per node)
    renames: dict[str, str] = field(default_factory=dict)  # leaf → its planned new label
    blocked: dict[str, str] = field(default_factory=dict)  # leaf → why it cannot be renamed
    planned: set[str] = field(default_factory=set)  # the tool names of the planned labels
    numbers: LabelNumbers = field(default_factory=LabelNumbers)
    around: dict[str, int] = field(default_factory=dict)  # leaf → consumers_around, cached

    def consumers_around(self, leaf: str) -> int:
        """The consumers `leaf` reaches (as in `ToolGraph.consumers_reached_from`: not itself),
        as bits."""
        found = self.around.get(leaf)
        if found is None:
            found = self.reach.consumers_reached(leaf)
            own = self.reach.consumer_bit().get(leaf)
            if own is not None:
                found &= ~(1 << own)
            self.around[leaf] = found
        return found

    def visible_around(self, leaf: str, name: str) -> bool:
        """Whether another leaf named `name` is in the flattened set of a consumer that `leaf`
        reaches: asked for the few names a rename tries, instead of collecting every name
        around a leaf (thousands, in a long chain of toolboxes, for each renamed leaf)."""
        around = self.consumers_around(leaf)
        if not around:
            return False
        reach = self.reach
        return any(
            other != leaf
            and other not in reach.passthroughs
            and reach.consumers_reached(other) & around
            for other in reach.ids_by_name.get(name, ())
        )

    def is_taken_for(self, leaf: str) -> Callable[[str], bool]:
        planned = self.planned
        return lambda name: name in planned or self.visible_around(leaf, name)


def plan_renames(ctx: RuleContext, leaves: Iterable[str]) -> RenamePlan:
    """The rename plan for every colliding leaf (see the module docstring)."""
    plan = RenamePlan(ctx.graph.reach_masks())
    nodes = ctx.graph.nodes_by_id
    for leaf in leaves:
        blocker = rename_blocker(nodes[leaf])
        if blocker is not None:
            plan.blocked[leaf] = blocker
    order = sorted(leaves, key=lambda leaf: (leaf not in plan.blocked, doc_order(nodes[leaf])))
    claimed: dict[str, int] = {}  # tool name → the consumers where a leaf keeps it, as bits
    for leaf in order:
        node = nodes[leaf]
        consumers = plan.consumers_around(leaf)
        clash = bool(consumers & claimed.get(node.tool_name, 0))
        if clash and leaf not in plan.blocked:
            label = plan.numbers.label(node, plan.is_taken_for(leaf))
            plan.planned.add(sanitize_tool_name(label))
            plan.renames[leaf] = label
        else:  # keeps its name (a blocked leaf keeps it even when it clashes: it must)
            claimed[node.tool_name] = claimed.get(node.tool_name, 0) | consumers
    return plan


class References:
    """Strings in nodes' `data` equal to a name a fix would change: a tool name, or a label
    (nodes' own labels and the type metadata aside: they are names, not references)."""

    def __init__(self, ctx: RuleContext, wanted: frozenset[str]) -> None:
        # Node id → (node, its strings equal to a wanted name), for nodes holding any. Kept
        # between runs while the names looked for stay the same, and brought up to date from
        # the graph's log of added and removed nodes (a node is immutable: an edit makes a new
        # one), so that an edit looks at the nodes it touched, not at all of them.
        graph = ctx.graph
        memo = ctx.memo.get(RULE.code)
        if memo is None or memo[0] != wanted:
            holding: dict[int, tuple[Node, tuple[DataString, ...]]] = {}
            for nodes in graph.definitions.values():
                for node in nodes:
                    self._look_at(node, wanted, holding)
        else:
            holding = memo[1]
            for added, node in graph.node_changes:
                if added:
                    self._look_at(node, wanted, holding)
                elif holding.get(id(node), (None,))[0] is node:
                    del holding[id(node)]
        graph.node_changes.clear()
        ctx.memo[RULE.code] = (wanted, holding)
        use_title = ctx.settings.use_instance_title
        self.by_value: dict[str, list[tuple[int, DataString]]] = {}
        for node, strings in holding.values():
            for string in strings:
                first = string.path[0] if string.path else None
                if first in (None, "label", "metadata") or (
                    use_title and string.path == ("config", "instanceTitle")
                ):
                    continue
                where = doc_order(node) - node.span.start + string.span.start
                self.by_value.setdefault(string.value, []).append((where, string))

    @staticmethod
    def _look_at(
        node: Node,
        wanted: frozenset[str],
        holding: dict[int, tuple[Node, tuple[DataString, ...]]],
    ) -> None:
        strings = node.strings_equal_to(wanted)
        if strings:
            holding[id(node)] = (node, strings)

    def to(self, nodes: Iterable[Node]) -> list[DataString]:
        """References, in document order, broken by renaming `nodes`: to their tool names and
        to their name sources."""
        found: dict[int, DataString] = {}
        for node in nodes:
            for value in (node.tool_name, node.name_source):
                for where, string in self.by_value.get(value, ()):
                    found[where] = string
        return [found[where] for where in sorted(found)]


def _name(ctx: RuleContext, node_id: str) -> str:
    """A consumer or toolbox as a message names it briefly: its label, else its id."""
    node = ctx.node(node_id)
    if node is not None and node.name_source:
        return f'"{short_text(node.name_source, NAME_LIMIT)}"'
    if node is None:
        return f"{short_text(node_id, NAME_LIMIT)} (not defined in nodes)"
    return short_text(node_id, NAME_LIMIT)


def _display(ctx: RuleContext, node_id: str) -> str:
    """A tool as a message names it: `"web-search" (http_request.2)`."""
    node = ctx.node(node_id)
    if node is None:
        return ctx.describe(node_id)
    if node.label:
        return f'"{short_text(node.label, NAME_LIMIT)}" ({short_text(str(node.id), NAME_LIMIT)})'
    return node.display


def _route_text(
    ctx: RuleContext, route: RouteOutline, name: Callable[[str], str] | None = None
) -> str:
    if not route.length:
        return "wired directly"
    name = name or (lambda node_id: _name(ctx, node_id))
    named = [name(box) for box in route.head[:2]]
    if route.length > MAX_NAMED_BOXES:  # a chain of thousands of toolboxes: name its ends
        assert route.last is not None
        named += [f"… {route.length - 3} more …", name(route.last)]
    else:
        named += [name(box) for box in route.head[2:MAX_NAMED_BOXES]]
    return f"through toolbox{'es' if route.length > 1 else ''} {' → '.join(named)}"


def _listing(names: list[str], total: int, rest: str) -> str:
    """`a`, `a and b`, `a, b and 3 other tools`."""
    if total > len(names):
        more = total - len(names)
        return f"{', '.join(names)} and {more} {rest.removesuffix('s') if more == 1 else rest}"
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _consumer_anchor(ctx: RuleContext, consumer: str, last_hop: str) -> Span | None:
    node = ctx.node(consumer)
    if node is not None:
        return node.anchor
    for edge in ctx.graph.incoming.get(consumer, ()):
        if edge.source == last_hop:
            return edge.target_span
    return None


def _consumer_key(ctx: RuleContext, consumer: str) -> tuple[int, int, str]:
    """Consumers in document order; those `nodes` does not define after them, by id."""
    node = ctx.node(consumer)
    return (0, doc_order(node), consumer) if node is not None else (1, 0, consumer)


def _referenced(count: int, whose: str) -> str:
    if not count:
        return ""
    return f" ({whose} name is referenced {count} time{'s' if count > 1 else ''} in this workflow)"


class _FindingBuilder:
    """The finding on one colliding leaf, from the plan and the references."""

    def __init__(
        self,
        ctx: RuleContext,
        plan: RenamePlan,
        references: References,
        order: dict[str, int],
    ) -> None:
        self.ctx, self.plan, self.references = ctx, plan, references
        self.order = order  # every colliding leaf → its document order
        self.names: dict[str, str] = {}  # node id → _name, for the many route texts

    def name(self, node_id: str) -> str:
        found = self.names.get(node_id)
        if found is None:
            found = self.names[node_id] = _name(self.ctx, node_id)
        return found

    def route_text(self, route: RouteOutline) -> str:
        return _route_text(self.ctx, route, self.name)

    def rename_fix(self, node: Node, label: str, title: str, preferred: bool) -> Fix:
        refs = self.references.to([node])
        return Fix(
            f"{title}{_referenced(len(refs), 'its')}", (rename_edit(node, label),), preferred
        )

    def keep_fix(self, node: Node, others: list[str]) -> Fix | None:
        """Rename the others planned to be renamed; `node` keeps its name."""
        renamed = [o for o in others if o in self.plan.renames]
        if not renamed:
            return None
        nodes = self.ctx.graph.nodes_by_id
        named = [
            f'{_display(self.ctx, o)} to "{short_text(self.plan.renames[o], NAME_LIMIT)}"'
            for o in renamed[:MAX_NAMED_OTHERS]
        ]
        refs = self.references.to(nodes[o] for o in renamed)
        whose = "its" if len(renamed) == 1 else "their"
        title = (
            f'Keep "{short_text(node.name_source, NAME_LIMIT)}"; rename '
            f"{_listing(named, len(renamed), 'other tools')}{_referenced(len(refs), whose)}"
        )
        edits: dict[TextEdit, None] = {}
        for other in renamed:
            edits[rename_edit(nodes[other], self.plan.renames[other])] = None
        return Fix(title, tuple(edits), True)

    def fixes(
        self, leaf: str, others: list[str], route: tuple[str, ...]
    ) -> tuple[tuple[Fix, ...], list[str]]:
        """The fixes for `leaf`'s finding, and the leaves they rename."""
        ctx, plan = self.ctx, self.plan
        node = ctx.graph.nodes_by_id[leaf]
        current = short_text(node.name_source, NAME_LIMIT)
        fixes: list[Fix] = []
        renamed: list[str] = []
        new_names: set[str] = set()
        own_label = plan.renames.get(leaf)
        if own_label is not None:
            title = f'Rename "{current}" to "{short_text(own_label, NAME_LIMIT)}"'
            fixes.append(self.rename_fix(node, own_label, title, True))
            new_names.add(sanitize_tool_name(own_label))
        else:
            keep = self.keep_fix(node, others)
            if keep is not None:
                fixes.append(keep)
                renamed += [o for o in others if o in plan.renames]
            if leaf not in plan.blocked:
                label = plan.numbers.label(node, plan.is_taken_for(leaf), reserve=False)
                title = f'Rename "{current}" instead, to "{short_text(label, NAME_LIMIT)}"'
                fixes.append(self.rename_fix(node, label, title, keep is None))
                new_names.add(sanitize_tool_name(label))
        if route and leaf not in plan.blocked:
            # Namespace the tool with the toolbox it is bundled in, as component frameworks do.
            box = ctx.node(route[0])
            box_name = box.name_source if box is not None and box.name_source else route[0]
            qualified = f"{box_name}: {node.name_source}"
            name = sanitize_tool_name(qualified)
            if not plan.visible_around(leaf, name) and name not in new_names:
                title = (
                    f'Qualify with its toolbox: rename "{current}" to '
                    f'"{short_text(qualified, NAME_LIMIT)}"'
                )
                fixes.append(self.rename_fix(node, qualified, title, False))
        if leaf not in plan.blocked:
            renamed.insert(0, leaf)
        return tuple(fixes), renamed

    def build(self, leaf: str, collisions: list[Collision]) -> Finding:
        """`collisions`: the leaf's, in the order of their consumers (`_consumer_key`)."""
        ctx, graph = self.ctx, self.ctx.graph
        node = graph.nodes_by_id[leaf]
        tool_name = collisions[0].tool_name
        listed = collisions[:MAX_CONSUMER_ENTRIES]
        budget = MAX_COLLIDING_PER_FINDING
        entries = []
        related: list[RelatedLocation] = []
        for collision in listed:
            route = ctx.flat(collision.consumer).route(leaf)  # whole: routes are never cut
            # A collision's leaves are in document order already (collisions_at sorts them,
            # and edits never reorder existing nodes); only the listed part is copied, so that
            # hundreds of same-named tools cost no tools × tools × consumers work.
            limit = min(MAX_COLLIDING_LISTED, budget)
            head = collision.leaves[: limit + 1]
            if leaf in head:
                at = head.index(leaf)
                head = head[:at] + head[at + 1 :]
            fields: dict[str, Any] = {
                "consumer": collision.consumer,
                "colliding_with": head[:limit],
                "route": route,
            }
            budget -= len(fields["colliding_with"])
            if len(collision.leaves) - 1 > len(fields["colliding_with"]):
                fields["colliding_count"] = len(collision.leaves) - 1
            entries.append(ConsumerEntry(fields))
            if len(entries) <= MAX_RELATED_CONSUMERS:
                outline = RouteOutline.of(route)
                anchor = _consumer_anchor(ctx, collision.consumer, outline.last or leaf)
                if anchor is not None:
                    related.append(
                        RelatedLocation(
                            anchor,
                            f"consumer {ctx.describe(collision.consumer)}: "
                            + (
                                f"reached {self.route_text(outline)}"
                                if outline.length
                                else "wired directly"
                            ),
                        )
                    )
        colliding: set[str] = set().union(*(c.leaves for c in listed))
        colliding.discard(leaf)
        others = sorted(colliding, key=self.order.__getitem__)
        for other in others[:MAX_RELATED_OTHERS]:
            first_at = next(c.consumer for c in listed if other in c.members)
            outline = ctx.flat(first_at).outline(other, MAX_NAMED_BOXES)
            related.append(
                RelatedLocation(
                    graph.nodes_by_id[other].anchor,
                    f'also "{short_text(tool_name)}": {ctx.describe(other)}, '
                    f"{self.route_text(outline)} to {self.name(first_at)}",
                )
            )
        fixes, renamed = self.fixes(leaf, others, entries[0]["route"])
        refs = self.references.to(graph.nodes_by_id[n] for n in renamed) if fixes else []
        related.extend(
            RelatedLocation(
                ref.span,
                f'"{short_text(ref.value)}" is referenced here; renaming the tool breaks this '
                "reference",
            )
            for ref in refs[:MAX_RELATED_REFERENCES]
        )
        consumers = [c.consumer for c in collisions]  # all of them: the message counts them
        where = _listing(
            [_name(ctx, c) for c in consumers[:MAX_NAMED_CONSUMERS]], len(consumers), "more"
        )
        if len(consumers) > MAX_CONSUMER_ENTRIES:
            # Counting the tools at every consumer would cost consumers × tools per finding.
            where += f" ({len(consumers)} consumers; tools counted at the first {len(entries)})"
        elif len(consumers) > 1:
            where += f" ({len(consumers)} consumers)"
        message = (
            f'tool name "{short_text(tool_name)}" also used by '
            f"{_listing([_display(ctx, o) for o in others[:MAX_NAMED_OTHERS]], len(others), 'other tools')} "
            f"at {where}; the runtime would call only one of them"
        )
        blocker = self.plan.blocked.get(leaf)
        if blocker is not None:
            message += f"; no automatic rename of this tool: its {blocker}"
        return Finding(
            RULE.code,
            RULE.default_severity,
            message,
            node.anchor,
            node=leaf,
            related=tuple(related),
            fixes=fixes,
            extra=(("tool_name", tool_name), ("consumers", tuple(entries))),
        )


def colliding_pairs(collisions: Iterable[Collision]) -> int:
    return sum(c.size * (c.size - 1) // 2 for c in collisions)


def crowded_summary(ctx: RuleContext, consumer: str, collisions: list[Collision]) -> Finding:
    """The one finding for a consumer with more than MAX_COLLIDING_PAIRS colliding pairs."""
    groups = sorted(collisions, key=lambda c: (-c.size, c.tool_name))
    tools = sum(c.size for c in groups)
    names = [f'"{short_text(c.tool_name, NAME_LIMIT)}" ×{c.size}' for c in groups]
    listed = _listing(names[:MAX_SUMMARY_NAMES], len(names), "other names")
    first_leaf = groups[0].leaves[0]
    last_hop = first_leaf
    if ctx.node(consumer) is None:  # anchored on the edge into it: which one is on the route
        last_hop = ctx.flat(consumer).outline(first_leaf, 0).last or first_leaf
    anchor = _consumer_anchor(ctx, consumer, last_hop)
    related = tuple(
        RelatedLocation(
            ctx.graph.nodes_by_id[leaf].anchor,
            f'"{short_text(group.tool_name)}": {ctx.describe(leaf)}',
        )
        for group in groups[:MAX_SUMMARY_NAMES]
        for leaf in group.leaves[:KEPT_OF_CROWDED]
    )
    return Finding(
        RULE.code,
        RULE.default_severity,
        f"{tools} tools at {_name(ctx, consumer)} share {len(groups)} tool "
        f"name{'s' if len(groups) > 1 else ''} ({colliding_pairs(groups)} colliding pairs, "
        f"too many to report tool by tool): {listed}; the runtime would call only one tool "
        "of each name",
        anchor if anchor is not None else ctx.graph.nodes_by_id[first_leaf].anchor,
        node=consumer,
        related=related,
        extra=(
            ("consumer", consumer),
            ("tool_names", tuple(c.tool_name for c in groups)),
            ("colliding_tools", tools),
            ("colliding_pairs", colliding_pairs(groups)),
        ),
    )


def check(ctx: RuleContext) -> Iterator[Finding]:
    # The collisions per consumer are cached (RuleContext.refresh recomputes the consumers an
    # edit affects); the findings are rebuilt from them each time: their messages name labels
    # of other nodes, the renames are planned over all collisions together, and references
    # may be anywhere in the document. All of it only when there is a collision at all.
    by_leaf: dict[str, list[Collision]] = {}
    crowded: list[str] = []
    results = ctx.results_of(RULE.code)
    # Consumers in document order, so that each leaf's collisions come in the order its
    # finding lists them (sorted once here, not once per leaf).
    for consumer in sorted(results, key=lambda c: _consumer_key(ctx, c)):
        per_consumer = results[consumer]
        if colliding_pairs(per_consumer) > MAX_COLLIDING_PAIRS:
            crowded.append(consumer)
            continue
        for collision in per_consumer:
            for leaf in collision.leaves:
                by_leaf.setdefault(leaf, []).append(collision)
    yield from first_with_summary(
        crowded,
        lambda consumer: crowded_summary(ctx, consumer, results[consumer]),
        MAX_CROWDED_SUMMARIES,
    )
    if not by_leaf:
        ctx.memo.pop(RULE.code, None)  # nothing to keep alive
        ctx.graph.node_changes.clear()
        return
    plan = plan_renames(ctx, by_leaf)
    nodes = ctx.graph.nodes_by_id
    wanted = frozenset(
        {nodes[leaf].tool_name for leaf in by_leaf} | {nodes[leaf].name_source for leaf in by_leaf}
    )
    order = {leaf: doc_order(nodes[leaf]) for leaf in by_leaf}
    builder = _FindingBuilder(ctx, plan, References(ctx, wanted), order)
    for leaf, collisions in by_leaf.items():
        yield builder.build(leaf, collisions)


# The registry's name for the per-consumer part (core/rules/registry.py).
check_consumer = collisions_at


EXPLANATION = RULE.explained(
    "An AI agent calls its tools by name, and the runtime takes the first tool with that name: "
    "a second tool of the same name is never called, and nothing says so. Names are compared "
    "as the runtime sends them (lowercase, non-alphanumerics as `_`: `Web Search` and "
    "`web-search` are both `web_search`), over every tool that reaches the agent directly or "
    "through any number of toolboxes. Fix: rename all but the first tool (`--fix` numbers "
    "them: `web-search 2`), keeping the name anything routes on.",
    failing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Web Search"}},
    {"id": "tool_b", "type": "http_request", "data": {"label": "web-search"}},
    {"id": "box_1", "type": "toolbox", "data": {"label": "Search tools"}},
    {"id": "agent_1", "type": "agent", "data": {"label": "Research Agent"}}
  ],
  "edges": [
    {"source": "tool_a", "target": "box_1", "data": {"edgeType": "tool_availability"}},
    {"source": "tool_b", "target": "box_1", "data": {"edgeType": "tool_availability"}},
    {"source": "box_1", "target": "agent_1", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Web Search"}},
    {"id": "tool_b", "type": "http_request", "data": {"label": "News Search"}},
    {"id": "box_1", "type": "toolbox", "data": {"label": "Search tools"}},
    {"id": "agent_1", "type": "agent", "data": {"label": "Research Agent"}}
  ],
  "edges": [
    {"source": "tool_a", "target": "box_1", "data": {"edgeType": "tool_availability"}},
    {"source": "tool_b", "target": "box_1", "data": {"edgeType": "tool_availability"}},
    {"source": "box_1", "target": "agent_1", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
)
