"""EDGE-9: an edge has two vocabularies that never mix. A stored (transport) edge is written
with `source`, `target`, `sourceHandle` and `targetHandle`; the runtime's execution record of
an edge uses `source_handle`, `target_handle`, `is_trigger`, `is_loopback`, `is_tool`,
`branch_name` and `edge_id`. A stored edge carrying a key of the execution record carries
something nothing reads: `source_handle` in place of `sourceHandle` silently leaves the edge
on its node's default port.

One finding per such key, on the key. The fix:

- **renames** `source_handle`, `target_handle` and `edge_id` to their transport names
  (`sourceHandle`, `targetHandle`, `id`) when the edge lacks the transport key: what the writer
  meant, written so it is read (safe, preferred);
- otherwise **removes** the member (unsafe: the transport key is there and wins, or the key has
  no transport counterpart — `is_tool` and the like are derived from the handles and type).

Kept per edge (`scoped_findings`): a keystroke re-checks only the edges it reaches."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Edge
from flowdrop_lsp.core.domain.remedies import edge_ref, fix_from
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity
from flowdrop_lsp.core.operations import Update
from flowdrop_lsp.core.rules.base import (
    Rule,
    RuleContext,
    edge_identity,
    half_typed,
)
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "EDGE-9",
    "Execution-record key on a stored edge",
    Severity.ERROR,
    "A stored edge carries a key of the runtime's execution record (`source_handle`, "
    "`is_tool`…): nothing reads it.",
    spec_ids=("EDGE-9",),
)

# The execution record's keys that have a transport counterpart.
TRANSPORT_NAMES = {
    "source_handle": "sourceHandle",
    "target_handle": "targetHandle",
    "edge_id": "id",
}


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


def _execution_keys(ctx: RuleContext, edge: Edge) -> Iterator[Finding]:
    if edge.quirks is None or not edge.quirks.execution_keys or edge.editor is None:
        return
    if half_typed(edge):
        return
    value = edge.editor.value()
    current = value if isinstance(value, dict) else {}
    for key in edge.quirks.execution_keys:
        located = edge.editor.locate((key,))
        if located is None or located.key is None:
            continue
        transport = TRANSPORT_NAMES.get(key)
        fix: Fix | None = None
        rename = transport is not None and edge.editor.locate((transport,)) is None
        if rename and transport is not None and key in current:
            # The member renamed, its value kept as written (core.engine.rendering).
            fix = fix_from(
                f"Rename '{key}' to '{transport}'",
                [(edge, Update.of(edge_ref(edge), "edge", {transport: current[key]}, (key,)))],
                preferred=True,
            )
        elif not rename:
            fix = fix_from(
                f"Remove '{key}'",
                [(edge, Update.of(edge_ref(edge), "edge", unset=(key,)))],
                applicability=Applicability.UNSAFE,
                destructive=f"the edge's '{key}' and its value are deleted",
            )
        if transport is None:
            meaning = "it is derived from the edge's handles and type, and nothing reads it here"
        elif rename:
            meaning = f"a stored edge says '{transport}'; as written, nothing reads it"
        else:
            meaning = f"the edge's '{transport}' is read instead"
        yield RULE.finding(
            located.key,
            f"'{key}' on the edge from '{id_text(edge.source or '?')}' to "
            f"'{id_text(edge.target or '?')}' belongs to the runtime's execution record, "
            f"not to a stored edge: {meaning}",
            node=edge.target,
            fixes=(fix,) if fix is not None else (),
            edge=edge,
            identity=(*edge_identity(edge), key),
        )


SCOPED = Scoped(RULE.code, edge_check=_execution_keys)


EXPLANATION = RULE.explained(
    "An edge is written one way on the wire and in storage (`source`, `target`, "
    "`sourceHandle`, `targetHandle`) and another way in the runtime's execution record "
    "(`source_handle`, `target_handle`, `is_trigger`, `is_loopback`, `is_tool`, `branch_name`, "
    "`edge_id`), and neither may carry the other's keys (spec EDGE-9): a stored edge with "
    "`source_handle` leaves its handle unread. The fix renames `source_handle`, "
    "`target_handle` and `edge_id` to the transport name when the edge lacks it; any other "
    "such key is removed (an unsafe fix).",
    failing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "html_to_markdown", "data": {"label": "To Markdown"}}
  ],
  "edges": [
    {"id": "e1", "source": "a", "target": "b", "source_handle": "a-output-body"}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "html_to_markdown", "data": {"label": "To Markdown"}}
  ],
  "edges": [
    {"id": "e1", "source": "a", "target": "b", "sourceHandle": "a-output-body"}
  ]
}
""",
)
