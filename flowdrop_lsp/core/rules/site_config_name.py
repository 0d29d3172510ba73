"""FD-CONFIG-NAME: a config file whose entity `id` is not the id its file name gives it.

Drupal reads a file as the config its name says (`flowdrop_workflow.flowdrop_workflow.<id>.yml`
is config `flowdrop_workflow.flowdrop_workflow.<id>`) and keeps a config entity as
`<prefix>.<its id>`: the two must agree. With another `id`, importing the file saves other config
than the file (the `id`'s, colliding with the workflow of that id if there is one), and the
next import sees the file's config missing again (Drupal's ConfigEntityStorage::importCreate
saves the entity under its id; `drush cex` writes every file as `<prefix>.<id>.yml`). A file copied to clone
a workflow keeps the original's `id`; an `id` edited to rename one leaves its file name behind.
Either way the site does not import it, and a call naming the `id` finds nothing: the site
index knows a config file's workflow by its name (`workflow_key`), as Drupal does.

Reported on the `id` value of a workflow or node-type file named like Drupal config, with the
fix writing the name's id. Safe (and preferred) when the `id` written is another file's, named
for it: two files cannot both be that workflow, the copy is the one to follow its name (a clone
that kept the original's id). Otherwise unsafe: the `id` may be the new name meant, the file
the one to rename (a rename is no text edit). A workflow file not named like config (a JSON
workflow in a folder) saying another's `id` is reported as a duplicate: the site knows one of
them by it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from flowdrop_lsp.core.config.site_files import NODE_TYPE_CONFIG_PREFIX, WORKFLOW_CONFIG_PREFIX
from flowdrop_lsp.core.domain.node_types import Located
from flowdrop_lsp.core.domain.site_view import SiteContext, config_id
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity, TextEdit
from flowdrop_lsp.core.operations import TextOnly
from flowdrop_lsp.core.rules.base import Rule
from flowdrop_lsp.core.syntax.reader import reader_for

RULE = Rule(
    "FD-CONFIG-NAME",
    "Config id that is not its file's name",
    Severity.ERROR,
    "A workflow or node type's id differs from the id its config file's name gives it, or "
    "another workflow file says the same id: Drupal's config import expects them equal.",
)


def check_site(ctx: SiteContext) -> Iterator[Finding]:
    if ctx.workflow is not None and ctx.workflow.id is not None:
        declared = ctx.workflow.id
        others = [path for path in ctx.site.declaring(declared.value) if path != ctx.path]
        named = config_id(ctx.path, WORKFLOW_CONFIG_PREFIX)
        if named is not None and named != declared.value:
            owners = [p for p in others if config_id(p, WORKFLOW_CONFIG_PREFIX) == declared.value]
            yield _mismatch(ctx, declared, named, WORKFLOW_CONFIG_PREFIX, owners)
        elif named is None and others:
            yield RULE.finding(
                declared.span,
                f"id '{id_text(declared.value)}' is also the id of "
                f"{os.path.basename(others[0])}: the site knows only one workflow by it",
            )
    node_type = ctx.node_type
    if node_type is not None and node_type.spans.id is not None:
        named = config_id(ctx.path, NODE_TYPE_CONFIG_PREFIX)
        if named is not None and named != node_type.id:
            # The site knows a node type by its `id` (the first file by path saying it).
            first = ctx.site.node_type(node_type.id)
            owners = (
                [first.path]
                if first is not None
                and first.path != ctx.path
                and config_id(first.path, NODE_TYPE_CONFIG_PREFIX) == node_type.id
                else []
            )
            yield _mismatch(ctx, node_type.located_id, named, NODE_TYPE_CONFIG_PREFIX, owners)


def _mismatch(
    ctx: SiteContext, declared: Located, named: str, prefix: str, owners: list[str]
) -> Finding:
    also = f" ('{id_text(declared.value)}' is {os.path.basename(owners[0])})" if owners else ""
    message = (
        f"id '{id_text(declared.value)}' is not '{id_text(named)}', its file name's id: "
        f"Drupal's config import expects them equal{also}"
    )
    raw = ctx.text[declared.span.start : declared.span.end]
    written = (
        reader_for("yaml").quote_string(named, raw)
        if ctx.path.endswith((".yml", ".yaml"))
        else None
    )
    fixes: tuple[Fix, ...] = ()
    if written is not None:
        safe = bool(owners)
        fixes = (
            Fix(
                f"Set the id to '{id_text(named)}' (its file's name)",
                (TextEdit(declared.span, written),),
                preferred=safe,
                applicability=Applicability.SAFE if safe else Applicability.UNSAFE,
                # The config entity's id: the editor keeps a workflow's id, it has no operation.
                operations=(TextOnly("the config entity's id"),),
            ),
        )
    return RULE.finding(declared.span, message, fixes=fixes)


EXPLANATION = RULE.explained(
    "Drupal keeps a config entity as the config its file names: "
    "`flowdrop_workflow.flowdrop_workflow.colour.yml` is config "
    "`flowdrop_workflow.flowdrop_workflow.colour`, and it keeps a config entity as "
    "`<prefix>.<its id>`: importing a file whose `id` is not `colour` saves other config than "
    "the file (colliding with the workflow of that id, if any), and the next import finds the "
    "file's config missing again. A workflow file copied to clone a workflow keeps the original's "
    "`id`; an `id` edited to rename a workflow leaves the file's name behind. A call names the "
    "workflow Drupal imported, by the file's name. The fix writes the name's id (safe when the "
    "`id` written is another file's, named for it: the copy follows its name; otherwise the "
    "file may be the one to rename). Node-type files are judged alike.",
    failing="""\
id: colour
label: 'Colour (copy)'
nodes:
  -
    id: chat_input.1
    data:
      label: 'Chat Input'
      metadata:
        node_type_id: chat_input
edges: {  }
""",
    passing="""\
id: colour_copy
label: 'Colour (copy)'
nodes:
  -
    id: chat_input.1
    data:
      label: 'Chat Input'
      metadata:
        node_type_id: chat_input
edges: {  }
""",
    file_name="flowdrop_workflow.flowdrop_workflow.colour_copy.yml",
    site_files=(
        (
            "flowdrop_workflow.flowdrop_workflow.colour.yml",
            """\
id: colour
label: Colour
nodes: {  }
edges: {  }
""",
        ),
    ),
)
