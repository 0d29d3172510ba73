"""`textDocument/hover`: what a tool, a consumer, a toolbox or a gateway branch means for the
agents (core/ide/hover.py says it), sent as the client asks.

In a site's file, on a call node (its label or its type) or a calling type's `executor_plugin`,
the called workflow follows: its label, description, contract and where it is defined
(core/ide/site_navigation.py).

Markdown when the client lists it in `hover.contentFormat`, plaintext otherwise; the range is
the hovered token, in the negotiated position encoding. A hover never fails: on an unexpected
problem it answers nothing and logs why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.core.ide.service import combined_hover
from flowdrop_lsp.lsp.convert import to_range
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.definition import site_of
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer


def wants_markdown(ls: FlowdropServer) -> bool:
    """The client's first choice among the formats we write (plaintext when it names none)."""
    formats = ls.capability("text_document", "hover", "content_format") or []
    for kind in formats:
        value = getattr(kind, "value", kind)
        if value == types.MarkupKind.Markdown.value:
            return True
        if value == types.MarkupKind.PlainText.value:
            return False
    return False


def hover(ls: FlowdropServer, params: types.HoverParams) -> types.Hover | None:
    document = document_at(ls, params.text_document.uri)
    if document is None:
        return None
    encoding = ls.encoding
    position = params.position
    offset = document.lines.offset(position.line, position.character, encoding)
    markdown = wants_markdown(ls)
    local = document.workflow.hover(offset, markdown) if ls.is_flowdrop(document) else None
    site = site_of(ls, document)
    across = site[0].hover(site[1], offset, markdown) if site is not None else None
    answer = combined_hover(local, across)
    if answer is None:
        return None
    return types.Hover(
        contents=types.MarkupContent(
            kind=types.MarkupKind.Markdown if answer.markdown else types.MarkupKind.PlainText,
            value=answer.text,
        ),
        range=to_range(document.lines, answer.span, encoding),
    )


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @answers_on_failure("textDocument/hover", None)
    def on_hover(ls: FlowdropServer, params: types.HoverParams) -> types.Hover | None:
        return hover(ls, params)
