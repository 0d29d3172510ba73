"""RT-GATE-8: a node's stored confirmation choice that its node type does not grant is inert.

An author may make an instance-level confirmation choice for a gated node — `config.
requiresConfirmation`: `waive` (never ask) or `require` (always ask); `''` defers to the
policy — but only through a control the node type's governance grants (`confirmation.
author_controls` in its definition). RT-GATE-8: the grant is asked when the gate would fire,
so a stored choice whose control is not granted is ignored, silently: the node asks (or does
not) as the policy says, whatever the workflow shows. A warning on the choice.

Judged: a node whose type the site defines with a `confirmation` block (`confirmation: {  }`
grants nothing), and whose `requiresConfirmation` is one of the known choices (`waive`,
`require`); `''` and anything else are not judged. On the real site (90 node types, 14 of
them granting both controls) every node defers (`''`): nothing is reported.

Fix: clear the choice to `''` (defer to the policy, what the runtime does anyway) — safe: it
makes the document say what will happen.
"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.remedies import fix_from, node_ref
from flowdrop_lsp.core.domain.wording import id_text, short_text
from flowdrop_lsp.core.findings import Finding, Fix, Severity
from flowdrop_lsp.core.operations import Update
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "RT-GATE-8",
    "Confirmation choice the node type does not grant",
    Severity.WARNING,
    "A node's `requiresConfirmation` choice is not among the controls its node type grants "
    "authors: the stored choice is ignored when the gate fires.",
    spec_ids=("RT-GATE-8",),
)

SETTING = "requiresConfirmation"
PATH = ("data", "config", SETTING)
CHOICES = frozenset({"waive", "require"})


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    catalog = ctx.settings.node_type_catalog
    definition = catalog.get(node.type_id) if catalog is not None else None
    config = node.config
    if definition is None or node.id is None or not isinstance(config, dict):
        return
    chosen = config.get(SETTING)
    granted = definition.confirmation_controls
    if granted is None or chosen not in CHOICES or chosen in granted:
        return
    located = node.editor.locate(PATH) if node.editor is not None else None
    anchor = located.value if located is not None and located.value else node.anchor
    listed = ", ".join(f"'{short_text(c)}'" for c in granted) if granted else "none"
    fixes: tuple[Fix, ...] = ()
    if located is not None and located.value:
        # The choice cleared to '' (defer), written in place of the value in its own style.
        cleared = fix_from(
            "Defer to the confirmation policy",
            [(node, Update.of(node_ref(node), "config", {SETTING: ""}))],
            preferred=True,
            destructive=f"the stored choice '{short_text(str(chosen))}' is cleared",
        )
        fixes = () if cleared is None else (cleared,)
    yield RULE.finding(
        anchor,
        f"requiresConfirmation '{short_text(str(chosen))}' of {node.display}: node type "
        f"'{id_text(definition.id)}' grants its authors no such control (it grants {listed}), "
        "so the stored choice is ignored when the gate fires",
        node=node.id,
        fixes=fixes,
        key=SETTING,
    )


SCOPED = Scoped(RULE.code, node_check=check_node, node_types=True)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXAMPLE_HTTP_REQUEST = """\
id: http_request
parameters:
  url:
    connectable: true
confirmation:
  policy: ask
  author_controls:
    - require
"""


EXPLANATION = RULE.explained(
    "A gated node's author may waive or require its confirmation (`config."
    "requiresConfirmation`: `waive`, `require`; empty defers to the policy), but only through a "
    "control the node type grants (`confirmation.author_controls`). The grant is asked when "
    "the gate fires, so a choice the type does not grant is ignored without a word. Only with "
    "the site's node types; here `http_request` grants `require` only. The fix clears the "
    "choice (defer to the policy, which is what happens anyway).",
    failing="""\
{
  "nodes": [
    {"id": "http_request.1", "type": "http_request", "data": {"label": "Fetch",
      "config": {"requiresConfirmation": "waive"}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "http_request.1", "type": "http_request", "data": {"label": "Fetch",
      "config": {"requiresConfirmation": "require"}}}
  ],
  "edges": []
}
""",
    site_node_types=(EXAMPLE_HTTP_REQUEST,),
)
