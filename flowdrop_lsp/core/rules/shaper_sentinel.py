"""LANG-25: a data shaper's mapping source that looks like a reserved value but is not one
(spec rules/LANG-25.yml).

The shaper checks its sources for the reserved values before any engine sees them: `_NOW_`,
`_NULL_`, `_EMPTY_ARRAY_`, `_EMPTY_OBJECT_`, and the `_LITERAL:` prefix. A source spelt almost
like one (`_NOW`, `_null_`, `_EMPTY_ARRY_`, `_LITERAL ` or `_literal:`) is not recognised and
goes to the engine as a path: it reads nothing, or fails the node. A warning on the source.

Fix: the reserved value meant (safe when only one is close: the source means nothing as it
stands), else each close one as a choice."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial

from flowdrop_lsp.core.domain.expressions import (
    LITERAL_PREFIX,
    SENTINELS,
    SHAPER,
    definition_of,
    document_span,
    node_expressions,
    processor_of,
)
from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.remedies import fix_from, node_ref
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity, later
from flowdrop_lsp.core.operations import EditString
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped
from flowdrop_lsp.core.text.suggestions import alike_names

RULE = Rule(
    "LANG-25",
    "Misspelt shaper reserved value",
    Severity.WARNING,
    "A data shaper's mapping source is spelt almost like a reserved value (`_NOW_`, `_NULL_`, "
    "`_EMPTY_ARRAY_`, `_EMPTY_OBJECT_`, `_LITERAL:`) but is none: it is read as a path.",
    spec_ids=("LANG-25",),
)
# A literal's prefix in another spelling: case, a missing or different separator.
_LITERAL_ALIKE = re.compile(r"_?literal\s*[:=\s-]", re.IGNORECASE)


def misspelt_sentinel(source: str) -> tuple[str, int] | None:
    """The reserved value `source` looks like a misspelling of, and how many of its leading
    characters the misspelling covers; None when it looks like none."""
    if source.startswith(LITERAL_PREFIX) or source in SENTINELS:
        return None
    literal = _LITERAL_ALIKE.match(source)
    if literal is not None:
        return LITERAL_PREFIX, literal.end()
    if not source.startswith("_") and not source.endswith("_"):
        return None
    word = source.strip()
    if word.upper() in SENTINELS:
        return word.upper(), len(source)
    close = alike_names(word.upper(), SENTINELS, cutoff=0.8)
    return (close[0], len(source)) if len(close) == 1 else None


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    definition = definition_of(node, ctx.settings)
    if processor_of(node.type_id, definition) != SHAPER:
        return
    for expression in node_expressions(node.type_id, node.config, definition):
        meant = misspelt_sentinel(expression.source)
        if meant is None:
            continue
        value, covered = meant
        span = document_span(node, expression, 0, covered)
        yield RULE.finding(
            span,
            f"{expression.where} of {node.display} is '{short_text(expression.source)}', not the "
            f"reserved value '{value}': it is read as a path by the engine",
            node=node.id,
            later_fixes=later(partial(_sentinel_fix, node, expression.path, covered, value)),
            key=expression.key,
            identity=expression.identity,
        )


def _sentinel_fix(
    node: Node, path: tuple[str | int, ...], covered: int, value: str
) -> tuple[Fix, ...]:
    """The misspelt characters (the source's first `covered`) replaced by the reserved value,
    inside the string: the rest of it is kept as written."""
    fix = fix_from(
        f"Write '{value}'",
        [(node, EditString(node_ref(node), path, 0, covered, value))],
        applicability=Applicability.SAFE,
        preferred=True,
    )
    return () if fix is None else (fix,)


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "A data shaper recognises a few reserved source values before its engine reads a source: "
    "`_NOW_` (the current time), `_NULL_`, `_EMPTY_ARRAY_`, `_EMPTY_OBJECT_`, and `_LITERAL:` "
    "followed by a literal string. One spelt differently is not recognised: the engine reads it "
    "as a path, which finds nothing.",
    failing="""\
{
  "nodes": [
    {"id": "shape", "type": "data_shaper", "data": {"label": "Shape",
      "config": {"mapping": {"created": "_NOW", "title": "page.title"}}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "shape", "type": "data_shaper", "data": {"label": "Shape",
      "config": {"mapping": {"created": "_NOW_", "title": "page.title"}}}}
  ],
  "edges": []
}
""",
)
