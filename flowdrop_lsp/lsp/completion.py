"""`textDocument/completion` of values the document can only get right one way: node ids in an
edge's `source`/`target`, the known `edgeType` values, and node type ids (`type`,
`node_type_id`) — the site registry's when there is one (core/config/node_types.py).

The context is read from the cursor's line (a half-typed value is rarely valid syntax), in JSON
or Drupal YAML; each item replaces the whole value being typed, written as the format needs
(JSON escapes inside quotes, YAML quoting where a plain scalar would not read back).
"""

from __future__ import annotations

from lsprotocol import types

from flowdrop_lsp.core.ide.navigation import (
    Slot,
    candidates,
    completion_context,
    navigation_index,
    written_value,
)
from flowdrop_lsp.lsp.convert import to_range
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.guard import answers_on_failure
from flowdrop_lsp.lsp.server import FlowdropServer

MAX_ITEMS = 1000  # beyond this the list is marked incomplete: the client asks again as you type

KIND_OF_SLOT = {
    Slot.NODE_ID: types.CompletionItemKind.Reference,
    Slot.EDGE_TYPE: types.CompletionItemKind.EnumMember,
    Slot.NODE_TYPE: types.CompletionItemKind.Class,
}


def register(server: FlowdropServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=['"', "'", " "]),
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
    engine = document.engine
    position = params.position
    offset = document.lines.offset(position.line, position.character, ls.encoding)
    context = completion_context(engine, offset)
    if context is None:
        return None
    typed = context.typed.lower()
    values = [v for v in candidates(engine, context.slot) if typed in v.lower()]
    incomplete = len(values) > MAX_ITEMS
    replace = to_range(document.lines, context.replace, ls.encoding)
    index = navigation_index(engine)
    items = []
    for rank, value in enumerate(values[:MAX_ITEMS]):
        detail = None
        declared = index.nodes(value) if context.slot is Slot.NODE_ID else []
        if declared:
            node = declared[0]
            detail = " · ".join(p for p in (node.label, node.type_id) if p)
        text = written_value(engine, context.quote, value)
        if text is None:
            continue  # the quote typed cannot hold this value
        items.append(
            types.CompletionItem(
                label=value,
                kind=KIND_OF_SLOT[context.slot],
                detail=detail or context.slot.value,
                # Editors filter on the text the edit replaces: the typed part of the value.
                filter_text=text,
                sort_text=f"{rank:06d}",
                text_edit=types.TextEdit(range=replace, new_text=text),
            )
        )
    return types.CompletionList(is_incomplete=incomplete, items=items)
