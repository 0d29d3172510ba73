"""The spec's two CMP-9 examples (spec/examples/), with the verdicts the spec gives them."""

from __future__ import annotations

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.findings import Severity
from tests.support.builders import SPEC_EXAMPLES, at, token_span, vendored

REFUSED = "cmp9-refused-two-tools-through-a-box.json"
ACCEPTED = "cmp9-accepted-same-name-two-consumers.json"


def read_example(name: str) -> str:
    return vendored(SPEC_EXAMPLES / name).read_text(encoding="utf-8")


def test_refused_example_reports_cmp9_on_both_tool_labels_and_not_on_the_box() -> None:
    text = read_example(REFUSED)
    analysis = analyze(text)
    cmp9 = [f for f in analysis.findings if f.code == "CMP-9"]

    tool_a_label = token_span(text, '"Web Search"')
    tool_b_label = token_span(text, '"web-search"')
    box_label = token_span(text, '"My Tools"')
    assert sorted((f.node, f.span) for f in cmp9) == [
        ("tool_a", tool_a_label),
        ("tool_b", tool_b_label),
    ]
    assert all(f.severity is Severity.ERROR for f in cmp9)
    by_node = {f.node: f for f in cmp9}
    assert all(dict(f.extra)["tool_name"] == "web_search" for f in cmp9)
    assert dict(by_node["tool_a"].extra)["consumers"] == (
        {"consumer": "agent_1", "colliding_with": ("tool_b",), "route": ("box_1",)},
    )
    assert dict(by_node["tool_b"].extra)["consumers"] == (
        {"consumer": "agent_1", "colliding_with": ("tool_a",), "route": ("box_1",)},
    )
    # Nothing at all on the toolbox's own label (R3's on its edges aside: the example gives no
    # edge an id).
    assert not [
        f
        for f in analysis.findings
        if (f.span == box_label or f.node == "box_1") and f.code != "R3"
    ]
    # Each finding points at the other tool.
    assert tool_b_label in [r.span for r in by_node["tool_a"].related]
    assert tool_a_label in [r.span for r in by_node["tool_b"].related]
    assert at(text, by_node["tool_a"].span) == '"Web Search"'
    # The first tool keeps its name; the fix on either label renames only the second.
    assert by_node["tool_a"].message == (
        'tool name "web_search" also used by "web-search" (tool_b) at agent_1 (not defined in '
        "nodes); the runtime would call only one of them"
    )
    assert [f.title for f in by_node["tool_a"].fixes if f.preferred] == [
        'Keep "Web Search"; rename "web-search" (tool_b) to "web-search 2"'
    ]
    assert [f.title for f in by_node["tool_b"].fixes if f.preferred] == [
        'Rename "web-search" to "web-search 2"'
    ]
    assert by_node["tool_a"].preferred_fix.edits == by_node["tool_b"].preferred_fix.edits  # type: ignore[union-attr]


def test_refused_example_has_no_error_other_than_cmp9() -> None:
    """The spec's examples are fragments judging CMP-9 alone: their agents are not defined and
    their edges have no id, and FlowDrop refuses such edges at save (R8 and R3, errors since
    issue 26)."""
    findings = analyze(read_example(REFUSED)).findings
    assert {f.code for f in findings if f.severity is Severity.ERROR} == {"CMP-9", "R8", "R3"}


def test_accepted_example_has_no_finding_but_its_undefined_agents() -> None:
    findings = analyze(read_example(ACCEPTED)).findings
    # The dangling agents (R8) and the edges without an id (R3) are reported — FlowDrop refuses
    # both at save: errors — nothing else: CMP-9 accepts the example.
    assert {f.code for f in findings} == {"R8", "R3"}
    assert all(f.severity is Severity.ERROR for f in findings)
