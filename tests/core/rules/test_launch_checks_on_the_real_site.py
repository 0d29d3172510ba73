"""The launch checks (R3, R5, CMP-3, CMP-5, EDGE-8, EDGE-9) say nothing about the fifteen real
workflows of the vendored site, as Drupal wrote them and as JSON, nor about the shipped example:
each was launched as it is."""

from __future__ import annotations

from flowdrop_lsp.core.analysis import analyze
from tests.support.builders import REPO, as_json, findings
from tests.support.launch import LAUNCH_CODES, corpus_workflows


def test_the_real_site_and_the_example_launch() -> None:
    workflows = corpus_workflows()
    assert len(workflows) == 15
    for workflow_id, text in workflows:
        for syntax, document in (("yaml", text), ("json", as_json(text))):
            # One analysis per document (not one per code): the same findings, a sixth the time.
            reported = [
                f for f in analyze(document, syntax=syntax).findings if f.code in LAUNCH_CODES
            ]
            assert reported == [], (workflow_id, syntax, [f.message for f in reported])
    example = (REPO / "examples" / "research-agent.flowdrop.json").read_text(encoding="utf-8")
    assert [f for f in findings(example) if f.code in LAUNCH_CODES] == []
