"""What the launch checks' tests share: the real site's workflows (Drupal YAML) to plant a defect
in (`builders.plant`, `builders.as_json`), a finding's fix applied and the document re-analysed,
and an incremental document compared with a from-scratch one (locators included)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Finding, Fix
from flowdrop_lsp.core.fixes import apply_edits
from tests.support.builders import CORPUS_CONFIG
from tests.support.engine import comparable

# The codes of the launch checks this suite tests.
LAUNCH_CODES = frozenset({"R3", "R5", "CMP-3", "CMP-5", "EDGE-8", "EDGE-9"})


def corpus_path(workflow_id: str) -> Path:
    return CORPUS_CONFIG / f"flowdrop_workflow.flowdrop_workflow.{workflow_id}.yml"


def corpus_yaml(workflow_id: str) -> str:
    """A real workflow of the vendored site, as Drupal wrote it (a copy: tests plant defects in
    the text they are given)."""
    return corpus_path(workflow_id).read_text(encoding="utf-8")


def corpus_workflows() -> list[tuple[str, str]]:
    """Every real workflow of the site, (workflow id, Drupal YAML text)."""
    paths = sorted(CORPUS_CONFIG.glob("flowdrop_workflow.flowdrop_workflow.*.yml"))
    return [(p.name.split(".")[-2], p.read_text(encoding="utf-8")) for p in paths]


def described(findings: list[Finding] | tuple[Finding, ...]) -> Counter[tuple[Any, ...]]:
    """Findings as what they say, independent of where the text put them."""
    return Counter((f.code, f.severity, f.message, f.locator_code, f.locator) for f in findings)


def apply_fix(text: str, fix: Fix) -> str:
    return apply_edits(text, fix.edits)


def fix_removes_only(text: str, finding: Finding, fix: Fix, syntax: str) -> str:
    """Apply `fix` of `finding`: the finding is gone and every other finding is still there,
    saying the same. Returns the fixed text."""
    before = analyze(text, syntax=syntax).findings
    assert finding in before
    fixed = apply_fix(text, fix)
    after = analyze(fixed, syntax=syntax).findings
    expected = described(before)
    expected[
        (finding.code, finding.severity, finding.message, finding.locator_code, finding.locator)
    ] -= 1
    assert described(after) == +expected, (fixed, after)
    return fixed


def loads(text: str, syntax: str) -> Any:
    return yaml.safe_load(text) if syntax == "yaml" else json.loads(text)


def everything(document: WorkflowDocument) -> list[tuple[object, ...]]:
    """`comparable` and each finding's locator code and locator."""
    return [
        (*row, f.locator_code, f.locator)
        for row, f in zip(comparable(document), document.findings(), strict=True)
    ]


def same_as_fresh(document: WorkflowDocument, syntax: str) -> list[tuple[object, ...]]:
    """The document's findings (all of them, locators and fixes included) after its edits, which
    must equal those of a fresh document of the same text."""
    now = everything(document)
    assert now == everything(WorkflowDocument(document.text, syntax=syntax))
    return now


def edit_replacing(document: WorkflowDocument, old: str, new: str) -> None:
    """One incremental edit: the first occurrence of `old` in the document replaced by `new`."""
    start = document.text.index(old)
    document.apply_edit(start, start + len(old), new)
