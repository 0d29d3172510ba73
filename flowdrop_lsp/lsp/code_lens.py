"""Code lens on consumers: "N tools · M collisions", running `flowdrop.showTools`.

`workspace/executeCommand` `flowdrop.showTools` with `[uri, consumer id]` answers the
consumer's flattened tool set (`{"uri", "consumer", "tools": [{"toolName", "node", "label",
"route", "collidesWith"}]}`) and shows it with `window/showMessage`, which every client
displays (VS Code as a notification, Neovim in its message area); `window/showDocument` would
need a document to show, and the set is not one. The VS Code extension needs no code of its
own for it: vscode-languageclient registers every command the server lists. The lenses and the
set are core/ide/lenses.py's; this module sends them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from flowdrop_lsp.lsp.convert import to_range
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.core.ide.service import ToolSet
    from flowdrop_lsp.lsp.server import FlowdropServer

SHOW_TOOLS = "flowdrop.showTools"


def code_lenses(ls: FlowdropServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    uri = params.text_document.uri
    document = document_at(ls, uri)
    if document is None or not ls.is_flowdrop(document):
        return []
    lines, encoding = document.lines, ls.encoding
    return [
        types.CodeLens(
            range=to_range(lines, lens.span, encoding),
            command=types.Command(
                title=lens.title, command=SHOW_TOOLS, arguments=[uri, lens.consumer]
            ),
        )
        for lens in document.workflow.code_lenses()
    ]


def tool_set_json(uri: str, tool_set: ToolSet) -> dict[str, Any]:
    return {
        "uri": uri,
        "consumer": tool_set.consumer,
        "label": tool_set.label,
        "collisions": tool_set.collisions,
        "tools": [
            {
                "toolName": tool.tool_name,
                "node": tool.node,
                "label": tool.label,
                "route": list(tool.route),
                "collidesWith": list(tool.colliding_with),
            }
            for tool in tool_set.tools
        ],
    }


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
    if document is None:
        return None
    tool_set = document.workflow.tool_set(consumer)
    if tool_set is None:
        return None
    ls.window_show_message(
        types.ShowMessageParams(type=types.MessageType.Info, message=tool_set.message)
    )
    return tool_set_json(uri, tool_set)


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    @answers_on_failure("textDocument/codeLens", [])
    def on_code_lens(ls: FlowdropServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        return code_lenses(ls, params)

    guarded_show_tools = answers_on_failure(SHOW_TOOLS, None)(show_tools)

    # No `ls` parameter: pygls reads a command handler's type hints at run time, and the server
    # type is imported for the type checker only (lsp/server.py imports no feature).
    @server.command(SHOW_TOOLS)
    def on_show_tools(*args: Any) -> dict[str, Any] | None:
        return guarded_show_tools(server, *args)
