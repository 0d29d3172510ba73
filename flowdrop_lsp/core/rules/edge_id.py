"""R3: every edge carries an id, and no two edges share one (spec R3, ruling OPEN-5: a save
refuses an edge with no id as `R3_EDGE_MISSING_ID`, a repeated id as `R3_EDGE_DUPLICATE_ID`;
VAL-LAUNCH re-runs it at launch).

A repeated id is reported on each later edge carrying it, on its id, pointing at the first edge.

Every edge without an id is reported, as R3 says ("that tolerance is for legacy data only and
never relaxes the requirement at save"). Until issue 26 a missing id was reported only when
another edge carried one, to spare hand-written shorthand documents (the spec's own examples
give no edge an id); a document that is edited to be saved must have them, and the fix-all
(`check --fix`) gives every edge its id at once.

Both fixes write a fresh id the way the editor mints one (xyflow's
`xy-edge__{source}{sourceHandle}-{target}{targetHandle}`, `-2`, `-3`… appended while taken),
unique among the workflow's ids and the ids the other findings of this run propose (applying
every fix at once must not make a new duplicate)."""

from __future__ import annotations

from collections.abc import Container, Iterator

from flowdrop_lsp.core.domain.model import Edge, doc_order
from flowdrop_lsp.core.domain.remedies import edge_ref, fix_from
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Finding, Fix, RelatedLocation, Severity
from flowdrop_lsp.core.operations import ElementRef, Update
from flowdrop_lsp.core.rules.base import (
    FINDINGS_PER_GROUP,
    Rule,
    RuleContext,
    edge_identity,
    first_with_summary,
    half_typed,
)

RULE = Rule(
    "R3",
    "Edge without a unique id",
    Severity.ERROR,
    "An edge of a stored workflow has no id, or the id of an earlier edge: the save (and the "
    "launch) is refused.",
    spec_ids=("R3",),
)

MISSING_ID = "R3_EDGE_MISSING_ID"
DUPLICATE_ID = "R3_EDGE_DUPLICATE_ID"
FIX_TITLE = "Give the edge a fresh id"


def check(ctx: RuleContext) -> Iterator[Finding]:
    graph = ctx.graph
    # (the edge, the first edge with its id; None: it has no id), only the first ones of each
    # kind: a million offenders are counted, not sorted (first_with_summary).
    offenders: list[tuple[Edge, Edge | None]] = []
    total = 0
    # Half-typed edges are left out throughout: their id may be the next thing typed.
    for edge_id in graph.duplicate_edge_ids:
        same = [edge for edge in graph.edges_by_id[edge_id] if not half_typed(edge)]
        total += max(0, len(same) - 1)
        offenders.extend((edge, same[0]) for edge in same[1 : FINDINGS_PER_GROUP + 2])
    if graph.edges_without_id:
        # An edge whose id is written under the execution record's name (`edge_id`) is
        # EDGE-9's: its rename gives the edge its id, a fresh one would be a second.
        missing = [
            edge
            for edge in graph.edges_without_id
            if not half_typed(edge)
            and not (edge.quirks is not None and "edge_id" in edge.quirks.execution_keys)
        ]
        total += len(missing)
        offenders.extend((edge, None) for edge in missing[: FINDINGS_PER_GROUP + 1])
    if not offenders:
        return
    offenders.sort(key=lambda pair: doc_order(pair[0]))
    proposed: set[str] = set()

    def finding_of(pair: tuple[Edge, Edge | None]) -> Finding:
        edge, first = pair
        fresh = _fresh_id(edge, graph.edges_by_id, proposed)
        if first is None:
            return _missing_finding(edge, fresh)
        return _duplicate_finding(edge, first, fresh)

    yield from first_with_summary(offenders, finding_of, total=total)


def _fresh_id(edge: Edge, taken: Container[str], proposed: set[str]) -> str:
    """The id the editor would mint for `edge`, made unique (see the module's docstring)."""
    base = (
        f"xy-edge__{edge.source or ''}{edge.source_handle or ''}-"
        f"{edge.target or ''}{edge.target_handle or ''}"
    )
    fresh, counter = base, 1
    while fresh in taken or fresh in proposed:
        counter += 1
        fresh = f"{base}-{counter}"
    proposed.add(fresh)
    return fresh


def _ends(edge: Edge) -> str:
    return f"from '{id_text(edge.source or '?')}' to '{id_text(edge.target or '?')}'"


def _fresh_id_fix(edge: Edge, fresh: str, target: ElementRef) -> tuple[Fix, ...]:
    """The edge's `id` set to `fresh`: an empty (or not a string) id's value written over, a
    missing one added as a member, in the document's own format."""
    fix = fix_from(FIX_TITLE, [(edge, Update.of(target, "edge", {"id": fresh}))], preferred=True)
    return () if fix is None else (fix,)


def _missing_finding(edge: Edge, fresh: str) -> Finding:
    empty = edge.editor.locate(("id",)) if edge.editor else None
    fixes = _fresh_id_fix(edge, fresh, edge_ref(edge))
    return RULE.finding(
        empty.value if empty is not None else edge.anchor,
        f"edge {_ends(edge)} has no id: FlowDrop refuses to save the workflow",
        node=edge.target,
        fixes=fixes,
        locator_code=MISSING_ID,
        edge=edge,
        identity=edge_identity(edge),
    )


def _duplicate_finding(edge: Edge, first: Edge, fresh: str) -> Finding:
    assert edge.id is not None
    located = edge.editor.locate(("id",)) if edge.editor else None
    first_located = first.editor.locate(("id",)) if first.editor else None
    # Addressed by its position: its id names the first edge carrying it, to the editor.
    position = edge.editor.position() if edge.editor is not None else edge.index
    fixes = _fresh_id_fix(edge, fresh, ElementRef("edge", None, position)) if located else ()
    return RULE.finding(
        located.value if located is not None else edge.anchor,
        f"duplicate edge id '{id_text(edge.id)}' on the edge {_ends(edge)}: the edge "
        f"{_ends(first)} has it already",
        node=edge.target,
        related=(
            RelatedLocation(
                first_located.value if first_located is not None else first.anchor,
                f"'{id_text(edge.id)}' first used here",
            ),
        ),
        fixes=fixes,
        locator_code=DUPLICATE_ID,
        edge=edge,
        identity=edge_identity(edge),
    )


EXPLANATION = RULE.explained(
    "The store refuses a workflow whose edges are not each named by an id of their own (spec "
    "R3): an edge without one is refused as R3_EDGE_MISSING_ID, a second edge with the id of "
    "another as R3_EDGE_DUPLICATE_ID (the later edge is reported, pointing at the first), and "
    "a launch re-checks it. Both fixes give the edge a fresh id the way the editor mints one "
    "(safe: `check --fix` names every edge at once). A store may mint ids while reading "
    "legacy data, but that never relaxes the requirement at save: every edge is judged.",
    failing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "html_to_markdown", "data": {"label": "To Markdown"}},
    {"id": "c", "type": "text_output", "data": {"label": "Show"}}
  ],
  "edges": [
    {"id": "e1", "source": "a", "target": "b"},
    {"id": "e1", "source": "b", "target": "c"}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "html_to_markdown", "data": {"label": "To Markdown"}},
    {"id": "c", "type": "text_output", "data": {"label": "Show"}}
  ],
  "edges": [
    {"id": "e1", "source": "a", "target": "b"},
    {"id": "e2", "source": "b", "target": "c"}
  ]
}
""",
)
