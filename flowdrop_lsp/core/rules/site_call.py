"""FD-CALL: a call of a workflow the site does not have, or workflows calling themselves.

A node type whose `executor_plugin` is `flowdrop_workflow_executor:flowdrop_workflow:<id>` runs
workflow `<id>` of the site; a node of the generic `workflow_executor` type runs the workflow
its literal `config.workflow_id` names. A callee missing from the site is reported on the node
type's `executor_plugin` and on every node of that type in the site's workflows (its label), a
generic node's missing callee on its `workflow_id`. A workflow reaching itself through calls,
at any depth, never ends: each calling node on the cycle is reported in its own file, the rest
of the cycle in related information (in the other files).

A workflow is known by its file's name (`workflow_key`: Drupal reads the file as the config its
name says; a file whose `id` differs is FD-CONFIG-NAME's), so a call of a file whose `id` differs is told so, not "missing". A misspelt
callee is told the ids a few typos away (core/text/suggestions.py); in the node type, the fix
writes one in place of the misspelt id (only its letters: the value's quoting stays) — safe and
preferred when exactly one is close. The workflow using the type gets no fix (a fix edits its
finding's own file).

Judged against the site index (core/workspace/site.py), which marks the callers of a changed
workflow at any depth, so a cycle closed or broken elsewhere shows at once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from flowdrop_lsp.core.config.site_files import WORKFLOW_CONFIG_PREFIX
from flowdrop_lsp.core.domain.node_types import Located
from flowdrop_lsp.core.domain.site_facts import SiteNode, WorkflowFacts
from flowdrop_lsp.core.domain.site_view import CallStep, SiteContext, workflow_key
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import (
    Applicability,
    Finding,
    Fix,
    RelatedLocation,
    Severity,
    TextEdit,
)
from flowdrop_lsp.core.operations import TextOnly
from flowdrop_lsp.core.rules.base import Rule
from flowdrop_lsp.core.syntax.name_tokens import written_last
from flowdrop_lsp.core.text.suggestions import close_names, did_you_mean, quoted

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


def _missing(ctx: SiteContext, workflow_id: str, close: list[str]) -> str:
    """What a call of an absent workflow is told: the id once, and the ids it may mean — or the
    file saying that id, named for another (FD-CONFIG-NAME's root cause)."""
    told = f"calls workflow '{id_text(workflow_id)}', which the site does not have"
    saying = ctx.site.declaring(workflow_id)
    if saying:
        named = os.path.basename(saying[0])
        return f"{told}: {named} says that id, but its file name says another"
    if close:
        return told + f" ({did_you_mean(quoted(map(id_text, close)))})"
    return f"{told} (no {WORKFLOW_CONFIG_PREFIX}*.yml of that id)"


def check_site(ctx: SiteContext) -> Iterator[Finding]:
    node_type = ctx.node_type
    plugin = node_type.located_plugin if node_type is not None else None
    if node_type is not None and plugin is not None:
        called = node_type.called_workflow
        # A folder of node types without any workflow is a registry, not a site to judge.
        if called is not None and ctx.site.has_workflows() and _absent(ctx, called):
            close = close_names(called, ctx.site.workflow_ids())
            yield RULE.finding(
                plugin.span,
                f"executor_plugin {_missing(ctx, called, close)}",
                # A file saying the id, named otherwise: which one to change is the user's call.
                fixes=_renamed_callee(
                    ctx.text, plugin, called, close, sure=not ctx.site.declaring(called)
                ),
            )
    if ctx.workflow is not None:
        yield from _missing_callees(ctx, ctx.workflow)
        yield from _cycles(ctx, ctx.workflow)


def _renamed_callee(
    text: str, plugin: Located, called: str, close: list[str], sure: bool
) -> tuple[Fix, ...]:
    """Write each close workflow id in place of the absent one in `executor_plugin`, touching
    only the id's characters (the value's quotes and prefix stay as written). Safe and preferred
    when one id is close: the call names a workflow that does not exist, and the one existing
    workflow spelt nearly so is what it meant; with several, or a file saying the id it calls
    (`sure` False: the file may be the one to fix), the user chooses."""
    where = written_last(text, plugin.span, called)
    if where is None:
        return ()
    only = len(close) == 1 and sure
    return tuple(
        Fix(
            f"Call workflow '{id_text(candidate)}'",
            (TextEdit(where, candidate),),
            preferred=only,
            applicability=Applicability.SAFE if only else Applicability.UNSAFE,
            operations=(TextOnly("the workflow a call type's executor_plugin names"),),
        )
        for candidate in close
        if MACHINE_NAME.match(candidate)  # written as is in any quoting
    )


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
                (RelatedLocation(plugin.span, "its node type names it here", site_type.path),)
                if plugin is not None
                else ()
            )
            # The fix is in the node type's file (a fix edits its finding's file alone).
            close = close_names(called, ctx.site.workflow_ids())
            yield RULE.finding(
                node.anchor,
                f"this node's type {_missing(ctx, called, close)}",
                node=node.id,
                related=related,
            )
        elif site_type.definition.is_generic_call and node.workflow_id is not None:
            chosen = node.workflow_id.value
            if not MACHINE_NAME.match(chosen) or not _absent(ctx, chosen):
                continue
            close = close_names(chosen, ctx.site.workflow_ids())
            yield RULE.finding(
                node.workflow_id.span,
                f"config.workflow_id {_missing(ctx, chosen, close)}",
                node=node.id,
            )


def _cycles(ctx: SiteContext, workflow: WorkflowFacts) -> Iterator[Finding]:
    own = workflow_key(ctx.path, workflow)
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
    return RULE.finding(node.anchor, message, node=node.id, related=related)


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
