"""FD-TOOL-ROUTE: a gateway branch that routes on a tool name the agent is never offered.

Real agent loops route on the tool the model chose: the consumer's `tool_calls` output feeds a
gateway's `expression` input — directly, or through one data extractor whose `path` selects a
tool call's `name` (`$[0].name`) — and each branch's `value` is compared with that name. A
value naming no tool in the consumer's flattened tool set (through every toolbox) can never
match: the branch is dead. With several consumers feeding one gateway, a value is live when it
names a tool of any of them. The default branch (its value or name equal to `default_branch`)
is not a tool name and is never reported.

Computed after every change from the graph's index of routing nodes (`ToolGraph.routers`):
gateways are few, and the consumers' flattened sets are the cached ones CMP-9 uses, so a label
edit, a tool wired or unwired, or a branch edited shows at once. Fixes: route on the closest
existing tool name (edit distance on the sanitized name), or remove the branch — both unsafe
(they change what the workflow does) and never preferred, since the intent is unknown.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.names import sanitize_tool_name
from flowdrop_lsp.core.domain.remedies import change_at, fix_from, node_ref
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import (
    Applicability,
    Finding,
    Fix,
    RelatedLocation,
    Severity,
)
from flowdrop_lsp.core.operations import Update
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.text.suggestions import alike_names, likeness

RULE = Rule(
    "FD-TOOL-ROUTE",
    "Route on a tool the agent is never offered",
    Severity.WARNING,
    "A gateway branch routes on the name of the tool an agent called, but the agent is offered "
    "no tool of that name: the branch can never fire.",
)

TOOL_CALLS_OUTPUT = "-output-tool_calls"
EXPRESSION_INPUT = "-input-expression"
# A JSONPath selecting the name of one (or every) tool call: `$[0].name`, `$[*].name`,
# `$.0.name`, `$[0]['name']`.
NAME_PATH = re.compile(
    r"^\$(?:\[\s*(?:\d+|\*)\s*\]|\.(?:\d+|\*))\s*(?:\.name|\[\s*['\"]name['\"]\s*\])$"
)
MAX_LISTED = 3  # tool names listed in a message (the closest ones)
# How close (difflib ratio of sanitized names) a tool name must be to be offered as the fix:
# names of one site share long prefixes (`capability_…`), so a loose cutoff suggests nonsense.
CLOSE = 0.8


def _tool_call_sources(ctx: RuleContext, node_id: str) -> list[str]:
    """The nodes whose `tool_calls` output reaches `node_id` through `edges_into`."""
    return [
        edge.source
        for edge in ctx.graph.edges_by_endpoint.get(node_id, ())
        if edge.target == node_id
        and edge.source is not None
        and (edge.source_handle or "").endswith(TOOL_CALLS_OUTPUT)
    ]


def routed_consumers(ctx: RuleContext, gateway: str) -> list[str]:
    """The consumers whose chosen tool's name reaches `gateway`'s expression, in order."""
    found: list[str] = []
    for edge in ctx.graph.edges_by_endpoint.get(gateway, ()):
        if edge.target != gateway or not (edge.target_handle or "").endswith(EXPRESSION_INPUT):
            continue
        if edge.source is None:
            continue
        if (edge.source_handle or "").endswith(TOOL_CALLS_OUTPUT):
            found.append(edge.source)
            continue
        extractor = ctx.node(edge.source)
        routing = extractor.routing if extractor is not None else None
        if routing is not None and routing.extract_path and NAME_PATH.match(routing.extract_path):
            found.extend(_tool_call_sources(ctx, edge.source))
    return list(dict.fromkeys(found))


def _tool_names(ctx: RuleContext, consumer: str) -> list[str]:
    if not ctx.graph.is_consumer(consumer):
        return []
    names = []
    for leaf in ctx.flat(consumer).leaves:
        node = ctx.node(leaf)
        if node is not None:
            names.append(node.tool_name)
    return names


def _closest_first(value: str, names: list[str]) -> list[str]:
    target = sanitize_tool_name(value)
    return sorted(
        dict.fromkeys(names),
        key=lambda name: (-likeness(target, name), name),
    )


def _branch_finding(
    ctx: RuleContext,
    gateway: Node,
    index: int,
    branch: tuple[str | None, str],
    consumers: list[str],
    names: list[str],
) -> Finding:
    name, value = branch
    path = ("config", "branches", index, "value")
    located = [s for s in gateway.strings_equal_to(frozenset({value})) if s.path == path]
    span = located[0].span if located else gateway.anchor
    who = " or ".join(ctx.describe(c) for c in consumers[:3])
    ranked = _closest_first(value, names)
    listed = ", ".join(ranked[:MAX_LISTED]) + (
        f" and {len(ranked) - MAX_LISTED} more" if len(ranked) > MAX_LISTED else ""
    )
    offered = f"its tools: {listed}" if ranked else "it is offered no tools"
    branch_text = f'branch "{short_text(name)}"' if name else f"branch {index + 1}"
    message = (
        f'{branch_text} routes on tool "{short_text(value)}", which {who} is never offered, '
        f"so it never fires; {offered}"
    )
    related = tuple(
        RelatedLocation(node.anchor, f"the tool calls of {ctx.describe(c)} are routed here")
        for c in consumers
        if (node := ctx.node(c)) is not None
    )
    fixes: list[Fix] = []
    close = alike_names(sanitize_tool_name(value), ranked, limit=1, cutoff=CLOSE)
    change = (
        change_at(gateway, ("data", "config", "branches", index), {"value": close[0]})
        if close and located
        else None
    )
    if change is not None:
        # Another tool's calls are routed there from now on: what the workflow does changes.
        route = fix_from(
            f'Route on "{close[0]}" instead',
            [(gateway, change)],
            applicability=Applicability.UNSAFE,
        )
        if route is not None:
            fixes.append(route)
    branches = gateway.config.get("branches") if isinstance(gateway.config, dict) else None
    if isinstance(branches, list) and 0 <= index < len(branches):
        removal = fix_from(
            f"Remove the {branch_text}",
            [
                (
                    gateway,
                    Update.of(
                        node_ref(gateway),
                        "config",
                        {"branches": branches[:index] + branches[index + 1 :]},
                    ),
                )
            ],
            applicability=Applicability.UNSAFE,
            destructive=f"the {branch_text} is deleted",
        )
        if removal is not None:
            fixes.append(removal)
    return RULE.finding(
        span,
        message,
        node=gateway.id,
        related=related,
        fixes=tuple(fixes),
        extra=(("tool_name", value), ("consumers", tuple(consumers)), ("branch", index)),
    )


def check(ctx: RuleContext) -> Iterator[Finding]:
    graph = ctx.graph
    for gateway_id in sorted(graph.routers):
        gateway = graph.nodes_by_id.get(gateway_id)
        if gateway is None or gateway.routing is None or not gateway.routing.branches:
            continue
        consumers = routed_consumers(ctx, gateway_id)
        if not consumers:
            continue
        names = [name for c in consumers for name in _tool_names(ctx, c)]
        default = (gateway.routing.default_branch or "").casefold()
        for index, branch in enumerate(gateway.routing.branches):
            name, value = branch
            if default and default in (value.casefold(), (name or "").casefold()):
                continue
            if value not in names:
                yield _branch_finding(ctx, gateway, index, branch, consumers, names)


EXPLANATION = RULE.explained(
    "Agent loops route on the tool the model chose: the agent's `tool_calls` output feeds a "
    "gateway's `expression` (directly, or through a data extractor selecting a call's `name`), "
    "and each branch's `value` is compared with that name. A value naming no tool the agent "
    "is offered (through every toolbox) can never match: the branch is dead, often after a "
    "tool was renamed.",
    failing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Web Search"}},
    {"id": "reason.1", "type": "agent", "data": {"label": "Research Agent"}},
    {"id": "x", "type": "data_extractor", "data": {"label": "Tool called",
      "config": {"path": "$[0].name"}}},
    {"id": "switch_gateway.1", "type": "switch_gateway", "data": {"label": "Route",
      "config": {"branches": [{"name": "Search", "value": "maps_lookup"}]}}}
  ],
  "edges": [
    {"id": "e1", "source": "tool_a", "target": "reason.1", "data": {"edgeType": "tool_availability"}},
    {"id": "e2", "source": "reason.1", "target": "x", "sourceHandle": "reason.1-output-tool_calls"},
    {"id": "e3", "source": "x", "target": "switch_gateway.1",
      "targetHandle": "switch_gateway.1-input-expression"}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Web Search"}},
    {"id": "reason.1", "type": "agent", "data": {"label": "Research Agent"}},
    {"id": "x", "type": "data_extractor", "data": {"label": "Tool called",
      "config": {"path": "$[0].name"}}},
    {"id": "switch_gateway.1", "type": "switch_gateway", "data": {"label": "Route",
      "config": {"branches": [{"name": "Search", "value": "web_search"}]}}}
  ],
  "edges": [
    {"id": "e1", "source": "tool_a", "target": "reason.1", "data": {"edgeType": "tool_availability"}},
    {"id": "e2", "source": "reason.1", "target": "x", "sourceHandle": "reason.1-output-tool_calls"},
    {"id": "e3", "source": "x", "target": "switch_gateway.1",
      "targetHandle": "switch_gateway.1-input-expression"}
  ]
}
""",
)
