"""Output formats of `flowdrop-lsp check`: text, json, sarif and github annotations.

Every formatter has the `Formatter` signature: the checked files' results, the files that could
not be read or written (`FileFailure`), and the root directory that SARIF paths are relative
to; it returns the whole output as one string. Text and json leave failures to the caller's
stderr message; github annotates them; SARIF reports them as tool execution notifications.

Positions: text and github are 1-based lines and 1-based code-point columns; json is 0-based
lines and code-point characters; SARIF uses 1-based lines and columns in code points
(`columnKind: unicodeCodePoints`).

SARIF paths: a file under the root is a percent-encoded URI relative to `%SRCROOT%`, which
`run.originalUriBaseIds` maps to the root's `file:` URI; a file elsewhere is an absolute
`file:` URI. Standard input is reported under its `--stdin-filename`, like a file; without one
(shown as `<stdin>`) its URI is the relative `stdin` with no base, which no file under the root
can be mistaken for.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Protocol
from urllib.parse import quote

from flowdrop_lsp import __version__
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules import ALL_RULES, RULES_BY_CODE, docs_home, rule_url
from flowdrop_lsp.core.settings import DEFAULT_DOCS_URL
from flowdrop_lsp.core.text import LineIndex, Span

FORMATS = ("text", "json", "sarif", "github")
STDIN_DISPLAY = "<stdin>"  # what `check -` calls standard input without --stdin-filename
STDIN_URI = "stdin"


@dataclass(frozen=True)
class FileResult:
    path: str
    text: str
    findings: tuple[Finding, ...]
    docs_url: str = DEFAULT_DOCS_URL

    @property
    def lines(self) -> LineIndex:
        return LineIndex(self.text)


@dataclass(frozen=True)
class FileFailure:
    """A file that could not be read or written (the run exits 2): `path` as shown to the
    user, `message` the whole sentence, e.g. "cannot read a.json: [Errno 2] No such file"."""

    path: str
    message: str


class Formatter(Protocol):
    def __call__(
        self,
        results: Sequence[FileResult],
        failures: Sequence[FileFailure] = (),
        *,
        root: Path | None = None,
    ) -> str: ...


def _range(lines: LineIndex, span: Span) -> dict[str, dict[str, int]]:
    start_line, start_char = lines.position(span.start)
    end_line, end_char = lines.position(span.end)
    return {
        "start": {"line": start_line, "character": start_char},
        "end": {"line": end_line, "character": end_char},
    }


def format_text(
    results: Sequence[FileResult],
    failures: Sequence[FileFailure] = (),
    *,
    root: Path | None = None,
) -> str:
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


def format_json(
    results: Sequence[FileResult],
    failures: Sequence[FileFailure] = (),
    *,
    root: Path | None = None,
) -> str:
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
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "flowdropFindingHash/v1"


def rule_name(title: str) -> str:
    """A rule's SARIF `name`, PascalCase from its title: "Tool name collision" →
    "ToolNameCollision", "Self-edge" → "SelfEdge"; capitals already there stay ("LLM"), and an
    apostrophe joins rather than splits ("isn't" → "Isnt", not "IsnT")."""
    words = re.findall(r"[^\W_]+", re.sub("['\u2019]", "", title))
    return "".join(word[0].upper() + word[1:] for word in words)


def _file_uri(absolute: str) -> str:
    # fsencode: a file name that is not UTF-8 arrives with surrogate escapes, and its bytes
    # are what the URI must carry.
    return "file://" + quote(os.fsencode(absolute))


def root_uri(root: Path) -> str:
    """The `%SRCROOT%` base: an absolute `file:` URI ending in `/` (without it, resolving a
    relative URI against the base would drop the root's last segment)."""
    uri = _file_uri(os.path.abspath(root))
    return uri if uri.endswith("/") else uri + "/"


def artifact_location(path: str, root: Path) -> dict[str, Any]:
    """Where `path` (as shown to the user: relative to the working directory, or absolute)
    is: a percent-encoded URI relative to `%SRCROOT%` when it is under `root`, else an
    absolute `file:` URI; standard input without a name is `STDIN_URI`."""
    if path == STDIN_DISPLAY:
        return {"uri": STDIN_URI, "description": {"text": "standard input"}}
    absolute = os.path.abspath(path)
    base = os.path.abspath(root)
    # Lexically first (a root named through a symlink), then resolved (a file named through
    # a symlink into the root).
    for candidate, directory in (
        (absolute, base),
        (os.path.realpath(absolute), os.path.realpath(base)),
    ):
        if PurePosixPath(candidate).is_relative_to(directory):
            relative = PurePosixPath(candidate).relative_to(directory)
            return {"uri": quote(os.fsencode(str(relative))), "uriBaseId": SRCROOT}
    return {"uri": _file_uri(absolute)}


def _fingerprint_facts(finding: Finding, uri: str) -> tuple[str, ...]:
    """What identifies a finding across runs, without positions: an edit elsewhere moves it but
    is the same finding. Rules that name a tool (CMP-9, FD-LLM-NAME) are identified by it and
    their consumer (CMP-9 findings per consumer, or one finding with a list of consumers: a
    new consumer joining a collision keeps the alert); others by their message, without digits
    (indexes like `nodes[3]` shift when something is inserted above)."""
    extra = finding.extra_dict()
    facts = [finding.code, uri, finding.node or ""]
    if isinstance(extra.get("tool_name"), str):
        facts.append(extra["tool_name"])
        if isinstance(extra.get("consumer"), str):
            facts.append(extra["consumer"])
    else:
        facts.append(re.sub(r"\d+", "", finding.message))
    return tuple(facts)


def _fingerprint(facts: tuple[str, ...], occurrence: int) -> str:
    digest = hashlib.sha256("\0".join(facts).encode("utf-8", "surrogatepass")).hexdigest()
    # The occurrence number tells apart findings whose facts are equal (as CodeQL's
    # primaryLocationLineHash does); it counts in document order, which unrelated edits keep.
    return f"{digest[:32]}:{occurrence}"


def _sarif_region(lines: LineIndex, span: Span) -> dict[str, int]:
    start_line, start_col = lines.position(span.start)
    end_line, end_col = lines.position(span.end)
    return {
        "startLine": start_line + 1,
        "startColumn": start_col + 1,
        "endLine": end_line + 1,
        "endColumn": end_col + 1,
    }


def _sarif_result(
    finding: Finding,
    lines: LineIndex,
    where: dict[str, Any],
    rule_index: dict[str, int],
    fingerprint: str,
) -> dict[str, Any]:
    entry: dict[str, Any] = {"ruleId": finding.code}
    if finding.code in rule_index:  # a code outside the rule table gets no (invalid) index
        entry["ruleIndex"] = rule_index[finding.code]
    entry["level"] = _SARIF_LEVEL[finding.severity]
    entry["message"] = {"text": finding.message}
    entry["locations"] = [
        {
            "physicalLocation": {
                "artifactLocation": where,
                "region": _sarif_region(lines, finding.span),
            }
        }
    ]
    entry["partialFingerprints"] = {FINGERPRINT_KEY: fingerprint}
    if finding.related:
        entry["relatedLocations"] = [
            {
                "id": index,
                "message": {"text": related.message},
                "physicalLocation": {
                    "artifactLocation": where,
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
                        "artifactLocation": where,
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
    return entry


def format_sarif(
    results: Sequence[FileResult],
    failures: Sequence[FileFailure] = (),
    *,
    root: Path | None = None,
) -> str:
    """One SARIF 2.1.0 run. Paths are relative to `root` (default: the working directory),
    given as `%SRCROOT%` in `originalUriBaseIds`; `failures` make the invocation unsuccessful,
    one error notification each."""
    root = Path.cwd() if root is None else root
    docs_url = results[0].docs_url if results else DEFAULT_DOCS_URL
    rules = [
        {
            "id": rule.code,
            "name": rule_name(rule.title),
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
        where = artifact_location(result.path, root)
        occurrences: Counter[tuple[str, ...]] = Counter()
        for finding in result.findings:
            facts = _fingerprint_facts(finding, where["uri"])
            occurrences[facts] += 1
            fingerprint = _fingerprint(facts, occurrences[facts])
            sarif_results.append(_sarif_result(finding, lines, where, rule_index, fingerprint))
    invocation: dict[str, Any] = {"executionSuccessful": not failures}
    if failures:
        invocation["toolExecutionNotifications"] = [
            {
                "level": "error",
                "message": {"text": failure.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": artifact_location(failure.path, root)
                        }
                    }
                ],
            }
            for failure in failures
        ]
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "flowdrop-lsp",
                        "version": __version__,
                        "informationUri": docs_home(docs_url),
                        "rules": rules,
                    }
                },
                "invocations": [invocation],
                "originalUriBaseIds": {SRCROOT: {"uri": root_uri(root)}},
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


def _github_title(code: str) -> str:
    rule = RULES_BY_CODE.get(code)
    return f"{code} {rule.title}" if rule else code


def format_github(
    results: Sequence[FileResult],
    failures: Sequence[FileFailure] = (),
    *,
    root: Path | None = None,
) -> str:
    out = []
    for result in results:
        lines = result.lines
        for finding in result.findings:
            region = _sarif_region(lines, finding.span)
            properties = (
                f"file={_escape_property(result.path)},line={region['startLine']},col={region['startColumn']},"
                f"endLine={region['endLine']},endColumn={region['endColumn']},"
                f"title={_escape_property(_github_title(finding.code))}"
            )
            out.append(
                f"::{_GITHUB_COMMAND[finding.severity]} {properties}::{_escape_data(f'{finding.code} {finding.message}')}"
            )
    for failure in failures:
        # An unreadable file gets an annotation too: in a CI log the stderr line is easy to miss.
        out.append(
            f"::error file={_escape_property(failure.path)},title=flowdrop-lsp::{_escape_data(failure.message)}"
        )
    return "".join(line + "\n" for line in out)


FORMATTERS: dict[str, Formatter] = {
    "text": format_text,
    "json": format_json,
    "sarif": format_sarif,
    "github": format_github,
}
