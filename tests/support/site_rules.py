"""A stand-in cross-file rule for testing the site plumbing before (and independently of) the
real cross-file rules: `plant()` puts it in `core.workspace.site.SITE_RULES`, in process.

`python -m tests.support.site_rules serve` runs the language server with it planted (the
pytest-lsp tests of the whole site start it so; the package itself has no test hook).

FD-TEST-SITE, on a workflow:
- a node whose type has no definition in the site (at the type's token);
- a node calling a workflow whose label contains BROKEN (at the node, related: the callee's id,
  in the callee's file), so that editing the callee changes its callers' findings.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from flowdrop_lsp.core.domain.site_view import SiteContext
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule
from flowdrop_lsp.core.workspace import site

CODE = "FD-TEST-SITE"
RULE = Rule(CODE, "test-site", Severity.WARNING, "A stand-in cross-file rule for tests.")


def check(context: SiteContext) -> Iterator[Finding]:
    workflow = context.workflow
    if workflow is None:
        return
    for node in workflow.nodes:
        if node.type_id is not None and context.site.node_type(node.type_id.value) is None:
            yield Finding(
                CODE,
                Severity.WARNING,
                f'node type "{node.type_id.value}" is not defined in the site',
                node.type_id.span,
                node=node.id,
            )
        callee_id = context.site.callee_of(node)
        callee = context.site.workflow(callee_id) if callee_id is not None else None
        if callee is not None and "BROKEN" in (callee.facts.label or ""):
            related: tuple[RelatedLocation, ...] = ()
            if callee.facts.id is not None:
                related = (RelatedLocation(callee.facts.id.span, "the callee", callee.path),)
            yield Finding(
                CODE,
                Severity.ERROR,
                f'calls "{callee_id}", labelled "{callee.facts.label}"',
                node.anchor,
                node=node.id,
                related=related,
            )


def plant() -> None:
    site.SITE_RULES = (*site.SITE_RULES, (RULE, check))


if __name__ == "__main__":
    plant()
    from flowdrop_lsp.entry import main

    sys.exit(main(sys.argv[1:]))
