"""A minified workflow (one line of tens of thousands of code points, emoji and CJK labels): a
keystroke lands exactly where the client says in each encoding, whether the client sends the
character, the whole line or the whole text, and is taken incrementally; every published range
is the one a naive converter computes (lsp/documents.py, lsp/convert.py)."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.text.positions import EditableText, Encoding, Span
from flowdrop_lsp.lsp.convert import RangeSweep, to_diagnostic, to_range
from flowdrop_lsp.lsp.documents import Change, Document

ENCODINGS: tuple[Encoding, ...] = ("utf-16", "utf-8", "utf-32")
LABELS = ["🔎 Lookup {i}", "天気予報 Weather {i}", "数据 Export {i} 📦", "Web Search", "web-search"]


def minified_workflow(nodes: int = 250) -> str:
    """One agent, `nodes` tools wired to it (two of them colliding: CMP-9 findings with
    fixes), a top level around them (a schema error after the arrays), on one line with a line
    break at its end, as API exports write it."""
    tools = [
        {
            "id": f"tool_{i}",
            "type": "http_request",
            "data": {"label": LABELS[i % len(LABELS)].format(i=i)},
        }
        for i in range(nodes)
    ]
    agent = {"id": "agent", "type": "flowdrop_node_processor_reason", "data": {"label": "研究"}}
    edges = [
        {
            "source": tool["id"],
            "target": "agent",
            "sourceHandle": f"{tool['id']}-output-tool",
            "targetHandle": "agent-input-tool",
        }
        for tool in tools
    ]
    doc = {
        "id": "export-1",
        "name": "Export 🚀 数据",
        "nodes": [agent, *tools],
        "edges": edges,
        "description": 5,  # FD-SCHEMA at the top level, after the arrays
        "metadata": {"generator": "tests"},
    }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"


def naive_position(text: str, offset: int, encoding: Encoding) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    segment = text[text.rfind("\n", 0, offset) + 1 : offset]
    if encoding == "utf-32":
        return line, len(segment)
    if encoding == "utf-16":
        return line, len(segment.encode("utf-16-le")) // 2
    return line, len(segment.encode("utf-8"))


def comparable(document: Document) -> list[tuple[object, ...]]:
    return [(f.code, f.message, f.span.resolve()) for f in document.findings()]


def where_to_type(text: str) -> dict[str, tuple[int, int, str]]:
    """Edits (start, end, new text) before, after and at an astral character, and in a CJK
    label, deep into the line; at the top level (re-read alone) before and after the arrays."""
    middle = text.index('"tool_200"')
    emoji = text.index("🔎", middle)
    cjk = text.index("天気", middle)
    rocket = text.index("🚀")
    generator = text.index('"generator":"') + len('"generator":"')
    return {
        "the top-level name, after an emoji": (rocket + 1, rocket + 1, "数"),
        "before an emoji": (emoji, emoji, "x"),
        "after an emoji": (emoji + 1, emoji + 1, "🔧"),
        "the emoji replaced": (emoji, emoji + 1, "数"),
        "inside CJK": (cjk + 1, cjk + 1, "気"),
        "a colliding label": (
            text.index('"web-search"') + 1,
            text.index('"web-search"') + 4,
            "Web",
        ),
        "the metadata after the arrays": (generator, generator, "🔧"),
    }


@pytest.fixture(scope="module")
def text() -> str:
    return minified_workflow()


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("sent_as", ["the edit", "its line", "the whole text"])
def test_a_keystroke_on_a_long_line_lands_exactly_and_is_incremental(
    text: str, encoding: Encoding, sent_as: str
) -> None:
    assert len(text) > 2 * 16_384  # past the unit counts' blocks: the long-line paths
    document = Document("file:///w/export.json", "json", 1, text, Settings())
    current = text
    for version, (start, end, new) in enumerate(where_to_type(text).values(), start=2):
        # Each edit is planned on the original text; later ones move by what came before.
        shift = len(current) - len(text)
        start, end = start + shift, end + shift
        expected = current[:start] + new + current[end:]
        if sent_as == "the edit":
            change = Change(
                (
                    *naive_position(current, start, encoding),
                    *naive_position(current, end, encoding),
                ),
                new,
            )
        elif sent_as == "its line":  # a line-diffing client: line 0 is the whole document
            change = Change((0, 0, 1, 0), expected[: expected.index("\n") + 1])
        else:
            change = Change(None, expected)
        document.apply([change], version, encoding)
        current = expected
        assert document.text == expected
        stats = document.workflow.stats()
        assert not stats["fullReread"], (sent_as, start)
        assert comparable(document) == comparable(
            Document("file:///w/export.json", "json", 1, expected, Settings())
        )
    # A CMP-9 finding among them, with a fix: every published range is the naive one.
    diagnostics = [
        to_diagnostic(f, document.lines, encoding, document.uri, version, "", True)
        for f in document.findings()
    ]
    assert any(d.code == "CMP-9" and d.data["fixes"] for d in diagnostics)
    assert any(d.code == "FD-SCHEMA" and "description" in d.message for d in diagnostics)
    for finding, diagnostic in zip(document.findings(), diagnostics, strict=True):
        span = finding.span.resolve()
        got = diagnostic.range
        assert (got.start.line, got.start.character) == naive_position(
            current, span.start, encoding
        )
        assert (got.end.line, got.end.character) == naive_position(current, span.end, encoding)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_position_sweep_on_one_long_line(text: str, encoding: Encoding) -> None:
    lines = EditableText(text)
    lines.replace(100, 100, "🎉")
    edited = text[:100] + "🎉" + text[100:]
    offsets = list(range(0, len(edited), 997)) + [len(edited) - 1, len(edited)]
    sweep = RangeSweep(lines, offsets, encoding)
    for offset in offsets:
        found = sweep.range(Span(offset, offset)).start
        assert (found.line, found.character) == naive_position(edited, offset, encoding)
        assert sweep.range(Span(offset, offset)) == to_range(lines, Span(offset, offset), encoding)
