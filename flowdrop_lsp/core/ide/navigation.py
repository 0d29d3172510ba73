"""Navigation and refactoring queries over one analysed workflow: where a node id occurs, what
is under a position and the edits of an id rename (the symbols by role: core/ide/symbols.py;
what a completion point is typing and its candidates: core/ide/completion_context.py).

Everything answers from the incremental engine (core/engine/document.py), never by re-reading the whole
document. Which nodes declare an id and which edges use it comes from the tool graph's own
indexes (kept up to date edit by edit); the element under a position is found by bisection.
Spans are then found by re-reading only the few elements a request is about (one small parse
each), in whatever format the reader seam reads, so every answer costs what the id touches, not
what the document holds — the first request after an edit included.

Where a node id occurs (the domain's editor and Drupal exports):
- a node's `id` (the declaration);
- an edge's `source` and `target` (the endpoints);
- an edge's `sourceHandle` / `targetHandle` when it starts with that endpoint's id and a dash
  (`http_request.1-output-tool` embeds `http_request.1`);
- an edge's `id`, which editors build by concatenating endpoints and handles
  (`xy-edge__{source}{sourceHandle}-{target}{targetHandle}`, or the shorter Drupal form): the
  id is parsed by its structure with the edge's own fields (core/ide/edge_ids.py), so the
  `xy-edge__` prefix, a port name or a longer id that merely contains the renamed one is never
  touched. A stale half of an edge id (naming a node the edge no longer touches) is left as it
  is.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.findings import TextEdit
from flowdrop_lsp.core.ide.edge_ids import spelled_ids
from flowdrop_lsp.core.syntax.tree import JObject, JsonValue, JString
from flowdrop_lsp.core.text.positions import Span

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.document import WorkflowDocument


class Kind(str, Enum):
    """Where in an element a node id occurs."""

    DECLARATION = "declaration"
    SOURCE = "source"
    TARGET = "target"
    SOURCE_HANDLE = "sourceHandle"
    TARGET_HANDLE = "targetHandle"
    EDGE_ID = "edge id"


# The kinds a "find references" answers (an edge id is a name of its own that merely spells the
# endpoints: it is renamed with them, but it is not a reference to the node).
REFERENCE_KINDS = frozenset(
    {Kind.DECLARATION, Kind.SOURCE, Kind.TARGET, Kind.SOURCE_HANDLE, Kind.TARGET_HANDLE}
)


@dataclass(frozen=True, slots=True)
class Token:
    """One string token of the text: its span (quotes included), what it says, and where its
    value starts inside the token when the token spells the value verbatim (no escapes; 1 for a
    quoted string, 0 for a plain YAML scalar), else None."""

    span: Span
    value: str
    verbatim_at: int | None

    def part(self, start: int, end: int) -> Span:
        """The span of the value's characters [start, end), or the whole token when the token
        does not spell the value verbatim."""
        if self.verbatim_at is None:
            return self.span
        at = self.span.start + self.verbatim_at
        return Span(at + start, at + end)


@dataclass(frozen=True, slots=True)
class Occurrence:
    """A node id at one place: `span` covers the id's characters (the whole token when the
    token holds escapes); `token` is the string it is part of; `at` where it starts in the
    token's value."""

    node_id: str
    kind: Kind
    span: Span
    token: Token
    at: int


def _resolved(span: Span) -> Span:
    return span.resolve() if span.base is not None else span


# ----- reading one element with its spans ---------------------------------------------------


def _element_tree(document: WorkflowDocument, model: Node | Edge) -> tuple[JsonValue | None, int]:
    """A node's or edge's current text re-read as the engine re-reads an element (its members
    with their spans; a node's `data` may stay unread: ids are never inside it), and the
    document offset its spans are relative to."""
    span = _resolved(model.span)  # spans move with their element: this is its text now
    buffer = document.buffer
    column = buffer.position(span.start)[1] if document.reader.needs_column else 0
    array = "nodes" if isinstance(model, Node) else "edges"
    value, _problems = document.reader.reread_element(
        buffer.slice(span.start, span.end), column, array
    )
    return value, span.start


def _token(document: WorkflowDocument, value: JsonValue | None, offset: int) -> Token | None:
    if not isinstance(value, JString):
        return None
    span = Span(value.start + offset, value.end + offset)
    raw = document.buffer.slice(span.start, span.end)
    verbatim_at: int | None = None
    if raw == value.value:
        verbatim_at = 0  # a plain YAML scalar
    elif len(raw) >= 2 and raw[0] in "\"'" and raw[-1] == raw[0] and raw[1:-1] == value.value:
        verbatim_at = 1
    return Token(span, value.value, verbatim_at)


def _member_token(
    document: WorkflowDocument, tree: JsonValue | None, key: str, offset: int
) -> Token | None:
    return _token(document, tree.get(key), offset) if isinstance(tree, JObject) else None


def _node_occurrences(document: WorkflowDocument, node: Node) -> Iterator[Occurrence]:
    tree, offset = _element_tree(document, node)
    token = _member_token(document, tree, "id", offset)
    if token is not None:
        yield Occurrence(token.value, Kind.DECLARATION, token.part(0, len(token.value)), token, 0)


def _handle_node(handle: str | None, endpoint: str | None) -> str | None:
    """The endpoint's id when `handle` embeds it (`{id}-output-tool`), else None."""
    if handle and endpoint and handle.startswith(endpoint + "-"):
        return endpoint
    return None


def _edge_occurrences(document: WorkflowDocument, edge: Edge) -> Iterator[Occurrence]:
    tree, offset = _element_tree(document, edge)
    tokens = {
        key: _member_token(document, tree, key, offset)
        for key in ("source", "target", "sourceHandle", "targetHandle", "id")
    }
    source, target = tokens["source"], tokens["target"]
    source_id = source.value if source else None
    target_id = target.value if target else None
    for token, kind in ((source, Kind.SOURCE), (target, Kind.TARGET)):
        if token is not None and token.value:
            yield Occurrence(token.value, kind, token.part(0, len(token.value)), token, 0)
    handles = (
        (tokens["sourceHandle"], source_id, Kind.SOURCE_HANDLE),
        (tokens["targetHandle"], target_id, Kind.TARGET_HANDLE),
    )
    for handle, endpoint, kind in handles:
        node = _handle_node(handle.value if handle else None, endpoint)
        if handle is not None and node is not None:
            yield Occurrence(node, kind, handle.part(0, len(node)), handle, 0)
    edge_id = tokens["id"]
    if edge_id is not None:
        handle_values = [h.value if h is not None else None for h, _, _ in handles]
        spelled = spelled_ids(edge_id.value, source_id, target_id, *handle_values)
        for position, node in spelled:
            yield Occurrence(
                node, Kind.EDGE_ID, edge_id.part(position, position + len(node)), edge_id, position
            )


def element_occurrences(document: WorkflowDocument, model: Node | Edge) -> list[Occurrence]:
    """Every node-id occurrence in one node or edge, in text order."""
    if isinstance(model, Node):
        return list(_node_occurrences(document, model))
    return sorted(_edge_occurrences(document, model), key=lambda o: o.span.start)


# ----- the index ------------------------------------------------------------------------------


class NavigationIndex:
    """Which nodes declare and which edges use each node id, in the current version.

    No index of its own to build or to keep in step: the tool graph (core/domain/graph.py) already
    keeps, edit by edit, every node by id (`definitions`) and every edge by endpoint id
    (`edges_by_endpoint`), in document order — the engine updates them with only what an edit
    touched. So the first request after an edit costs what any other does."""

    def __init__(self, document: WorkflowDocument) -> None:
        self.document = document
        self.graph = document.graph

    def model_at(self, offset: int) -> Node | Edge | None:
        """The node or edge whose text holds `offset` (O(log n))."""
        for owner in self.document.lists.values():
            index = owner.starts.bisect_right(offset) - 1
            if 0 <= index < len(owner) and offset <= owner.end(index):
                return owner.elements[index].model
        return None

    def occurrence_at(self, offset: int) -> Occurrence | None:
        """The node-id occurrence under `offset` (its ends included), if any."""
        model = self.model_at(offset)
        if model is None:
            return None
        for occurrence in element_occurrences(self.document, model):
            if occurrence.span.contains(offset):
                return occurrence
        return None

    def declared(self, node_id: str) -> bool:
        return node_id in self.graph.definitions

    def occurrences(self, node_id: str, kinds: frozenset[Kind] | None = None) -> list[Occurrence]:
        """Every occurrence of `node_id` (of `kinds`, default all), in document order; only the
        nodes and edges holding it are re-read."""
        models: list[Node | Edge] = []
        if kinds is None or Kind.DECLARATION in kinds:
            models.extend(self.graph.definitions.get(node_id, ()))
        if kinds is None or kinds - {Kind.DECLARATION}:  # only these need the edges
            # A self-edge is listed under its id twice (as source and as target): once here.
            models.extend(
                {id(e): e for e in self.graph.edges_by_endpoint.get(node_id, ())}.values()
            )
        found = [
            o
            for model in models
            for o in element_occurrences(self.document, model)
            if o.node_id == node_id and (kinds is None or o.kind in kinds)
        ]
        found.sort(key=lambda o: o.span.start)
        return found

    def definitions(self, node_id: str) -> list[Occurrence]:
        return self.occurrences(node_id, frozenset({Kind.DECLARATION}))

    def nodes(self, node_id: str) -> list[Node]:
        return list(self.graph.definitions.get(node_id, ()))

    def node_ids(self) -> list[str]:
        return list(self.graph.definitions)


def navigation_index(document: WorkflowDocument) -> NavigationIndex:
    """The id index of the document's current version (a pending whole re-read done first)."""
    document.stats  # noqa: B018 - brings a pending whole re-read up to date
    return NavigationIndex(document)


# ----- rename ---------------------------------------------------------------------------------


class RenameRefused(ValueError):
    """A rename that would break the workflow; the message says why, for the user."""


def rename_edits(document: WorkflowDocument, node_id: str, new_id: str) -> list[TextEdit]:
    """The edits that rename node `node_id` to `new_id` everywhere it occurs (declaration,
    endpoints, handles, edge ids), written as the document's format writes strings; each token
    is edited only where the id is, when the format allows (else the token is rewritten whole).
    Raises RenameRefused for an empty id or one another node already has."""
    if not new_id:
        raise RenameRefused("A node id cannot be empty.")
    if new_id == node_id:
        return []
    index = navigation_index(document)
    if index.declared(new_id):
        raise RenameRefused(
            f'A node with id "{new_id}" already exists: renaming "{node_id}" to it would merge '
            "the two nodes' edges."
        )
    by_token: dict[Span, list[Occurrence]] = {}
    for occurrence in index.occurrences(node_id):
        by_token.setdefault(occurrence.token.span, []).append(occurrence)
    edits: list[TextEdit] = []
    for occurrences in by_token.values():
        edits.extend(_token_edits(document, occurrences, new_id))
    edits.sort(key=lambda e: e.span.start)
    return edits


def _token_edits(
    document: WorkflowDocument, occurrences: list[Occurrence], new_id: str
) -> list[TextEdit]:
    token = occurrences[0].token
    old_id = occurrences[0].node_id
    pieces: list[str] = []
    cursor = 0
    for occurrence in sorted(occurrences, key=lambda o: o.at):
        pieces.append(token.value[cursor : occurrence.at])
        pieces.append(new_id)
        cursor = occurrence.at + len(old_id)
    pieces.append(token.value[cursor:])
    new_value = "".join(pieces)
    raw = document.buffer.slice(token.span.start, token.span.end)
    # The format's own writer (the reader seam: JSON literal, or YAML keeping the scalar's style).
    literal = document.reader.quote_string(new_value, raw)
    if literal is None:
        raise RenameRefused(f'"{new_id}" cannot be written here in this format.')
    if token.verbatim_at is not None:
        at = token.verbatim_at
        if literal == raw[:at] + new_value + raw[at + len(token.value) :]:
            # The token keeps its spelling but for the id: edit only the id's characters.
            return [TextEdit(o.span, new_id) for o in occurrences]
    return [TextEdit(token.span, literal)]
