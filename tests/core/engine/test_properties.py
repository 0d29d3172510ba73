"""Property tests: `analyze` never raises, and every span it returns lies within the text.

The number of examples is the `flowdrop` hypothesis profile of tests/conftest.py (raise it with
`pytest --slow`)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from tests.support.builders import FIXTURES, node, tool_edge, workflow

SEED_TEXTS = [path.read_text(encoding="utf-8") for path in sorted(FIXTURES.glob("*.flowdrop.json"))]
SEED_TEXTS.append(
    workflow(
        [
            node("a", label="Search"),
            node("b", label="search"),
            node("box", "toolbox", "Box"),
            node("agent", "agent"),
        ],
        [
            tool_edge("a", "box"),
            tool_edge("b", "box"),
            tool_edge("box", "agent"),
            tool_edge("box", "box"),
        ],
    )
)
INTERESTING = [
    '"',
    "\\",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\n",
    "\r\n",
    "\ufeff",
    "📦",
    "数",
    "\\u",
    "\\ud83d",
    "/*",
    "//",
    "null",
    "-",
    "1e",
    " ",
]
PARTS = st.sampled_from(INTERESTING) | st.text(max_size=8)
SETTINGS = [
    Settings(),
    Settings(use_instance_title=True),
    Settings(passthrough_types=frozenset({"toolbox", "agent"})),
]


def check_spans(text: str, settings: Settings = SETTINGS[0], allow_comments: bool = False) -> None:
    size = len(text)
    result = analyze(text, settings, allow_comments=allow_comments)
    for finding in result.findings:
        assert 0 <= finding.span.start <= finding.span.end <= size, finding
        for related in finding.related:
            assert 0 <= related.span.start <= related.span.end <= size, related
        for fix in finding.fixes:
            for edit in fix.edits:
                assert 0 <= edit.span.start <= edit.span.end <= size, edit
    # Fix-all never raises either, and keeps every untouched character.
    apply_edits(text, preferred_edits(result.findings))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)

node_values = st.fixed_dictionaries(
    {"id": st.sampled_from(["a", "b", "c", "box", "agent"]) | st.text(max_size=4) | json_values},
    optional={
        "type": st.sampled_from(["http_request", "toolbox", "agent", "universalNode", "calculator"])
        | json_values,
        "data": st.fixed_dictionaries(
            {},
            optional={
                "label": st.sampled_from(["Search", "search", "数据", "", "2x"])
                | st.text(max_size=6)
                | json_values,
                "metadata": st.fixed_dictionaries(
                    {},
                    optional={
                        "node_type_id": st.sampled_from(["toolbox", "agent", "http_request"])
                        | json_values
                    },
                ),
                "config": st.fixed_dictionaries(
                    {}, optional={"instanceTitle": st.text(max_size=6)}
                ),
            },
        )
        | json_values,
    },
)
edge_values = st.fixed_dictionaries(
    {},
    optional={
        "source": st.sampled_from(["a", "b", "c", "box", "agent", "ghost"]) | json_values,
        "target": st.sampled_from(["a", "b", "c", "box", "agent", "ghost"]) | json_values,
        "targetHandle": st.sampled_from(["agent-input-tool", "box-input-tool_calls", "x"])
        | json_values,
        "data": st.fixed_dictionaries(
            {},
            optional={
                "edgeType": st.sampled_from(["tool_availability", "data", "tool", ""]) | json_values
            },
        )
        | json_values,
    },
)
workflow_values = st.fixed_dictionaries(
    {},
    optional={
        "nodes": st.lists(node_values, max_size=8) | json_values,
        "edges": st.lists(edge_values, max_size=10) | json_values,
    },
)


@given(st.text(max_size=300))
@example("")
@example("\ufeff")
@example('"\\')
@example("[" * 1000)
def test_arbitrary_text(text: str) -> None:
    check_spans(text)


@given(json_values, st.sampled_from([None, 0, 2]))
def test_arbitrary_json(value: Any, indent: int | None) -> None:
    check_spans(json.dumps(value, indent=indent, ensure_ascii=False))


@given(workflow_values, st.sampled_from(SETTINGS), st.booleans())
def test_arbitrary_workflow_shaped_json(value: Any, settings: Settings, ascii_only: bool) -> None:
    check_spans(json.dumps(value, indent=1, ensure_ascii=ascii_only), settings)


@given(workflow_values)
def test_fix_all_on_generated_workflows_is_valid_and_clean(value: Any) -> None:
    text = json.dumps(value, ensure_ascii=False)
    result = analyze(text)
    fixed = apply_edits(text, preferred_edits(result.findings))
    if fixed != text:
        json.loads(fixed)
        assert [f for f in analyze(fixed).findings if f.code == "CMP-9"] == []


@st.composite
def mutated_workflows(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEED_TEXTS))
    for _ in range(draw(st.integers(1, 6))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + draw(st.integers(0, 40)))))
        if draw(st.booleans()):
            text = text[:start] + text[end:]  # delete a slice
        else:
            text = text[:start] + draw(PARTS) + text[start:]  # insert
    return text


@given(mutated_workflows(), st.sampled_from(SETTINGS), st.booleans())
def test_mutated_workflow_texts(text: str, settings: Settings, allow_comments: bool) -> None:
    check_spans(text, settings, allow_comments)
