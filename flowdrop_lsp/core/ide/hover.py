"""Hover: what a tool, a consumer, a toolbox or a gateway branch means for the agents, as text.

- On a tool's label: its resolved tool name, every consumer it reaches and through which
  toolboxes, and whether it collides there.
- On a consumer: its flattened tool set, one tool a list item (tool name, node, route).
- On a toolbox: what it forwards, to whom.
- On a gateway branch value that routes on a tool name: which tool it selects, or that none
  does.

Answered from the document's current analysis (core/ide/insight.py), never by re-reading it,
as Markdown or plain text (the editor says which it shows); the span is the hovered token.

Readable in a narrow window (Neovim's hover float): lists rather than tables (a table row
cannot wrap, and a real site's rows ran to 200 columns), and every line longer than
`MAX_COLUMNS` broken at a space outside code spans, continued two spaces in (a soft line break
in Markdown: a wide renderer joins the lines again). Ids are never cut or broken: an id longer
than a line stands on a line of its own.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flowdrop_lsp.core.domain.wording import id_text, short_text
from flowdrop_lsp.core.ide import insight
from flowdrop_lsp.core.ide.wording import counted
from flowdrop_lsp.core.rules.base import RuleContext
from flowdrop_lsp.core.text.positions import Span

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.document import WorkflowDocument

MAX_ROWS = 50  # tools listed in one hover (a consumer may be offered thousands)
MAX_CONSUMERS = 20  # consumers listed for one tool or toolbox
MAX_COLUMNS = 100  # a hover line's width (a CJK character or an emoji takes two columns)
CONTINUATION = "  "  # a wrapped line's continuation, inside its list item or paragraph
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


def columns(text: str) -> int:
    """How many columns `text` takes in a terminal (East Asian wide characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


_CODE_SPAN = re.compile(r"``.+?``|`[^`]*`")
# What would start a Markdown block (a list, a heading, a quote, a rule…) at a line's start.
_BLOCK_START = re.compile(r"[-+*#>=|~_]|\d+[.)]")


def _break_points(line: str) -> tuple[list[int], list[int]]:
    """Where `line` may be broken: a space outside code spans (an id is never split), after
    some text (a list marker is not left alone), before text that cannot start a block. First
    the preferred places, then the places a line breaks only when nothing else fits: inside a
    quoted label, and between a label and its `(id)`."""
    inside = [False] * len(line)
    for match in _CODE_SPAN.finditer(line):
        inside[match.start() : match.end()] = [True] * (match.end() - match.start())
    preferred: list[int] = []
    fallback: list[int] = []
    quoted = False
    for at, char in enumerate(line):
        if inside[at]:
            continue
        if char == '"':
            quoted = not quoted
        elif (
            char == " "
            and line[:at].strip() not in ("", "-")
            and at + 1 < len(line)
            and line[at + 1] != " "
            and not _BLOCK_START.match(line, at + 1)
        ):
            (fallback if quoted or line[at + 1] == "(" else preferred).append(at)
    return preferred, fallback


def wrapped(line: str, width: int = MAX_COLUMNS) -> list[str]:
    """`line` broken into lines of at most `width` columns where it can be (see the module
    docstring); a piece that cannot be broken (a long id) stays whole on a line of its own."""
    if columns(line) <= width:
        return [line]
    preferred, fallback = _break_points(line)
    lines: list[str] = []
    start, prefix = 0, ""
    while columns(prefix) + columns(line[start:]) > width:
        later = sorted(at for at in preferred + fallback if at > start)
        if not later:
            break
        room = width - columns(prefix)
        fits = [
            [at for at in points if at > start and columns(line[start:at]) <= room]
            for points in (preferred, fallback)
        ]
        cut = (fits[0] or fits[1] or later[:1])[-1]
        lines.append(prefix + line[start:cut])
        start, prefix = cut + 1, CONTINUATION
    return [*lines, prefix + line[start:]]


def _tool_name(w: Writer, name: str) -> str:
    """A tool name, cut like a label (it comes from one; only node ids stay whole)."""
    return w.code(short_text(name, insight.NAME_LIMIT))


def _quoted(w: Writer, text: str) -> str:
    return w.text(f'"{text}"')


def _named(ctx: RuleContext, w: Writer, node_id: str) -> str:
    """`"Web Search" (http_request.1)`, or the id alone, or an undefined id said so."""
    label = insight.node_label(ctx, node_id)
    ident = w.code(id_text(node_id))  # whole: the one way to tell equal labels apart
    if ctx.node(node_id) is None:
        return f"{ident} (not defined in nodes)"
    return f"{_quoted(w, label)} ({ident})" if label else ident


def _route(ctx: RuleContext, w: Writer, route: tuple[str, ...]) -> str:
    if not route:
        return "directly"
    # Quoted like labels everywhere else; a toolbox without a name by its id, whole.
    shown: tuple[str | None, ...] = route if len(route) <= 4 else (*route[:2], None, route[-1])
    names = [
        f"… {len(route) - 3} more …"
        if box is None
        else _quoted(w, label)
        if (label := insight.node_label(ctx, box))
        else w.code(id_text(box))
        for box in shown
    ]
    return " → ".join(names)


def _more(count: int, shown: int, what: str) -> list[str]:
    return [f"… and {count - shown} more {what}"] if count > shown else []


def tool_hover(ctx: RuleContext, w: Writer, tool: str) -> list[str]:
    reach = insight.tool_reach(ctx, tool)
    lines = [
        f"{w.strong('Tool')} {_tool_name(w, reach.tool_name)} — {_named(ctx, w, tool)}",
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
    items = [
        _tool_item(ctx, w, tool.tool_name, tool.collides, tool.node, tool.route)
        for tool in seen.tools[:MAX_ROWS]
    ]
    return [heading, "", *items, *_more(len(seen.tools), MAX_ROWS, "tools")]


def _tool_item(
    ctx: RuleContext,
    w: Writer,
    tool_name: str,
    collides: bool,
    node: str,
    route: tuple[str, ...],
) -> str:
    """A tool as a list item: `- `web_search` ⚠ — "Web Search" (`http_request.1`), through
    Web Tools` (a list, not a table: it wraps in a narrow window)."""
    warning = " ⚠" if collides else ""
    return f"- {_tool_name(w, tool_name)}{warning} — {_named(ctx, w, node)}, {_via(ctx, w, route)}"


def toolbox_hover(ctx: RuleContext, w: Writer, toolbox: str) -> list[str]:
    forwarding = insight.toolbox_forwarding(ctx, toolbox)
    consumers = forwarding.consumers
    to = (
        ", ".join(_named(ctx, w, c) for c in consumers[:MAX_CONSUMERS])
        + (f" and {len(consumers) - MAX_CONSUMERS} more" if len(consumers) > MAX_CONSUMERS else "")
        if consumers
        else "no consumer"
    )
    items = [
        _tool_item(ctx, w, tool.tool_name, False, tool.node, tool.route)
        for tool in forwarding.tools[:MAX_ROWS]
    ]
    lines = [
        f"{w.strong('Toolbox')} {_named(ctx, w, toolbox)} forwards "
        f"{counted(len(forwarding.tools), 'tool')} to {to}",
    ]
    if items:
        lines += ["", *items]
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
    lines = [piece for line in lines for piece in wrapped(line)]
    return HoverText(target.span, "\n".join(lines), w.markdown)
