"""Findings about the text itself, before any graph: JSON syntax, duplicate keys, documents
that are not workflows, and structure that breaks the shipped JSON Schema (whose findings the
engine makes per element, core/syntax/schema.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.domain.remedies import fix_from, node_ref
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.operations import Update
from flowdrop_lsp.core.rules.base import Rule, edge_identity
from flowdrop_lsp.core.syntax.schema import path_text
from flowdrop_lsp.core.syntax.tree import JsonValue, SyntaxProblem
from flowdrop_lsp.core.text.positions import Span

SYNTAX = "FD-SYNTAX"
DUPLICATE_KEY = "FD-DUPLICATE-KEY"
NOT_WORKFLOW = "FD-NOT-WORKFLOW"
SCHEMA = "FD-SCHEMA"


def schema_group(finding: Finding) -> tuple[str, str]:
    """FD-SCHEMA findings are capped per array, or per member of the top level (core/rules/
    capping.py): a node's finding (which names the node, not its index) in `nodes`; an element's
    by its array, the first step of its `identity`; the top level's by its member, the first
    step of its path (`document` when about the whole)."""
    if finding.node is not None:
        return (SCHEMA, "nodes")
    return (SCHEMA, finding.identity[0] if finding.identity else "document")


SYNTAX_RULE = Rule(
    SYNTAX,
    "Syntax error",
    Severity.ERROR,
    "The text is not valid JSON (or YAML, or UTF-8) here; the nodes and edges it does not touch "
    "are still analysed.",
    # The reader bounds its own findings, and the one saying why it stopped (nesting too
    # deep) comes last: it must not be cut.
    capped=False,
)
DUPLICATE_KEY_RULE = Rule(
    DUPLICATE_KEY,
    "Duplicate key",
    Severity.WARNING,
    "An object (a YAML mapping) has the same key twice; parsers keep only the last one.",
)
NOT_WORKFLOW_RULE = Rule(
    NOT_WORKFLOW,
    "Not a workflow",
    Severity.ERROR,
    "The document is not a FlowDrop workflow: a top-level object with `nodes` and `edges`.",
)
SCHEMA_RULE = Rule(
    SCHEMA,
    "Structure",
    Severity.ERROR,
    "A value has the wrong type or a required member is missing (the shipped JSON Schema).",
    spec_ids=("R5.c", "R6.a"),
    cap_group=schema_group,
)
RULES = (SYNTAX_RULE, DUPLICATE_KEY_RULE, NOT_WORKFLOW_RULE, SCHEMA_RULE)


def syntax_findings(problems: Iterable[SyntaxProblem]) -> Iterator[Finding]:
    for problem in problems:
        span = Span(problem.start, problem.end)
        if problem.kind == "duplicate-key":
            related = (
                RelatedLocation(
                    Span(problem.related_start, problem.related_end), "first defined here"
                ),
            )
            yield DUPLICATE_KEY_RULE.finding(span, problem.message, related=related)
        elif problem.related_start >= 0:  # YAML: where the parser gave up, away from the error
            gave_up = Span(problem.related_start, problem.related_end)
            related = (RelatedLocation(gave_up, "where the YAML parser gave up"),)
            yield SYNTAX_RULE.finding(span, problem.message, related=related)
        else:
            yield SYNTAX_RULE.finding(span, problem.message)


def element_schema_finding(
    array: str,
    index: int,
    model: Any,
    problem: tuple[list[Any], str, Span],
    locator: tuple[str | None, str | None],
    empty_mapping: Callable[[str], str],
) -> Finding:
    """The FD-SCHEMA finding of a schema problem (`path` below the element, the schema's
    `message`, the offending value's `span`) in item `index` of `array`. A node with an id is
    named by its label and id, as every other rule names it (`data.label of "Fetch" (fetch):
    …`), not by its index, which no one sees in an editor; an emptied config (null) is said in
    FlowDrop's words, on its key, with the empty mapping as its safe fix (`empty_mapping`: the
    reader's, `{  }` in Drupal's YAML)."""
    path, message, span = problem
    code, where = locator
    # The element's index is in the message, not in its identity: it moves when an element
    # is inserted above. An edge is told by its ends, a node by its id, else by its array.
    below = tuple(str(step) for step in path)
    if not isinstance(model, Node) or not model.id or path[:1] == ["id"]:
        text = f"{path_text([array, index, *path])}: {message}"
        ends = edge_identity(model) if isinstance(model, Edge) else ()
        return SCHEMA_RULE.finding(
            span,
            text,
            locator_code=code,
            locator=where,
            identity=(array, *ends, *below),
        )
    if path == ["data", "config"] and model.config is None:
        return _null_config_finding(model, span, (code, where), empty_mapping)
    text = (
        f"{path_text(path)} of {model.display}: {message}"
        if path
        else f"{model.display}: {message}"
    )
    return SCHEMA_RULE.finding(
        span,
        text,
        node=model.id,
        locator_code=code,
        locator=where,
        identity=below,
    )


def _null_config_finding(
    node: Node,
    value: Span,
    locator: tuple[str | None, str | None],
    empty_mapping: Callable[[str], str],
) -> Finding:
    """`config:` left null (its last key deleted in YAML, `"config": null` in JSON): FlowDrop
    refuses it (R6.a). Writing the empty mapping in place of the null is what was meant, and
    keeps everything else: a safe fix. As operations, the editor's update of the config with
    nothing to add (`{...(config ?? {})}`: the empty mapping), written in place of the null
    (after a bare YAML `config:`, following a space)."""
    located = node.editor.locate(("data", "config")) if node.editor is not None else None
    anchor = located.key if located is not None and located.key is not None else value
    # Only whether something is written there matters (YAML: nothing after `config:`).
    written = empty_mapping("null" if value.start < value.end else "")
    title = "Write the empty config " + written.strip()
    fix = fix_from(title, [(node, Update.of(node_ref(node), "config"))], preferred=True)
    return SCHEMA_RULE.finding(
        anchor,
        f"the config of {node.display} is empty (null): FlowDrop expects a mapping; write "
        f"`{written.strip()}` for an empty one",
        node=node.id,
        fixes=(fix,) if fix is not None else (),
        locator_code=locator[0],
        locator=locator[1],
    )


def not_workflow_finding(root: JsonValue | None, text_length: int) -> Finding:
    span = Span(root.start, root.start + 1) if root is not None else Span(0, min(1, text_length))
    return NOT_WORKFLOW_RULE.finding(
        span,
        "not a FlowDrop workflow: expected a top-level object with 'nodes' and 'edges' arrays",
    )


def undecodable_finding(text: str, offset: int, byte: int) -> Finding:
    """The finding for a file that is not UTF-8: `text` is its content decoded with
    replacement characters, `offset` where the first undecodable `byte` sits in it."""
    return SYNTAX_RULE.finding(
        Span(offset, min(offset + 1, len(text))),
        f"not UTF-8: byte 0x{byte:02X} cannot be decoded (workflows and Drupal config are "
        "UTF-8); nothing else in this file was checked",
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
        "type or a missing required member, each reported on the offending value. A node with "
        'an id is named by its label and id (`data.label of "Search" (a): …`), one without '
        "by its index (`nodes[3]`). A config left null (its last key deleted: `config:` alone "
        'in YAML, `"config": null` in JSON), which FlowDrop refuses (R6.a), is said so on '
        "the `config` key, and the safe fix writes the empty mapping (`{  }` as Drupal writes "
        "it, `{}` in JSON).",
        failing="""\
{"nodes": [{"id": "a", "type": "http_request", "data": {"label": 42}}], "edges": []}
""",
        passing="""\
{"nodes": [{"id": "a", "type": "http_request", "data": {"label": "Search"}}], "edges": []}
""",
    ),
)
