"""The rules kept per node and per edge, asked together (core/rules/scoped.py): a whole read
walks the nodes and edges once for all of them, and each rule's findings are what it finds
asking alone — on every rule's own failing example (with its site's node types, so that the
rules about node types run too), the real site's workflows with theirs, a generated document
and after edits; and no such rule is left to walk alone (each declares its `SCOPED`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import flowdrop_lsp.core.engine.document as engine_document
import flowdrop_lsp.core.rules.base as rules_base
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.node_types import NodeTypeRegistry
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.rules.registry import (
    EXPLANATIONS,
    SCOPED_RULES,
    example_node_type,
)
from flowdrop_lsp.core.workspace.node_types import NodeTypeLocator

REPO = Path(__file__).resolve().parents[3]
CORPUS_CONFIG = REPO / "tests" / "corpus" / "atelier-cms" / "config" / "sync"
if str(REPO / "bench") not in sys.path:
    sys.path.insert(0, str(REPO / "bench"))
from generate import generate_text  # noqa: E402


def _documents() -> Iterator[tuple[str, str, str, Settings]]:
    """(name, text, syntax, settings): each scoped rule's failing example, the real site's
    workflows with their node types, a generated document."""
    for rule in SCOPED_RULES:
        explanation = EXPLANATIONS[rule.code]
        settings = Settings()
        if explanation.site_node_types:
            settings = settings.with_registry(
                NodeTypeRegistry.from_texts(
                    [
                        (Path(f"flowdrop_node_type.flowdrop_node_type.{name}.yml"), text)
                        for name, text in map(example_node_type, explanation.site_node_types)
                    ]
                )
            )
        yield rule.code, explanation.failing, "json", settings
    for path in sorted(CORPUS_CONFIG.glob("flowdrop_workflow.flowdrop_workflow.*.yml")):
        registry = NodeTypeLocator().for_workflow(path, Settings())
        yield (
            path.name,
            path.read_text(encoding="utf-8"),
            "yaml",
            Settings().with_registry(registry),
        )
    yield "generated", generate_text(300), "json", Settings()


DOCUMENTS = list(_documents())


def _findings(text: str, syntax: str, settings: Settings) -> tuple[Any, ...]:
    document = WorkflowDocument(text, settings, syntax=syntax)
    found = document.findings()
    # A few edits (each re-checks what it reached) and the findings after each.
    after = []
    for offset in (len(text) // 3, len(text) // 2):
        document.apply_edit(offset, offset, " ")
        after.append(document.findings())
    return found, *after


def test_the_scoped_rules_are_many_and_some_need_node_types() -> None:
    # What the tests below cover (so that they can fail): rules on nodes, on edges, on both,
    # and rules that speak only with the site's node types.
    assert len(SCOPED_RULES) >= 20
    assert any(rule.node_types for rule in SCOPED_RULES)
    assert any(rule.edge_check and rule.node_check for rule in SCOPED_RULES)


@pytest.mark.parametrize(("name", "text", "syntax", "settings"), DOCUMENTS, ids=lambda v: "")
def test_asked_together_each_rule_finds_what_it_finds_alone(
    monkeypatch: pytest.MonkeyPatch, name: str, text: str, syntax: str, settings: Settings
) -> None:
    together = _findings(text, syntax, settings)
    monkeypatch.setattr(engine_document, "SCOPED_RULES", ())
    alone = _findings(text, syntax, settings)
    assert together == alone, name


def test_no_scoped_rule_walks_alone_on_a_whole_read(monkeypatch: pytest.MonkeyPatch) -> None:
    walked_alone: list[str] = []

    def check_everything(ctx: Any, nodes: Any, edges: Any, memo: Any, node: Any, edge: Any) -> None:
        walked_alone.append(getattr(node or edge, "__module__", "?"))

    monkeypatch.setattr(rules_base, "_check_everything", check_everything)
    for name, text, syntax, settings in DOCUMENTS:
        WorkflowDocument(text, settings, syntax=syntax).findings()
        assert walked_alone == [], (name, walked_alone)
