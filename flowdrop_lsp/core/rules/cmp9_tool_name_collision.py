"""CMP-9: tool names are unique per consumer, across its flattened set of leaf tools.

One finding on the label of EACH colliding leaf, per consumer where they collide; never one on
a toolbox (a passthrough's own name plays no part). Each finding carries rename fixes. The
preferred renames are planned together, in document order, so that applying all of them
(fix-all) leaves no collision anywhere: a new name avoids every name visible at every consumer
the renamed tool reaches, and every new name planned before it.

Messages name at most a few of the other tools and toolboxes, and related locations are capped,
so that N same-named tools cost O(N) text per finding, not a quadratic pile of it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from flowdrop_lsp.core.findings import Finding, Fix, RelatedLocation, Severity
from flowdrop_lsp.core.graph import doc_order
from flowdrop_lsp.core.model import short_text
from flowdrop_lsp.core.names import sanitize_tool_name
from flowdrop_lsp.core.renames import numbered_label, rename_edit
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.text import Span

RULE = Rule(
    "CMP-9",
    "Tool name collision",
    Severity.ERROR,
    "Two leaf tools reaching one consumer, directly or through any number of toolboxes, "
    "resolve to the same tool name; the runtime would silently call only one of them.",
)

MAX_NAMED_OTHERS = 3  # other colliding tools named in a message
MAX_RELATED_OTHERS = 20  # other colliding tools given as related locations
MAX_NAMED_BOXES = 4  # toolboxes named in a route

NameCounts = dict[str, Counter[str]]  # consumer → how many of its leaves have each tool name


@dataclass(frozen=True)
class Collision:
    consumer: str
    tool_name: str
    leaves: tuple[str, ...]  # in document order


def collisions_at(ctx: RuleContext, consumer: str) -> list[Collision]:
    """The groups of leaves with one tool name in `consumer`'s flattened set."""
    by_name: dict[str, list[str]] = {}
    for leaf in ctx.flat(consumer).leaves:
        node = ctx.node(leaf)
        if node is not None:  # an undefined leaf has no name to compare (R8 reports it)
            by_name.setdefault(node.tool_name, []).append(leaf)
    collisions = []
    for name, leaves in by_name.items():
        if len(leaves) > 1:
            leaves.sort(key=lambda leaf: doc_order(ctx.graph.nodes_by_id[leaf]))
            collisions.append(Collision(consumer, name, tuple(leaves)))
    return collisions


def _name_counts(ctx: RuleContext, consumer: str, cache: NameCounts) -> Counter[str]:
    counts = cache.get(consumer)
    if counts is None:
        counts = Counter()
        for other in ctx.flat(consumer).leaves:
            node = ctx.node(other)
            if node is not None:
                counts[node.tool_name] += 1
        cache[consumer] = counts
    return counts


def names_around(ctx: RuleContext, leaf: str, cache: NameCounts | None = None) -> set[str]:
    """The tool names of every other leaf at every consumer that `leaf` reaches."""
    cache = {} if cache is None else cache
    node = ctx.node(leaf)
    own = node.tool_name if node is not None else None
    names: set[str] = set()
    for consumer in ctx.graph.consumers_reached_from(leaf):
        for name, count in _name_counts(ctx, consumer, cache).items():
            if name != own or count > 1:  # the leaf itself counts once under its own name
                names.add(name)
    return names


def plan_renames(
    ctx: RuleContext, collisions: list[Collision], cache: NameCounts
) -> dict[str, str]:
    """Leaf id → its preferred new label; jointly collision-free (see the module docstring)."""
    leaves = sorted(
        {leaf for c in collisions for leaf in c.leaves},
        key=lambda leaf: doc_order(ctx.graph.nodes_by_id[leaf]),
    )
    planned: set[str] = set()
    renames: dict[str, str] = {}
    for leaf in leaves:
        label = numbered_label(
            ctx.graph.nodes_by_id[leaf], names_around(ctx, leaf, cache) | planned
        )
        planned.add(sanitize_tool_name(label))
        renames[leaf] = label
    return renames


def _box_name(ctx: RuleContext, box: str) -> str:
    node = ctx.node(box)
    return node.name_source if node is not None and node.name_source else box


def _route_text(ctx: RuleContext, route: tuple[str, ...]) -> str:
    if not route:
        return " (wired directly)"
    named = [f'"{short_text(_box_name(ctx, box))}"' for box in route[:2]]
    if len(route) > MAX_NAMED_BOXES:  # a chain of thousands of toolboxes: name its ends
        named += [f"… {len(route) - 3} more …", f'"{short_text(_box_name(ctx, route[-1]))}"']
    else:
        named += [f'"{short_text(_box_name(ctx, box))}"' for box in route[2:]]
    return f" through toolbox{'es' if len(route) > 1 else ''} {' → '.join(named)}"


def _consumer_anchor(ctx: RuleContext, consumer: str, last_hop: str) -> Span | None:
    node = ctx.node(consumer)
    if node is not None:
        return node.anchor
    for edge in ctx.graph.incoming.get(consumer, ()):
        if edge.source == last_hop:
            return edge.target_span
    return None


def _fixes(
    ctx: RuleContext, leaf: str, route: tuple[str, ...], preferred_label: str, cache: NameCounts
) -> tuple[Fix, ...]:
    node = ctx.graph.nodes_by_id[leaf]
    current = short_text(node.name_source)
    fixes = [
        Fix(
            f'Rename "{current}" to "{short_text(preferred_label)}"',
            (rename_edit(node, preferred_label),),
            True,
        )
    ]
    if route:
        # Namespace the tool with the toolbox it is bundled in, as component frameworks do.
        qualified = f"{_box_name(ctx, route[0])}: {node.name_source}"
        name = sanitize_tool_name(qualified)
        if name not in names_around(ctx, leaf, cache) and name != sanitize_tool_name(
            preferred_label
        ):
            fixes.append(
                Fix(
                    f'Qualify with its toolbox: rename "{current}" to "{short_text(qualified)}"',
                    (rename_edit(node, qualified),),
                )
            )
    return tuple(fixes)


def _others_text(ctx: RuleContext, others: list[str], routes: dict[str, tuple[str, ...]]) -> str:
    named = [ctx.describe(o) + _route_text(ctx, routes[o]) for o in others[:MAX_NAMED_OTHERS]]
    if len(others) > MAX_NAMED_OTHERS:
        named.append(f"{len(others) - MAX_NAMED_OTHERS} other tools")
    return " and ".join(named)


def check(ctx: RuleContext) -> Iterator[Finding]:
    # The collisions per consumer are cached (RuleContext.refresh recomputes the consumers an
    # edit affects); the findings are rebuilt from them each time: their messages name labels
    # of other nodes, and the renames are planned over all collisions together.
    collisions = [c for per_consumer in ctx.results_of(RULE.code).values() for c in per_consumer]
    if not collisions:
        return
    cache: NameCounts = {}
    renames = plan_renames(ctx, collisions, cache)
    for collision in collisions:
        flat = ctx.flat(collision.consumer)
        routes = {leaf: flat.route(leaf) for leaf in collision.leaves}
        consumer_text = ctx.describe(collision.consumer)
        for leaf in collision.leaves:
            node = ctx.graph.nodes_by_id[leaf]
            others = [other for other in collision.leaves if other != leaf]
            verb = "both resolve" if len(others) == 1 else "all resolve"
            tool_name = short_text(collision.tool_name)
            message = (
                f"{node.display}{_route_text(ctx, routes[leaf])} and {_others_text(ctx, others, routes)} "
                f'{verb} to tool name "{tool_name}" at consumer {consumer_text}; the runtime would '
                f"silently call only one of them"
            )
            related = [
                RelatedLocation(
                    ctx.graph.nodes_by_id[o].anchor, f'also "{tool_name}": {ctx.describe(o)}'
                )
                for o in others[:MAX_RELATED_OTHERS]
            ]
            route = routes[leaf]
            consumer_span = _consumer_anchor(ctx, collision.consumer, route[-1] if route else leaf)
            if consumer_span is not None:
                related.append(RelatedLocation(consumer_span, f"consumer {consumer_text}"))
            yield Finding(
                RULE.code,
                RULE.default_severity,
                message,
                node.anchor,
                node=leaf,
                related=tuple(related),
                fixes=_fixes(ctx, leaf, route, renames[leaf], cache),
                extra=(
                    ("consumer", collision.consumer),
                    ("tool_name", collision.tool_name),
                    ("colliding_with", tuple(others)),
                    ("route", route),
                ),
            )
