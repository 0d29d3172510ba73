"""The real site's workflows checked with its node types, as the launch checks on edges need
them (FD-UNKNOWN-PORT, R7): its settings (`site_settings`, for `builders.findings`), its
workflows in YAML as stored, and the findings of a text compared with those of a fresh read."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.workspace.node_types import NodeTypeLocator
from tests.support.builders import CORPUS_CONFIG
from tests.support.engine import comparable

WORKFLOW = "flowdrop_workflow.flowdrop_workflow.{}.yml"


def site_settings(folder: Path = CORPUS_CONFIG) -> Settings:
    """Settings with the node types of the site in `folder`."""
    if folder == CORPUS_CONFIG:
        return _real_site_settings()
    return _settings_of(folder)


@functools.cache
def _real_site_settings() -> Settings:
    return _settings_of(CORPUS_CONFIG)


def _settings_of(folder: Path) -> Settings:
    registry = NodeTypeLocator().for_workflow(folder / WORKFLOW.format("any"), Settings())
    assert registry is not None
    return Settings().with_registry(registry)


def real_workflow(name: str) -> str:
    return (CORPUS_CONFIG / WORKFLOW.format(name)).read_text(encoding="utf-8")


def real_workflow_names() -> list[str]:
    return sorted(p.name.split(".")[-2] for p in CORPUS_CONFIG.glob(WORKFLOW.format("*")))


def gist(found: Iterable[Finding]) -> list[tuple[str, str]]:
    """What findings say, positions aside (an edit before them moves them)."""
    return sorted((f.code, f.message) for f in found)


def same_as_fresh(document: WorkflowDocument, syntax: str) -> list[tuple[object, ...]]:
    """The document's findings, asserted equal (locators included) to a fresh read's."""
    fresh = WorkflowDocument(document.text, document.settings, syntax=syntax)
    now = comparable(document)
    assert now == comparable(fresh)
    assert [(f.locator_code, f.locator) for f in document.findings()] == [
        (f.locator_code, f.locator) for f in fresh.findings()
    ]
    return now
