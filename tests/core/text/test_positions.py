"""Spans are code-point offsets that cover exactly a label's string token, whatever precedes it
on the line (emoji, CJK) and whatever escapes it holds; LineIndex turns them into columns."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.text.positions import LineIndex
from tests.support.builders import at, cmp9_by_node, token_span

# One line per node, with wide characters BEFORE the label on the same line.
ONE_LINE_NODES = (
    "{\n"
    '  "nodes": [\n'
    '    {"id": "📦🔎", "note": "天気予報 データ 🤖", "type": "http_request", "data": {"label": "Web Search"}},\n'
    '    {"id": "工具", "note": "Ωmega 👩\u200d💻", "type": "http_request", "data": {"label": "web\\u002dsearch"}},\n'
    '    {"id": "agent", "type": "agent", "data": {"label": "研究 Agent"}}\n'
    "  ],\n"
    '  "edges": [\n'
    '    {"source": "📦🔎", "target": "agent", "data": {"edgeType": "tool_availability"}},\n'
    '    {"source": "工具", "target": "agent", "data": {"edgeType": "tool_availability"}}\n'
    "  ]\n"
    "}\n"
)


def test_label_spans_after_emoji_and_cjk_cover_exactly_the_token() -> None:
    text = ONE_LINE_NODES
    found = cmp9_by_node(text)
    assert found["📦🔎"][0].span == token_span(text, '"Web Search"')
    assert found["工具"][0].span == token_span(text, '"web\\u002dsearch"')
    assert at(text, found["工具"][0].span) == '"web\\u002dsearch"'


@pytest.mark.parametrize(
    "label_token",
    [
        '"Tab\\there"',
        '"Quote \\" inside"',
        '"Back\\\\slash"',
        '"\\ud83d\\udce6 Box"',
        '"Caf\\u00e9"',
        '"Slash \\/ ok"',
        '"😀 emoji"',
    ],
)
def test_label_span_with_escapes(label_token: str) -> None:
    text = (
        '{"nodes": [{"id": "a", "type": "t", "data": {"label": ' + label_token + "}},\n"
        ' {"id": "b", "type": "t", "data": {"label": ' + label_token + '}}],\n"edges": ['
        '{"source": "a", "target": "x", "data": {"edgeType": "tool_availability"}},'
        '{"source": "b", "target": "x", "data": {"edgeType": "tool_availability"}}]}'
    )
    found = cmp9_by_node(text)
    assert found["a"][0].span == token_span(text, label_token, 0)
    assert found["b"][0].span == token_span(text, label_token, 1)


def test_crlf_and_lone_cr_line_breaks() -> None:
    text = ONE_LINE_NODES.replace("\n", "\r\n")
    found = cmp9_by_node(text)
    span = found["工具"][0].span
    assert span == token_span(text, '"web\\u002dsearch"')
    lines = LineIndex(text)
    line, column = lines.position(span.start)
    assert line == 3
    assert column == text.split("\r\n")[3].index('"web\\u002dsearch"')
    # A lone \r is a line break too, as in LSP.
    assert LineIndex("a\rb\r\nc\nd").position(7) == (3, 0)


def test_columns_in_each_encoding() -> None:
    text = ONE_LINE_NODES
    span = cmp9_by_node(text)["📦🔎"][0].span
    lines = LineIndex(text)
    line_text = text.splitlines()[2]
    prefix = line_text[: line_text.index('"Web Search"')]
    assert lines.position(span.start, "utf-32") == (2, len(prefix))
    assert lines.position(span.start, "utf-16") == (2, len(prefix.encode("utf-16-le")) // 2)
    assert lines.position(span.start, "utf-8") == (2, len(prefix.encode("utf-8")))
    for encoding in ("utf-8", "utf-16", "utf-32"):
        assert lines.offset(*lines.position(span.start, encoding), encoding) == span.start


def test_line_index_clamps_out_of_range_positions() -> None:
    lines = LineIndex("ab\ncd")
    assert lines.offset(-1, 5) == 0
    assert lines.offset(9, 0) == 5
    assert lines.offset(0, 99) == 2
    assert lines.position(99) == (1, 2)


def test_anchor_on_escaped_label_in_drupal_shape() -> None:
    text = (
        '{"nodes": [\n'
        '{"id": "http_request.1", "data": {"metadata": {"node_type_id": "http_request"}, "label": "Caf\\u00e9"}},\n'
        '{"id": "http_request.2", "data": {"label": "Caf", "metadata": {"node_type_id": "http_request"}}},\n'
        '{"id": "reason.1", "data": {"label": "R", "metadata": {"node_type_id": "aincient_reason"}}}],\n'
        '"edges": [\n'
        '{"source": "http_request.1", "target": "reason.1", "targetHandle": "reason.1-input-tool"},\n'
        '{"source": "http_request.2", "target": "reason.1", "targetHandle": "reason.1-input-tool"}]}'
    )
    found = cmp9_by_node(text)
    assert found["http_request.1"][0].span == token_span(text, '"Caf\\u00e9"')
    assert found["http_request.2"][0].span == token_span(text, '"Caf"')
    assert analyze(text).workflow.nodes[0].label == "Café"
