"""FD-TWIG-AUTOESCAPE: a data mapper's Twig output value that HTML escaping changes (spec
LANG-7: FlowDrop's Twig output is HTML-escaped unless piped through `raw`).

A mapper's outputs are data — a URL, a JSON body, a name — not HTML; escaped, `&` becomes
`&amp;` and a quote `&quot;`, so a URL's second parameter or a JSON string breaks, silently.
The real site wraps such values in `{% autoescape false %}` by hand. Reported per print
(`{{ … }}`) that escaping may change: outside `{% autoescape false %}`, not ending in `raw`, an
explicit `escape`, or a filter whose output escaping leaves alone (`url_encode`, `length`…),
and not only literals without a special character. Outputs declared `dataType: html` are
meant to be escaped and are not judged. A warning, once per output value, on its first such
print.

Fix: wrap the value in `{% autoescape false %}…{% endautoescape %}` (unsafe: it changes what
the value renders, which is the point — but only the author knows the output is no HTML)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from flowdrop_lsp.core.domain.expressions import (
    MAPPER,
    TWIG,
    definition_of,
    document_span,
    node_expressions,
    processor_of,
)
from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.remedies import change_at, fix_from
from flowdrop_lsp.core.expressions.twig.escaping import escaped_prints
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity, later
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "FD-TWIG-AUTOESCAPE",
    "Twig escapes a data value as HTML",
    Severity.WARNING,
    "A data mapper's Twig output value prints outside `{% autoescape false %}`: FlowDrop's Twig "
    "escapes it as HTML, so `&` becomes `&amp;` in a URL or a JSON body.",
    spec_ids=("LANG-7",),
)
WRAP = ("{% autoescape false %}", "{% endautoescape %}")


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    definition = definition_of(node, ctx.settings)
    if processor_of(node.type_id, definition) != MAPPER or not isinstance(node.config, dict):
        return
    outputs = node.config.get("dynamicOutputs")
    for expression in node_expressions(node.type_id, node.config, definition):
        if expression.engine != TWIG or expression.role != "output":
            continue
        index = expression.path[-2]
        output = outputs[index] if isinstance(outputs, list) and isinstance(index, int) else None
        if isinstance(output, dict) and output.get("dataType") == "html":
            continue
        prints = escaped_prints(expression.source)
        if not prints:
            continue
        start, end = prints[0]
        yield RULE.finding(
            document_span(node, expression, start, end),
            f"{expression.where} of {node.display} is escaped as HTML by Twig ('&' becomes "
            "'&amp;', a quote '&quot;'): wrap it in {% autoescape false %} … "
            "{% endautoescape %}, or end the print with |raw",
            node=node.id,
            later_fixes=later(partial(_wrap_fix, node, expression.path, expression.source)),
            key=expression.key,
            identity=expression.identity,
        )


def _wrap_fix(node: Node, path: tuple[str | int, ...], source: str) -> tuple[Fix, ...]:
    """The value wrapped in `{% autoescape false %}…{% endautoescape %}`: the whole string
    written anew over it, in its own style (the mapping holding it patched)."""
    key = path[-1]
    if not isinstance(key, str):
        return ()
    operation = change_at(node, path[:-1], {key: WRAP[0] + source + WRAP[1]})
    fix = (
        fix_from(
            "Wrap the value in {% autoescape false %}",
            [(node, operation)],
            applicability=Applicability.UNSAFE,
        )
        if operation is not None
        else None
    )
    return () if fix is None else (fix,)


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "FlowDrop renders Twig with HTML escaping on: every `{{ }}` is escaped unless it ends in "
    "`|raw` or sits in `{% autoescape false %}`. A data mapper's outputs are data, not HTML: "
    "escaped, a URL's `&` becomes `&amp;` and a JSON quote `&quot;`, and nothing reports it. "
    "The real site wraps its Twig mapper values in `{% autoescape false %}` for this reason.",
    failing="""\
{
  "nodes": [
    {"id": "forecast_url", "type": "data_mapper", "data": {"label": "Forecast URL",
      "config": {"engine": "twig",
        "dynamicInputs": [{"name": "g", "label": "G", "dataType": "json"}],
        "dynamicOutputs": [{"name": "url", "label": "Url", "dataType": "string",
          "value": "https://api.example.com/forecast?lat={{ g.lat }}&lon={{ g.lon }}"}]}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "forecast_url", "type": "data_mapper", "data": {"label": "Forecast URL",
      "config": {"engine": "twig",
        "dynamicInputs": [{"name": "g", "label": "G", "dataType": "json"}],
        "dynamicOutputs": [{"name": "url", "label": "Url", "dataType": "string",
          "value": "{% autoescape false %}https://api.example.com/forecast?lat={{ g.lat }}&lon={{ g.lon }}{% endautoescape %}"}]}}}
  ],
  "edges": []
}
""",
)
