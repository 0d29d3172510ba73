"""CMP-9: tool names are unique per consumer, across its flattened set of leaf tools.

One finding on the label of EACH colliding leaf, per consumer where they collide; never one on
a toolbox (a passthrough's own name plays no part). Each finding carries rename fixes. The
preferred renames are planned together, in document order, so that applying all of them
(fix-all) leaves no collision anywhere: a new name avoids every name visible at every consumer
the renamed tool reaches, and every new name planned before it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from flowdrop_lsp.core.findings import Finding, Fix, RelatedLocation, Severity
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
            leaves.sort(key=lambda leaf: ctx.graph.nodes_by_id[leaf].index)
            collisions.append(Collision(consumer, name, tuple(leaves)))
    return collisions


def names_around(ctx: RuleContext, leaf: str) -> set[str]:
    """The tool names of every other leaf at every consumer that `leaf` reaches."""
    names: set[str] = set()
    for consumer in ctx.graph.consumers_reached_from(leaf):
        for other in ctx.flat(consumer).leaves:
            node = ctx.node(other)
            if other != leaf and node is not None:
                names.add(node.tool_name)
    return names


def plan_renames(ctx: RuleContext, collisions: list[Collision]) -> dict[str, str]:
    """Leaf id → its preferred new label; jointly collision-free (see the module docstring)."""
    leaves = sorted({leaf for c in collisions for leaf in c.leaves}, key=lambda leaf: ctx.graph.nodes_by_id[leaf].index)
    planned: set[str] = set()
    renames: dict[str, str] = {}
    for leaf in leaves:
        label = numbered_label(ctx.graph.nodes_by_id[leaf], names_around(ctx, leaf) | planned)
        planned.add(sanitize_tool_name(label))
        renames[leaf] = label
    return renames


def _box_name(ctx: RuleContext, box: str) -> str:
    node = ctx.node(box)
    return node.name_source if node is not None and node.name_source else box


def _route_text(ctx: RuleContext, route: tuple[str, ...]) -> str:
    if not route:
        return " (wired directly)"
    boxes = " → ".join(f'"{_box_name(ctx, box)}"' for box in route)
    return f" through toolbox{'es' if len(route) > 1 else ''} {boxes}"


def _consumer_anchor(ctx: RuleContext, consumer: str, last_hop: str) -> Span | None:
    node = ctx.node(consumer)
    if node is not None:
        return node.anchor
    for edge in ctx.graph.incoming.get(consumer, ()):
        if edge.source == last_hop:
            return edge.target_span
    return None


def _fixes(ctx: RuleContext, leaf: str, route: tuple[str, ...], preferred_label: str) -> tuple[Fix, ...]:
    node = ctx.graph.nodes_by_id[leaf]
    current = node.name_source
    fixes = [Fix(f'Rename "{current}" to "{preferred_label}"', (rename_edit(node, preferred_label),), True)]
    if route:
        # Namespace the tool with the toolbox it is bundled in, as component frameworks do.
        qualified = f"{_box_name(ctx, route[0])}: {current}"
        name = sanitize_tool_name(qualified)
        if name not in names_around(ctx, leaf) and name != sanitize_tool_name(preferred_label):
            fixes.append(Fix(f'Qualify with its toolbox: rename "{current}" to "{qualified}"',
                             (rename_edit(node, qualified),)))
    return tuple(fixes)


def check(ctx: RuleContext) -> Iterator[Finding]:
    collisions = [c for consumer in ctx.graph.consumers for c in collisions_at(ctx, consumer)]
    if not collisions:
        return
    renames = plan_renames(ctx, collisions)
    for collision in collisions:
        flat = ctx.flat(collision.consumer)
        routes = {leaf: flat.route(leaf) for leaf in collision.leaves}
        consumer_text = ctx.describe(collision.consumer)
        for leaf in collision.leaves:
            node = ctx.graph.nodes_by_id[leaf]
            others = [other for other in collision.leaves if other != leaf]
            others_text = " and ".join(ctx.describe(o) + _route_text(ctx, routes[o]) for o in others)
            verb = "both resolve" if len(others) == 1 else "all resolve"
            message = (
                f"{node.display}{_route_text(ctx, routes[leaf])} and {others_text} {verb} to tool "
                f'name "{collision.tool_name}" at consumer {consumer_text}; the runtime would '
                f"silently call only one of them"
            )
            related = [
                RelatedLocation(ctx.graph.nodes_by_id[o].anchor, f'also "{collision.tool_name}": {ctx.describe(o)}')
                for o in others
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
                fixes=_fixes(ctx, leaf, route, renames[leaf]),
                extra=(
                    ("consumer", collision.consumer),
                    ("tool_name", collision.tool_name),
                    ("colliding_with", tuple(others)),
                    ("route", route),
                ),
            )
