"""LANG-27: a switch gateway compares its value with each branch's; where none matches, the branch
its `default_branch` names is active, and where that names no usable branch the node fails
(spec rules/LANG-27.yml) — here: a `default_branch` naming none of the node's branches.

The save accepts it; the node fails the first time no branch matches: a warning. Names compare
as the runtime matches a branch port, trimmed and without regard to case (BR-1, BR-2: the real
site's `default_branch: default` names its branch `Default`). The branches are the node's
`config.branches` (entries with a non-empty string name, BR-4), else its type's default ones
(core/domain/ports.py) when the site defines the type; without either, nothing is judged. An
absent, null or empty `default_branch` is unset (the type's default applies); another type is
skipped. Only on a type that declares `default_branch`, when the site defines it (else the key is
R6.c's). No fix: which branch is meant is the author's to say. Kept per node
(`scoped_findings`)."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.ports import branch_ports
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.branch_names import branch_key, branch_names
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "LANG-27",
    "Default branch that is no branch",
    Severity.WARNING,
    "A switch gateway's `default_branch` names none of its branches: when no branch matches "
    "its value, the node fails instead of taking the default.",
    spec_ids=("LANG-27",),
)
KEY = "default_branch"


def _branches(ctx: RuleContext, node: Node) -> tuple[str, ...] | None:
    """The node's branch names, or None when they cannot be known (or it has no default)."""
    catalog = ctx.settings.node_type_catalog
    definition = catalog.get(node.type_id) if catalog is not None else None
    if definition is not None:
        if definition.parameter(KEY) is None:
            return None
        return branch_ports(node, definition)  # its own, else the type's default ones
    config = node.config
    if not isinstance(config, dict) or not isinstance(config.get("branches"), list):
        return None
    return tuple(name for _index, name in branch_names(node))


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    config = node.config
    default = config.get(KEY) if isinstance(config, dict) else None
    if not isinstance(default, str) or not default.strip():
        return
    branches = _branches(ctx, node)
    if branches is None or branch_key(default) in {branch_key(name) for name in branches}:
        return
    located = node.editor.locate(("data", "config", KEY)) if node.editor is not None else None
    listed = ", ".join(f"'{short_text(name)}'" for name in branches[:10]) or "none"
    yield RULE.finding(
        located.value if located is not None else node.anchor,
        f"default_branch '{short_text(default)}' of {node.display} names none of its branches "
        f"({listed}): when no branch matches, the node fails",
        node=node.id,
        key=KEY,
    )


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "A switch gateway compares its value with each branch's in order; where none matches, the "
    "branch named by `default_branch` is active, and where that names no branch the node fails "
    "(spec LANG-27). Names compare trimmed and without regard to case, as the runtime matches "
    "branch ports (`default` names a branch `Default`). Name one of the branches, or add the "
    "branch the default names.",
    failing="""\
{
  "nodes": [
    {"id": "route", "type": "switch_gateway", "data": {"label": "Route", "config": {
      "default_branch": "fallback",
      "branches": [{"name": "Pages", "value": "pages"}, {"name": "Default", "value": "default"}]}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "route", "type": "switch_gateway", "data": {"label": "Route", "config": {
      "default_branch": "default",
      "branches": [{"name": "Pages", "value": "pages"}, {"name": "Default", "value": "default"}]}}}
  ],
  "edges": []
}
""",
)
