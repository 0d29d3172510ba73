"""Code lens on consumers: "N tools · M collisions", running `flowdrop.showTools`.

`workspace/executeCommand` `flowdrop.showTools` with `[uri, consumer id]` answers the
consumer's flattened tool set (`{"uri", "consumer", "tools": [{"toolName", "node", "label",
"route", "collidesWith"}]}`) and shows it with `window/showMessage`, which every client
displays (VS Code as a notification, Neovim in its message area); `window/showDocument` would
need a document to show, and the set is not one. The VS Code extension needs no code of its
own for it: vscode-languageclient registers every command the server lists.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from flowdrop_lsp.core.ide import insight
from flowdrop_lsp.core.rules.base import RuleContext
from flowdrop_lsp.lsp.convert import to_range
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.guard import answers_on_failure
from flowdrop_lsp.lsp.server import FlowdropServer
from flowdrop_lsp.lsp.wording import counted

SHOW_TOOLS = "flowdrop.showTools"
MAX_SHOWN = 30  # tools listed in the message (the command's answer holds them all)


def lens_title(count: insight.ToolCount) -> str:
    return f"{counted(count.tools, 'tool')} · {counted(count.collisions, 'collision')}"


def code_lenses(ls: FlowdropServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    uri = params.text_document.uri
    document = document_at(ls, uri)
    if document is None or not ls.is_flowdrop(document) or not document.engine.is_workflow:
        return []
    ctx, lines, encoding = document.engine.context, document.lines, ls.encoding
    lenses = []
    for consumer in ctx.graph.consumers:
        node = ctx.node(consumer)
        if node is None:  # an id no node defines has no place in the text (R8 reports it)
            continue
        # The lens is about the whole node (shown above its first line): its span is known
        # without re-reading the node, where its label's would cost a re-read per consumer.
        lenses.append(
            types.CodeLens(
                range=to_range(lines, insight.node_span(node), encoding),
                command=types.Command(
                    title=lens_title(insight.tool_count(ctx, consumer)),
                    command=SHOW_TOOLS,
                    arguments=[uri, consumer],
                ),
            )
        )
    lenses.sort(key=lambda lens: (lens.range.start.line, lens.range.start.character))
    return lenses


def tool_set(ctx: RuleContext, uri: str, consumer: str) -> dict[str, Any]:
    seen = insight.consumer_tools(ctx, consumer)
    return {
        "uri": uri,
        "consumer": consumer,
        "label": insight.node_label(ctx, consumer),
        "collisions": seen.collisions,
        "tools": [
            {
                "toolName": tool.tool_name,
                "node": tool.node,
                "label": insight.node_label(ctx, tool.node),
                "route": list(tool.route),
                "collidesWith": list(tool.colliding_with),
            }
            for tool in seen.tools
        ],
    }


def message_of(ctx: RuleContext, answer: dict[str, Any]) -> str:
    name = answer["label"] or answer["consumer"]
    tools = answer["tools"]
    listed = []
    for tool in tools[:MAX_SHOWN]:
        route = insight.route_labels(ctx, tuple(tool["route"]))
        via = f" via {' → '.join(route)}" if route else ""
        clash = " (collides)" if tool["collidesWith"] else ""
        listed.append(f'{tool["toolName"]} ← "{tool["label"] or tool["node"]}"{via}{clash}')
    more = f"; … and {len(tools) - MAX_SHOWN} more" if len(tools) > MAX_SHOWN else ""
    return (
        f'FlowDrop: "{name}" is offered {counted(len(tools), "tool")} '
        f"({counted(answer['collisions'], 'collision')}): " + "; ".join(listed) + more
    )


def _arguments(args: tuple[Any, ...]) -> tuple[str, str] | None:
    if len(args) == 1 and isinstance(args[0], list):
        args = tuple(args[0])  # some clients wrap the arguments in a list
    if len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        return args[0], args[1]
    return None


def show_tools(ls: FlowdropServer, *args: Any) -> dict[str, Any] | None:
    arguments = _arguments(args)
    if arguments is None:
        return None
    uri, consumer = arguments
    document = document_at(ls, uri)
    if document is None or not document.engine.is_workflow:
        return None
    ctx = document.engine.context
    if not ctx.graph.is_consumer(consumer):
        return None
    answer = tool_set(ctx, uri, consumer)
    ls.window_show_message(
        types.ShowMessageParams(type=types.MessageType.Info, message=message_of(ctx, answer))
    )
    return answer


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    @answers_on_failure("textDocument/codeLens", [])
    def on_code_lens(ls: FlowdropServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        return code_lenses(ls, params)

    @server.command(SHOW_TOOLS)
    @answers_on_failure(SHOW_TOOLS, None)
    def on_show_tools(ls: FlowdropServer, *args: Any) -> dict[str, Any] | None:
        return show_tools(ls, *args)
