"""`textDocument/inlayHint`: the tool name derived from a label and each consumer's tool count
(core/ide/hints.py), at positions in the negotiated encoding.

Every answer comes from the current analysis, so hints are right on each request after an edit
(editors ask again after each change; a settings change re-reads the document, and the next
request after it is right too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.lsp.convert import to_position
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer


def inlay_hints(ls: FlowdropServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    document = document_at(ls, params.text_document.uri)
    if document is None or not ls.is_flowdrop(document):
        return []
    lines, encoding = document.lines, ls.encoding
    wanted = params.range
    start = lines.offset(wanted.start.line, wanted.start.character, encoding)
    end = lines.offset(wanted.end.line, wanted.end.character, encoding)
    return [
        types.InlayHint(
            position=to_position(lines, hint.offset, encoding),
            label=hint.label,
            padding_left=True,
            tooltip=hint.tooltip,
        )
        for hint in document.workflow.inlay_hints(start, end)
    ]


def register(server: FlowdropServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    @answers_on_failure("textDocument/inlayHint", [])
    def on_inlay_hint(ls: FlowdropServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        return inlay_hints(ls, params)
