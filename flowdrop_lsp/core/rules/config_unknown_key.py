"""R6.c: a key in a node's config that its node type does not declare (spec rules/R6.c.yml).

The save is not refused: the value is ignored at execution, which is what the warning says
(often a misspelt or renamed parameter, whose intended value then never arrives). The node
type declares its config keys as `parameters`; besides those, FlowDrop's editor keeps its own
per-node settings in config (`EDITOR_CONFIG_KEYS`), which are never reported. Only for a node
whose type the site defines (R6.j: without a derived schema nothing is judged).

Fix: remove the key — unsafe, never preferred: the value may be meant for a parameter that is
spelt differently, and removing it loses it."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from flowdrop_lsp.core.domain.model import Node, short_text
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity, TextEdit, later
from flowdrop_lsp.core.rules.base import Rule, RuleContext, scoped_with_node_types
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "R6.c",
    "Config key the node type does not declare",
    Severity.WARNING,
    "A key in a node's config is no parameter of its node type (nor one of the editor's own "
    "settings): its value is ignored at execution.",
    spec_ids=("R6.c",),
)
CONFIG_PATH = ("data", "config")
# The FlowDrop editor's own per-node settings, kept in `data.config` beside the node type's
# parameters and declared by no node type: the only undeclared keys on the real site (15
# workflows, 90 node types), each used there.
EDITOR_CONFIG_KEYS = frozenset(
    {
        "maxRetries",  # retries of a failed execution
        "ports",  # the node's dynamic ports
        "requiresConfirmation",  # ask the user before running it
        "nodeType",  # "tool": the node is offered to an agent as a tool
        "instanceTitle",  # the node's title (and tool name) in this workflow
        "instanceDescription",  # its description (and tool description)
    }
)


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    catalog = ctx.settings.node_type_catalog
    definition = catalog.get(node.type_id) if catalog is not None else None
    config = node.config
    if definition is None or node.id is None or not isinstance(config, dict):
        return
    declared = definition.parameter_names
    unknown = [key for key in config if key not in declared and key not in EDITOR_CONFIG_KEYS]
    # Removing every key at once would leave no mapping at all in Drupal's YAML (`config:`
    # alone is null, which FlowDrop refuses, R6.a; each removal is written as if alone): when
    # all of several keys are unknown, the first keeps no removal. A lone unknown key's removal
    # writes the empty mapping itself (`config: {  }`).
    kept_back = unknown[0] if len(unknown) > 1 and len(unknown) == len(config) else None
    for key in unknown:
        anchor = _key_span(node, key) or node.anchor
        yield Finding(
            RULE.code,
            RULE.default_severity,
            f"config key '{short_text(key)}' of {node.display} is not a parameter of node type "
            f"'{short_text(definition.id)}': its value is ignored at execution",
            anchor,
            node=node.id,
            # Made for the findings kept only (a generated workflow may have thousands).
            later_fixes=later(partial(_removal_fix, node, key)) if key != kept_back else None,
            locator=f"node.{node.id}.config.{key}",
        )


def _key_span(node: Node, key: str) -> Span | None:
    """Where `config.<key>` is written: from what the whole read kept of the node's config
    keys, else (a node the fast path read) by re-reading its element."""
    known = node.config_keys
    if known is not None:
        return known.get(key)
    located = node.editor.locate((*CONFIG_PATH, key)) if node.editor is not None else None
    return located.key if located is not None else None


def _removal_fix(node: Node, key: str) -> tuple[Fix, ...]:
    removal = node.editor.member_removal(CONFIG_PATH, key) if node.editor is not None else None
    if removal is None:
        return ()
    return (
        Fix(
            f"Remove '{short_text(key)}'",
            (TextEdit(*removal),),
            applicability=Applicability.UNSAFE,
            format_specific=True,  # the reader wrote it (`{  }` for a YAML mapping left empty)
        ),
    )


def check(ctx: RuleContext) -> list[Finding]:
    return scoped_with_node_types(ctx, RULE.code, node_check=check_node)


EXAMPLE_NODE_TYPE = """\
id: http_request
parameters:
  url:
    configurable: true
    required: false
  timeout:
    configurable: true
    required: false
    default: 30
"""

EXPLANATION = RULE.explained(
    "A node's config holds the values of its node type's parameters (and a few settings of "
    "FlowDrop's editor: `maxRetries`, `ports`, `requiresConfirmation`, `nodeType`, "
    "`instanceTitle`, `instanceDescription`). Any other key is stored but ignored at execution: "
    "most often a misspelt or renamed parameter, whose value then never reaches the node. "
    "Only for nodes of a type the site defines.",
    failing="""\
{
  "nodes": [
    {"id": "fetch", "type": "http_request", "data": {"label": "Fetch",
      "config": {"url": "https://example.com/feed", "timout": 5}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "fetch", "type": "http_request", "data": {"label": "Fetch",
      "config": {"url": "https://example.com/feed", "timeout": 5, "maxRetries": 2}}}
  ],
  "edges": []
}
""",
    site_node_types=(EXAMPLE_NODE_TYPE,),
)
