"""Schema findings of a document read by the fast path, where each array is first validated as
a whole (one jsonschema-rs call) and only an invalid array element by element: exactly the
findings of the tolerant read (JSONC, which validates every element alone), whichever arrays
hold the errors."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.engine.document import WorkflowDocument

GOOD_NODE = {"id": "a", "type": "http_request", "data": {"label": "数据 🚀"}}
GOOD_EDGE = {"source": "a", "target": "a"}
BAD_NODE = {"id": 7, "type": "http_request", "data": {"label": ["🎉"]}}
BAD_EDGE = {"source": "a", "target": ""}


def schema(document: WorkflowDocument) -> list[tuple[str, int, int]]:
    return [
        (f.message, f.span.start, f.span.end) for f in document.findings() if f.code == "FD-SCHEMA"
    ]


@pytest.mark.parametrize(
    ("nodes", "edges", "expected"),
    [
        ([GOOD_NODE] * 3, [GOOD_EDGE, BAD_EDGE], 1),
        ([GOOD_NODE, BAD_NODE], [GOOD_EDGE] * 3, 2),
        ([BAD_NODE, GOOD_NODE], [BAD_EDGE, BAD_EDGE], 4),
        ([GOOD_NODE], [GOOD_EDGE], 0),
        # Across the blocks validated in one call each (256 items): the first and last item
        # of a block, and a last block shorter than the others.
        ([GOOD_NODE] * 600, [GOOD_EDGE] * 255 + [BAD_EDGE, BAD_EDGE] + [GOOD_EDGE] * 342, 2),
        ([GOOD_NODE] * 599 + [BAD_NODE], [GOOD_EDGE] * 513 + [BAD_EDGE], 3),
    ],
)
def test_fast_read_reports_what_the_tolerant_read_does(
    nodes: list[object], edges: list[object], expected: int
) -> None:
    text = json.dumps({"id": "w", "nodes": nodes, "edges": edges}, ensure_ascii=False, indent=1)
    fast = WorkflowDocument(text)
    tolerant = WorkflowDocument(text, allow_comments=True)
    assert schema(fast) == schema(tolerant)
    assert len(schema(fast)) == expected
