"""`analyze(text)`: the whole pipeline from text to findings, with no protocol in sight.

text → tolerant JSON tree with spans → workflow model → tool graph → rules → findings (with
severity overrides and ignored rules applied, sorted by position). The CLI and the server both
call this; nothing else decides what a document's findings are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.graph import ToolGraph
from flowdrop_lsp.core.jsonsyntax import ParsedJson, parse_json
from flowdrop_lsp.core.model import Workflow, looks_like_workflow, read_workflow
from flowdrop_lsp.core.rules import GRAPH_RULES, RuleContext
from flowdrop_lsp.core.rules.document import not_workflow_finding, schema_findings, syntax_findings
from flowdrop_lsp.core.settings import Settings

DEFAULT_SETTINGS = Settings()


@dataclass(frozen=True)
class Analysis:
    text: str
    parsed: ParsedJson
    is_workflow: bool
    workflow: Workflow
    graph: ToolGraph
    context: RuleContext
    findings: tuple[Finding, ...]


def apply_settings(findings: list[Finding], settings: Settings) -> tuple[Finding, ...]:
    """Drop ignored rules, apply per-rule severities, and sort by position."""
    kept = []
    for finding in findings:
        if finding.code in settings.ignore:
            continue
        severity = settings.severity.get(finding.code)
        kept.append(replace(finding, severity=severity) if severity and severity != finding.severity else finding)
    kept.sort(key=Finding.sort_key)
    return tuple(kept)


def analyze(text: str, settings: Settings = DEFAULT_SETTINGS, *, allow_comments: bool = False) -> Analysis:
    """Analyse one workflow document. Never raises on any input text."""
    parsed = parse_json(text, allow_comments=allow_comments)
    findings: list[Finding] = list(syntax_findings(parsed))
    is_workflow = looks_like_workflow(parsed.root)
    if parsed.root is not None and is_workflow:
        findings.extend(schema_findings(parsed.root, text))
    elif not any(f.code == "FD-SYNTAX" for f in findings) or parsed.root is not None:
        findings.append(not_workflow_finding(parsed.root, len(text)))
    workflow = read_workflow(parsed.root if is_workflow else None, settings, text)
    graph = ToolGraph(workflow, settings)
    context = RuleContext(workflow, graph, settings)
    for _rule, check in GRAPH_RULES:
        findings.extend(check(context))
    return Analysis(text, parsed, is_workflow, workflow, graph, context, apply_settings(findings, settings))
