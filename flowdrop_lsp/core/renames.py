"""Rename fixes: a new label for a node, as a text edit that keeps the document valid JSON.

The edit replaces the string the tool name comes from (the label, or `instanceTitle` where that
setting is on) with a JSON-encoded new one; a node named after its type gets a `label` inserted
instead, so that only label strings ever change.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection

from flowdrop_lsp.core.findings import TextEdit
from flowdrop_lsp.core.model import Node
from flowdrop_lsp.core.names import UNNAMED_TOOL, llm_name_problem, sanitize_tool_name
from flowdrop_lsp.core.text import Span

_TRAILING_NUMBER = re.compile(r"(.*\S) (\d{1,6})")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_string(value: str) -> str:
    """`value` as a JSON string literal; non-ASCII stays readable, but a lone surrogate (from a
    `\\ud83d` escape typed half-way) stays an escape, since it cannot be written as UTF-8."""
    encoded = json.dumps(value, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)


def rename_edit(node: Node, new_label: str) -> TextEdit:
    """The edit that makes `new_label` the string `node`'s tool name derives from."""
    encoded = json_string(new_label)
    source = node.name_source_span
    if source is not None and source != node.type_span:
        return TextEdit(source, encoded)
    if node.label_span is not None:  # an empty or non-string label: replace the value
        return TextEdit(node.label_span, encoded)
    if node.data_span is not None:
        separator = "" if node.data_is_empty else ", "
        at = node.data_span.start + 1
        # Keep the span's anchor: in the incremental engine the node may move after this.
        return TextEdit(Span(at, at, node.data_span.base), f'"label": {encoded}{separator}')
    if node.data_value_span is not None:  # `data` is not an object: a second `data` key would lose
        return TextEdit(node.data_value_span, f'{{"label": {encoded}}}')
    at = node.span.start + 1
    return TextEdit(Span(at, at, node.span.base), f'"data": {{"label": {encoded}}}, ')


def readable_base(node: Node) -> str:
    """The text a new label starts from: the current name source, made to yield a valid tool
    name when it has no ASCII letters of its own (`数据` → `数据 http_request`)."""
    base = node.name_source.strip()
    name = sanitize_tool_name(base)
    if name == UNNAMED_TOOL or llm_name_problem(name):
        base = f"{base} {node.type_id or 'tool'}".strip()
    return base


def numbered_label(node: Node, taken: Collection[str]) -> str:
    """`<label> 1`, `<label> 2`, … : the first whose tool name is not in `taken`."""
    base = readable_base(node)
    number = 1
    numbered = _TRAILING_NUMBER.fullmatch(base)
    if numbered:  # `Search 2` continues as `Search 3`, not `Search 2 2`
        base, number = numbered.group(1), int(numbered.group(2)) + 1
    while True:
        candidate = f"{base} {number}"
        if sanitize_tool_name(candidate) not in taken:
            return candidate
        number += 1
