"""Issue 18 §7: whether a document not named like a workflow is one (an API export,
`wf_10000_min.json`) is asked on every publish. The verdict comes from the engine's current
elements, never from reading their text again, and it is always the verdict a from-scratch
sniff of the current text gives (core.config.selection.text_is_flowdrop, what the CLI asks).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from flowdrop_lsp.core.config.selection import text_is_flowdrop
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.syntax.shape import SNIFFED_ITEMS

NODES = [
    {"id": f"n{i}", "type": "http_request", "data": {"label": f"Tool {i}"}}
    for i in range(SNIFFED_ITEMS + 5)
]
EDGES = [
    {"source": f"n{i}", "target": "n0", "data": {"edgeType": "tool_availability"}}
    for i in range(1, 6)
]


def _text(nodes: list[Any], edges: list[Any], minified: bool) -> str:
    """One element a line (as the spec's examples), or the whole document on one line."""
    if minified:
        return json.dumps({"nodes": nodes, "edges": edges}, separators=(",", ":"))
    lines = [",\n".join("    " + json.dumps(item) for item in items) for items in (nodes, edges)]
    nodes_text, edges_text = lines
    return f'{{\n  "nodes": [\n{nodes_text}\n  ],\n  "edges": [\n{edges_text}\n  ]\n}}\n'


def _document(minified: bool) -> WorkflowDocument:
    return WorkflowDocument(_text(NODES, EDGES, minified))


class ReadCounter:
    """Counts every read the document's reader is asked for, once set up."""

    def __init__(self, document: WorkflowDocument, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        reader = document.reader
        for name in ("read", "reread_element", "reread_region", "reread_value"):
            original = getattr(reader, name)

            def counted(*args: Any, _original: Any = original) -> Any:
                self.calls += 1
                return _original(*args)

            monkeypatch.setattr(reader, name, counted)


@pytest.mark.parametrize("minified", [False, True])
def test_the_verdict_reads_nothing_again(minified: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    document = _document(minified)
    assert document.looks_like_flowdrop
    counter = ReadCounter(document, monkeypatch)
    for i in (0, 3, SNIFFED_ITEMS - 1, SNIFFED_ITEMS + 2):  # label edits, in and past the window
        at = document.text.index(f"Tool {i}") + len("Tool")
        document.apply_edit(at, at, "x")
        document.findings()
        before = counter.calls
        assert document.looks_like_flowdrop
        assert counter.calls == before, "the verdict read the text again"
        assert document.looks_like_flowdrop == text_is_flowdrop(document.text)


EDITS: list[tuple[str, str, bool]] = [
    # (replace this, with that): whether it is still FlowDrop's shape afterwards
    ('"id": "n2"', '"id": 2', False),  # a node without a string id
    ('"id": 2', '"id": "n2"', True),
    ('"type": "http_request", "data": {"label": "Tool 5"}', '"kind": 1', False),
    ('"kind": 1', '"type": "t"', True),
    ('"id": "n0"', '"id": "n0", "x": {', True),  # half-typed: says nothing
    ('"id": "n0", "x": {', '"id": "n0"', True),
    ('{"id": "n1"', '7, {"id": "n1"', False),  # a number among the nodes
    ('7, {"id": "n1"', '{"id": "n1"', True),
]


@pytest.mark.parametrize("minified", [False, True])
def test_the_verdict_follows_the_edits(minified: bool) -> None:
    document = _document(minified)
    for old, new, expected in EDITS:
        if minified:
            old = old.replace(": ", ":").replace(", ", ",")
            new = new.replace(": ", ":").replace(", ", ",")
        at = document.text.index(old)
        document.apply_edit(at, at + len(old), new)
        assert document.looks_like_flowdrop == text_is_flowdrop(document.text) == expected, (
            old,
            new,
        )


def test_elements_moved_into_the_window_are_judged() -> None:
    """Deleting the first nodes brings later ones into the sniffed window."""
    document = WorkflowDocument(_text([1, 2, 3, *NODES], [], False))
    assert not document.looks_like_flowdrop
    at = document.text.index("1,")
    end = document.text.index("{", at)
    document.apply_edit(at, end, "")
    assert document.looks_like_flowdrop == text_is_flowdrop(document.text) is True
    # …and a node with no data nor type, now inside the window, says no.
    last = NODES[SNIFFED_ITEMS - 1]["id"]
    at = document.text.index(f'"id": "{last}"')
    start = document.text.index(', "type"', at)
    stop = document.text.index("}", document.text.index('"data"', at)) + 1
    document.apply_edit(start, stop, "")
    assert document.looks_like_flowdrop == text_is_flowdrop(document.text) is False
