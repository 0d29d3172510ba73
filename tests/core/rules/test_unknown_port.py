"""FD-UNKNOWN-PORT: a handle naming a port its node does not have — on the real site (exactly the
weather workflow's three leftovers of a rename), planted in copies of real workflows in YAML and
JSON, its fixes applied, incrementally, and after non-ASCII labels."""

from __future__ import annotations

import pytest
import yaml

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Applicability, Finding
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.rules.unknown_port import closest_ports
from tests.support.builders import as_json, at, findings, node, workflow
from tests.support.port_site import (
    gist,
    real_workflow,
    real_workflow_names,
    same_as_fresh,
    site_settings,
)

CODE = "FD-UNKNOWN-PORT"
SYNTAXES = ["yaml", "json"]


def text_of(name: str, syntax: str) -> str:
    yaml_text = real_workflow(name)
    return yaml_text if syntax == "yaml" else as_json(yaml_text)


def edge_index(text: str, syntax: str, key: str, handle: str) -> int:
    """The position in `edges` of the edge whose `key` is `handle` (read independently)."""
    edges = yaml.safe_load(text)["edges"]  # JSON is YAML
    (index,) = [i for i, edge in enumerate(edges) if edge.get(key) == handle]
    return index


def handle_at(text: str, syntax: str, key: str, handle: str) -> int:
    """Where the value `handle` of an edge's `key` starts (an edge's id may repeat it)."""
    member = f"{key}: {handle}" if syntax == "yaml" else f'"{key}": "{handle}"'
    return text.index(member) + len(member) - len(handle) - (syntax == "json")


# ----- the real site --------------------------------------------------------------------------


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_exactly_the_weather_workflows_three_leftover_ports(syntax: str) -> None:
    reported: set[tuple[str, str]] = set()
    for name in real_workflow_names():
        text = text_of(name, syntax)
        for finding in findings(text, CODE, site_settings(), syntax):
            reported.add((name, at(text, finding.span).strip('"')))
            assert finding.severity.value == "warning"
    assert reported == {
        ("aincient_weather", "data_mapper.1-output-url"),
        ("aincient_weather", "data_mapper.2-input-gf"),
        ("aincient_weather", "data_mapper.2-input-gn"),
    }


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_weather_findings_say_which_ports_the_node_has(syntax: str) -> None:
    text = text_of("aincient_weather", syntax)
    found = findings(text, CODE, site_settings(), syntax)
    quote = "" if syntax == "yaml" else '"'
    assert [at(text, f.span) for f in found] == [
        f"{quote}data_mapper.1-output-url{quote}",
        f"{quote}data_mapper.2-input-gf{quote}",
        f"{quote}data_mapper.2-input-gn{quote}",
    ]
    assert [f.message for f in found] == [
        "edge from 'data_mapper.1' names output port 'url', which the node does not have "
        "(its outputs: url_full, url_first); no data flows on it",
        "edge into 'data_mapper.2' names input port 'gf', which the node does not have "
        "(its inputs: g); no data flows on it",
        "edge into 'data_mapper.2' names input port 'gn', which the node does not have "
        "(its inputs: g); no data flows on it",
    ]
    assert [f.locator for f in found] == [
        f"edge.{edge_index(text, syntax, 'sourceHandle', 'data_mapper.1-output-url')}",
        f"edge.{edge_index(text, syntax, 'targetHandle', 'data_mapper.2-input-gf')}",
        f"edge.{edge_index(text, syntax, 'targetHandle', 'data_mapper.2-input-gn')}",
    ]
    assert all(f.locator_code is None for f in found)
    assert [f.node for f in found] == ["data_mapper.1", "data_mapper.2", "data_mapper.2"]
    assert [[fix.title for fix in f.fixes] for f in found] == [
        ["Connect to 'url_full'", "Connect to 'url_first'", "Remove the edge"],
        ["Connect to 'g'", "Remove the edge"],
        ["Connect to 'g'", "Remove the edge"],
    ]
    for finding in found:
        for fix in finding.fixes:
            assert fix.applicability is Applicability.UNSAFE and not fix.preferred


def test_nothing_without_the_sites_node_types() -> None:
    text = real_workflow("aincient_weather")
    assert findings(text, CODE, Settings(), "yaml") == []


# ----- planted in copies of real workflows ----------------------------------------------------

# An edge of the workshop workflow, into a port its chat output declares.
WORKSHOP = "workshop_one_ai_call"
GOOD = "targetHandle: chat_output.1-input-message"
TYPO = "targetHandle: chat_output.1-input-mesage"


def planted(syntax: str) -> str:
    text = real_workflow(WORKSHOP)
    assert text.count(GOOD) == 1
    text = text.replace(GOOD, TYPO)
    return text if syntax == "yaml" else as_json(text)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_renamed_port_in_a_handle(syntax: str) -> None:
    text = planted(syntax)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert at(text, finding.span).strip('"') == "chat_output.1-input-mesage"
    assert finding.message == (
        "edge into 'chat_output.1' names input port 'mesage', which the node does not have "
        "(its inputs: message); no data flows on it"
    )
    index = edge_index(text, syntax, "targetHandle", "chat_output.1-input-mesage")
    assert finding.locator == f"edge.{index}"
    assert [fix.title for fix in finding.fixes] == ["Connect to 'message'", "Remove the edge"]
    # Nothing else changed: the real workflow's own findings are all still there.
    original = text_of(WORKSHOP, syntax)
    assert gist(findings(text, None, site_settings(), syntax)) == sorted(
        [*gist(findings(original, None, site_settings(), syntax)), (CODE, finding.message)]
    )


def apply_fix(text: str, finding: Finding, title: str) -> str:
    (fix,) = [fix for fix in finding.fixes if fix.title == title]
    return apply_edits(text, fix.edits)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_connecting_to_the_closest_port_restores_the_workflow(syntax: str) -> None:
    text = planted(syntax)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    fixed = apply_fix(text, finding, "Connect to 'message'")
    assert yaml.safe_load(fixed) == yaml.safe_load(text_of(WORKSHOP, syntax))
    assert gist(findings(fixed, None, site_settings(), syntax)) == gist(
        findings(text_of(WORKSHOP, syntax), None, site_settings(), syntax)
    )


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_removing_the_edge_leaves_the_rest(syntax: str) -> None:
    text = planted(syntax)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    fixed = apply_fix(text, finding, "Remove the edge")
    before, after = yaml.safe_load(text), yaml.safe_load(fixed)
    index = int(str(finding.locator).split(".")[1])
    assert after["edges"] == before["edges"][:index] + before["edges"][index + 1 :]
    assert after["nodes"] == before["nodes"]
    assert findings(fixed, CODE, site_settings(), syntax) == []
    others = [g for g in gist(findings(text, None, site_settings(), syntax)) if g[0] != CODE]
    assert gist(findings(fixed, None, site_settings(), syntax)) == others


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_each_weather_fix_removes_its_finding_only(syntax: str) -> None:
    text = text_of("aincient_weather", syntax)
    found = findings(text, CODE, site_settings(), syntax)
    for finding in found:
        for fix in finding.fixes:
            fixed = apply_edits(text, fix.edits)
            yaml.safe_load(fixed)
            left = findings(fixed, CODE, site_settings(), syntax)
            assert finding.message not in {f.message for f in left}, fix.title
            assert len(left) == len(found) - 1, fix.title


def test_a_node_of_an_undefined_type_or_no_node_is_not_judged() -> None:
    settings = site_settings()
    text = workflow(
        [node("a", "no_such_type"), node("b", "chat_output")],
        [
            {"source": "a", "target": "b", "sourceHandle": "a-output-zzz", "targetHandle": "x"},
            {"source": "ghost", "target": "b", "sourceHandle": "ghost-output-zzz"},
            {"source": "a", "target": "b", "targetHandle": "b-input-zzz"},
        ],
    )
    found = findings(text, CODE, settings, "json")
    assert [f.message.split(",")[0] for f in found] == ["edge into 'b' names input port 'zzz'"]


def test_reserved_branch_and_dynamic_ports_are_ports() -> None:
    text = workflow(
        [
            node("g", "boolean_gateway", data={"config": {"branches": [{"name": "Yes"}]}}),
            node("s", "switch_gateway"),  # no branches of its own: the type's Default
            node("m", "data_mapper", data={"config": {"dynamicInputs": [{"name": "q"}]}}),
            node("o", "chat_output"),
        ],
        [
            {"source": "g", "target": "m", "sourceHandle": "g-output-Yes", "targetHandle": "q"},
            {"source": "s", "target": "m", "sourceHandle": "s-output-Default"},
            {"source": "o", "target": "m", "sourceHandle": "o-output-error"},
            {"source": "g", "target": "m", "targetHandle": "m-input-q"},
            {"source": "g", "target": "o", "targetHandle": "o-input-trigger"},
            {"source": "g", "target": "o", "targetHandle": "o-input-loop_back"},
            {"source": "g", "target": "o", "sourceHandle": "g-output-True"},
        ],
    )
    found = findings(text, CODE, site_settings(), "json")
    # The gateway's own branches replace the type's True/False.
    assert [f.message.split(",")[0] for f in found] == ["edge from 'g' names output port 'True'"]
    assert "(its outputs: Yes)" in found[0].message


def test_closest_ports() -> None:
    assert closest_ports("url", ("url_full", "url_first", "json")) == ("url_full", "url_first")
    assert closest_ports("gf", ("g",)) == ("g",)
    assert closest_ports("triger", ("message", "trigger")) == ("trigger",)
    assert closest_ports("true", ("True", "False")) == ("True",)
    assert closest_ports("zzz", ("message",)) == ()


# ----- incremental == from scratch ------------------------------------------------------------


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_editing_a_handle_then_a_nodes_dynamic_ports(syntax: str) -> None:
    text = text_of("aincient_weather", syntax)
    document = WorkflowDocument(text, site_settings(), syntax=syntax)
    before = same_as_fresh(document, syntax)
    # A handle fixed by typing (`gf` → `g`): one finding fewer.
    gf = handle_at(document.text, syntax, "targetHandle", "data_mapper.2-input-gf") + len(
        "data_mapper.2-input-g"
    )
    document.apply_edit(gf, gf + 1, "")
    assert not document.stats.full_reread and document.stats.elements_reread == 1
    assert len([f for f in same_as_fresh(document, syntax) if f[0] == CODE]) == 2
    # The node's dynamic input renamed to `gn`: the edge on `gn` is fine, the three on `g` not.
    mapper = document.text.index("data_mapper.2")  # the node comes before the edges
    name = document.text.index("name: g" if syntax == "yaml" else '"name": "g"', mapper)
    end = name + len("name: g" if syntax == "yaml" else '"name": "g"')
    document.apply_edit(
        end - (1 if syntax == "yaml" else 2), end - (0 if syntax == "yaml" else 1), "gn"
    )
    assert not document.stats.full_reread and document.stats.elements_reread == 1
    after = same_as_fresh(document, syntax)
    messages = sorted(f[2] for f in after if f[0] == CODE)
    assert [m.split(",")[0] for m in messages] == [
        "edge from 'data_mapper.1' names output port 'url'",
        "edge into 'data_mapper.2' names input port 'g'",
        "edge into 'data_mapper.2' names input port 'g'",
        "edge into 'data_mapper.2' names input port 'g'",
    ]
    # `gf` fixed to `g` repeats the edge on `g` from the same node: a duplicate edge (R13).
    assert [f[0] for f in before if f[0] != CODE] == []
    # …and the template's three reads of `g` now read a name the mapper's inputs lack (LANG-7).
    assert [f[0] for f in after if f[0] != CODE] == ["LANG-7", "LANG-7", "LANG-7", "R13"]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_removing_an_earlier_edge_moves_the_locators(syntax: str) -> None:
    text = text_of("aincient_weather", syntax)
    document = WorkflowDocument(text, site_settings(), syntax=syntax)
    first = document.findings()[0]
    removal = [fix for fix in first.fixes if fix.title == "Remove the edge"][0].edits[0].span
    document.apply_edit(removal.start, removal.end, "")
    found = [f for f in document.findings() if f.code == CODE]
    assert len(found) == 2
    same_as_fresh(document, syntax)


# ----- positions after non-ASCII text ---------------------------------------------------------


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_exact_positions_after_emoji_and_cjk_labels(syntax: str) -> None:
    yaml_text = real_workflow("aincient_weather").replace(
        "label: 'Data Mapper'", "label: 'データ 🗺️ Mapper 🌦️'"
    )
    text = yaml_text if syntax == "yaml" else as_json(yaml_text)
    assert "🌦️" in text
    found = findings(text, CODE, site_settings(), syntax)
    assert [at(text, f.span).strip('"') for f in found] == [
        "data_mapper.1-output-url",
        "data_mapper.2-input-gf",
        "data_mapper.2-input-gn",
    ]
    document = WorkflowDocument(text, site_settings(), syntax=syntax)
    label = document.text.index("🌦️")
    document.apply_edit(label, label, "天気")
    same_as_fresh(document, syntax)
    assert [at(document.text, f.span).strip('"') for f in document.findings() if f.code == CODE][
        0
    ] == "data_mapper.1-output-url"


# ----- branch ports match without regard to case (BR-2) ---------------------------------------

AUDIT = "aincient_audit_agent"
BRANCH_HANDLE = "sourceHandle: boolean_gateway.3-output-True\n"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_branch_port_in_another_case_is_the_branch(syntax: str) -> None:
    """BR-2: a gateway's branch port matches its configured branch without regard to case."""
    yaml_text = real_workflow(AUDIT)
    assert yaml_text.count(BRANCH_HANDLE) == 1
    original = text_of(AUDIT, syntax)
    lower = yaml_text.replace(BRANCH_HANDLE, BRANCH_HANDLE.replace("True", "tRUE"))
    text = lower if syntax == "yaml" else as_json(lower)
    assert gist(findings(text, None, site_settings(), syntax)) == gist(
        findings(original, None, site_settings(), syntax)
    )
    # A name no branch has, in any case, is still unknown.
    typo = yaml_text.replace(BRANCH_HANDLE, BRANCH_HANDLE.replace("True", "Truth"))
    text = typo if syntax == "yaml" else as_json(typo)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert at(text, finding.span).strip('"') == "boolean_gateway.3-output-Truth"
    assert gist(findings(text, None, site_settings(), syntax)) == sorted(
        [*gist(findings(original, None, site_settings(), syntax)), (CODE, finding.message)]
    )


# ----- a port the node's own records declare (other releases and sites) ----------------------

CHAT_METADATA = "      metadata:\n        node_type_id: chat_output\n"
CHAT_INPUTS = (
    "          inputs:\n            -\n              id: message\n            -\n"
    "              id: trigger\n              exposed: false\n" + CHAT_METADATA
)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_port_the_nodes_stored_metadata_lists_is_no_unknown_port(syntax: str) -> None:
    """A port `data.metadata.inputs` lists is the node's, as the editor of its release showed
    it: not unknown, though our node type lacks it (and still undeclared: no R7, no R4.d)."""
    yaml_text = real_workflow(WORKSHOP).replace(GOOD, TYPO)
    assert yaml_text.count(CHAT_METADATA) == 1
    stored = yaml_text.replace(
        CHAT_METADATA,
        CHAT_METADATA + "        inputs:\n          -\n            id: mesage\n"
        "            name: Message\n            dataType: string\n",
    )
    text = stored if syntax == "yaml" else as_json(stored)
    assert findings(text, CODE, site_settings(), syntax) == []
    assert gist(findings(text, None, site_settings(), syntax)) == gist(
        findings(text_of(WORKSHOP, syntax), None, site_settings(), syntax)
    )
    # On the other side it declares nothing: an output of that name is still unknown.
    other = stored.replace(
        "        inputs:\n          -\n            id: mesage",
        ("        outputs:\n          -\n            id: mesage"),
    )
    text = other if syntax == "yaml" else as_json(other)
    assert [f.message.split(",")[0] for f in findings(text, CODE, site_settings(), syntax)] == [
        "edge into 'chat_output.1' names input port 'mesage'"
    ]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_port_the_nodes_config_ports_lists_is_no_unknown_port(syntax: str) -> None:
    """An id of the node's `config.ports` is the node's own record of a port (its editor listed
    it): the node has it, so it is not unknown; its exposure is the node's own word, so where
    that entry hides it, the edge on it is R7's (one verdict per port: `port_verdict`)."""
    yaml_text = real_workflow(WORKSHOP).replace(GOOD, TYPO)
    assert yaml_text.count(CHAT_INPUTS) == 1
    for exposed in ("", "              exposed: false\n"):
        listed = yaml_text.replace(
            CHAT_INPUTS,
            CHAT_INPUTS.replace(
                CHAT_METADATA, "            -\n              id: mesage\n" + exposed + CHAT_METADATA
            ),
        )
        text = listed if syntax == "yaml" else as_json(listed)
        assert findings(text, CODE, site_settings(), syntax) == []
        hidden = [f.locator_code for f in findings(text, "R7", site_settings(), syntax)]
        assert hidden == (["R7_EDGE_TARGET_NOT_EXPOSED"] if exposed else [])
        others = [g for g in gist(findings(text, None, site_settings(), syntax)) if g[0] != "R7"]
        assert others == gist(findings(text_of(WORKSHOP, syntax), None, site_settings(), syntax))


def test_the_editors_export_stores_its_ports_in_metadata() -> None:
    """The editor's export keeps `data.metadata.inputs`/`outputs` ({id, name, dataType}): a
    handle naming one of them is no unknown port; one naming none still is."""
    stored = {"metadata": {"id": "chat_output", "inputs": [{"id": "mesage", "name": "M"}]}}
    text = workflow(
        [node("o", "chat_output", data=stored), node("c", "chat_input")],
        [
            {"source": "c", "target": "o", "targetHandle": "o-input-mesage"},
            {"source": "c", "target": "o", "targetHandle": "o-input-massage"},
        ],
    )
    found = findings(text, CODE, site_settings(), "json")
    assert [f.message.split(",")[0] for f in found] == ["edge into 'o' names input port 'massage'"]


def test_typing_the_stored_port_into_the_nodes_metadata() -> None:
    """Incremental: the node's metadata edited by typing re-checks its edges, as a fresh read."""
    yaml_text = real_workflow(WORKSHOP).replace(GOOD, TYPO)
    document = WorkflowDocument(yaml_text, site_settings(), syntax="yaml")
    assert len([f for f in same_as_fresh(document, "yaml") if f[0] == CODE]) == 1
    at_end = document.text.index(CHAT_METADATA) + len(CHAT_METADATA)
    document.apply_edit(at_end, at_end, "        inputs:\n          -\n            id: mesage\n")
    assert not document.stats.full_reread and document.stats.elements_reread == 1
    assert [f for f in same_as_fresh(document, "yaml") if f[0] == CODE] == []
    # One letter more: the stored port no longer matches, the finding is back.
    letter = document.text.index("id: mesage\n") + len("id: mesage")
    document.apply_edit(letter, letter, "s")
    assert not document.stats.full_reread and document.stats.elements_reread == 1
    assert len([f for f in same_as_fresh(document, "yaml") if f[0] == CODE]) == 1
