"""In a call node type: its `parameters` / `outputs` against the callee's `input_ports` /
`output_ports`, name for name (a rename's old name with the fix following the callee)."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition
from flowdrop_lsp.core.domain.site_view import SiteContext
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.site_contract.contract import (
    SIDE_WORDS,
    callee_of,
    contract_location,
    contract_names,
    differences,
    fallback_span,
    renamed_token,
)
from flowdrop_lsp.core.rules.site_contract.rule import finding, listed


def call_type(ctx: SiteContext, node_type: NodeTypeDefinition) -> Iterator[Finding]:
    callee = callee_of(ctx, node_type)
    if callee is None:
        return
    callee_id = id_text(callee.workflow_id or "?")
    for inputs in (True, False):
        declared = callee.facts.has_input_ports if inputs else callee.facts.has_output_ports
        if not declared:
            continue
        verb, callee_verb, side = SIDE_WORDS[inputs]
        names = contract_names(callee.facts.input_ports if inputs else callee.facts.output_ports)
        related = contract_location(callee, inputs)
        extra, missing = differences(ctx, node_type, callee, inputs)
        renamed = len(extra) == 1 and len(missing) == 1
        for entry in extra:
            hint = f"renamed '{id_text(missing[0])}'? " if renamed else ""
            # Renaming the call type's key is a guess at what was meant (the callee may be the
            # one to rename back), and the workflows using the type still pass the old name.
            fix = (
                renamed_token(
                    ctx.text,
                    entry.span,
                    entry.value,
                    missing[0],
                    f"Rename '{id_text(entry.value)}' to '{id_text(missing[0])}'",
                )
                if renamed
                else None
            )
            yield finding(
                f"this call type {verb} '{id_text(entry.value)}', which workflow '{callee_id}' "
                f"does not {callee_verb} ({hint}its {side}: {listed(names)})",
                entry.span,
                identity=("passed", side, entry.value),
                related=related,
                fixes=(fix,) if fix is not None else (),
            )
        if missing and not renamed:
            spans = node_type.spans
            key_span = spans.parameters_key if inputs else spans.outputs_key
            yield finding(
                f"this call type does not {verb[:-2]} {listed(missing)}, which workflow "
                f"'{callee_id}' {callee_verb}s as its {side}",
                key_span or fallback_span(node_type),
                identity=("not passed", side),
                related=related,
            )
