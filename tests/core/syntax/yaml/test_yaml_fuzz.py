"""Fuzz of the YAML reader: real Drupal workflow config (the vendored atelier-cms site), mutated
the way files get broken — slices deleted, YAML punctuation, indents, tabs, anchors, flow
collections, multi-byte text, characters YAML refuses and other line breaks inserted, a line's
indentation or `-` moved (tests/support/structure_edits.py). Never a crash: FD-SYNTAX or ordinary findings, every
span inside the text; and a document edited with the same mutations, one by one, ends with
exactly the findings of a from-scratch analysis. (`make fuzz` runs it with `--slow`.)"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from tests.support.builders import CORPUS_CONFIG, vendored
from tests.support.engine import comparable
from tests.support.structure_edits import structure_edit

# Small and mid-sized real workflows (the large ones make each example slow, not more varied).
SEED_FILES = [
    "flowdrop_workflow.flowdrop_workflow.aincient_policy_seo.yml",
    "flowdrop_workflow.flowdrop_workflow.reason.yml",
    "flowdrop_workflow.flowdrop_workflow.workshop_one_ai_call.yml",
    "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml",
]
SEEDS = [vendored(CORPUS_CONFIG / name).read_text(encoding="utf-8") for name in SEED_FILES]

PARTS = st.sampled_from(
    [
        "\n",
        "\r\n",
        "  ",
        "\t",
        "-",
        "- ",
        ":",
        ": ",
        "'",
        "''",
        '"',
        "#",
        "{",
        "}",
        "[",
        "]",
        ",",
        "&a ",
        "*a",
        "!!str ",
        "|\n",
        ">-\n",
        "? ",
        "---\n",
        "...\n",
        "label: 'Web Search'\n",
        "      label: web-search\n",
        "source: ",
        "target: ",
        "edgeType: tool\n",
        "数据",
        "🤖",
        "e\u0301",
        "\x00",
        "\x01",
        "\x1b",
        "\x7f",
        "\x0b",
        "\ud800",
        "\r",
        "\x85",
        "\u2028",
        "\xa0",
        " -",
        "   -",
        "\ufeff",
        "%YAML 1.1\n",
        "null",
        "~",
        "0x1F",
        "1e400",
    ]
)


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, list[tuple[int, int, str]]]:
    """A seed text and the edits that mutate it, each on the text as the previous left it."""
    text = draw(st.sampled_from(SEEDS))
    current = text
    edits = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):  # where a line's structure lives (an indentation, a `-`…)
            start, end, new = structure_edit(random.Random(draw(st.integers(0, 2**32))), current)
        else:
            start = draw(st.integers(0, len(current)))
            end = min(len(current), start + draw(st.sampled_from([0, 0, 1, 2, 8, 40, 200])))
            new = "".join(draw(st.lists(PARTS, max_size=3)))
        edits.append((start, end, new))
        current = current[:start] + new + current[end:]
    return text, edits


def mutated(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new in edits:
        text = text[:start] + new + text[end:]
    return text


@given(mutations())
def test_mutated_drupal_yaml_never_crashes_and_spans_stay_inside(
    case: tuple[str, list[tuple[int, int, str]]],
) -> None:
    text = mutated(*case)
    result = analyze(text, syntax="yaml")
    size = len(text)
    for finding in result.findings:
        assert 0 <= finding.span.start <= finding.span.end <= size, finding
        for related in finding.related:
            assert 0 <= related.span.start <= related.span.end <= size, related
        for fix in finding.fixes:
            for edit in fix.edits:
                assert 0 <= edit.span.start <= edit.span.end <= size, edit
    apply_edits(text, preferred_edits(result.findings))  # fix-all never raises either


# Each example re-analyses from scratch after every edit: a quarter of the examples of the
# profile (`--slow` included) keeps `make test` short.
@settings(max_examples=max(20, settings.default.max_examples // 4))
@given(mutations())
def test_mutated_drupal_yaml_edited_incrementally_equals_from_scratch(
    case: tuple[str, list[tuple[int, int, str]]],
) -> None:
    text, edits = case
    document = WorkflowDocument(text, syntax="yaml")
    document.findings()
    for start, end, new in edits:
        text = text[:start] + new + text[end:]
        document.apply_edit(start, end, new)
        assert comparable(document) == comparable(WorkflowDocument(text, syntax="yaml"))
    assert document.text == text
    assert document.incremental_failures == []
