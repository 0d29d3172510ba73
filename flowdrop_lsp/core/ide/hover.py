"""Hover: what a tool, a consumer, a toolbox or a gateway branch means for the agents, as text.

- On a tool's label: its resolved tool name, every consumer it reaches and through which
  toolboxes, and whether it collides there.
- On a consumer: its flattened tool set as a table (tool name → node, route).
- On a toolbox: what it forwards, to whom.
- On a gateway branch value that routes on a tool name: which tool it selects, or that none
  does.

Answered from the document's current analysis (core/ide/insight.py), never by re-reading it,
as Markdown or plain text (the editor says which it shows); the span is the hovered token.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flowdrop_lsp.core.domain.model import short_text
from flowdrop_lsp.core.ide import insight
from flowdrop_lsp.core.ide.wording import counted
from flowdrop_lsp.core.rules.base import RuleContext
from flowdrop_lsp.core.text.positions import Span

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.document import WorkflowDocument

MAX_ROWS = 50  # tools listed in one hover (a consumer may be offered thousands)
MAX_CONSUMERS = 20  # consumers listed for one tool or toolbox
# What can turn the author's text into markup where we put it (always inside quotes or a table
# cell, never at a line's start, so list and heading markers need no escaping).
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")


class Writer:
    """Plaintext: what the client shows as it is."""

    markdown = False

    def text(self, value: str) -> str:
        return value

    def code(self, value: str) -> str:
        return value

    def strong(self, value: str) -> str:
        return value

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
        return ["  " + "  ".join(row) for row in rows]


class MarkdownWriter(Writer):
    markdown = True

    def text(self, value: str) -> str:
        # Labels are the author's text: nothing in them may turn into markup (or break a table).
        return _MARKDOWN_SPECIAL.sub(r"\\\1", value).replace("\n", " ")

    def code(self, value: str) -> str:
        fence = "``" if "`" in value else "`"
        return f"{fence}{value}{fence}"

    def strong(self, value: str) -> str:
        return f"**{value}**"

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
        return [
            "| " + " | ".join(headers) + " |",
            "|" + "---|" * len(headers),
            *("| " + " | ".join(row) + " |" for row in rows),
        ]


def _quoted(w: Writer, text: str) -> str:
    return w.text(f'"{text}"')


def _named(ctx: RuleContext, w: Writer, node_id: str) -> str:
    """`"Web Search" (http_request.1)`, or the id alone, or an undefined id said so."""
    label = insight.node_label(ctx, node_id)
    ident = w.code(short_text(node_id, insight.NAME_LIMIT))
    if ctx.node(node_id) is None:
        return f"{ident} (not defined in nodes)"
    return f"{_quoted(w, label)} ({ident})" if label else ident


def _route(ctx: RuleContext, w: Writer, route: tuple[str, ...]) -> str:
    if not route:
        return "directly"
    return " → ".join(w.text(name) for name in insight.route_labels(ctx, route))


def _more(count: int, shown: int, what: str) -> list[str]:
    return [f"… and {count - shown} more {what}"] if count > shown else []


def tool_hover(ctx: RuleContext, w: Writer, tool: str) -> list[str]:
    reach = insight.tool_reach(ctx, tool)
    lines = [
        f"{w.strong('Tool')} {w.code(reach.tool_name)} — {_named(ctx, w, tool)}",
        "",
    ]
    if not reach.reaches:
        return [*lines, "Offered to no consumer: its tool edges lead to no agent."]
    lines.append(f"Offered to {counted(len(reach.reaches), 'consumer')}:")
    lines.append("")
    for one in reach.reaches[:MAX_CONSUMERS]:
        line = f"- {_named(ctx, w, one.consumer)}, {_via(ctx, w, one.route)}"
        if one.colliding_with:
            others = ", ".join(_named(ctx, w, other) for other in one.colliding_with[:3])
            more = len(one.colliding_with) - 3
            line += f" — ⚠ collides with {others}" + (f" and {more} more" if more > 0 else "")
        lines.append(line)
    lines += _more(len(reach.reaches), MAX_CONSUMERS, "consumers")
    return lines


def _via(ctx: RuleContext, w: Writer, route: tuple[str, ...]) -> str:
    return "wired directly" if not route else f"through {_route(ctx, w, route)}"


def consumer_hover(ctx: RuleContext, w: Writer, consumer: str) -> list[str]:
    seen = insight.consumer_tools(ctx, consumer)
    heading = f"{w.strong('Consumer')} {_named(ctx, w, consumer)} is offered " + counted(
        len(seen.tools), "tool"
    )
    if seen.collisions:
        heading += f" · ⚠ {counted(seen.collisions, 'collision')}"
    rows = [
        [
            w.code(tool.tool_name) + (" ⚠" if tool.collides else ""),
            _named(ctx, w, tool.node),
            _route(ctx, w, tool.route),
        ]
        for tool in seen.tools[:MAX_ROWS]
    ]
    return [
        heading,
        "",
        *w.table(["tool name", "node", "route (toolboxes)"], rows),
        *_more(len(seen.tools), MAX_ROWS, "tools"),
    ]


def toolbox_hover(ctx: RuleContext, w: Writer, toolbox: str) -> list[str]:
    forwarding = insight.toolbox_forwarding(ctx, toolbox)
    consumers = forwarding.consumers
    to = (
        ", ".join(_named(ctx, w, c) for c in consumers[:MAX_CONSUMERS])
        + (f" and {len(consumers) - MAX_CONSUMERS} more" if len(consumers) > MAX_CONSUMERS else "")
        if consumers
        else "no consumer"
    )
    rows = [
        [w.code(tool.tool_name), _named(ctx, w, tool.node), _route(ctx, w, tool.route)]
        for tool in forwarding.tools[:MAX_ROWS]
    ]
    lines = [
        f"{w.strong('Toolbox')} {_named(ctx, w, toolbox)} forwards "
        f"{counted(len(forwarding.tools), 'tool')} to {to}",
    ]
    if rows:
        lines += ["", *w.table(["tool name", "node", "through"], rows)]
    return [*lines, *_more(len(forwarding.tools), MAX_ROWS, "tools")]


def branch_hover(ctx: RuleContext, w: Writer, target: insight.BranchTarget) -> list[str]:
    selection = insight.branch_selection(ctx, target.gateway, target.index)
    if selection is None:
        return []
    branch = (
        f"{w.strong('Branch')} {_quoted(w, short_text(selection.name))}"
        if selection.name
        else f"{w.strong('Branch')} {selection.index + 1}"
    )
    value = w.code(short_text(selection.value))
    if selection.is_default:
        return [f"{branch} is the default branch: {value} is not a tool name."]
    if not selection.consumers:
        return [f"{branch} routes on {value}; no agent's tool calls reach this gateway."]
    if not selection.selected:
        who = " or ".join(_named(ctx, w, c) for c in selection.consumers[:3])
        return [f"{branch} routes on {value}: {who} has no tool of that name, so it never fires."]
    lines = [f"{branch} routes on {value}, selecting:", ""]
    lines += [
        f"- {_named(ctx, w, leaf)} at {_named(ctx, w, consumer)}"
        for consumer, leaf in selection.selected[:MAX_CONSUMERS]
    ]
    return lines


def node_hover(ctx: RuleContext, w: Writer, node_id: str) -> list[str]:
    """Every role the node plays (a consumer may also be offered as a tool to another)."""
    sections = []
    if insight.is_consumer(ctx, node_id):
        sections.append(consumer_hover(ctx, w, node_id))
    if insight.is_toolbox(ctx, node_id):
        sections.append(toolbox_hover(ctx, w, node_id))
    if insight.is_tool(ctx, node_id):
        sections.append(tool_hover(ctx, w, node_id))
    lines: list[str] = []
    for section in sections:
        lines += [*(["", "---", ""] if lines and w.markdown else [""] if lines else []), *section]
    return lines


@dataclass(frozen=True, slots=True)
class HoverText:
    """What a hover shows: `text` (Markdown when `markdown`) about the token at `span`."""

    span: Span
    text: str
    markdown: bool


def hover_at(document: WorkflowDocument, offset: int, markdown: bool) -> HoverText | None:
    """The hover at `offset`, in Markdown or plain text; None where there is nothing to say."""
    target = insight.target_at(document, offset)
    if target is None:
        return None
    w = MarkdownWriter() if markdown else Writer()
    ctx = document.context
    if isinstance(target, insight.BranchTarget):
        lines = branch_hover(ctx, w, target)
    else:
        assert target.node.id is not None
        lines = node_hover(ctx, w, target.node.id)
    if not lines:
        return None
    return HoverText(target.span, "\n".join(lines), w.markdown)
