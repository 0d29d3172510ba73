"""Inlay hints: the tool name the runtime derives from a label, and each consumer's tool count.

`"Web Search"` is followed by `→ web_search` (only where the name differs from the label:
`search` needs no hint), and a consumer's label by `3 tools`. Only the nodes in the requested
range are looked at (core/ide/insight.py bisects the engine's element offsets), and every
answer comes from the current analysis, so hints are right on each request after an edit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from flowdrop_lsp.core.ide import insight
from flowdrop_lsp.core.ide.wording import counted

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.document import WorkflowDocument

TOOL_NAME_TOOLTIP = "the tool name the agent is offered (derived from the label)"
TOOL_COUNT_TOOLTIP = "tools offered to this agent, through every toolbox"


@dataclass(frozen=True, slots=True)
class InlayHint:
    """`label` shown at `offset` (code points), right after the text it is about."""

    offset: int
    label: str
    tooltip: str


def inlay_hints(document: WorkflowDocument, start: int, end: int) -> list[InlayHint]:
    """The hints of the nodes in `[start, end]` (code points), in document order."""
    ctx = document.context
    hints: list[InlayHint] = []
    for node in insight.nodes_in(document, start, end):
        assert node.id is not None
        tool = insight.is_tool(ctx, node.id)
        consumer = insight.is_consumer(ctx, node.id)
        if not (tool or consumer):
            continue
        where = node.spans.name_source_span or node.spans.id_span
        if where is None:
            continue
        at = where.resolve().end
        if not start <= at <= end:
            continue
        if tool and node.tool_name != node.name_source:
            hints.append(InlayHint(at, f"→ {node.tool_name}", TOOL_NAME_TOOLTIP))
        if consumer:
            count = insight.tool_count(ctx, node.id).tools
            hints.append(InlayHint(at, counted(count, "tool"), TOOL_COUNT_TOOLTIP))
    return hints
