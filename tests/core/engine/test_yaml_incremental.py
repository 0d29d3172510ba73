"""YAML documents are kept analysed incrementally (an edit inside one element re-reads that
element), and after every random edit the findings equal a from-scratch analysis: codes,
messages, spans, related locations and fixes. Edits that break the YAML, aliases and edits
across elements fall back to a whole re-read; the test checks both paths are taken."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.drupal import workflow
from tests.support.engine import comparable

BASE = workflow("'Web Search'", "'Other'", "web_search", '"Calc 🤖"')
# What a user types in YAML: label text, quotes, structure characters, line breaks, indents.
ALPHABET = st.sampled_from(
    [
        "a",
        "-",
        " ",
        "'",
        '"',
        ":",
        "#",
        "\n",
        "  ",
        "Web Search",
        "web-search",
        "数据",
        "🤖",
        "&x ",
        "*x",
        "{",
        "}",
        "\t",
        " -",
        "\r\n",
        "\r",
        "\x00",
        "\x7f",
        "\u2028",
        "\ud800",
    ]
)


@st.composite
def edits(draw: st.DrawFn, text_length: int) -> tuple[int, int, str]:
    # Most edits land on a label line (where people type); some anywhere.
    start = draw(st.integers(0, text_length))
    length = draw(st.sampled_from([0, 0, 0, 1, 2, 5]))
    new = "".join(draw(st.lists(ALPHABET, max_size=3)))
    return start, min(text_length, start + length), new


def _label_offsets(text: str) -> list[int]:
    offsets, at = [], text.find("label: ")
    while at >= 0:
        offsets.append(at + len("label: ") + 1)
        at = text.find("label: ", at + 1)
    return offsets


@settings(deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_incremental_yaml_equals_from_scratch(data: st.DataObject) -> None:
    document = WorkflowDocument(BASE, syntax="yaml")
    text = BASE
    incremental_steps = 0
    for _ in range(data.draw(st.integers(1, 12))):
        if data.draw(st.booleans()):
            offsets = _label_offsets(text)
            start = data.draw(st.sampled_from(offsets)) if offsets else 0
            end = start + data.draw(st.sampled_from([0, 0, 1, 3]))
            new = data.draw(st.sampled_from(["x", "", " ", "-", "Web Search"[:3], "🤖"]))
            end = min(end, len(text))
        else:
            start, end, new = data.draw(edits(len(text)))
        text = text[:start] + new + text[end:]
        document.apply_edit(start, end, new)
        assert document.text == text
        got = comparable(document)
        incremental_steps += not document.stats.full_reread
        assert got == comparable(WorkflowDocument(text, syntax="yaml"))
    assert document.incremental_failures == []


def test_a_label_edit_rereads_one_element_and_aliases_turn_it_off() -> None:
    document = WorkflowDocument(BASE, syntax="yaml")
    at = BASE.index("'Other'") + 1
    document.apply_edit(at, at + len("Other"), "web-search")
    assert len([f for f in document.findings() if f.code == "CMP-9"]) == 3
    assert not document.stats.full_reread and document.stats.elements_reread == 1
    aliased = WorkflowDocument(workflow("&a 'Web Search'", "*a"), syntax="yaml")
    at = aliased.text.index("'Web Search'") + 1
    aliased.apply_edit(at, at, "x")
    aliased.findings()
    assert aliased.stats.full_reread
