"""LANG-23: a data extractor's `$`-rooted path under the `property_path` engine (spec
rules/LANG-23.yml, LANG-14).

Only the `jsonpath` engine reads a `$`-rooted path as JSONPath and unwraps a single match
(LANG-15, LANG-23); under `property_path` the same text is a property path whose first segment
is `$`: it reads a member named `$`, which data seldom has, and delivers what it finds whole.
The save accepts it (it is a valid property path), so the extractor silently delivers its
default. A warning on the path.

Fix: write `jsonpath` as the engine (unsafe: it changes how every path of the node is read)."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.expressions import (
    EXTRACTOR,
    PROPERTY_PATH,
    definition_of,
    document_span,
    node_expressions,
    processor_of,
)
from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.remedies import fix_from, node_ref
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity
from flowdrop_lsp.core.operations import Update
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "LANG-23",
    "JSONPath under the property-path engine",
    Severity.WARNING,
    "A data extractor's path starts with `$` but its engine is `property_path`: the path is not "
    "read as JSONPath, and the extractor delivers its default.",
    spec_ids=("LANG-23",),
)


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    definition = definition_of(node, ctx.settings)
    if processor_of(node.type_id, definition) != EXTRACTOR:
        return
    for expression in node_expressions(node.type_id, node.config, definition):
        text = expression.source
        if expression.engine != PROPERTY_PATH or not text.strip().startswith("$"):
            continue
        start = len(text) - len(text.lstrip())
        yield RULE.finding(
            document_span(node, expression, start, start + 1),
            f"path '{text.strip()[:60]}' of {node.display} starts with '$' but its engine is "
            "'property_path': it is read as a property path (a member named '$'), not as "
            "JSONPath, and the extractor delivers its default",
            node=node.id,
            fixes=_engine_fix(node),
            key=expression.key,
            identity=expression.identity,
        )


def _engine_fix(node: Node) -> tuple[Fix, ...]:
    """The engine written `jsonpath` in place of the `engine` the config holds (none offered
    when the engine is the type's default, not written in the config)."""
    if not isinstance(node.config, dict) or "engine" not in node.config:
        return ()
    fix = fix_from(
        "Write 'jsonpath' as the engine",
        [(node, Update.of(node_ref(node), "config", {"engine": "jsonpath"}))],
        applicability=Applicability.UNSAFE,
    )
    return () if fix is None else (fix,)


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "A path is JSONPath only under the `jsonpath` engine; the `property_path` engine reads "
    "`$.results[0].name` as a property path whose first member is `$`, finds nothing, and the "
    "extractor delivers its default. The save does not refuse it.",
    failing="""\
{
  "nodes": [
    {"id": "pick", "type": "data_extractor", "data": {"label": "Pick",
      "config": {"engine": "property_path", "path": "$.results[0].name"}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "pick", "type": "data_extractor", "data": {"label": "Pick",
      "config": {"engine": "jsonpath", "path": "$.results[0].name"}}}
  ],
  "edges": []
}
""",
)
