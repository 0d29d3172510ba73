"""R7: an edge on a port its node type declares but the node hides — none on the real site; a
port hidden in a copy through the node's `config.ports` or its type's default, in YAML and
JSON; each end judged on its own (R7.e/f); undeclared ports out of scope (R7.d); the fix; and
incremental edits of the override."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Applicability
from flowdrop_lsp.core.fixes import apply_edits
from tests.support.builders import as_json, at, findings, node, workflow
from tests.support.port_site import (
    WORKFLOW,
    gist,
    real_workflow,
    real_workflow_names,
    same_as_fresh,
    site_settings,
)
from tests.support.site import NODE_TYPE, copy_site, plant

CODE = "R7"
SYNTAXES = ["yaml", "json"]
TARGET = "R7_EDGE_TARGET_NOT_EXPOSED"
SOURCE = "R7_EDGE_SOURCE_NOT_EXPOSED"


def edge_index(text: str, key: str, handle: str) -> int:
    edges = yaml.safe_load(text)["edges"]  # JSON is YAML
    (index,) = [i for i, edge in enumerate(edges) if edge.get(key) == handle]
    return index


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_nothing_on_the_real_site(syntax: str) -> None:
    for name in real_workflow_names():
        text = real_workflow(name)
        text = text if syntax == "yaml" else as_json(text)
        assert findings(text, CODE, site_settings(), syntax) == [], name


# ----- hidden through the node's config.ports -------------------------------------------------

PAGES = "aincient_pages_agent"
# The pages agent's chat output shows its `message` input explicitly; an edge ends on it.
SHOWN = (
    "          inputs:\n            -\n              id: message\n              exposed: true\n"
    "      metadata:\n        node_type_id: chat_output\n"
)
HIDDEN = SHOWN.replace("exposed: true", "exposed: false")
HANDLE = "chat_output.1-input-message"


def hidden_in_pages(syntax: str) -> str:
    text = real_workflow(PAGES)
    assert text.count(SHOWN) == 1
    text = text.replace(SHOWN, HIDDEN)
    return text if syntax == "yaml" else as_json(text)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_edge_into_an_input_the_node_hides(syntax: str) -> None:
    text = hidden_in_pages(syntax)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "error"
    assert at(text, finding.span).strip('"') == HANDLE
    assert finding.message == (
        "edge into 'chat_output.1' uses input port 'message', which is not exposed on that node "
        "(the node's config.ports sets exposed: false); FlowDrop refuses the workflow"
    )
    assert finding.locator_code == TARGET
    assert finding.locator == f"edge.{edge_index(text, 'targetHandle', HANDLE)}"
    assert finding.node == "chat_output.1"
    (related,) = finding.related
    assert at(text, related.span) == "false"
    assert related.message == "'message' is hidden here"
    (fix,) = finding.fixes
    assert fix.title == "Remove the edge"
    assert fix.applicability is Applicability.UNSAFE and not fix.preferred
    # Nothing else changed.
    original = real_workflow(PAGES) if syntax == "yaml" else as_json(real_workflow(PAGES))
    assert gist(findings(text, None, site_settings(), syntax)) == sorted(
        [*gist(findings(original, None, site_settings(), syntax)), (CODE, finding.message)]
    )


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_removing_the_edge(syntax: str) -> None:
    text = hidden_in_pages(syntax)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    fixed = apply_edits(text, finding.fixes[0].edits)
    before, after = yaml.safe_load(text), yaml.safe_load(fixed)
    index = edge_index(text, "targetHandle", HANDLE)
    assert after["edges"] == before["edges"][:index] + before["edges"][index + 1 :]
    assert after["nodes"] == before["nodes"]
    assert gist(findings(fixed, None, site_settings(), syntax)) == [
        g for g in gist(findings(text, None, site_settings(), syntax)) if g[0] != CODE
    ]


# ----- hidden by the node type's default ------------------------------------------------------

WORKSHOP = "workshop_one_ai_call"
CHAT_TYPE = NODE_TYPE.format("flowdrop_ai_provider_simple_chat")
RESPONSE = "flowdrop_ai_provider_simple_chat.1-output-response"


@pytest.fixture
def hidden_by_type(tmp_path: Path) -> Path:
    """A copy of the site whose simple chat type hides its `response` output by default."""
    folder = copy_site(tmp_path)
    plant(
        folder,
        CHAT_TYPE,
        "  response:\n    exposed: true\n",
        "  response:\n    exposed_by_default: false\n",
    )
    return folder


@pytest.fixture
def stripped_by_type(tmp_path: Path) -> Path:
    """A copy of the site whose simple chat type marks its `response` output `exposed: false`."""
    folder = copy_site(tmp_path)
    plant(
        folder, CHAT_TYPE, "  response:\n    exposed: true\n", "  response:\n    exposed: false\n"
    )
    return folder


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_edge_from_an_output_its_type_hides(syntax: str, hidden_by_type: Path) -> None:
    settings = site_settings(hidden_by_type)
    yaml_text = (hidden_by_type / WORKFLOW.format(WORKSHOP)).read_text(encoding="utf-8")
    text = yaml_text if syntax == "yaml" else as_json(yaml_text)
    (finding,) = findings(text, CODE, settings, syntax)
    assert at(text, finding.span).strip('"') == RESPONSE
    assert finding.locator_code == SOURCE
    assert finding.locator == f"edge.{edge_index(text, 'sourceHandle', RESPONSE)}"
    assert finding.message == (
        "edge from 'flowdrop_ai_provider_simple_chat.1' uses output port 'response', which is "
        "not exposed on that node (its node type hides it by default and the node does not "
        "expose it); FlowDrop refuses the workflow"
    )
    # The node's override entry for `response` carries no `exposed`: it decides nothing. One
    # that exposes the port makes the edge legal (R7.c).
    assert findings(text, CODE, site_settings(), syntax) == []  # the real site's types
    entry = "              id: response\n"
    assert yaml_text.count(entry) == 1
    exposed = yaml_text.replace(entry, entry + "              exposed: true\n")
    exposed = exposed if syntax == "yaml" else as_json(exposed)
    assert gist(findings(exposed, None, settings, syntax)) == [
        g for g in gist(findings(text, None, settings, syntax)) if g[0] != CODE
    ]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_output_its_type_marks_unexposed_stays_hidden(
    syntax: str, stripped_by_type: Path
) -> None:
    """EXPO-13: no instance override restores an output its type marks `exposed: false`."""
    settings = site_settings(stripped_by_type)
    yaml_text = (stripped_by_type / WORKFLOW.format(WORKSHOP)).read_text(encoding="utf-8")
    entry = "              id: response\n"
    assert yaml_text.count(entry) == 1
    exposed = yaml_text.replace(entry, entry + "              exposed: true\n")
    for planted in (yaml_text, exposed):
        text = planted if syntax == "yaml" else as_json(planted)
        (finding,) = findings(text, CODE, settings, syntax)
        assert at(text, finding.span).strip('"') == RESPONSE
        assert finding.locator_code == SOURCE
        assert finding.message == (
            "edge from 'flowdrop_ai_provider_simple_chat.1' uses output port 'response', "
            "which is not exposed on that node (its node type marks it exposed: false, which "
            "no node can override); FlowDrop refuses the workflow"
        )
        # Beside the node's own `exposed: true`, the related location says who decides.
        said = [related.message for related in finding.related]
        assert said == (
            ["the node shows it here, but its node type's exposed: false decides (EXPO-13)"]
            if planted is exposed
            else ['"Simple Chat" (flowdrop_ai_provider_simple_chat.1) is defined here']
        )


# ----- what R7 does not judge -----------------------------------------------------------------


def test_each_end_is_judged_on_its_own() -> None:
    hidden_message = {"config": {"ports": {"inputs": [{"id": "message", "exposed": False}]}}}
    hidden_json = {"config": {"ports": {"outputs": [{"id": "json", "exposed": False}]}}}
    text = workflow(
        [
            node("o", "chat_output", data=hidden_message),
            node("d", "data_to_json", data=hidden_json),
            node("x", "no_such_type"),
        ],
        [
            # Absent source, unparseable source handle, unknown type: the target still judged.
            {"source": "ghost", "target": "o", "targetHandle": "o-input-message"},
            {
                "source": "d",
                "target": "o",
                "sourceHandle": "junk",
                "targetHandle": "o-input-message",
            },
            {
                "source": "x",
                "target": "o",
                "sourceHandle": "x-output-a",
                "targetHandle": "o-input-message",
            },
            # Both ends hidden: two findings on one edge.
            {
                "source": "d",
                "target": "o",
                "sourceHandle": "d-output-json",
                "targetHandle": "o-input-message",
            },
        ],
    )
    found = findings(text, CODE, site_settings(), "json")
    assert [(f.locator, f.locator_code) for f in found] == [
        ("edge.0", TARGET),
        ("edge.1", TARGET),
        ("edge.2", TARGET),
        ("edge.3", SOURCE),
        ("edge.3", TARGET),
    ]


def test_undeclared_ports_are_out_of_scope() -> None:
    hide = {
        "inputs": [{"id": "tool", "exposed": False}, {"id": "q", "exposed": False}],
        "outputs": [{"id": "out", "exposed": False}, {"id": "nope", "exposed": False}],
    }
    mapper = {
        "dynamicInputs": [{"name": "q", "label": "Q"}],
        "dynamicOutputs": [{"name": "out", "label": "Out"}],
        "ports": hide,
    }
    gateway = {"ports": {"outputs": [{"id": "True", "exposed": False}]}}
    text = workflow(
        [
            node("m", "data_mapper", data={"config": mapper}),
            node("g", "boolean_gateway", data={"config": gateway}),
        ],
        [
            {"source": "g", "target": "m", "targetHandle": "m-input-tool"},  # reserved, unjudged
            {"source": "g", "target": "m", "targetHandle": "m-input-q"},  # dynamic (DYN-6)
            {"source": "m", "target": "g", "sourceHandle": "m-output-out"},  # dynamic
            {"source": "g", "target": "m", "sourceHandle": "g-output-True"},  # a branch
            {"source": "m", "target": "g", "sourceHandle": "m-output-never"},  # unknown
        ],
    )
    found = findings(text, None, site_settings(), "json")
    # The wiring runs g → m → g, an execution cycle: CMP-5's, beside what this test is about.
    assert [f.code for f in found if f.code not in ("CMP-5", "CMP-10")] == ["FD-UNKNOWN-PORT"]


def test_a_port_only_the_nodes_config_ports_names_is_judged_by_its_own_word() -> None:
    """A `config.ports` id the type does not declare is a port the node has (FD-UNKNOWN-PORT
    is silent on it, `port_verdict`): the type says nothing of its exposure, so the node's own
    entry decides (EXPO-2) — an exact `false` hides it, anything else leaves it exposed."""
    for exposed, expected in ((False, ["R7"]), (True, []), (None, [])):
        ports = {"outputs": [{"id": "nope", "exposed": exposed}]}
        text = workflow(
            [
                node("m", "data_mapper", data={"config": {"ports": ports}}),
                node("g", "boolean_gateway"),
            ],
            [{"source": "m", "target": "g", "sourceHandle": "m-output-nope"}],
        )
        found = [
            f
            for f in findings(text, None, site_settings(), "json")
            if f.code in ("R7", "FD-UNKNOWN-PORT")
        ]
        assert [f.code for f in found] == expected, exposed
        if found:
            assert "the node's config.ports sets exposed: false" in found[0].message


# ----- reserved ports (SCH-32, SCH-16, SCH-14) ------------------------------------------------

LOOP_AGENT = "aincient_image_agent"
LOOP_BACK = "aincient_flows_aincient_conversation_read.2-input-loop_back"
LOOP_BACK_SHOWN = "            -\n              id: loop_back\n              exposed: true\n"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_edge_into_an_unexposed_loop_back(syntax: str) -> None:
    """SCH-32: `loop_back` is a declared reserved input, hidden by default (SCH-16); the real
    site's loop-back targets expose it on the instance. Without that, R7 refuses each edge."""
    yaml_text = real_workflow(LOOP_AGENT)
    assert yaml_text.count(LOOP_BACK_SHOWN) == 1
    hidden = yaml_text.replace(LOOP_BACK_SHOWN, LOOP_BACK_SHOWN.replace("true", "false"))
    dropped = yaml_text.replace(LOOP_BACK_SHOWN, "            -\n              id: other\n")
    for planted, why in (
        (hidden, "the node's config.ports sets exposed: false"),
        (dropped, "a reserved port, hidden by default, and the node does not expose it"),
    ):
        text = planted if syntax == "yaml" else as_json(planted)
        found = findings(text, CODE, site_settings(), syntax)
        edges = yaml.safe_load(text)["edges"]
        into = [f"edge.{i}" for i, e in enumerate(edges) if e.get("targetHandle") == LOOP_BACK]
        assert len(into) == 2
        assert [(f.locator, f.locator_code) for f in found] == [(e, TARGET) for e in into]
        assert all(at(text, f.span).strip('"') == LOOP_BACK for f in found)
        assert found[0].message == (
            "edge into 'aincient_flows_aincient_conversation_read.2' uses input port "
            f"'loop_back', which is not exposed on that node ({why}); FlowDrop refuses the "
            "workflow"
        )
        # Nothing else changed.
        original = yaml_text if syntax == "yaml" else as_json(yaml_text)
        assert [
            g for g in gist(findings(text, None, site_settings(), syntax)) if g[0] != CODE
        ] == gist(findings(original, None, site_settings(), syntax))


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_reserved_error_output_follows_the_type(syntax: str, tmp_path: Path) -> None:
    """SCH-14, SCH-16: `error` ships hidden; aincient_reason's reserved_port_exposure shows it,
    and the operator loop's agent exposes it on the instance too. Neither: refused."""
    folder = copy_site(tmp_path)
    name = "aincient_operator_agent_loop"
    plant(
        folder,
        NODE_TYPE.format("aincient_reason"),
        "reserved_port_exposure:\n  error: true\n",
        "reserved_port_exposure: {  }\n",
    )
    yaml_text = (folder / WORKFLOW.format(name)).read_text(encoding="utf-8")
    settings = site_settings(folder)
    text = yaml_text if syntax == "yaml" else as_json(yaml_text)
    assert findings(text, CODE, settings, syntax) == []  # the instance exposes it
    shown = "              id: error\n              exposed: true\n"
    assert yaml_text.count(shown) == 1
    planted = yaml_text.replace(shown, "              id: error\n")
    text = planted if syntax == "yaml" else as_json(planted)
    (finding,) = findings(text, CODE, settings, syntax)
    assert at(text, finding.span).strip('"') == "aincient_reason.2-output-error"
    assert finding.locator_code == SOURCE
    # With the type's reserved_port_exposure the node needs no override of its own.
    assert findings(text, CODE, site_settings(), syntax) == []


def test_nothing_without_the_sites_node_types() -> None:
    assert findings(hidden_in_pages("yaml"), CODE, Settings(), "yaml") == []


# ----- incremental == from scratch ------------------------------------------------------------


def message_flag_at(text: str, syntax: str) -> int:
    """Where the `true` of the pages agent's chat output `message` input override is."""
    if syntax == "yaml":
        return text.index(SHOWN) + SHOWN.index("true")
    node_type = text.index('"node_type_id": "chat_output"')
    return text.rindex('"exposed": true', 0, node_type) + len('"exposed": ')


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_hiding_and_showing_the_port_by_typing(syntax: str) -> None:
    text = real_workflow(PAGES)
    text = text if syntax == "yaml" else as_json(text)
    document = WorkflowDocument(text, site_settings(), syntax=syntax)
    assert [f for f in same_as_fresh(document, syntax) if f[0] == CODE] == []
    last = message_flag_at(document.text, syntax)
    assert document.text[last : last + 4] == "true"
    document.apply_edit(last, last + 4, "false")
    assert not document.stats.full_reread and document.stats.elements_reread == 1
    found = [f for f in same_as_fresh(document, syntax) if f[0] == CODE]
    assert len(found) == 1
    document.apply_edit(last, last + 5, "true")
    assert [f for f in same_as_fresh(document, syntax) if f[0] == CODE] == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_exact_positions_after_emoji_and_cjk_labels(syntax: str) -> None:
    yaml_text = hidden_in_pages("yaml").replace("label: 'Chat Output'", "label: '聊天 💬 Output'")
    text = yaml_text if syntax == "yaml" else as_json(yaml_text)
    assert "💬" in text
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert at(text, finding.span).strip('"') == HANDLE
    assert at(text, finding.related[0].span) == "false"
    document = WorkflowDocument(text, site_settings(), syntax=syntax)
    label = document.text.index("💬")
    document.apply_edit(label, label, "🌍🌍")
    same_as_fresh(document, syntax)
    (moved,) = [f for f in document.findings() if f.code == CODE]
    assert at(document.text, moved.span).strip('"') == HANDLE
