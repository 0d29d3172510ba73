"""What the `*_operations` tests of the rules share: a fix made of operations checked the same
way (`round_trip`: its operations applied to the plain workflow equal the fixed text read back,
and the finding is gone; `assert_rendered_as_operated`: every fix of a document, the workflow
read as the checker reads it), and a data mapper workflow in JSON and Drupal YAML."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.rendering import same_value
from flowdrop_lsp.core.findings import Finding, Fix
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.operations import TextOnly, apply_operations
from flowdrop_lsp.core.syntax.json.parser import parse_json
from flowdrop_lsp.core.syntax.tree import to_python
from flowdrop_lsp.core.syntax.yaml.reader import read_yaml
from tests.support.builders import findings

# Where a data mapper's one output value is, below its node.
VALUE_PATH = ("data", "config", "dynamicOutputs", 0, "value")


def read(text: str, syntax: str) -> Any:
    return yaml.safe_load(text) if syntax == "yaml" else json.loads(text)


def read_as_checked(text: str, syntax: str) -> Any:
    """The workflow as the checker reads it (Drupal's rules for YAML scalars); None when the
    text has a syntax problem."""
    if syntax == "yaml":
        parsed, _aliased = read_yaml(text)
    else:
        parsed = parse_json(text)
    return None if parsed.problems else to_python(parsed.root)


def fixes_of(findings: tuple[Finding, ...]) -> Iterator[tuple[Finding, Fix]]:
    for finding in findings:
        for fix in finding.fixes:
            yield finding, fix


def assert_rendered_as_operated(
    text: str, syntax: str, settings: Settings, code: str | None = None
) -> int:
    """Every fix (of `code`'s findings, when given) with operations: its edits read back as its
    operations applied. Answers how many were checked."""
    before = read_as_checked(text, syntax)
    if before is None:
        return 0  # a document with a syntax problem: what it holds is not one workflow
    checked = 0
    findings = analyze(text, settings, syntax=syntax).findings
    for finding, fix in fixes_of(tuple(f for f in findings if code in (None, f.code))):
        # Every fix is operations first: nothing is text a format would have to guess at.
        assert fix.operations, (finding.code, fix.title)
        if any(isinstance(op, TextOnly) for op in fix.operations):
            continue  # outside the graph (Drupal's dependencies): no workflow value changes
        expected = apply_operations(before, fix.operations)
        after = read_as_checked(apply_edits(text, fix.edits), syntax)
        assert after is not None, (finding.code, fix.title, "the fix breaks the syntax")
        assert same_value(after, expected), (finding.code, fix.title, fix.operations)
        checked += 1
    return checked


def round_trip(
    text: str, syntax: str, code: str, title: str, settings: Settings | None = None
) -> tuple[Fix, str]:
    """The fix titled `title` of the one `code` finding, and the text it makes: it is made of
    operations, those applied to the plain workflow equal the fixed text read back, and the
    finding is gone."""
    (finding,) = findings(text, code, settings, syntax)
    (fix,) = [f for f in finding.fixes if f.title == title]
    assert fix.operations and fix.edits
    fixed = apply_edits(text, fix.edits)
    assert apply_operations(read(text, syntax), fix.operations) == read(fixed, syntax)
    assert findings(fixed, code, settings, syntax) == []
    return fix, fixed


def mapper_json(template: str, engine: str = "twig", inputs: tuple[str, ...] = ("g",)) -> str:
    config = {
        "engine": engine,
        "dynamicInputs": [{"name": n, "label": n.upper(), "dataType": "json"} for n in inputs],
        "dynamicOutputs": [
            {"name": "out", "label": "Out", "dataType": "string", "value": template}
        ],
    }
    node = {"id": "map", "type": "data_mapper", "data": {"label": "Map", "config": config}}
    return json.dumps({"nodes": [node], "edges": []}, indent=2, ensure_ascii=False)


def one_node_yaml(node_id: str, type_id: str, label: str, config_lines: str) -> str:
    """A Drupal YAML workflow (dumper style) with one node; `config_lines` are its config's
    member lines, indented 8 spaces, each ending with a line break."""
    return (
        "id: wf\n"
        "label: WF\n"
        "nodes:\n"
        "  -\n"
        f"    id: {node_id}\n"
        f"    type: {type_id}\n"
        "    data:\n"
        f"      label: {label}\n"
        "      config:\n"
        f"{config_lines}"
        "      metadata:\n"
        f"        node_type_id: {type_id}\n"
        "edges: {  }\n"
    )


def mapper_yaml(value_lines: str, engine: str = "twig", inputs: tuple[str, ...] = ("g",)) -> str:
    """A Drupal YAML workflow with one data mapper; `value_lines` is what follows `value:` (a
    scalar on its line, or a block scalar's header and lines indented 14 spaces)."""
    declared = "".join(
        f"          -\n            name: {n}\n            label: {n.upper()}\n"
        "            dataType: json\n"
        for n in inputs
    )
    return one_node_yaml(
        "map",
        "data_mapper",
        "Map",
        f"        engine: {engine}\n"
        f"        dynamicInputs:\n{declared}"
        "        dynamicOutputs:\n"
        "          -\n"
        "            name: out\n"
        "            label: Out\n"
        "            dataType: string\n"
        f"            value: {value_lines}\n",
    )


def applied(text: str, syntax: str, fix: Fix) -> str:
    """The text `fix` makes, asserted to be what its operations make of the plain workflow."""
    assert fix.operations
    fixed = apply_edits(text, fix.edits)
    assert apply_operations(read(text, syntax), fix.operations) == read(fixed, syntax)
    return fixed


def fix_titled(finding: Finding, title: str) -> Fix:
    """The one fix of `finding` titled `title`."""
    (fix,) = [fix for fix in finding.fixes if fix.title == title]
    return fix
