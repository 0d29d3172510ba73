"""FD-TOOL-ROUTE: gateway branches routed on the agent's chosen tool name, checked against the
agent's flattened tool set — on the real site, on each data-flow shape, incrementally, in YAML."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Applicability
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.entry import main
from tests.support.builders import CORPUS_CONFIG, CORPUS_JSON, node, tool_edge
from tests.support.engine import comparable
from tests.support.samples import agent_loop, data_edge
from tests.support.site import copy_site

ROUTE = "FD-TOOL-ROUTE"
DEAD = {
    "aincient_pages_agent",
    "aincient_audit_agent",
    "aincient_chrome_agent",
    "aincient_image_agent",
}


def routes(text: str, syntax: str = "json") -> list[Any]:
    return [f for f in analyze(text, syntax=syntax).findings if f.code == ROUTE]


# ----- the real site ---------------------------------------------------------------------------


@pytest.mark.parametrize("syntax", ["json", "yaml"])
def test_exactly_the_four_dead_branches_of_the_real_site(syntax: str) -> None:
    paths = (
        sorted(CORPUS_JSON.glob("*.json"))
        if syntax == "json"
        else sorted(CORPUS_CONFIG.glob("flowdrop_workflow.*.yml"))
    )
    reported = {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        found = routes(text, syntax)
        name = path.name.split(".")[0] if syntax == "json" else path.name.split(".")[-2]
        if found:
            reported[name] = found
        for finding in found:
            assert text[finding.span.start : finding.span.end].strip("'\"") == (
                "capability_quick_brand_picker"
            )
            assert finding.severity.value == "warning"
            assert "Reason (agent step)" in finding.message
    assert set(reported) == DEAD
    assert all(len(found) == 1 for found in reported.values())


def test_a_dead_branch_pointed_at_a_tool_the_agent_has_clears() -> None:
    text = (CORPUS_JSON / "aincient_pages_agent.flowdrop.json").read_text(encoding="utf-8")
    assert len(routes(text)) == 1
    fixed = text.replace(
        '"value": "capability_quick_brand_picker"', '"value": "capability_list_pages"'
    )
    assert routes(fixed) == []


def test_renaming_a_routed_on_tool_by_hand_makes_the_route_dangle() -> None:
    text = (CORPUS_JSON / "aincient_pages_agent.flowdrop.json").read_text(encoding="utf-8")
    live = text.replace(
        '"value": "capability_quick_brand_picker"', '"value": "capability_list_pages"'
    )
    assert routes(live) == []
    renamed = live.replace('"Capability: List pages"', '"Capability: Browse pages"')
    assert renamed != live
    (found,) = routes(renamed)
    assert '"capability_list_pages"' in found.message
    assert "capability_browse_pages" in found.message
    assert [e.new_text for e in found.fixes[0].edits] == ['"capability_browse_pages"']


# ----- data-flow shapes ------------------------------------------------------------------------


def test_direct_wire_from_tool_calls_to_the_expression() -> None:
    assert len(routes(agent_loop(["maps"], path=None))) == 1
    assert routes(agent_loop(["web_search"], path=None)) == []


def test_through_an_extractor_that_selects_a_name() -> None:
    for path in ("$[0].name", "$[*].name", "$.0.name", "$[0]['name']"):
        assert len(routes(agent_loop(["maps"], path=path))) == 1, path
    found = routes(agent_loop(["web_search", "web_serch"]))
    assert len(found) == 1 and '"web_serch"' in found[0].message


def test_an_extractor_whose_path_does_not_select_a_name_is_not_a_tool_route() -> None:
    for path in ("$[0].arguments", "$.message", "$[0].name.first"):
        assert routes(agent_loop(["maps"], path=path)) == [], path


def test_two_consumers_feeding_one_gateway() -> None:
    document = json.loads(agent_loop(["web_search", "calc", "neither"]))
    document["nodes"] += [
        node("c", label="Calc"),
        node("invoke.1", "aincient_flows_aincient_invoke", "Invoke"),
    ]
    document["edges"] += [
        tool_edge("c", "invoke.1"),
        data_edge("invoke.1", "tool_calls", "x.1", "data"),
    ]
    found = routes(json.dumps(document))
    assert len(found) == 1
    assert '"neither"' in found[0].message
    assert found[0].extra_dict()["consumers"] == ("reason.1", "invoke.1")


def test_message_lists_the_tools_closest_first_and_points_at_the_consumer() -> None:
    text = agent_loop(["web_serch"], tools=("Calc", "Web Search", "Weather"))
    (finding,) = routes(text)
    assert finding.message.endswith("its tools: web_search, weather, calc")
    assert text[finding.span.start : finding.span.end] == '"web_serch"'
    assert any("Reason" in r.message or "reason.1" in r.message for r in finding.related)
    fix, remove = finding.fixes
    assert not fix.preferred and fix.title == 'Route on "web_search" instead'
    assert routes(apply_edits(text, fix.edits)) == []
    assert not remove.preferred and remove.title == 'Remove the branch "B0"'
    # Both change what the workflow does: unsafe, and with two choices never applied by --fix.
    assert {fix.applicability, remove.applicability} == {Applicability.UNSAFE}
    assert finding.applied_fix(unsafe=True) is None
    removed = json.loads(apply_edits(text, remove.edits))
    (switch,) = [n for n in removed["nodes"] if n["id"] == "switch.1"]
    assert switch["data"]["config"]["branches"] == [{"name": "Default", "value": "default"}]


def test_no_close_name_no_fix_and_an_agent_without_tools() -> None:
    (finding,) = routes(agent_loop(["zzz_unrelated"]))
    assert [f.title for f in finding.fixes] == ['Remove the branch "B0"']
    (lonely,) = routes(agent_loop(["web_search"], tools=()))
    assert "it is offered no tools" in lonely.message


# ----- incremental and YAML --------------------------------------------------------------------


def test_label_edits_wiring_and_branch_edits_update_routes_incrementally() -> None:
    text = json.dumps(json.loads(agent_loop(["web_search"])), indent=2)
    document = WorkflowDocument(text)
    assert [f for f in document.findings() if f.code == ROUTE] == []
    steps = [('"Web Search"', '"Web Lookup"'), ('"web_search"', '"web_lookup"')]
    for old, new in steps:
        at = document.text.index(old)
        document.apply_edit(at, at + len(old), new)
        assert not document.stats.full_reread
        assert comparable(document) == comparable(WorkflowDocument(document.text))
    assert [f for f in document.findings() if f.code == ROUTE] == []
    at = document.text.index('"web_lookup"')
    document.apply_edit(at, at + len('"web_lookup"'), '"web_search"')
    assert len([f for f in document.findings() if f.code == ROUTE]) == 1
    assert comparable(document) == comparable(WorkflowDocument(document.text))


def test_the_route_fix_writes_yaml_in_yaml(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    site = copy_site(tmp_path, "config/sync")
    path = site / "flowdrop_workflow.flowdrop_workflow.aincient_pages_agent.yml"
    text = path.read_text(encoding="utf-8").replace(
        "value: capability_quick_brand_picker", "value: capability_list_page"
    )
    (finding,) = routes(text, "yaml")
    fix, remove = finding.fixes
    assert [e.new_text for e in fix.edits] == ["capability_list_pages"]
    assert routes(apply_edits(text, fix.edits), "yaml") == []
    without = apply_edits(text, remove.edits)
    (switch,) = [n for n in yaml.safe_load(without)["nodes"] if n["id"] == "switch_gateway.1"]
    assert switch["data"]["config"]["branches"] == [{"name": "Default", "value": "default"}]
    assert routes(without, "yaml") == []
    # Nothing else changed: the rest of the document loads to the same data.
    before, after = yaml.safe_load(text), yaml.safe_load(without)
    for document in (before, after):
        for item in document["nodes"]:
            item["data"].get("config", {}).pop("branches", None)
    assert before == after
    assert main(["check", str(site)]) == 0  # warnings only
    assert capsys.readouterr().out.count(ROUTE) == 4


def test_cmp9_fixes_keep_the_routed_on_name() -> None:
    from flowdrop_lsp.core.fixes import preferred_edits

    text = agent_loop(["web_search"], tools=("Web Search", "web-search"))
    analysis = analyze(text)
    assert {f.code for f in analysis.findings} == {"CMP-9"}
    fixed = apply_edits(text, preferred_edits(analysis.findings))
    assert {f.code for f in analyze(fixed).findings} == set()  # the route still reaches a tool


def test_unwiring_the_routed_on_tool_shows_the_dead_branch_incrementally() -> None:
    text = json.dumps(
        json.loads(agent_loop(["web_search"], tools=("Web Search", "Calc"))), indent=2
    )
    document = WorkflowDocument(text)
    assert [f for f in document.findings() if f.code == ROUTE] == []
    edge = '"source": "t0"'
    at = document.text.index(edge)
    document.apply_edit(at, at + len(edge), '"source": "t1"')  # the tool edge now brings Calc
    assert [f.code for f in document.findings() if f.code == ROUTE] == [ROUTE]
    assert not document.stats.full_reread
    assert comparable(document) == comparable(WorkflowDocument(document.text))
