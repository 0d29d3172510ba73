"""CMP-9's policy where a case of tests/cases/CMP-9 cannot say it: every new name a fix of a case
gives is a valid tool name, every message is short, the fewest renames are planned in linear
time, references stay exact in the incremental engine, and a finding's consumers are frozen.
(Its findings and fixes, case by case: tests/cases/CMP-9, tests/core/rules/test_rule_cases.py.)"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.domain.names import llm_name_problem, sanitize_tool_name
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from flowdrop_lsp.core.operations import Update
from tests.support.builders import at, findings, node, token_span, tool_edge, workflow
from tests.support.rule_cases import Case, case_settings, cases

CASES = [case for case in cases() if case.code == "CMP-9"]
# Cases of collisions as workflows have them (a long label or an alias makes a longer message).
TYPICAL = ("three_way", "shared_toolbox")


def fix_all(text: str) -> str:
    return apply_edits(text, preferred_edits(analyze(text).findings))


def labels(text: str) -> dict[str, Any]:
    nodes = json.loads(text)["nodes"]
    return {
        n["id"]: n["data"].get("label") if isinstance(n.get("data"), dict) else None for n in nodes
    }


def case_findings(case: Case) -> list[Finding]:
    analysis = analyze(case.text(), case_settings(case), syntax=case.syntax)
    return [f for f in analysis.findings if f.code == "CMP-9"]


def case_text(name: str) -> str:
    (case,) = [case for case in CASES if case.name == f"CMP-9/{name}"]
    return case.text()


def new_names(finding: Finding) -> list[str]:
    """The names the finding's fixes give: a label, or an instance title when that is the name."""
    names = []
    for fix in finding.fixes:
        for op in fix.operations:
            assert isinstance(op, Update), op
            name = op.patch.get("label" if op.scope == "data" else "instanceTitle")
            assert isinstance(name, str), op
            names.append(name)
    return names


def test_every_new_name_a_case_s_fixes_give_is_a_valid_tool_name() -> None:
    checked = 0
    for case in CASES:
        for finding in case_findings(case):
            for name in new_names(finding):
                tool_name = sanitize_tool_name(name)
                assert llm_name_problem(tool_name) is None, (case.name, name)
                assert len(tool_name) <= 64, (case.name, name)
                checked += 1
    assert checked > 100  # every case with a fix counts


def test_typical_messages_are_short() -> None:
    text = (Path(__file__).parents[3] / "examples" / "research-agent.flowdrop.json").read_text(
        encoding="utf-8"
    )
    messages = [f.message for f in findings(text, "CMP-9")]
    typical = [case for case in CASES if case.name.split("/")[1].split(".")[0] in TYPICAL]
    messages += [f.message for case in typical for f in case_findings(case)]
    assert len(typical) == 4 and len(messages) == 12
    assert all(len(message) < 200 for message in messages)


def test_a_finding_s_consumers_are_frozen() -> None:
    cmp9 = findings(case_text("shared_toolbox.json"), "CMP-9")
    consumers = dict(cmp9[0].extra)["consumers"]
    assert [c["consumer"] for c in consumers] == ["reason", "invoke", "third"]
    # A finding is hashable, like any frozen value (its consumers are read-only dicts).
    assert hash(cmp9[0]) == hash(cmp9[0])
    with pytest.raises(TypeError):
        consumers[0]["consumer"] = "x"


def test_500_same_named_tools_plan_in_linear_time() -> None:
    nodes = [node(f"t{i}", label="Search") for i in range(500)] + [node("agent", "agent")]
    text = workflow(nodes, [tool_edge(f"t{i}", "agent") for i in range(500)], indent=None)
    started = time.perf_counter()
    fixed = fix_all(text)
    assert time.perf_counter() - started < 5
    new = labels(fixed)
    assert new["t0"] == "Search" and new["t1"] == "Search 2" and new["t499"] == "Search 500"
    assert findings(fixed, "CMP-9") == []


def test_references_are_exact_in_the_incremental_engine_after_edits() -> None:
    routed = case_text("routed_references.json")
    document = WorkflowDocument(routed)
    text = routed
    # Grow the text before the gateway (its element moves) and edit the gateway itself.
    for old, new in (('"Research Agent"', '"Research Agent 🤖 数据"'), ('"other"', '"web_search"')):
        start = text.index(old)
        document.apply_edit(start, start + len(old), new)
        text = text[:start] + new + text[start + len(old) :]
        assert not document.stats.full_reread
        incremental = [(f.node, f.message, f.related, f.fixes) for f in document.findings()]
        scratch = [(f.node, f.message, f.related, f.fixes) for f in analyze(text).findings]
        assert incremental == scratch
    kept = next(f for f in document.findings() if f.node == "search.1")
    spans = [r.span for r in kept.related if "referenced" in r.message]
    assert [at(text, span) for span in spans] == ['"web_search"', '"web_search"', '"web-search"']
    assert spans[1] == token_span(text, '"web_search"', occurrence=1)
    assert spans[2] == token_span(text, '"web-search"', occurrence=1)
