"""CMP-9's findings in words: the one finding on each colliding leaf (what it collides with,
at which consumers, through which toolboxes; its fixes from the rename plan) and the one summary
finding of a crowded consumer; every list in them capped (core.rules.cmp9.bounds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flowdrop_lsp.core.rules.cmp9.bounds as bounds
from flowdrop_lsp.core.domain.graph import RouteOutline
from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.names import sanitize_tool_name
from flowdrop_lsp.core.domain.remedies import fix_from
from flowdrop_lsp.core.domain.renames import rename_operation
from flowdrop_lsp.core.domain.wording import id_text, short_text
from flowdrop_lsp.core.findings import Finding, Fix, RelatedLocation
from flowdrop_lsp.core.rules.base import RuleContext
from flowdrop_lsp.core.rules.cmp9.detect import Collision, colliding_pairs
from flowdrop_lsp.core.rules.cmp9.plan import References, RenamePlan
from flowdrop_lsp.core.rules.cmp9.rule import RULE
from flowdrop_lsp.core.text.positions import Span


class ConsumerEntry(dict[str, Any]):
    """One consumer where a label collides: `consumer`, `colliding_with`, `route`. A dict, so
    that JSON output renders it as an object; read-only and hashable, like the frozen Finding
    holding it."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))

    def _read_only(self, *args: object, **kwargs: object) -> Any:
        raise TypeError("a ConsumerEntry is read-only")

    __setitem__ = __delitem__ = _read_only
    update = pop = popitem = clear = setdefault = _read_only


def _name(ctx: RuleContext, node_id: str) -> str:
    """A consumer or toolbox as a message names it briefly: its label, else its id."""
    node = ctx.node(node_id)
    if node is not None and node.name_source:
        return f'"{short_text(node.name_source, bounds.NAME_LIMIT)}"'
    if node is None:
        return f"{id_text(node_id)} (not defined in nodes)"
    return id_text(node_id)


def _display(ctx: RuleContext, node_id: str) -> str:
    """A tool as a message names it: `"web-search" (http_request.2)`."""
    node = ctx.node(node_id)
    if node is None:
        return ctx.describe(node_id)
    if node.label:
        return f'"{short_text(node.label, bounds.NAME_LIMIT)}" ({id_text(str(node.id))})'
    return node.display


def _route_text(
    ctx: RuleContext, route: RouteOutline, name: Callable[[str], str] | None = None
) -> str:
    if not route.length:
        return "wired directly"
    name = name or (lambda node_id: _name(ctx, node_id))
    named = [name(box) for box in route.head[:2]]
    if route.length > bounds.MAX_NAMED_BOXES:  # a chain of thousands of toolboxes: name its ends
        assert route.last is not None
        named += [f"… {route.length - 3} more …", name(route.last)]
    else:
        named += [name(box) for box in route.head[2 : bounds.MAX_NAMED_BOXES]]
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


def _referenced(count: int, whose: str) -> str:
    if not count:
        return ""
    return f" ({whose} name is referenced {count} time{'s' if count > 1 else ''} in this workflow)"


def _offered(fix: Fix | None) -> tuple[Fix, ...]:
    """A fix the document's format can write, none otherwise (core.domain.remedies)."""
    return () if fix is None else (fix,)


class FindingBuilder:
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

    def rename_fix(self, node: Node, label: str, title: str, preferred: bool) -> Fix | None:
        refs = self.references.to([node])
        return fix_from(
            f"{title}{_referenced(len(refs), 'its')}",
            [(node, rename_operation(node, label))],
            preferred=preferred,
        )

    def replaced(self, others: list[str]) -> set[str]:
        """The tool names the plan gives `others`, which `leaf` renamed instead of them frees
        (they keep their names then), so the alternative takes the first free number
        (`RenamePlan.label_instead`)."""
        plan = self.plan
        return {sanitize_tool_name(plan.renames[o]) for o in others if o in plan.renames}

    def taken_instead(self, leaf: str, others: list[str]) -> Callable[[str], bool]:
        """The names taken for `leaf` renamed instead of `others`, one by one (what
        `label_instead` answers at once; a test compares the two)."""
        replaced = self.replaced(others)
        return lambda name: self.plan._taken_instead(leaf, name, replaced)  # noqa: SLF001 - the plan's own step, which a test compares

    def keep_fix(self, node: Node, others: list[str]) -> Fix | None:
        """Rename the others planned to be renamed; `node` keeps its name."""
        renamed = [o for o in others if o in self.plan.renames]
        if not renamed:
            return None
        nodes = self.ctx.graph.nodes_by_id
        named = [
            f'{_display(self.ctx, o)} to "{short_text(self.plan.renames[o], bounds.NAME_LIMIT)}"'
            for o in renamed[: bounds.MAX_NAMED_OTHERS]
        ]
        refs = self.references.to(nodes[o] for o in renamed)
        whose = "its" if len(renamed) == 1 else "their"
        title = (
            f'Keep "{short_text(node.name_source, bounds.NAME_LIMIT)}"; rename '
            f"{_listing(named, len(renamed), 'other tools')}{_referenced(len(refs), whose)}"
        )
        changes = [
            (nodes[other], rename_operation(nodes[other], self.plan.renames[other]))
            for other in dict.fromkeys(renamed)
        ]
        return fix_from(title, changes, preferred=True)  # renames keep the behaviour

    def fixes(
        self, leaf: str, others: list[str], route: tuple[str, ...]
    ) -> tuple[tuple[Fix, ...], list[str]]:
        """The fixes for `leaf`'s finding, and the leaves they rename."""
        ctx, plan = self.ctx, self.plan
        node = ctx.graph.nodes_by_id[leaf]
        current = short_text(node.name_source, bounds.NAME_LIMIT)
        fixes: list[Fix] = []
        renamed: list[str] = []
        new_names: set[str] = set()
        own_label = plan.renames.get(leaf)
        if own_label is not None:
            title = f'Rename "{current}" to "{short_text(own_label, bounds.NAME_LIMIT)}"'
            fixes.extend(_offered(self.rename_fix(node, own_label, title, True)))
            new_names.add(sanitize_tool_name(own_label))
        else:
            keep = self.keep_fix(node, others)
            if keep is not None:
                fixes.append(keep)
                renamed += [o for o in others if o in plan.renames]
            if leaf not in plan.blocked:
                label = plan.label_instead(node, leaf, self.replaced(others))
                title = f'Rename "{current}" instead, to "{short_text(label, bounds.NAME_LIMIT)}"'
                fixes.extend(_offered(self.rename_fix(node, label, title, keep is None)))
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
                    f'"{short_text(qualified, bounds.NAME_LIMIT)}"'
                )
                fixes.extend(_offered(self.rename_fix(node, qualified, title, False)))
        if leaf not in plan.blocked:
            renamed.insert(0, leaf)
        return tuple(fixes), renamed

    def build(self, leaf: str, collisions: list[Collision]) -> Finding:
        """`collisions`: the leaf's, in the order of their consumers (`_consumer_key`)."""
        ctx, graph = self.ctx, self.ctx.graph
        node = graph.nodes_by_id[leaf]
        tool_name = collisions[0].tool_name
        listed = collisions[: bounds.MAX_CONSUMER_ENTRIES]
        budget = bounds.MAX_COLLIDING_PER_FINDING
        entries = []
        related: list[RelatedLocation] = []
        for collision in listed:
            # In brief: its first toolboxes and its length, found without walking all of it.
            outline = ctx.flat(collision.consumer).outline(leaf, bounds.MAX_ROUTE_LISTED)
            # A collision's leaves are in document order already (collisions_at sorts them,
            # and edits never reorder existing nodes); only the listed part is copied, so that
            # hundreds of same-named tools cost no tools × tools × consumers work.
            limit = min(bounds.MAX_COLLIDING_LISTED, budget)
            head = collision.leaves[: limit + 1]
            if leaf in head:
                at = head.index(leaf)
                head = head[:at] + head[at + 1 :]
            fields: dict[str, Any] = {
                "consumer": collision.consumer,
                "colliding_with": head[:limit],
                "route": outline.head,
            }
            if outline.length > len(outline.head):
                fields["route_length"] = outline.length
            budget -= len(fields["colliding_with"])
            if len(collision.leaves) - 1 > len(fields["colliding_with"]):
                fields["colliding_count"] = len(collision.leaves) - 1
            entries.append(ConsumerEntry(fields))
            if len(entries) <= bounds.MAX_RELATED_CONSUMERS:
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
        for other in others[: bounds.MAX_RELATED_OTHERS]:
            first_at = next(c.consumer for c in listed if other in c.members)
            outline = ctx.flat(first_at).outline(other, bounds.MAX_NAMED_BOXES)
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
            for ref in refs[: bounds.MAX_RELATED_REFERENCES]
        )
        consumers = [c.consumer for c in collisions]  # all of them: the message counts them
        where = _listing(
            [_name(ctx, c) for c in consumers[: bounds.MAX_NAMED_CONSUMERS]], len(consumers), "more"
        )
        if len(consumers) > bounds.MAX_CONSUMER_ENTRIES:
            # Counting the tools at every consumer would cost consumers × tools per finding.
            where += f" ({len(consumers)} consumers; tools counted at the first {len(entries)})"
        elif len(consumers) > 1:
            where += f" ({len(consumers)} consumers)"
        message = (
            f'tool name "{short_text(tool_name)}" also used by '
            f"{_listing([_display(ctx, o) for o in others[: bounds.MAX_NAMED_OTHERS]], len(others), 'other tools')} "
            f"at {where}; the runtime would call only one of them"
        )
        blocker = self.plan.blocked.get(leaf)
        if blocker is not None:
            message += f"; no automatic rename of this tool: its {blocker}"
        return RULE.finding(
            node.anchor,
            message,
            node=leaf,
            related=tuple(related),
            fixes=fixes,
            extra=(("tool_name", tool_name), ("consumers", tuple(entries))),
        )


def crowded_summary(ctx: RuleContext, consumer: str, collisions: list[Collision]) -> Finding:
    """The one finding for a consumer with more than bounds.MAX_COLLIDING_PAIRS colliding pairs."""
    groups = sorted(collisions, key=lambda c: (-c.size, c.tool_name))
    tools = sum(c.size for c in groups)
    names = [f'"{short_text(c.tool_name, bounds.NAME_LIMIT)}" ×{c.size}' for c in groups]
    listed = _listing(names[: bounds.MAX_SUMMARY_NAMES], len(names), "other names")
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
        for group in groups[: bounds.MAX_SUMMARY_NAMES]
        for leaf in group.leaves[: bounds.KEPT_OF_CROWDED]
    )
    return RULE.finding(
        anchor if anchor is not None else ctx.graph.nodes_by_id[first_leaf].anchor,
        f"{tools} tools at {_name(ctx, consumer)} share {len(groups)} tool "
        f"name{'s' if len(groups) > 1 else ''} ({colliding_pairs(groups)} colliding pairs, "
        f"too many to report tool by tool): {listed}; the runtime would call only one tool "
        "of each name",
        node=consumer,
        related=related,
        extra=(
            ("consumer", consumer),
            ("tool_names", tuple(c.tool_name for c in groups)),
            ("colliding_tools", tools),
            ("colliding_pairs", colliding_pairs(groups)),
        ),
    )
