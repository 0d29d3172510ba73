"""Output formats of `flowdrop-lsp check`: text, json, sarif and github annotations.

Each formatter takes the checked files' results and returns the whole output as one string.
Positions: text and github are 1-based lines and 1-based code-point columns; json is 0-based
lines and code-point characters; SARIF uses 1-based lines and columns in code points
(`columnKind: unicodeCodePoints`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flowdrop_lsp import __version__
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules import ALL_RULES, RULES_BY_CODE
from flowdrop_lsp.core.settings import DEFAULT_DOCS_URL
from flowdrop_lsp.core.text import LineIndex, Span

FORMATS = ("text", "json", "sarif", "github")


@dataclass(frozen=True)
class FileResult:
    path: str
    text: str
    findings: tuple[Finding, ...]
    docs_url: str = DEFAULT_DOCS_URL

    @property
    def lines(self) -> LineIndex:
        return LineIndex(self.text)


def rule_url(code: str, docs_url: str = DEFAULT_DOCS_URL) -> str | None:
    rule = RULES_BY_CODE.get(code)
    return f"{docs_url}#{rule.anchor}" if rule else None


def _range(lines: LineIndex, span: Span) -> dict[str, dict[str, int]]:
    start_line, start_char = lines.position(span.start)
    end_line, end_char = lines.position(span.end)
    return {
        "start": {"line": start_line, "character": start_char},
        "end": {"line": end_line, "character": end_char},
    }


def format_text(results: Sequence[FileResult]) -> str:
    out = []
    for result in results:
        lines = result.lines
        for finding in result.findings:
            line, column = lines.position(finding.span.start)
            out.append(
                f"{result.path}:{line + 1}:{column + 1}: {finding.severity.value} {finding.code} {finding.message}"
            )
    return "".join(line + "\n" for line in out)


def summary(results: Sequence[FileResult]) -> str:
    counts = {severity: 0 for severity in Severity}
    fixable = 0
    for result in results:
        for finding in result.findings:
            counts[finding.severity] += 1
            fixable += finding.preferred_fix is not None
    parts = [f"{n} {s.value}{'s' if n != 1 else ''}" for s, n in counts.items() if n]
    files = f"{len(results)} file{'s' if len(results) != 1 else ''}"
    text = f"{', '.join(parts) if parts else 'no problems'} in {files}"
    if fixable:
        text += f" ({fixable} fixable with --fix; see them with --diff)"
    return text


def finding_json(result: FileResult, finding: Finding, lines: LineIndex) -> dict[str, Any]:
    item: dict[str, Any] = {
        "path": result.path,
        "code": finding.code,
        "severity": finding.severity.value,
        "message": finding.message,
        "range": _range(lines, finding.span),
        "node": finding.node,
        "fixes": [
            {
                "title": fix.title,
                "preferred": fix.preferred,
                "edits": [
                    {"range": _range(lines, e.span), "new_text": e.new_text} for e in fix.edits
                ],
            }
            for fix in finding.fixes
        ],
        "related": [
            {"range": _range(lines, r.span), "message": r.message} for r in finding.related
        ],
        "url": rule_url(finding.code, result.docs_url),
    }
    for key, value in finding.extra:
        item[key] = list(value) if isinstance(value, tuple) else value
    return item


def format_json(results: Sequence[FileResult]) -> str:
    items: list[dict[str, Any]] = []
    for result in results:
        lines = result.lines
        items.extend(finding_json(result, finding, lines) for finding in result.findings)
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


_SARIF_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "note",
    Severity.HINT: "note",
}


def _sarif_region(lines: LineIndex, span: Span) -> dict[str, int]:
    start_line, start_col = lines.position(span.start)
    end_line, end_col = lines.position(span.end)
    return {
        "startLine": start_line + 1,
        "startColumn": start_col + 1,
        "endLine": end_line + 1,
        "endColumn": end_col + 1,
    }


def format_sarif(results: Sequence[FileResult]) -> str:
    docs_url = results[0].docs_url if results else DEFAULT_DOCS_URL
    rules = [
        {
            "id": rule.code,
            "name": rule.title.replace(" ", ""),
            "shortDescription": {"text": rule.title},
            "fullDescription": {"text": rule.summary},
            "helpUri": rule_url(rule.code, docs_url),
            "defaultConfiguration": {"level": _SARIF_LEVEL[rule.default_severity]},
        }
        for rule in ALL_RULES
    ]
    rule_index = {rule.code: index for index, rule in enumerate(ALL_RULES)}
    sarif_results = []
    for result in results:
        lines = result.lines
        for finding in result.findings:
            location = {
                "physicalLocation": {
                    "artifactLocation": {"uri": result.path},
                    "region": _sarif_region(lines, finding.span),
                }
            }
            entry: dict[str, Any] = {
                "ruleId": finding.code,
                "ruleIndex": rule_index.get(finding.code, -1),
                "level": _SARIF_LEVEL[finding.severity],
                "message": {"text": finding.message},
                "locations": [location],
            }
            if finding.related:
                entry["relatedLocations"] = [
                    {
                        "id": index,
                        "message": {"text": related.message},
                        "physicalLocation": {
                            "artifactLocation": {"uri": result.path},
                            "region": _sarif_region(lines, related.span),
                        },
                    }
                    for index, related in enumerate(finding.related)
                ]
            if finding.fixes:
                entry["fixes"] = [
                    {
                        "description": {"text": fix.title},
                        "artifactChanges": [
                            {
                                "artifactLocation": {"uri": result.path},
                                "replacements": [
                                    {
                                        "deletedRegion": _sarif_region(lines, e.span),
                                        "insertedContent": {"text": e.new_text},
                                    }
                                    for e in fix.edits
                                ],
                            }
                        ],
                    }
                    for fix in finding.fixes
                ]
            sarif_results.append(entry)
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "flowdrop-lsp",
                        "version": __version__,
                        "informationUri": docs_url,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": sarif_results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


_GITHUB_COMMAND = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "notice",
    Severity.HINT: "notice",
}


def format_github(results: Sequence[FileResult]) -> str:
    out = []
    for result in results:
        lines = result.lines
        for finding in result.findings:
            region = _sarif_region(lines, finding.span)
            properties = (
                f"file={_escape_property(result.path)},line={region['startLine']},col={region['startColumn']},"
                f"endLine={region['endLine']},endColumn={region['endColumn']},"
                f"title={_escape_property(finding.code)}"
            )
            out.append(
                f"::{_GITHUB_COMMAND[finding.severity]} {properties}::{_escape_data(f'{finding.code} {finding.message}')}"
            )
    return "".join(line + "\n" for line in out)


FORMATTERS = {
    "text": format_text,
    "json": format_json,
    "sarif": format_sarif,
    "github": format_github,
}
