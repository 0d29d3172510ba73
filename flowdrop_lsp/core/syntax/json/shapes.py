"""Which members of a workflow the JSON parser reads with inner spans, and which it reads whole
(the YAML dump reader shapes a whole read's elements by the same, core.syntax.reader).

What the analysis needs spans for (ids, types, labels, edge endpoints) is parsed token by token;
everything else is read whole by the standard library's C scanner, without inner spans, which
is most of a workflow's text and most of the speed of a read.
"""

from __future__ import annotations

from typing import Any

# Which members need spans: the rest of a workflow (positions, configs, port lists, UI
# extensions — most of its text) is read by the C scanner as OPAQUE values.
FULL = "full"  # parse this value, and everything in it, with spans
OPAQUE = "opaque"  # read this value whole, without inner spans
NODE_SHAPE: dict[str, Any] = {
    "id": FULL,
    "type": FULL,
    # `config` is read whole; `instanceTitle`'s span is found on demand (model.read_node).
    "data": {"label": FULL, "metadata": {"node_type_id": FULL, "id": FULL}},
}
EDGE_SHAPE: dict[str, Any] = {
    "id": FULL,
    "source": FULL,
    "target": FULL,
    "sourceHandle": FULL,
    "targetHandle": FULL,
    "data": {"edgeType": FULL},
}
# Each element of `nodes`/`edges` is first read whole by the C scanner (fast; its spans are
# found later, on demand) and parsed with its shape only when that fails — so a document with
# one broken element costs one element's Python parse, not the whole document's.
ELEMENT = "element"
SHAPE: dict[str, Any] = {"nodes": [(ELEMENT, NODE_SHAPE)], "edges": [(ELEMENT, EDGE_SHAPE)]}
ELEMENT_DEPTH = 2  # the nesting depth at which a whole-document parse reads array elements
