"""The statically decidable rules of issue 26 say nothing about the fifteen real workflows of the
vendored site, as Drupal wrote them and as JSON, with and without the site's node types, nor
about the shipped example."""

from __future__ import annotations

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from tests.support.builders import REPO, as_json, findings
from tests.support.config_site import site_settings
from tests.support.launch import corpus_workflows

STATIC_CODES = frozenset(
    {
        "DYN-2",
        "DYN-3",
        "DYN-5",
        "DYN-7",
        "LANG-2",
        "LANG-28",
        "STORE-2",
        "STORE-8",
        "BR-3",
        "LANG-27",
    }
)


def test_the_real_site_and_the_example_say_nothing() -> None:
    workflows = corpus_workflows()
    assert len(workflows) == 15
    for workflow_id, text in workflows:
        for syntax, document in (("yaml", text), ("json", as_json(text))):
            for settings in (site_settings(), Settings()):
                reported = [
                    f.message
                    for f in analyze(document, settings, syntax=syntax).findings
                    if f.code in STATIC_CODES
                ]
                assert reported == [], (workflow_id, syntax)
    example = (REPO / "examples" / "research-agent.flowdrop.json").read_text(encoding="utf-8")
    assert [f for f in findings(example) if f.code in STATIC_CODES] == []
