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

import functools
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Protocol
from urllib.parse import quote

from flowdrop_lsp import __version__
from flowdrop_lsp.core.facade import (
    ALL_RULES,
    DEFAULT_DOCS_URL,
    RULES_BY_CODE,
    Finding,
    LineIndex,
    RelatedLocation,
    Severity,
    Span,
    docs_home,
    fingerprints,
    rule_page,
    rule_url,
)

FORMATS = ("text", "json", "sarif", "github")
STDIN_DISPLAY = "<stdin>"  # what `check -` calls standard input without --stdin-filename
STDIN_URI = "stdin"


@dataclass(frozen=True)
class FileResult:
    path: str
    text: str
    findings: tuple[Finding, ...]
    docs_url: str = DEFAULT_DOCS_URL
    # The texts of the other files (absolute path → text) that related locations point into
    # (a site's cross-file findings): their positions are counted in those texts.
    related_texts: Mapping[str, str] = field(default_factory=dict, compare=False)
    # How `check --fix` treats this file: with `--unsafe-fixes` (the command line's, else the
    # settings' `unsafe-fixes`), or not at all (`fixable` False: a node-type definition, a file
    # that is not UTF-8), so that the text report's fix marks say what `--fix` would do.
    unsafe_fixes: bool = False
    fixable: bool = True

    @functools.cached_property
    def lines(self) -> LineIndex:
        # Once per result: a report is often written twice (a file, and the text on stdout).
        return LineIndex(self.text)

    def related_place(
        self, related: RelatedLocation, lines: LineIndex
    ) -> tuple[str | None, LineIndex]:
        """Where a related location is: (the other file's path as shown, its lines), or (None,
        this file's lines) when it is in this file."""
        if related.path is None:
            return None, lines
        text = self.related_texts.get(related.path, "")
        return shown_path(related.path), LineIndex(text)


def shown_path(path: str) -> str:
    """An absolute path as reports show paths: relative to the working directory when under it."""
    try:
        return os.path.relpath(path) if Path(path).is_relative_to(Path.cwd()) else path
    except ValueError:
        return path


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


def shared_rule_url(code: str, docs_url: str) -> str | None:
    """The rule link a report carries (json `url`, SARIF `helpUri`): only with a `docs-url`.
    Without one the link would be the `file:` URI of the page in the installed package, dead
    once the report is uploaded (code scanning, an artifact); SARIF's `help.markdown` carries
    the page itself. (The editor, on the machine where the package is, keeps that link.)"""
    return rule_url(code, docs_url) if docs_url else None


def finding_json(result: FileResult, finding: Finding, lines: LineIndex) -> dict[str, Any]:
    item: dict[str, Any] = {
        "path": result.path,
        "code": finding.code,
        "severity": finding.severity.value,
        "message": finding.message,
        "range": _range(lines, finding.span),
        "node": finding.node,
        "locator_code": finding.locator_code,
        "locator": finding.locator,
        "fixes": [
            {
                "title": fix.title,
                "preferred": fix.preferred,
                "applicability": fix.applicability.value,
                "edits": [
                    {"range": _range(lines, e.span), "new_text": e.new_text} for e in fix.edits
                ],
                # What the fix does to the workflow, the edits' source (core/operations.py).
                "operations": fix.operations_json(),
                **({"destructive": fix.destructive} if fix.destructive else {}),
            }
            for fix in finding.fixes
        ],
        "related": [_related_json(result, r, lines) for r in finding.related],
    }
    url = shared_rule_url(finding.code, result.docs_url)
    if url is not None:
        item["url"] = url
    for key, value in finding.extra:
        item[key] = list(value) if isinstance(value, tuple) else value
    return item


def _related_json(result: FileResult, related: RelatedLocation, lines: LineIndex) -> dict[str, Any]:
    path, where = result.related_place(related, lines)
    item: dict[str, Any] = {"range": _range(where, related.span), "message": related.message}
    if path is not None:  # in another file of the site
        item = {"path": path, **item}
    return item


def format_json(
    results: Sequence[FileResult],
    failures: Sequence[FileFailure] = (),
    *,
    root: Path | None = None,
) -> str:
    items: list[dict[str, Any]] = []
    for result in results:
        if not result.findings:
            continue  # no positions to count (a line index per file costs)
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
# The fingerprint's name says how it is computed (SARIF §3.27.17: a versioned key, so that a
# result manager never compares values of two algorithms): v1 hashed the message, v2 the
# finding's structural place (core/config/baseline.py). Under v1's name, every finding whose
# v2 value differs would have looked like a fixed alert plus a new one under the same key.
FINGERPRINT_KEY = "flowdropFindingHash/v2"


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


def _sarif_region(lines: LineIndex, span: Span) -> dict[str, int]:
    start_line, start_col = lines.position(span.start)
    end_line, end_col = lines.position(span.end)
    return {
        "startLine": start_line + 1,
        "startColumn": start_col + 1,
        "endLine": end_line + 1,
        "endColumn": end_col + 1,
    }


def _sarif_related(
    index: int,
    related: RelatedLocation,
    result: FileResult,
    lines: LineIndex,
    where: dict[str, Any],
    root: Path,
) -> dict[str, Any]:
    path, other_lines = result.related_place(related, lines)
    return {
        "id": index,
        "message": {"text": related.message},
        "physicalLocation": {
            "artifactLocation": where if path is None else artifact_location(path, root),
            "region": _sarif_region(other_lines, related.span),
        },
    }


def _sarif_result(
    finding: Finding,
    result: FileResult,
    lines: LineIndex,
    where: dict[str, Any],
    rule_index: dict[str, int],
    fingerprint: str,
    root: Path,
) -> dict[str, Any]:
    entry: dict[str, Any] = {"ruleId": finding.code}
    if finding.code in rule_index:  # a code outside the rule table gets no (invalid) index
        entry["ruleIndex"] = rule_index[finding.code]
    entry["level"] = _SARIF_LEVEL[finding.severity]
    entry["message"] = {"text": finding.message}
    location: dict[str, Any] = {
        "physicalLocation": {
            "artifactLocation": where,
            "region": _sarif_region(lines, finding.span),
        }
    }
    if finding.locator is not None:
        # The spec's locator (`node.fetch`, `edge.3`): a name in the workflow beside the place
        # in the text (SARIF 2.1.0 keeps logical locations in the location, not the result).
        location["logicalLocations"] = [{"fullyQualifiedName": finding.locator, "kind": "element"}]
    entry["locations"] = [location]
    entry["partialFingerprints"] = {FINGERPRINT_KEY: fingerprint}
    if finding.related:
        entry["relatedLocations"] = [
            _sarif_related(index, related, result, lines, where, root)
            for index, related in enumerate(finding.related)
        ]
    if finding.fixes:
        entry["fixes"] = [
            {
                "description": {"text": fix.title},
                # An unsafe fix (it removes something or changes behaviour) says so; a fix
                # without the property is safe.
                **({} if fix.is_safe else {"properties": {"applicability": "unsafe"}}),
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
    if finding.locator_code is not None:
        entry["properties"] = {"locatorCode": finding.locator_code}
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
            **({"helpUri": url} if (url := shared_rule_url(rule.code, docs_url)) else {}),
            # Code scanning shows a rule's help from the log itself: the same page as
            # `flowdrop-lsp rule CODE`, so it reads the same on a machine without the package.
            "help": {"text": rule.summary, "markdown": rule_page(rule.code)},
            "defaultConfiguration": {"level": _SARIF_LEVEL[rule.default_severity]},
        }
        for rule in ALL_RULES
    ]
    rule_index = {rule.code: index for index, rule in enumerate(ALL_RULES)}
    sarif_results = []
    for result in results:
        if not result.findings:
            continue  # no positions to count (a line index per file costs)
        lines = result.lines
        where = artifact_location(result.path, root)
        prints = fingerprints(result.findings, where["uri"])
        for finding, fingerprint in zip(result.findings, prints, strict=True):
            sarif_results.append(
                _sarif_result(finding, result, lines, where, rule_index, fingerprint, root)
            )
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
                        **({"informationUri": docs_home(docs_url)} if docs_url else {}),
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
        if not result.findings:
            continue  # no positions to count (a line index per file costs)
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


# The text report is written by cli/text.py (its colour, fix marks and summary).
FORMATTERS: dict[str, Formatter] = {
    "json": format_json,
    "sarif": format_sarif,
    "github": format_github,
}
