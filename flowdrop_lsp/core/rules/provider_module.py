"""R1.a where the site can decide it: a node whose node type is provided by a module the site
does not enable (spec rules/R1.a.yml: a node whose executor does not exist is refused with
`R1_PLUGIN_MISSING`).

The executor itself is PHP code no config file shows; what a site's config does show is the
module each node type depends on (`dependencies.module` in its definition: the module that
provides its processor) and the modules the site enables (`core.extension.yml`, `module:`).
A node of a type whose module is not enabled has no executor once the config is imported —
after a module is uninstalled, or a type exported from another site: FlowDrop refuses the
workflow. Judged only where the site holds a `core.extension.yml` with a `module` mapping (a
folder of FlowDrop config alone says nothing of modules) and the node's type is the site's.
One finding per node, on its type token, the node type file in related information.
"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.site_view import SiteContext
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule, node_locator

RULE = Rule(
    "R1.a",
    "Node type of a module the site does not enable",
    Severity.ERROR,
    "A node's type is provided by a module the site's core.extension.yml does not enable: "
    "its executor does not exist, and FlowDrop refuses the workflow.",
    spec_ids=("R1.a",),
)
LOCATOR_CODE = "R1_PLUGIN_MISSING"


def check_site(ctx: SiteContext) -> Iterator[Finding]:
    workflow = ctx.workflow
    enabled = ctx.site.enabled_modules() if workflow is not None else None
    if workflow is None or enabled is None:
        return
    for node in workflow.nodes:
        if node.type_id is None or node.id is None:
            continue
        site_type = ctx.site.node_type(node.type_id.value)
        if site_type is None:
            continue
        missing = [m for m in site_type.definition.modules if m not in enabled]
        if not missing:
            continue
        modules = ", ".join(f"'{id_text(m)}'" for m in missing)
        definition = site_type.definition
        yield RULE.finding(
            node.type_id.span,
            f"{node.display} is of node type '{id_text(definition.id)}', provided by module "
            f"{modules}, which the site's core.extension.yml does not enable: its executor "
            "does not exist and FlowDrop refuses the workflow",
            node=node.id,
            related=(
                RelatedLocation(
                    definition.located_id.span,
                    f"node type '{id_text(definition.id)}' depends on {modules}",
                    site_type.path,
                ),
            ),
            locator_code=LOCATOR_CODE,
            locator=node_locator(node.id),
        )


_WORKFLOW = """\
id: notify
label: Notify
nodes:
  -
    id: {type_id}.1
    data:
      label: Post
      metadata:
        node_type_id: {type_id}
edges: {{  }}
"""

EXPLANATION = RULE.explained(
    "A node type depends on the module that provides its processor (`dependencies.module` in "
    "its definition); the site enables modules in `core.extension.yml`. A node of a type whose "
    "module is not enabled — uninstalled since, or a type copied from another site — has no "
    "executor, and FlowDrop refuses the workflow (`R1_PLUGIN_MISSING` at `node.{id}`). Judged "
    "only where the site's config holds `core.extension.yml`.",
    failing=_WORKFLOW.format(type_id="slack_post"),
    passing=_WORKFLOW.format(type_id="http_request"),
    file_name="flowdrop_workflow.flowdrop_workflow.notify.yml",
    site_files=(
        (
            "flowdrop_node_type.flowdrop_node_type.slack_post.yml",
            "dependencies:\n  module:\n    - flowdrop_slack\nid: slack_post\nlabel: 'Slack post'\n",
        ),
        (
            "flowdrop_node_type.flowdrop_node_type.http_request.yml",
            "dependencies:\n  module:\n    - flowdrop_node_processor\nid: http_request\n"
            "label: 'HTTP request'\n",
        ),
        ("core.extension.yml", "module:\n  flowdrop: 0\n  flowdrop_node_processor: 0\n"),
    ),
)
