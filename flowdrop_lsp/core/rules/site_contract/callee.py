"""In a called workflow: an input or output a call type knows by one other name, reported on
the entry's name with the fix naming it back (chosen by hand only)."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.site_facts import WorkflowFacts
from flowdrop_lsp.core.domain.site_view import SiteContext, workflow_key
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Finding, RelatedLocation
from flowdrop_lsp.core.rules.site_contract.contract import (
    SIDE_WORDS,
    fallback_span,
    rename_pair,
    renamed_token,
)
from flowdrop_lsp.core.rules.site_contract.rule import finding


def renamed_in_callee(ctx: SiteContext, workflow: WorkflowFacts) -> Iterator[Finding]:
    """In a called workflow, an input or output a call type knows by one other name (the pair
    `rename_pair` finds): reported on the entry's name, with the fix naming it back (unsafe: the
    rename may be the one meant, and the call type the one to follow)."""
    own_id = workflow_key(ctx.path, workflow)
    if own_id is None:
        return
    callee = ctx.site.workflow(own_id)
    if callee is None or callee.path != ctx.path:
        return
    told: set[bool] = set()  # the sides reported (several call types may call it alike)
    for path, node_type in ctx.site.calling_types(own_id):
        for inputs in (True, False):
            declared = workflow.has_input_ports if inputs else workflow.has_output_ports
            if not declared or inputs in told:
                continue
            pair = rename_pair(ctx, node_type, callee, inputs)
            if pair is None:
                continue
            old, new = pair
            verb, _callee_verb, side = SIDE_WORDS[inputs]
            bindings = workflow.input_ports if inputs else workflow.output_ports
            for binding in bindings:
                if binding.name is None or binding.name.value != new:
                    continue
                told.add(inputs)
                fix = renamed_token(
                    ctx.text,
                    binding.name.span,
                    new,
                    old,
                    f"Rename '{id_text(new)}' back to '{id_text(old)}'",
                    # The call type's rename (its finding's lone fix) is what `--fix
                    # --unsafe-fixes` follows: applying both would swap the names, still apart.
                    chosen_only=True,
                )
                yield finding(
                    f"call type '{id_text(node_type.id)}' {verb} '{id_text(old)}', not "
                    f"'{id_text(new)}' (one of its {side} renamed?)",
                    binding.name.span,
                    identity=("renamed", side, new),
                    related=(
                        RelatedLocation(
                            (
                                node_type.spans.parameters_key
                                if inputs
                                else node_type.spans.outputs_key
                            )
                            or fallback_span(node_type),
                            f"the {'parameters' if inputs else 'outputs'} of the call type",
                            path,
                        ),
                    ),
                    fixes=(fix,) if fix is not None else (),
                )
                break
