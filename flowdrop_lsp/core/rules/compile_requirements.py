"""CMP-3: the structure preconditions compilation checks before it builds any graph — the
workflow has an identifier, it has at least one node, and each node has an identifier and a type.

Two of them are this rule's:

- **A workflow with no node** (its `nodes` array empty): reported on the array.
- **A node with no type**: no `data.metadata.node_type_id`, no `type` (other than the editor's
  render type `universalNode`) and no `data.metadata.id` (docs/domain.md §4, `Node.type_id` is
  None). Reported on the node's id, for every such node: the runtime stops at the first in
  definition order, but a checker that named only the first would make fixing them a loop of
  runs.

The other two are not:

- **A node's identifier** is FD-SCHEMA's: the workflow schema requires `id` as a non-empty
  string on every node.
- **The workflow's identifier** is not decided by the document. The runtime compiles a stored
  workflow, whose identifier is the store's key: a Drupal config file's name carries it
  (`flowdrop_workflow.flowdrop_workflow.<id>.yml`, the document's own `id` beside it), the API
  addresses a workflow by it, and the spec's shorthand documents, editor exports among them,
  carry no top-level `id` at all. Reporting its absence would flag every shorthand document for
  nothing a save would not supply.

The node check is kept per node (`scoped_findings`): a keystroke re-checks the node it is in."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import (
    Rule,
    RuleContext,
    half_typed,
    node_locator,
)
from flowdrop_lsp.core.rules.scoped import Scoped
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "CMP-3",
    "Workflow cannot be compiled: no node, or a node without a type",
    Severity.ERROR,
    "A workflow has no node, or a node names no type: compilation refuses it before anything "
    "is planned.",
    spec_ids=("CMP-3",),
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    nodes = ctx.arrays.get("nodes")
    if ctx.graph.node_count == 0 and nodes is not None:
        yield RULE.finding(
            Span(nodes[0], nodes[1]), "the workflow has no node: there is nothing to compile"
        )
    yield from SCOPED.findings(ctx)


def _node_without_type(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    if node.type_id is not None or half_typed(node):
        return
    yield RULE.finding(
        node.id_span or node.anchor,
        f"node {node.display} has no type (no `data.metadata.node_type_id`, `type` or "
        "`data.metadata.id` names one): compilation refuses the workflow",
        node=node.id,
        locator=node_locator(node.id),
    )


SCOPED = Scoped(RULE.code, node_check=_node_without_type)


EXPLANATION = RULE.explained(
    "Before it builds any graph, compilation checks that the workflow has at least one node "
    "and that each node has an identifier and a type, and refuses the workflow at the first "
    "that fails (spec CMP-3). A node's type is its `data.metadata.node_type_id`, else its "
    "`type` (unless that is the editor's render type `universalNode`), else its "
    "`data.metadata.id`. A node without an identifier is reported by FD-SCHEMA. The workflow's "
    "own identifier is not checked: a stored workflow's is the store's key (a Drupal config "
    "file's name), and shorthand documents carry none.",
    failing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "universalNode", "data": {"label": "To Markdown"}}
  ],
  "edges": [
    {"id": "e1", "source": "a", "target": "b"}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {
      "id": "b",
      "type": "universalNode",
      "data": {"label": "To Markdown", "metadata": {"node_type_id": "html_to_markdown"}}
    }
  ],
  "edges": [
    {"id": "e1", "source": "a", "target": "b"}
  ]
}
""",
)
