"""The real site's workflows and node types for the launch checks of config (R6): a workflow's
YAML, the site's settings with node types changed or added, and the other rules' findings a fix
must leave. (The same workflow as JSON, a defect planted by text substitution, a rule's findings:
tests/support/builders.py.)"""

from __future__ import annotations

from functools import cache

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.node_types import NodeTypeRegistry
from tests.support.builders import CORPUS_CONFIG

WORKFLOWS = sorted(CORPUS_CONFIG.glob("flowdrop_workflow.*.yml"))
NODE_TYPE_FILE = "flowdrop_node_type.flowdrop_node_type.{}.yml"


def corpus_workflow(workflow_id: str) -> str:
    return (CORPUS_CONFIG / f"flowdrop_workflow.flowdrop_workflow.{workflow_id}.yml").read_text(
        encoding="utf-8"
    )


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
