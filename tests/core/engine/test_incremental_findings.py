"""The incremental engine (core/engine/document.py) against the oracle: after every edit, the findings of
`WorkflowDocument.apply_edit` equal those of `analyze()` reading the edited text from scratch.

Each example is a whole editing session, so it runs a quarter of the profile's examples (50 by
default, 1250 with `pytest --slow`)."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Finding
from tests.support.builders import FIXTURES, SPEC_EXAMPLES, node, tool_edge, vendored, workflow

SEEDS = [path.read_text(encoding="utf-8") for path in sorted(FIXTURES.glob("*.flowdrop.json"))]
SEEDS.append(
    vendored(SPEC_EXAMPLES / "cmp9-refused-two-tools-through-a-box.json").read_text(
        encoding="utf-8"
    )
)
SEEDS.append(
    workflow(
        [
            node("a", label="Search"),
            node("b", label="Lookup"),
            node("c", label="search"),
            node("box", "toolbox", "Box"),
            node("box2", "toolbox", "Box 2"),
            node("agent", "agent", "Agent"),
            node("agent2", "agent", "Agent 2"),
        ],
        [
            tool_edge("a", "box"),
            tool_edge("b", "box2"),
            tool_edge("box2", "box"),
            tool_edge("box", "agent"),
            tool_edge("box", "agent2"),
            tool_edge("c", "agent2"),
        ],
    )
)
LABELS = ["Search", "search", "Lookup", "LOOKUP", "数据", "", "Box", "2nd", "web-search"]
IDS = [
    "a",
    "b",
    "c",
    "box",
    "box2",
    "agent",
    "agent2",
    "tool_a",
    "tool_b",
    "box_1",
    "agent_1",
    "ghost",
]
STRING_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def comparable(finding: Finding) -> tuple[Any, ...]:
    return (
        finding.span.start,
        finding.span.end,
        finding.code,
        finding.severity.value,
        finding.message,
        finding.node,
        tuple((r.span.start, r.span.end, r.message) for r in finding.related),
        tuple(
            (
                f.title,
                f.preferred,
                f.applicability,
                tuple((e.span.start, e.span.end, e.new_text) for e in f.edits),
            )
            for f in finding.fixes
        ),
        finding.extra,
        finding.locator_code,
        finding.locator,
    )


def assert_same_as_scratch(document: WorkflowDocument, history: list[tuple[int, int, str]]) -> None:
    incremental = [comparable(f) for f in document.findings()]
    scratch = [comparable(f) for f in analyze(document.text, document.settings).findings]
    assert incremental == scratch, history


@st.composite
def edit(draw: st.DrawFn, text: str) -> tuple[int, int, str]:
    """One plausible edit of `text`: retype a string token, rewire an endpoint, delete or copy a
    line, or type/delete a few characters anywhere."""
    kind = draw(st.sampled_from(["string", "string", "line-delete", "line-copy", "type", "delete"]))
    if kind == "string":
        tokens = list(STRING_TOKEN.finditer(text))
        if tokens:
            token = draw(st.sampled_from(tokens))
            return (
                token.start(),
                token.end(),
                json.dumps(draw(st.sampled_from(LABELS + IDS)), ensure_ascii=False),
            )
    if kind in ("line-delete", "line-copy"):
        starts = [0] + [m.end() for m in re.finditer("\n", text)]
        if len(starts) > 2:
            index = draw(st.integers(1, len(starts) - 2))
            line = text[starts[index] : starts[index + 1]]
            if kind == "line-delete":
                return starts[index], starts[index + 1], ""
            return starts[index], starts[index], line
    start = draw(st.integers(0, len(text)))
    if kind == "delete":
        return start, min(len(text), start + draw(st.integers(1, 6))), ""
    return (
        start,
        start,
        draw(st.sampled_from([",", "}", "{", '"', "x", " ", "\n", "]", "[", ':"a"'])),
    )


@settings(max_examples=max(25, settings.default.max_examples // 4))
@given(
    st.sampled_from(SEEDS),
    st.sampled_from([Settings(), Settings(use_instance_title=True)]),
    st.data(),
)
def test_incremental_edits_match_a_fresh_analysis(
    seed: str, settings: Settings, data: st.DataObject
) -> None:
    document = WorkflowDocument(seed, settings)
    text = seed
    history: list[tuple[int, int, str]] = []
    assert_same_as_scratch(document, history)
    for _ in range(data.draw(st.integers(1, 8))):
        start, end, new_text = data.draw(edit(text))
        history.append((start, end, new_text))
        document.apply_edit(start, end, new_text)
        text = text[:start] + new_text + text[end:]
        assert document.text == text
        assert_same_as_scratch(document, history)


def test_edit_inside_one_label_is_incremental_and_exact() -> None:
    text = SEEDS[-1]
    document = WorkflowDocument(text)
    at = text.index('"Lookup"') + 1
    document.apply_edit(at, at + len("Lookup"), "SEARCH")
    assert document.stats.full_reread is False
    assert document.stats.elements_reread == 1
    assert_same_as_scratch(document, [])
    assert {f.node for f in document.findings() if f.code == "CMP-9"} == {"a", "b", "c"}


def test_edits_while_broken_recover_when_whole_again() -> None:
    text = SEEDS[-1]
    document = WorkflowDocument(text)
    at = text.index('"Lookup"')
    document.apply_edit(at, at + 1, "")  # an unterminated string: a full re-read
    assert "FD-SYNTAX" in {f.code for f in document.findings()}
    document.apply_edit(at, at, '"')
    assert document.text == text
    assert_same_as_scratch(document, [])
    document.apply_edit(at + 1, at + 7, "search")
    assert_same_as_scratch(document, [])
