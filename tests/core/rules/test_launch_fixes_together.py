"""The launch checks' fixes applied together (`check --fix`, `--unsafe-fixes`, fix-all), and
their findings kept per node and edge when neighbours change — each case found by a reviewer on
copies of the real site: several fixes on one mapping, an edge whose id is written `edge_id`,
every key of a config unknown, a node renamed away from its edges, a tool edge deleted, a
half-typed element."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from tests.support.builders import as_json
from tests.support.config_site import site_settings as config_site_settings
from tests.support.port_site import real_workflow, same_as_fresh, site_settings

SYNTAXES = ("yaml", "json")
WEATHER = real_workflow("aincient_weather")


def _text(syntax: str, yaml_text: str) -> str:
    return yaml_text if syntax == "yaml" else as_json(yaml_text)


def _loads(text: str, syntax: str) -> dict:
    return yaml.safe_load(text) if syntax == "yaml" else json.loads(text)


def _fixed(text: str, syntax: str, unsafe: bool) -> str:
    findings = analyze(text, site_settings(), syntax=syntax).findings
    return apply_edits(text, preferred_edits(findings, unsafe))


def _codes(text: str, syntax: str) -> list[str]:
    return sorted(f.code for f in analyze(text, site_settings(), syntax=syntax).findings)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_edge_id_written_edge_id_gets_renamed_not_a_second_id(syntax: str) -> None:
    first_id = "    id: xy-edge__chat_input.1"
    planted = WEATHER.replace(first_id, "    edge_id: xy-edge__chat_input.1", 1)
    text = _text(syntax, planted)
    assert "R3" not in _codes(text, syntax) and "EDGE-9" in _codes(text, syntax)
    fixed = _fixed(text, syntax, unsafe=False)
    assert _loads(fixed, syntax) == yaml.safe_load(WEATHER)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_removing_every_unknown_key_still_leaves_a_config(syntax: str) -> None:
    config = "      config:\n        zz1: 1\n        zz2: 2\n      metadata:\n        node_type_id: chat_input"
    start = WEATHER.index("      config:", WEATHER.index("id: chat_input.1"))
    end = WEATHER.index("        node_type_id: chat_input", start) + len(
        "        node_type_id: chat_input"
    )
    planted = WEATHER[:start] + config + WEATHER[end:]
    text = _text(syntax, planted)
    fixed = _fixed(text, syntax, unsafe=True)
    node = next(n for n in _loads(fixed, syntax)["nodes"] if n["id"] == "chat_input.1")
    assert node["data"]["config"] == {"zz1": 1}
    assert "FD-SCHEMA" not in _codes(fixed, syntax)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_node_renamed_away_takes_its_port_findings_with_it(syntax: str) -> None:
    text = _text(syntax, WEATHER)
    document = WorkflowDocument(text, site_settings(), syntax=syntax)
    assert sum(f.code == "FD-UNKNOWN-PORT" for f in document.findings()) == 3
    token = "id: data_mapper.1" if syntax == "yaml" else '"id": "data_mapper.1"'
    start = document.text.index(token) + len(token) - (1 if syntax == "json" else 0) - 1
    document.apply_edit(start, start + 1, "9")  # data_mapper.1 → data_mapper.9
    same_as_fresh(document, syntax)
    assert sum(f.code == "FD-UNKNOWN-PORT" for f in document.findings()) == 2


PROBE = (
    "id: probe\nparameters:\n  url:\n    configurable: true\n    connectable: false\n"
    "    required: true\n"
)


def test_deleting_a_nodes_only_tool_edge_keeps_its_required_key_finding() -> None:
    # `h` lacks its required `url`; it is a tool (wired out by a tool edge only), which R6.b
    # never considers (required-ness comes from the declared flags, never from the edges):
    # reported with the edge and without it, as a fresh read reports it.
    settings = config_site_settings(probe=PROBE)
    nodes = [
        {"id": "h", "type": "probe", "data": {"label": "Probe 🔍 探针", "config": {}}},
        {"id": "a", "type": "aincient_reason", "data": {"label": "Agent"}},
    ]
    edges = [
        {"id": "e0", "source": "a", "target": "a2"},
        {
            "id": "e1",
            "source": "h",
            "target": "a",
            "sourceHandle": "h-output-tool",
            "targetHandle": "a-input-tool",
        },
    ]
    text = json.dumps({"nodes": nodes, "edges": edges}, indent=2, ensure_ascii=False)
    document = WorkflowDocument(text, settings)
    assert [f.code for f in document.findings()].count("R6.b") == 1
    start = document.text.index('    {\n      "id": "e1"')
    end = document.text.index("    }\n  ]", start) + len("    }")
    document.apply_edit(start - 2, end, "")  # the edge and the comma before it
    fresh = WorkflowDocument(document.text, settings)
    assert [(f.code, f.message) for f in document.findings()] == [
        (f.code, f.message) for f in fresh.findings()
    ]
    assert [f.code for f in document.findings()].count("R6.b") == 1


def test_a_half_typed_config_key_is_left_to_its_syntax_finding() -> None:
    text = as_json(WEATHER)
    cut = text.index('"instanceTitle": "Geocode Second Try"') + len(
        '"instanceTitle": "Geocode Second Try"'
    )
    half = text[:cut] + ', "me' + text[cut:]
    codes = [f.code for f in analyze(half, site_settings()).findings]
    assert "FD-SYNTAX" in codes and "R6.c" not in codes


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_removing_a_lone_unknown_key_leaves_an_empty_config(syntax: str) -> None:
    config = "      config:\n        zz1: 1\n      metadata:\n        node_type_id: chat_input"
    start = WEATHER.index("      config:", WEATHER.index("id: chat_input.1"))
    end = WEATHER.index("        node_type_id: chat_input", start) + len(
        "        node_type_id: chat_input"
    )
    text = _text(syntax, WEATHER[:start] + config + WEATHER[end:])
    [finding] = [
        f for f in analyze(text, site_settings(), syntax=syntax).findings if f.code == "R6.c"
    ]
    [fix] = finding.fixes
    fixed = apply_edits(text, fix.edits)
    if syntax == "yaml":
        assert "      config: {  }\n      metadata:\n" in fixed
    node = next(n for n in _loads(fixed, syntax)["nodes"] if n["id"] == "chat_input.1")
    assert node["data"]["config"] == {}
    assert _codes(fixed, syntax) == [c for c in _codes(text, syntax) if c != "R6.c"]
