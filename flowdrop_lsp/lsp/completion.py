"""`textDocument/completion` of values the document can only get right one way: node ids in an
edge's `source`/`target`, the known `edgeType` values, and node type ids (core/ide/completion.py
finds them and writes each as the format needs); each item's edit replaces the whole value
being typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from flowdrop_lsp.core.ide.service import Slot
from flowdrop_lsp.lsp.convert import to_range
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.lsp.server import FlowdropServer

KIND_OF_SLOT = {
    Slot.NODE_ID: types.CompletionItemKind.Reference,
    Slot.EDGE_TYPE: types.CompletionItemKind.EnumMember,
    Slot.NODE_TYPE: types.CompletionItemKind.Class,
    Slot.VARIABLE: types.CompletionItemKind.Variable,
    Slot.FILTER: types.CompletionItemKind.Function,
    Slot.FUNCTION: types.CompletionItemKind.Function,
    Slot.TEST: types.CompletionItemKind.Operator,
    Slot.TAG: types.CompletionItemKind.Keyword,
}


def register(server: FlowdropServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        # `|` and `.` inside an expression: a filter, an attribute; `%` a Twig tag.
        types.CompletionOptions(trigger_characters=['"', "'", " ", "|", ".", "%"]),
    )
    @answers_on_failure("completion", None)
    def completion(
        ls: FlowdropServer, params: types.CompletionParams
    ) -> types.CompletionList | None:
        return _complete(ls, params)


def _complete(ls: FlowdropServer, params: types.CompletionParams) -> types.CompletionList | None:
    document = document_at(ls, params.text_document.uri)
    if document is None or not ls.is_flowdrop(document):
        return None
    position = params.position
    offset = document.lines.offset(position.line, position.character, ls.encoding)
    found = document.workflow.completions(offset)
    if found is None:
        return None
    replace = to_range(document.lines, found.replace, ls.encoding)
    items = [
        types.CompletionItem(
            label=item.value,
            kind=KIND_OF_SLOT[item.slot or found.slot],
            detail=item.detail,
            # Editors filter on the text the edit replaces: the typed part of the value.
            filter_text=item.text,
            sort_text=f"{item.rank:06d}",
            text_edit=types.TextEdit(range=replace, new_text=item.text),
        )
        for item in found.items
    ]
    return types.CompletionList(is_incomplete=found.incomplete, items=items)
