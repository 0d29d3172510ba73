"""The spec's locator codes and locators on the rules that have them (R2, R8, R12, R13,
FD-UNKNOWN-NODE-TYPE), an edge's locator kept current through incremental edits, and the
applicability of every rule's fixes."""

from __future__ import annotations

from dataclasses import replace

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Applicability, Finding
from tests.support.builders import findings, node, workflow


def located(found: list[Finding]) -> list[tuple[str, str | None, str | None]]:
    return [(f.code, f.locator_code, f.locator) for f in found]


def test_r2_names_the_node_by_its_id() -> None:
    text = workflow([node("a"), node("a"), node("b")], [])
    assert located(findings(text, "R2")) == [("R2", "R2_NODE_DUPLICATE_ID", "node.a")]


def test_r8_names_the_missing_end_and_the_edge_by_its_position() -> None:
    text = workflow(
        [node("a")],
        [{"source": "a", "target": "b"}, 42, {"source": "ghost", "target": "a"}],
    )
    assert located(findings(text, "R8")) == [
        ("R8", "R8_EDGE_TARGET_MISSING", "edge.0"),
        ("R8", "R8_EDGE_SOURCE_MISSING", "edge.2"),  # a non-object element counts too
    ]


def test_r12_and_r13_name_the_edge_by_its_position() -> None:
    edges = [{"source": "a", "target": "b"}, {"source": "a", "target": "a"}]
    text = workflow([node("a"), node("b")], [*edges, {"source": "a", "target": "b"}])
    assert located(findings(text, "R12")) == [("R12", "R12_EDGE_SELF", "edge.1")]
    assert located(findings(text, "R13")) == [("R13", "R13_EDGE_PARALLEL_DUPLICATE", "edge.2")]


def test_an_unknown_node_type_names_the_node() -> None:
    text = workflow([node("a", "http_reqest"), node("b", "http_request")], [])
    settings = replace(Settings(), known_node_types=frozenset({"http_request"}))
    assert located(findings(text, "FD-UNKNOWN-NODE-TYPE", settings)) == [
        ("FD-UNKNOWN-NODE-TYPE", "R9_NODE_TYPE_UNKNOWN", "node.a")
    ]


def test_other_findings_have_no_locator() -> None:
    text = workflow([node("t1", label="Web Search"), node("t2", label="web-search")], [])
    assert all(f.locator_code is None and f.locator is None for f in analyze(text).findings)


def test_an_edge_inserted_before_renumbers_the_locators_as_a_fresh_read_does() -> None:
    edges = [
        {"source": "a", "target": "a"},
        {"source": "a", "target": "ghost"},
        {"source": "a", "target": "b"},
        {"source": "a", "target": "b"},
    ]
    text = workflow([node("a"), node("b")], edges)
    document = WorkflowDocument(text)
    assert {f.locator for f in document.findings() if f.locator} == {"edge.0", "edge.1", "edge.3"}
    at = text.index('{\n      "id": "e0",\n      "source": "a",\n      "target": "a"')
    document.apply_edit(at, at, '{"source": "b", "target": "a"}, ')
    incremental = list(document.findings())
    assert not document.stats.full_reread, "the insertion was taken incrementally"
    assert located(incremental) == located(list(analyze(document.text).findings))
    # (the inserted b → a closes a cycle with a → b: CMP-5's, on the new edge.0)
    # (and the inserted edge has no id: R3 on edge.0)
    spec_located = {
        f.locator for f in document.findings() if f.locator and f.code not in ("CMP-5", "R3")
    }
    assert spec_located == {"edge.1", "edge.2", "edge.4"}


def test_cmp9_renames_are_safe() -> None:
    text = workflow(
        [node("agent", "agent"), node("t1", label="Web Search"), node("t2", label="web-search")],
        [
            {"source": "t1", "target": "agent", "data": {"edgeType": "tool_availability"}},
            {"source": "t2", "target": "agent", "data": {"edgeType": "tool_availability"}},
        ],
    )
    fixes = [fix for f in findings(text, "CMP-9") for fix in f.fixes]
    assert fixes and all(fix.applicability is Applicability.SAFE for fix in fixes)
