"""FD-CALL: a call of a workflow the site does not have, or workflows calling themselves.

A node type whose `executor_plugin` is `flowdrop_workflow_executor:flowdrop_workflow:<id>` runs
workflow `<id>` of the site; a node of the generic `workflow_executor` type runs the workflow
its literal `config.workflow_id` names. A callee missing from the site is reported on the node
type's `executor_plugin` and on every node of that type in the site's workflows (its label), a
generic node's missing callee on its `workflow_id`. A workflow reaching itself through calls,
at any depth, never ends: each calling node on the cycle is reported in its own file, the rest
of the cycle in related information (in the other files).

Judged against the site index (core/workspace/site.py), which marks the callers of a changed
workflow at any depth, so a cycle closed or broken elsewhere shows at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from flowdrop_lsp.core.config.site_files import WORKFLOW_CONFIG_PREFIX
from flowdrop_lsp.core.domain.model import id_text
from flowdrop_lsp.core.domain.site_facts import (
    CallStep,
    SiteContext,
    SiteNode,
    WorkflowFacts,
)
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule

RULE = Rule(
    "FD-CALL",
    "Call of a missing workflow, or a call cycle",
    Severity.ERROR,
    "A node calls a workflow the site does not have, or workflows call each other in a cycle.",
)

# A literal workflow id (Drupal machine name); anything else (a token, an expression) is a
# value chosen at run time and is not judged.
MACHINE_NAME = re.compile(r"^[a-z0-9_]+$")


def _absent(ctx: SiteContext, workflow_id: str) -> bool:
    """No workflow of the site has this id, and no file of it is there unread (a file that does
    not parse is reported by its own check, not as a missing callee by its callers)."""
    site = ctx.site
    return site.workflow(workflow_id) is None and not site.unreadable_workflow(workflow_id)


def _missing(workflow_id: str) -> str:
    return (
        f"calls workflow '{id_text(workflow_id)}', which the site does not have "
        f"(no {WORKFLOW_CONFIG_PREFIX}{id_text(workflow_id)}.yml)"
    )


def check_site(ctx: SiteContext) -> Iterator[Finding]:
    node_type = ctx.node_type
    plugin = node_type.located_plugin if node_type is not None else None
    if node_type is not None and plugin is not None:
        called = node_type.called_workflow
        # A folder of node types without any workflow is a registry, not a site to judge.
        if called is not None and ctx.site.has_workflows() and _absent(ctx, called):
            yield Finding(
                RULE.code,
                RULE.default_severity,
                f"node type '{id_text(node_type.id)}' {_missing(called)}",
                plugin.span,
            )
    if ctx.workflow is not None:
        yield from _missing_callees(ctx, ctx.workflow)
        yield from _cycles(ctx, ctx.workflow)


def _missing_callees(ctx: SiteContext, workflow: WorkflowFacts) -> Iterator[Finding]:
    for node in workflow.nodes:
        if node.type_id is None:
            continue
        site_type = ctx.site.node_type(node.type_id.value)
        if site_type is None:
            continue
        called = site_type.definition.called_workflow
        if called is not None:
            if not _absent(ctx, called):
                continue
            plugin = site_type.definition.located_plugin
            related = (
                (RelatedLocation(plugin.span, "the node type names it here", site_type.path),)
                if plugin is not None
                else ()
            )
            yield Finding(
                RULE.code,
                RULE.default_severity,
                f"{node.display} (type '{id_text(node.type_id.value)}') {_missing(called)}",
                node.anchor,
                node=node.id,
                related=related,
            )
        elif site_type.definition.is_generic_call and node.workflow_id is not None:
            chosen = node.workflow_id.value
            if not MACHINE_NAME.match(chosen) or not _absent(ctx, chosen):
                continue
            yield Finding(
                RULE.code,
                RULE.default_severity,
                f"{node.display} {_missing(chosen)} (its config.workflow_id)",
                node.workflow_id.span,
                node=node.id,
            )


def _cycles(ctx: SiteContext, workflow: WorkflowFacts) -> Iterator[Finding]:
    own = workflow.workflow_id
    if own is None:
        return
    for node in workflow.nodes:
        callee = ctx.site.callee_of(node)
        if callee is None:
            continue
        back = () if callee == own else ctx.site.call_path(callee, own)
        if callee != own and not back:
            continue
        yield _cycle_finding(ctx, own, node, callee, back)


def _cycle_finding(
    ctx: SiteContext, own: str, node: SiteNode, callee: str, back: tuple[CallStep, ...]
) -> Finding:
    chain = " → ".join([own, callee, *(step.callee for step in back)])
    if callee == own:
        message = f"{node.display} calls workflow '{id_text(own)}', its own workflow: a call cycle"
    else:
        message = (
            f"{node.display} calls workflow '{id_text(callee)}', which calls back into "
            f"'{id_text(own)}': a call cycle ({id_text(chain)})"
        )
    related = tuple(
        RelatedLocation(
            step.node.anchor,
            f"in workflow '{id_text(step.caller)}', {step.node.display} calls "
            f"'{id_text(step.callee)}'",
            None if step.path == ctx.path else step.path,
        )
        for step in back
    )
    return Finding(
        RULE.code, RULE.default_severity, message, node.anchor, node=node.id, related=related
    )


EXPLANATION = RULE.explained(
    "A workflow calls another through a node type whose `executor_plugin` is "
    "`flowdrop_workflow_executor:flowdrop_workflow:<workflow id>` (or a `workflow_executor` "
    "node's `config.workflow_id`). A callee the site does not have (renamed, deleted, not "
    "exported) fails only when the call runs; it is reported on the node type's "
    "`executor_plugin` and on every node of that type. Workflows that call each other in a "
    "cycle, at any depth, never end: each calling node of the cycle is reported, the rest of "
    "the cycle in related information.",
    failing="""\
id: run_colour
label: 'Run workflow: Colour'
parameters:
  ask:
    required: true
outputs: {  }
executor_plugin: 'flowdrop_workflow_executor:flowdrop_workflow:colour'
""",
    passing="""\
id: run_colour
label: 'Run workflow: Colour'
parameters:
  ask:
    required: true
outputs: {  }
executor_plugin: 'flowdrop_workflow_executor:flowdrop_workflow:color'
""",
    file_name="flowdrop_node_type.flowdrop_node_type.run_colour.yml",
    site_files=(
        (
            "flowdrop_workflow.flowdrop_workflow.color.yml",
            """\
id: color
label: Color
nodes: {  }
edges: {  }
""",
        ),
    ),
)
