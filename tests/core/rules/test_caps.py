"""Capped output (issue 10 §5): past FINDINGS_PER_GROUP findings of one rule (FD-SCHEMA: of one
array), the first ones by position plus one summary finding; below the cap exactly the uncapped
findings; the same from scratch, after edits, and through the CLI. (No timing: bench/.)"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import FINDINGS_PER_GROUP
from flowdrop_lsp.core.rules.capping import cap_with_summary
from flowdrop_lsp.core.syntax.json.strings import spell_json
from flowdrop_lsp.core.syntax.schema import schema_message, workflow_schema
from flowdrop_lsp.entry import main
from tests.support.builders import node, workflow

CAP = FINDINGS_PER_GROUP


def numbers_as_edges(count: int) -> str:
    return json.dumps({"nodes": [node("a")], "edges": list(range(count))}, indent=1)


def duplicate_edges(count: int) -> str:
    nodes = [node("a"), node("b", "html_to_markdown")]
    return workflow(nodes, [{"source": "a", "target": "b"} for _ in range(count)])


def of(code: str, findings: tuple[Finding, ...]) -> list[Finding]:
    return [f for f in findings if f.code == code]


def summaries(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if "capped" in f.extra_dict()]


@pytest.mark.parametrize("instance", [7, -2.5, "text", True, None, [1, {}], "🎉 ラベル"])
def test_a_non_object_item_gets_jsonschemas_own_message(instance: object) -> None:
    schema = workflow_schema()
    item = {"$schema": schema["$schema"], "$ref": "#/$defs/edge", "$defs": schema["$defs"]}
    (expected,) = Draft202012Validator(item).iter_errors(instance)
    text = json.dumps({"nodes": [], "edges": [instance]}, ensure_ascii=False)
    (finding,) = of("FD-SCHEMA", analyze(text).findings)
    assert finding.message == f"edges[0]: {schema_message(expected, spell_json)}"
    assert text[finding.span.start : finding.span.end] == json.dumps(instance, ensure_ascii=False)


def test_below_the_schema_cap_every_item_is_reported() -> None:
    found = of("FD-SCHEMA", analyze(numbers_as_edges(CAP)).findings)
    assert len(found) == CAP and summaries(found) == []


def test_above_the_schema_cap_one_summary_counts_the_rest() -> None:
    text = numbers_as_edges(CAP + 250)
    found = of("FD-SCHEMA", analyze(text).findings)
    assert len(found) == CAP + 1
    (summary,) = summaries(found)
    assert summary.extra_dict()["capped"] == 250
    assert "250 more FD-SCHEMA findings in `edges`" in summary.message
    assert text[summary.span.start : summary.span.end] == str(CAP)  # the first one left out
    listed = [f for f in found if f is not summary]
    assert [f.message for f in listed] == [
        f"edges[{i}]: {i} is not of type 'object'" for i in range(CAP)
    ]


def test_the_schema_cap_is_per_array() -> None:
    text = json.dumps({"nodes": list(range(CAP)), "edges": list(range(CAP))})
    found = of("FD-SCHEMA", analyze(text).findings)
    assert len(found) == 2 * CAP and summaries(found) == []


def test_nodes_named_by_their_ids_are_one_group_with_those_named_by_index() -> None:
    """A node's schema problem names the node (`data.label of "x" (n1): …`), not `nodes[1]`: the
    cap still counts every problem under `nodes` as one group."""
    bad = [{"id": f"n{i}", "type": "t", "data": {"label": 5}} for i in range(CAP + 20)]
    text = json.dumps({"nodes": [{"type": "t"}, *bad], "edges": []})
    found = of("FD-SCHEMA", analyze(text).findings)
    assert len(found) == CAP + 1
    (summary,) = summaries(found)
    assert "21 more FD-SCHEMA findings in `nodes`" in summary.message
    assert found[0].message == 'nodes[0]: "id" is a required property'
    assert found[1].message == "data.label of n0 (type t): 5 is not of type 'string'"


def test_below_the_duplicate_edge_cap_every_duplicate_is_reported() -> None:
    found = of("R13", analyze(duplicate_edges(CAP + 1)).findings)
    assert len(found) == CAP and summaries(found) == []


def test_above_the_duplicate_edge_cap_one_summary_counts_the_rest() -> None:
    found = of("R13", analyze(duplicate_edges(CAP + 41)).findings)  # CAP + 40 duplicates
    assert len(found) == CAP + 1
    (summary,) = summaries(found)
    assert summary.extra_dict()["capped"] == 40
    assert summary.message.startswith("… and 40 more R13 findings from here on")


@pytest.mark.parametrize(
    ("text", "code", "edits"),
    [
        # Removing three bad items, then fixing one: the summary shrinks, goes, the list shrinks.
        (
            numbers_as_edges(CAP + 3),
            "FD-SCHEMA",
            [
                ("  10,\n", ""),
                ("  11,\n", ""),
                ("  12,\n", ""),
                ("  13", '  {"source": "a", "target": "a"}'),
            ],
        ),
        # Retargeting duplicates one by one (each dangles instead: R8).
        (
            duplicate_edges(CAP + 4),
            "R13",
            [('"target": "b"', f'"target": "c{i}"') for i in range(4)],
        ),
    ],
)
def test_an_edit_moves_the_count_as_a_from_scratch_analysis_does(
    text: str, code: str, edits: list[tuple[str, str]]
) -> None:
    document = WorkflowDocument(text)
    assert summaries(of(code, document.findings()))[0].extra_dict()["capped"] == 3
    for old, new in edits:
        start = text.rindex(old)
        text = text[:start] + new + text[start + len(old) :]
        document.apply_edit(start, start + len(old), new)
        assert document.findings() == WorkflowDocument(text).findings()
        assert document.incremental_failures == []
    assert summaries(of(code, document.findings())) == []
    assert len(of(code, document.findings())) == CAP - 1


def test_the_cli_prints_the_summary_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "many.flowdrop.json"
    path.write_text(numbers_as_edges(CAP + 5000), encoding="utf-8")
    main(["check", "--format", "json", str(path)])
    out = capsys.readouterr().out
    assert out.count("is not of type 'object'") == CAP
    assert out.count("5,000 more FD-SCHEMA findings") == 1


def test_cmp9_keeps_its_own_bounds() -> None:
    span = analyze(duplicate_edges(2)).findings[0].span
    many = [Finding("CMP-9", Severity.ERROR, f"tool {i}", span) for i in range(CAP + 5)]
    assert cap_with_summary(many) == many
    assert len(cap_with_summary([replace(f, code="R8") for f in many])) == CAP + 1


def test_per_edge_rules_are_capped_too() -> None:
    """R12 (found from the graph's index of self-edges) goes through the same cap."""
    self_edges = [{"source": "a", "target": "a", "sourceHandle": f"h{i}"} for i in range(CAP + 7)]
    found = of("R12", analyze(workflow([node("a")], self_edges)).findings)
    assert len(found) == CAP + 1
    assert summaries(found)[0].extra_dict()["capped"] == 7
    found = of("R12", analyze(workflow([node("a")], self_edges[:CAP])).findings)
    assert len(found) == CAP and summaries(found) == []
