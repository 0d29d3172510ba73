"""Where an edge id spells its endpoints' node ids, read by the id's structure.

Editors build an edge's id from the edge's own fields, in one of three layouts (all seen on real
sites):

- the editor's: `xy-edge__` + source + sourceHandle + `-` + target + targetHandle
  (`xy-edge__web.1web.1-output-tool-agent.1agent.1-input-tool`);
- Drupal's shorter one, with the ports only: `xy-edge__` + source + port + `-` + target + port
  (`xy-edge__web.1tool-agent.1tool`, the handles being `web.1-output-tool`, `agent.1-input-tool`);
- dashed: source + `-` + sourceHandle + `-` + target + `-` + targetHandle.

A handle is `<node id>-output-<port>` / `<node id>-input-<port>`, so it spells its endpoint's id
once more at its start. The id is parsed with the edge's current source, target and handles: the
source half (the layout's head up to the source handle, then `-`) must start the edge id, the
target half (`-`, then the rest) must end it. Only the node ids at the places that layout puts
them are reported, so the `xy-edge__` prefix, a port name or the other endpoint's parts are never
taken for the id, whatever the id is (`x`, `e`, `-`, `edge`…).

An edge id not in one of those shapes is read only where it is unambiguous: a half that matches
(the source half at the start, the target half at the end) is reported, the other is not. An id
that is stale at one end (editors leave the id as it was when an endpoint was reconnected) keeps
its stale half untouched, and its matching half is still renamed, since the layout fixes where
each part of that half is. An id matching neither half is never read: a substring search cannot
tell a node id from a piece of a longer id, a port name or the prefix, and a rename that guesses
would corrupt the id. When two layouts match one half at different places, that half is ambiguous
and is not read either.
"""

from __future__ import annotations

EDITOR_PREFIX = "xy-edge__"

# A half of an edge id: its pieces, each (text, the node id it starts with or None).
Piece = tuple[str, str | None]
# A half's reading: where it ends (a head) or starts (a tail), and its (position, node id) places.
Reading = tuple[int, tuple[tuple[int, str], ...]]


def _handle_piece(handle: str | None, endpoint: str) -> Piece:
    """A handle as a piece of an edge id: it starts with its endpoint's id when it embeds it."""
    text = handle or ""
    return text, endpoint if text.startswith(endpoint + "-") else None


def _port(handle: str | None, endpoint: str, direction: str) -> str | None:
    mark = f"{endpoint}-{direction}-"
    return handle[len(mark) :] if handle and handle.startswith(mark) else None


def _source_halves(source: str, handle: str | None) -> dict[str, list[Piece]]:
    """The source half of each layout, before the `-` that separates it from the target's."""
    halves = {"editor": [(EDITOR_PREFIX, None), (source, source), _handle_piece(handle, source)]}
    port = _port(handle, source, "output")
    if port is not None:
        halves["ports"] = [(EDITOR_PREFIX, None), (source, source), (port, None)]
    if handle:
        halves["dashed"] = [(source, source), ("-", None), _handle_piece(handle, source)]
    return halves


def _target_halves(target: str, handle: str | None) -> dict[str, list[Piece]]:
    """The target half of each layout, after the `-` that separates it from the source's."""
    halves = {"editor": [(target, target), _handle_piece(handle, target)]}
    port = _port(handle, target, "input")
    if port is not None:
        halves["ports"] = [(target, target), (port, None)]
    if handle:
        halves["dashed"] = [(target, target), ("-", None), _handle_piece(handle, target)]
    return halves


def _places(pieces: list[Piece], at: int) -> tuple[tuple[int, str], ...]:
    found: list[tuple[int, str]] = []
    for text, node in pieces:
        if node is not None:
            found.append((at, node))
        at += len(text)
    return tuple(found)


def _one(readings: dict[str, Reading]) -> Reading | None:
    """The one reading of a half, or None when no layout or two different readings match."""
    distinct = set(readings.values())
    return distinct.pop() if len(distinct) == 1 else None


def spelled_ids(
    edge_id: str,
    source: str | None,
    target: str | None,
    source_handle: str | None,
    target_handle: str | None,
) -> list[tuple[int, str]]:
    """Where `edge_id` spells the edge's endpoint ids: (position in the id, node id) pairs in
    order, read by the layouts above from the edge's current source, target and handles."""
    heads: dict[str, Reading] = {}  # layout -> (where the half ends, its places)
    for layout, pieces in (_source_halves(source, source_handle) if source else {}).items():
        head = "".join(text for text, _ in pieces)
        if edge_id.startswith(head + "-"):
            heads[layout] = (len(head), _places(pieces, 0))
    tails: dict[str, Reading] = {}  # layout -> (where the half starts, its places)
    for layout, pieces in (_target_halves(target, target_handle) if target else {}).items():
        tail = "".join(text for text, _ in pieces)
        start = len(edge_id) - len(tail)
        if edge_id.endswith("-" + tail):
            tails[layout] = (start, _places(pieces, start))
    for layout, (end, places) in heads.items():  # the whole id in one layout: that reading
        if layout in tails and tails[layout][0] == end + 1:
            return sorted(places + tails[layout][1])
    head_found, tail_found = _one(heads), _one(tails)
    if head_found and tail_found and head_found[0] >= tail_found[0]:
        return []  # the halves overlap: the id is not one of these shapes at all
    found = [*(head_found[1] if head_found else ()), *(tail_found[1] if tail_found else ())]
    return sorted(found)
