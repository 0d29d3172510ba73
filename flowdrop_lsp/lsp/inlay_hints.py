"""Inlay hints: the tool name the runtime derives from a label, and each consumer's tool count.

`"Web Search"` is shown `"Web Search" → web_search` (only where the name differs from the
label: `search` needs no hint), and a consumer's label is followed by `3 tools`. Only the nodes
in the requested range are looked at (core/ide/insight.py bisects the engine's element offsets),
and every answer comes from the current analysis, so hints are right on each request after an
edit (editors ask again after each change; a settings change re-reads the document, and the
next request after it is right too).
"""

from __future__ import annotations

from lsprotocol import types

from flowdrop_lsp.core.ide import insight
from flowdrop_lsp.lsp.convert import to_position
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.guard import answers_on_failure
from flowdrop_lsp.lsp.server import FlowdropServer
from flowdrop_lsp.lsp.wording import counted


def inlay_hints(ls: FlowdropServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    document = document_at(ls, params.text_document.uri)
    if document is None or not ls.is_flowdrop(document):
        return []
    engine, lines, encoding = document.engine, document.lines, ls.encoding
    wanted = params.range
    start = lines.offset(wanted.start.line, wanted.start.character, encoding)
    end = lines.offset(wanted.end.line, wanted.end.character, encoding)
    ctx = engine.context
    hints: list[types.InlayHint] = []
    for node in insight.nodes_in(engine, start, end):
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
        position = to_position(lines, at, encoding)
        if tool and node.tool_name != node.name_source:
            hints.append(
                types.InlayHint(
                    position=position,
                    label=f"→ {node.tool_name}",
                    padding_left=True,
                    tooltip="the tool name the agent is offered (derived from the label)",
                )
            )
        if consumer:
            hints.append(
                types.InlayHint(
                    position=position,
                    label=counted(insight.tool_count(ctx, node.id).tools, "tool"),
                    padding_left=True,
                    tooltip="tools offered to this agent, through every toolbox",
                )
            )
    return hints


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    @answers_on_failure("textDocument/inlayHint", [])
    def on_inlay_hint(ls: FlowdropServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        return inlay_hints(ls, params)
