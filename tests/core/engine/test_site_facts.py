"""An open buffer's site facts come from what the engine already read (its top level at the last
whole read, its nodes and edges from their models): they equal the facts of a fresh read of the
same text, on every workflow of the real site and after random edits (most of them taken
incrementally), spans included, and no edit re-reads the whole text to make them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flowdrop_lsp.core.domain.site_facts import WorkflowFacts
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.workspace.site import read_workflow_facts
from tests.support.builders import CORPUS_CONFIG

WORKFLOWS = sorted(CORPUS_CONFIG.glob("flowdrop_workflow.flowdrop_workflow.*.yml"))


def _fresh(text: str) -> WorkflowFacts | None:
    return read_workflow_facts(text, "yaml")


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name[36:-4])
def test_the_engine_gives_the_facts_a_fresh_read_gives(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    facts = WorkflowDocument(text, syntax="yaml").site_facts()
    assert facts is not None and facts.nodes and facts.id is not None
    assert facts == _fresh(text)


def _label_values(text: str) -> list[int]:
    found, at = [], text.find("      label: ")
    while at >= 0:
        found.append(text.index("\n", at))  # the end of the label's line
        at = text.find("      label: ", at + 1)
    return found


# The brand studio: calls, dependencies, a contract after its `nodes` and `edges`.
STUDIO = CORPUS_CONFIG / "flowdrop_workflow.flowdrop_workflow.brand_studio.yml"
COLOUR = CORPUS_CONFIG / "flowdrop_workflow.flowdrop_workflow.aincient_brand_specialist_colour.yml"


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), path=st.sampled_from([STUDIO, COLOUR]))
def test_the_facts_follow_every_edit(data: st.DataObject, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    document = WorkflowDocument(text, syntax="yaml")
    incremental = 0
    for _ in range(data.draw(st.integers(1, 6))):
        choice = data.draw(st.integers(0, 3))
        if choice <= 1:  # typing at the end of a label (inside an element: incremental)
            at = data.draw(st.sampled_from(_label_values(text)))
            start, end = at, at
            new = data.draw(st.sampled_from(["x", "数", "🤖", "", " y"]))
            if new == "" and at > 0:
                start = at - 1
        elif choice == 2:  # a node id or a handle renamed
            needle = data.draw(st.sampled_from(["    id: ", "    targetHandle: ", "port: "]))
            at = text.find(needle, data.draw(st.integers(0, len(text) // 2)))
            if at < 0:
                continue
            start = end = at + len(needle)
            new = "z"
        else:  # anywhere (the top level, a key): often a whole re-read
            start = data.draw(st.integers(0, len(text)))
            end = min(len(text), start + data.draw(st.sampled_from([0, 1, 3])))
            new = data.draw(st.sampled_from(["a", "'", "\n", "  ", ""]))
        text = text[:start] + new + text[end:]
        document.apply_edit(start, end, new)
        facts = document.site_facts()
        incremental += not document.stats.full_reread
        assert facts == _fresh(text)
    assert document.incremental_failures == []


def test_a_json_top_level_read_whole_by_the_fast_path_gives_its_strings() -> None:
    # A valid JSON document's top-level scalars are read whole by the fast path (opaque values):
    # its id, label and description are facts all the same, as when the tolerant parser read
    # them (a duplicate key sends the whole text there).
    valid = (
        '{"id": "w", "name": "Weather", "description": "Looks it up", '
        '"nodes": [{"id": "a", "type": "http_request"}], "edges": []}'
    )
    tolerant = valid.replace('"edges": []', '"edges": [], "edges": []')
    facts = WorkflowDocument(valid).site_facts()
    assert facts is not None and facts.id is not None
    assert (facts.id.value, facts.label, facts.description) == ("w", "Weather", "Looks it up")
    assert facts == WorkflowDocument(tolerant).site_facts()
    assert facts == read_workflow_facts(valid, "json")
