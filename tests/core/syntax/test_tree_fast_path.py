"""The fast path's shapes as the syntax tree owns them (core.syntax.tree): what the engine asks
of them without knowing the format that read them."""

from __future__ import annotations

from flowdrop_lsp.core.syntax.json.parser import ARRAY_CUT_SHORT, OBJECT_CUT_SHORT, parse_json
from flowdrop_lsp.core.syntax.json.scanner import scan_workflow
from flowdrop_lsp.core.syntax.tree import JObject, JString, OpaqueValue, ScannedArray, to_python


def test_a_container_cut_short_is_marked_so() -> None:
    for text, message in (
        ('{"nodes": [{"id": "a"], "edges": []}', OBJECT_CUT_SHORT),
        ('{"nodes": [{"id": [1}], "edges": []}', ARRAY_CUT_SHORT),
    ):
        problems = parse_json(text).problems
        assert [p.message for p in problems if p.cut_short] == [message]
        assert all(p.kind == "syntax" for p in problems if p.cut_short)


def test_a_scanned_array_gives_opaque_items_its_format_re_reads() -> None:
    text = '{"nodes": [{"id": "a", "data": {"label": "A"}}, 3], "edges": []}'
    root = scan_workflow(text)
    assert root is not None
    nodes = root.get("nodes")
    assert isinstance(nodes, ScannedArray)
    assert nodes.plain_items() == [{"id": "a", "data": {"label": "A"}}, 3]
    first = nodes.item(0)
    assert isinstance(first, OpaqueValue)
    assert (first.start, first.end) == (nodes.starts[0], nodes.ends[0])
    expanded = first.expanded(text)
    assert isinstance(expanded, JObject)
    id_value = expanded.get("id")
    assert isinstance(id_value, JString) and text[id_value.start : id_value.end] == '"a"'
    assert [to_python(item) for item in nodes.items] == nodes.plain_items()
