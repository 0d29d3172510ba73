"""The real site's workflows and node types for the launch checks of config (R6): a workflow's
YAML (and the same workflow as JSON), the site's settings with node types changed or added,
and a defect planted by text substitution."""

from __future__ import annotations

import json
from functools import cache

import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.node_types import NodeTypeRegistry
from flowdrop_lsp.core.findings import Finding
from tests.support.builders import CORPUS_CONFIG

WORKFLOWS = sorted(CORPUS_CONFIG.glob("flowdrop_workflow.*.yml"))
NODE_TYPE_FILE = "flowdrop_node_type.flowdrop_node_type.{}.yml"


def corpus_workflow(workflow_id: str) -> str:
    return (CORPUS_CONFIG / f"flowdrop_workflow.flowdrop_workflow.{workflow_id}.yml").read_text(
        encoding="utf-8"
    )


def as_json(yaml_text: str) -> str:
    """The same workflow as a JSON document (what the editor exports)."""
    return json.dumps(yaml.safe_load(yaml_text), indent=2, ensure_ascii=False)


def in_syntax(syntax: str, yaml_text: str) -> str:
    """A Drupal YAML workflow as written in `syntax`: itself, or the editor's JSON export."""
    return yaml_text if syntax == "yaml" else as_json(yaml_text)


def other_findings(
    text: str, syntax: str, settings: Settings, code: str
) -> list[tuple[str, str, str]]:
    """Every finding but `code`'s, as (code, message, the text it covers): what a fix of a
    `code` finding must leave as it was."""
    return [
        (f.code, f.message, text[f.span.start : f.span.end])
        for f in analyze(text, settings, syntax=syntax).findings
        if f.code != code
    ]


def node_type_text(type_id: str) -> str:
    return (CORPUS_CONFIG / NODE_TYPE_FILE.format(type_id)).read_text(encoding="utf-8")


@cache
def _site_settings(changed: tuple[tuple[str, str], ...]) -> Settings:
    texts = {
        path.name: path.read_text(encoding="utf-8")
        for path in sorted(CORPUS_CONFIG.glob(NODE_TYPE_FILE.format("*")))
    }
    texts.update((NODE_TYPE_FILE.format(type_id), text) for type_id, text in changed)
    registry = NodeTypeRegistry.from_texts(
        [(CORPUS_CONFIG / name, text) for name, text in texts.items()], sources=(CORPUS_CONFIG,)
    )
    return Settings().with_registry(registry)


def site_settings(**node_types: str) -> Settings:
    """The real site's settings, with the definitions of `node_types` (id → YAML text) added or
    replacing the site's own."""
    return _site_settings(tuple(sorted(node_types.items())))


def plant(text: str, old: str, new: str) -> str:
    """`text` with its one occurrence of `old` replaced by `new`."""
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
    return text.replace(old, new)


def found(text: str, code: str, settings: Settings, syntax: str) -> list[Finding]:
    return [f for f in analyze(text, settings, syntax=syntax).findings if f.code == code]
