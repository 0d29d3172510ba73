"""Code lenses on consumers ("N tools · M collisions") and the tool set one of them opens.

A lens sits on the whole node (its span is known without re-reading the node, where its
label's would cost a re-read per consumer); the tool set is the consumer's flattened tools with
their routes and collisions, and the one-line message an editor shows of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from flowdrop_lsp.core.ide import insight
from flowdrop_lsp.core.ide.wording import counted
from flowdrop_lsp.core.text.positions import Span

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.document import WorkflowDocument

MAX_SHOWN = 30  # tools listed in the message (the tool set itself holds them all)


@dataclass(frozen=True, slots=True)
class ToolsLens:
    """The lens above `consumer`'s node: `title` says its tool and collision counts."""

    span: Span
    title: str
    consumer: str


@dataclass(frozen=True, slots=True)
class ShownTool:
    tool_name: str
    node: str
    label: str | None
    route: tuple[str, ...]  # toolbox ids, from the tool's side to the consumer's
    colliding_with: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ToolSet:
    """What a consumer is offered, and `message`: the same in one line for the user."""

    consumer: str
    label: str | None
    collisions: int
    tools: tuple[ShownTool, ...]
    message: str


def lens_title(count: insight.ToolCount) -> str:
    return f"{counted(count.tools, 'tool')} · {counted(count.collisions, 'collision')}"


def code_lenses(document: WorkflowDocument) -> list[ToolsLens]:
    """One lens per defined consumer, in document order; none when the text is no workflow."""
    if not document.is_workflow:
        return []
    ctx = document.context
    lenses = []
    for consumer in ctx.graph.consumers:
        node = ctx.node(consumer)
        if node is None:  # an id no node defines has no place in the text (R8 reports it)
            continue
        title = lens_title(insight.tool_count(ctx, consumer))
        lenses.append(ToolsLens(insight.node_span(node), title, consumer))
    lenses.sort(key=lambda lens: lens.span.start)
    return lenses


def tool_set(document: WorkflowDocument, consumer: str) -> ToolSet | None:
    """`consumer`'s flattened tool set; None when the text is no workflow or `consumer` is
    not one."""
    if not document.is_workflow:
        return None
    ctx = document.context
    if not ctx.graph.is_consumer(consumer):
        return None
    seen = insight.consumer_tools(ctx, consumer)
    tools = tuple(
        ShownTool(
            tool.tool_name,
            tool.node,
            insight.node_label(ctx, tool.node),
            tool.route,
            tool.colliding_with,
        )
        for tool in seen.tools
    )
    label = insight.node_label(ctx, consumer)
    listed = []
    for tool in tools[:MAX_SHOWN]:
        route = insight.route_labels(ctx, tool.route)
        via = f" via {' → '.join(route)}" if route else ""
        clash = " (collides)" if tool.colliding_with else ""
        listed.append(f'{tool.tool_name} ← "{tool.label or tool.node}"{via}{clash}')
    more = f"; … and {len(tools) - MAX_SHOWN} more" if len(tools) > MAX_SHOWN else ""
    message = (
        f'FlowDrop: "{label or consumer}" is offered {counted(len(tools), "tool")} '
        f"({counted(seen.collisions, 'collision')}): " + "; ".join(listed) + more
    )
    return ToolSet(consumer, label, seen.collisions, tools, message)
