"""A fix is operations on the workflow first (core.operations), rendered in each format by the
element editors (core.engine.rendering). For every fix of every rule on real and generated
documents, in JSON and in Drupal YAML: the operations applied to the workflow as read, and the
rendered text read back, give the same workflow. And every fix a rule offers on its example in
JSON it offers in YAML too: no fix is dropped by a format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.node_types import NodeTypeRegistry
from flowdrop_lsp.core.engine.rendering import same_value
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.operations import apply_operations
from flowdrop_lsp.core.rules.registry import EXPLANATIONS, example_node_type
from tests.support.builders import as_json
from tests.support.config_site import WORKFLOWS, site_settings
from tests.support.drupal import workflow
from tests.support.operation_cases import (
    assert_rendered_as_operated,
    fixes_of,
    read_as_checked,
)


def as_yaml(text: str) -> str:
    return yaml.safe_dump(json.loads(text), sort_keys=False, allow_unicode=True)


def _example_settings(code: str) -> Settings:
    explanation = EXPLANATIONS[code]
    if not explanation.site_node_types:
        return Settings()
    registry = NodeTypeRegistry.from_texts(
        [
            (Path(f"flowdrop_node_type.flowdrop_node_type.{n}.yml"), t)
            for n, t in map(example_node_type, explanation.site_node_types)
        ]
    )
    return Settings().with_registry(registry)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


# The examples of one file that are JSON (a syntax rule's example is not: nothing to render).
SINGLE_FILE_EXAMPLES = sorted(
    code
    for code, explanation in EXPLANATIONS.items()
    if not explanation.is_site_example and _is_json(explanation.failing)
)


@pytest.mark.parametrize("code", SINGLE_FILE_EXAMPLES)
def test_every_rules_fixes_render_in_both_formats(code: str) -> None:
    explanation = EXPLANATIONS[code]
    settings = _example_settings(code)
    titles = {}
    for syntax, text in (("json", explanation.failing), ("yaml", as_yaml(explanation.failing))):
        assert_rendered_as_operated(text, syntax, settings)
        titles[syntax] = sorted(
            (f.code, fix.title)
            for f, fix in fixes_of(analyze(text, settings, syntax=syntax).findings)
            if f.code == code
        )
    assert titles["json"] == titles["yaml"]


def test_every_fix_on_the_real_site_renders_as_its_operations() -> None:
    checked = 0
    for path in WORKFLOWS:
        text = path.read_text(encoding="utf-8")
        checked += assert_rendered_as_operated(text, "yaml", site_settings())
        checked += assert_rendered_as_operated(as_json(text), "json", site_settings())
    assert checked >= 10  # the real site's own findings offer fixes (FD-UNKNOWN-PORT's…)


# ----- generated: the real workflows with mistakes planted at random ------------------------
def _mutations(draw: st.DrawFn, workflow: dict[str, Any]) -> dict[str, Any]:
    nodes = workflow["nodes"]
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["key", "label", "target", "type", "condition"]))
        item = draw(st.sampled_from(nodes))
        data = item.setdefault("data", {})
        config = data.get("config")
        if kind == "key" and isinstance(config, dict) and config:
            key = draw(st.sampled_from(sorted(config)))
            config[key[:-1] + "x" if len(key) > 2 else key + "x"] = config.pop(key)
        elif kind == "label":
            other = draw(st.sampled_from(nodes))
            data["label"] = str(other.get("data", {}).get("label", "x")).upper() + " "
        elif kind == "target" and workflow["edges"]:
            edge = draw(st.sampled_from(workflow["edges"]))
            edge["target"] = edge["target"] + draw(st.sampled_from(["_", ".9", "é"]))
        elif kind == "type":
            metadata = data.setdefault("metadata", {})
            if isinstance(metadata, dict) and isinstance(metadata.get("node_type_id"), str):
                metadata["node_type_id"] = metadata["node_type_id"][:-1]
        elif kind == "condition" and workflow["edges"]:
            edge = draw(st.sampled_from(workflow["edges"]))
            edge.setdefault("data", {})["condition"] = "x > 1"
    return workflow


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, str]:
    path = draw(st.sampled_from(WORKFLOWS))
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    workflow = _mutations(draw, workflow)
    syntax = draw(st.sampled_from(["json", "yaml"]))
    if syntax == "json":
        return json.dumps(workflow, indent=2, ensure_ascii=False), syntax
    return yaml.safe_dump(workflow, sort_keys=False, allow_unicode=True), syntax


@pytest.mark.hypothesis
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_every_fix_on_generated_documents_renders_as_its_operations(
    document: tuple[str, str],
) -> None:
    text, syntax = document
    assert_rendered_as_operated(text, syntax, site_settings())


def test_a_yaml_node_named_after_its_type_gets_its_rename() -> None:
    """A node without a label is named after its type: CMP-9's rename gives it a `label`, in
    Drupal's style (before operations, the YAML writer dropped this insertion silently)."""
    text = workflow("'Web Search'", "'Web Search'").replace("      label: 'Web Search'\n", "", 2)
    text = text.replace("node_type_id: http_request", "node_type_id: web_search", 2)
    findings = analyze(text, syntax="yaml").findings
    renames = [fix for f in findings if f.code == "CMP-9" for fix in f.fixes]
    assert renames, [f.message for f in findings]
    for fix in renames:
        fixed = apply_edits(text, fix.edits)
        # One `label:` line more, at the members' indentation under `data` (Drupal's style).
        assert fixed.count("\n      label: ") == text.count("\n      label: ") + 1, fixed
        assert same_value(
            read_as_checked(fixed, "yaml"),
            apply_operations(read_as_checked(text, "yaml"), fix.operations),
        )
        assert not [f for f in analyze(fixed, syntax="yaml").findings if f.code == "CMP-9"]
