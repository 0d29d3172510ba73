"""Findings about the text itself, before any graph: JSON syntax, duplicate keys, documents
that are not workflows, and structure that breaks the shipped JSON Schema (whose findings the
engine makes per element, core/syntax/schema.py)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule
from flowdrop_lsp.core.syntax.tree import JsonValue, SyntaxProblem
from flowdrop_lsp.core.text.positions import Span

SYNTAX = "FD-SYNTAX"
DUPLICATE_KEY = "FD-DUPLICATE-KEY"
NOT_WORKFLOW = "FD-NOT-WORKFLOW"
SCHEMA = "FD-SCHEMA"

RULES = (
    Rule(
        SYNTAX,
        "Syntax error",
        Severity.ERROR,
        "The text is not valid JSON (or YAML, or UTF-8) here; the nodes and edges it does not touch "
        "are still analysed.",
    ),
    Rule(
        DUPLICATE_KEY,
        "Duplicate key",
        Severity.WARNING,
        "An object (a YAML mapping) has the same key twice; parsers keep only the last one.",
    ),
    Rule(
        NOT_WORKFLOW,
        "Not a workflow",
        Severity.ERROR,
        "The document is not a FlowDrop workflow: a top-level object with `nodes` and `edges`.",
    ),
    Rule(
        SCHEMA,
        "Structure",
        Severity.ERROR,
        "A value has the wrong type or a required member is missing (the shipped JSON Schema).",
        spec_ids=("R5.c", "R6.a"),
    ),
)


def syntax_findings(problems: Iterable[SyntaxProblem]) -> Iterator[Finding]:
    for problem in problems:
        span = Span(problem.start, problem.end)
        if problem.kind == "duplicate-key":
            related = (
                RelatedLocation(
                    Span(problem.related_start, problem.related_end), "first defined here"
                ),
            )
            yield Finding(DUPLICATE_KEY, Severity.WARNING, problem.message, span, related=related)
        elif problem.related_start >= 0:  # YAML: where the parser gave up, away from the error
            gave_up = Span(problem.related_start, problem.related_end)
            related = (RelatedLocation(gave_up, "where the YAML parser gave up"),)
            yield Finding(SYNTAX, Severity.ERROR, problem.message, span, related=related)
        else:
            yield Finding(SYNTAX, Severity.ERROR, problem.message, span)


def not_workflow_finding(root: JsonValue | None, text_length: int) -> Finding:
    span = Span(root.start, root.start + 1) if root is not None else Span(0, min(1, text_length))
    return Finding(
        NOT_WORKFLOW,
        Severity.ERROR,
        "not a FlowDrop workflow: expected a top-level object with 'nodes' and 'edges' arrays",
        span,
    )


def undecodable_finding(text: str, offset: int, byte: int) -> Finding:
    """The finding for a file that is not UTF-8: `text` is its content decoded with
    replacement characters, `offset` where the first undecodable `byte` sits in it."""
    return Finding(
        SYNTAX,
        Severity.ERROR,
        f"not UTF-8: byte 0x{byte:02X} cannot be decoded (workflows and Drupal config are "
        "UTF-8); nothing else in this file was checked",
        Span(offset, min(offset + 1, len(text))),
    )


EXPLANATIONS = (
    RULES[0].explained(
        "The text is not valid JSON (a raw tab inside a string and a leading BOM included: the "
        "runtime refuses them) or YAML, or not UTF-8. The nodes and edges the error does not "
        "touch are still analysed: a half-typed JSON element ends at the next element, a broken "
        "YAML item at the next `-` of its list (the error is reported on the line at fault, where "
        "the YAML parser gave up as related information). An error outside `nodes`/`edges`, and "
        "an undecodable file, stop at the first error.",
        failing="""\
{"nodes": [{"id": "a", "type": "http_request", "data": {"label": "Sear
""",
        passing="""\
{"nodes": [{"id": "a", "type": "http_request", "data": {"label": "Search"}}], "edges": []}
""",
    ),
    RULES[1].explained(
        "An object (a YAML mapping) with the same key twice: every parser keeps only the last "
        "value, so the first is silently lost.",
        failing="""\
{"nodes": [{"id": "a", "id": "b", "type": "http_request"}], "edges": []}
""",
        passing="""\
{"nodes": [{"id": "a", "type": "http_request"}], "edges": []}
""",
    ),
    RULES[2].explained(
        "A file named like a workflow (or named on the command line) must be one: a top-level "
        "object with `nodes` and `edges`. Other JSON found in a directory walk is skipped, "
        "never reported.",
        failing="""\
{"name": "my-package"}
""",
        passing="""\
{"nodes": [{"id": "a", "type": "http_request"}], "edges": []}
""",
    ),
    RULES[3].explained(
        "The document against the shipped JSON Schema (draft 2020-12): a value of the wrong "
        "type or a missing required member, each reported on the offending value.",
        failing="""\
{"nodes": [{"id": "a", "type": "http_request", "data": {"label": 42}}], "edges": []}
""",
        passing="""\
{"nodes": [{"id": "a", "type": "http_request", "data": {"label": "Search"}}], "edges": []}
""",
    ),
)
