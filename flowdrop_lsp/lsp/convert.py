"""The one translator between core findings and LSP types.

Spans (code-point offsets) become ranges in the position encoding the client negotiated;
findings become Diagnostics carrying, in `data`, their fixes already as LSP edits (each with
its `applicability`), so that a code action never has to re-analyse, and the spec's locator
code and locator when the finding has them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lsprotocol import types

from flowdrop_lsp.core.facade import (
    EditableText,
    Encoding,
    Finding,
    Fix,
    Positions,
    Severity,
    Span,
    units_in,
)
from flowdrop_lsp.core.ide.service import rule_url

SOURCE = "flowdrop"

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


def encoding_of(kind: object) -> Encoding:
    value = getattr(kind, "value", kind)
    return value if value in ("utf-8", "utf-16", "utf-32") else "utf-16"


def to_position(lines: Positions, offset: int, encoding: Encoding) -> types.Position:
    line, character = lines.position(offset, encoding)
    return types.Position(line=line, character=character)


def to_range(lines: Positions, span: Span, encoding: Encoding) -> types.Range:
    return types.Range(
        start=to_position(lines, span.start, encoding), end=to_position(lines, span.end, encoding)
    )


class RangeSweep:
    """Ranges of many spans at once: one sweep down the lines in offset order, instead of a
    binary search per offset (an outline of 10k nodes asks for 40k positions). Each column is
    counted on from the previous offset on its line, so a minified document (one line) costs
    one pass over it, not one per offset."""

    def __init__(self, lines: EditableText, offsets: list[int], encoding: Encoding) -> None:
        self.found: dict[int, types.Position] = {}
        line, line_count = 0, len(lines.lines)
        counted_to, character = lines.line_start(0), 0  # the column at `counted_to`
        for offset in sorted(set(offsets)):
            if line + 1 < line_count and lines.line_start(line + 1) <= offset:
                while line + 1 < line_count and lines.line_start(line + 1) <= offset:
                    line += 1
                counted_to, character = lines.line_start(line), 0
            character += units_in(lines.slice(counted_to, offset), encoding)
            counted_to = offset
            self.found[offset] = types.Position(line=line, character=character)

    def range(self, span: Span) -> types.Range:
        return types.Range(start=self.found[span.start], end=self.found[span.end])


def to_text_edits(fix: Fix, lines: Positions, encoding: Encoding) -> list[types.TextEdit]:
    return [
        types.TextEdit(range=to_range(lines, edit.span, encoding), new_text=edit.new_text)
        for edit in fix.edits
    ]


def workspace_edit(
    uri: str, version: int, edits: list[types.TextEdit], document_changes: bool
) -> types.WorkspaceEdit:
    """`edits` to one document: versioned (`documentChanges`, so a client refuses them on a
    newer text) where the client supports that, else as plain `changes`."""
    if document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=uri, version=version
                    ),
                    edits=list(edits),
                )
            ]
        )
    return types.WorkspaceEdit(changes={uri: list(edits)})


def fix_data(fix: Fix, lines: Positions, encoding: Encoding) -> dict[str, Any]:
    return {
        "title": fix.title,
        "preferred": fix.preferred,
        "applicability": fix.applicability.value,
        "edits": [
            {"range": _range_json(to_range(lines, e.span, encoding)), "newText": e.new_text}
            for e in fix.edits
        ],
    }


def _range_json(rng: types.Range) -> dict[str, dict[str, int]]:
    return {
        "start": {"line": rng.start.line, "character": rng.start.character},
        "end": {"line": rng.end.line, "character": rng.end.character},
    }


def range_from_json(value: Any) -> types.Range:
    return types.Range(
        start=types.Position(
            line=int(value["start"]["line"]), character=int(value["start"]["character"])
        ),
        end=types.Position(
            line=int(value["end"]["line"]), character=int(value["end"]["character"])
        ),
    )


# Another file of the site, by its absolute path: its URI and its text's positions (None when
# it is not known any more: the related location is then left out).
Locate = Callable[[str], "tuple[str, Positions] | None"]


def to_diagnostic(
    finding: Finding,
    lines: Positions,
    encoding: Encoding,
    uri: str,
    version: int | None,
    docs_url: str,
    related_information: bool,
    locate: Locate | None = None,
) -> types.Diagnostic:
    """`finding` as a Diagnostic of `uri`. A related location in another file (`path`) is
    located by `locate`: that file's URI, its range computed from that file's text."""
    url = rule_url(finding.code, docs_url)
    related = None
    if related_information and finding.related:
        related = []
        for r in finding.related:
            where: tuple[str, Positions] | None = (uri, lines)
            if r.path is not None:
                where = locate(r.path) if locate is not None else None
            if where is None:
                continue
            related.append(
                types.DiagnosticRelatedInformation(
                    location=types.Location(
                        uri=where[0], range=to_range(where[1], r.span, encoding)
                    ),
                    message=r.message,
                )
            )
    data: dict[str, Any] = {"version": version, "node": finding.node}
    if finding.locator_code is not None:  # the spec's name for it; `code` stays the rule's
        data["locatorCode"] = finding.locator_code
    if finding.locator is not None:
        data["locator"] = finding.locator
    if finding.fixes:
        data["fixes"] = [fix_data(fix, lines, encoding) for fix in finding.fixes]
    extra = finding.extra_dict()
    # Read back by code_actions._current_fixes: a stale CMP-9 summary about a crowded consumer
    # (node = consumer, no fixes) must not borrow the rename of that node's own collision as a
    # tool elsewhere. Only the summary carries a consumer.
    if "consumer" in extra:
        data["consumer"] = extra["consumer"]
    return types.Diagnostic(
        range=to_range(lines, finding.span, encoding),
        message=finding.message,
        severity=_SEVERITY[finding.severity],
        code=finding.code,
        code_description=types.CodeDescription(href=url) if url else None,
        source=SOURCE,
        related_information=related,
        data=data,
    )
