"""LANG-7: a Twig template reads a variable its context does not have, which renders as ''
(spec rules/LANG-7.yml: no error, no warning at run — a misspelt input name yields an empty URL
or an empty prompt section, silently).

Judged only where the context is known from the workflow itself:

- a data mapper in Twig: its context is the map of its inputs, named by its `dynamicInputs`
  (and its type's parameters); every name it reads must be one of them.
- a prompt template: its context is the map arriving on its `variables` input (FlowDrop's
  prompt-template processor substitutes the keys of its `variables`; an edge delivers its
  source's value at the wired output, DATA-1). What that map holds is known from the workflow
  only when exactly one edge feeds `variables` (several: the one that finished last wins,
  DATA-2) and its source says it:
  - an `error` port: the error envelope, `error` (ERR-7);
  - a data mapper's dynamic output whose ExpressionLanguage value is one hash literal with its
    keys written out (`{'brand_brief': brief, tone: tone}`): those keys.
  Any other source (a named output of another node: the real site wires its brand-state node's
  `variables` output, a map whose keys only its PHP knows; a Twig mapper's output, a string)
  leaves the context unknown, and nothing is said. Even where it is known, a site's modules
  may add names of their own (the real site's prompt templates read `context_policy` with
  nothing wired), so only a near miss is reported: a read close to a name the upstream is known
  to deliver (`brand_breif`, did you mean `brand_brief`?), never a name merely absent.

Names the template binds itself (`set`, `for`, macros…) and names it guards (`is defined`,
`|default`, `??`) are never reported (the Twig parser's scoping, core/expressions/twig).

Fix: the one close name meant (safe when it is the only one: the read renders '' as it stands),
else each close name as a choice."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.expressions import (
    MAPPER,
    PROMPT_TEMPLATE,
    TWIG,
    ConfigExpression,
    definition_of,
    expression_functions,
    mapper_context,
    mapper_output_keys,
    names_alike,
    node_expressions,
    parse,
    processor_of,
    twig_vocabulary_of,
)
from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.domain.ports import RESERVED_PORTS, Direction, edge_ends, may_name
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.expression_undefined_name import name_findings
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "LANG-7",
    "Twig variable the context does not have",
    Severity.WARNING,
    "A Twig expression reads a variable its node's context does not hold: it renders as '' at "
    "run time, silently.",
    spec_ids=("LANG-7",),
)
VARIABLES_PORT = "variables"
ERROR_PORT = "error"
# What an error port delivers (ERR-7): one envelope, `error`, holding message, code, node_id
# and retryable.
ERROR_ENVELOPE = frozenset({"error"})


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    definition = definition_of(node, ctx.settings)
    if processor_of(node.type_id, definition) != MAPPER:
        return
    context = mapper_context(node.config, definition)
    if context is None:
        return
    inputs = mapper_context(node.config, None)
    for expression in node_expressions(node.type_id, node.config, definition):
        if expression.engine == TWIG:
            yield from _judged(ctx, node, expression, context, inputs, near_misses_only=False)


def check_variables_edge(ctx: RuleContext, edge: Edge) -> Iterator[Finding]:
    """A prompt template whose `variables` is fed by exactly this one edge, from a source
    whose value's keys are known (see the module)."""
    if not may_name(edge.target_handle, (VARIABLES_PORT,)):
        return  # nearly every edge: not into a `variables` port
    source, target = edge_ends(edge)
    if target.port != VARIABLES_PORT or target.node_id is None or source.port is None:
        return
    node = ctx.node(target.node_id)
    if node is None or node.id is None:
        return
    definition = definition_of(node, ctx.settings)
    if processor_of(node.type_id, definition) != PROMPT_TEMPLATE:
        return
    feeding = [
        other
        for other in ctx.graph.edges_by_endpoint.get(node.id, ())
        if other.target == node.id and edge_ends(other)[1].port == VARIABLES_PORT
    ]
    if len(feeding) != 1:
        return
    delivered = _delivered(ctx, source.node_id, source.port)
    if not delivered:
        return
    for expression in node_expressions(node.type_id, node.config, definition):
        yield from _judged(ctx, node, expression, delivered, None, near_misses_only=True)


def _delivered(ctx: RuleContext, source_id: str | None, port: str) -> frozenset[str] | None:
    """The keys of the map an edge from `port` of node `source_id` delivers, where known."""
    if port == ERROR_PORT:
        return ERROR_ENVELOPE
    if port in RESERVED_PORTS[Direction.OUTPUT]:
        return None  # a trigger carries no value (DATA-3); a tool port, no map we know
    source = ctx.node(source_id)
    if source is None:
        return None
    definition = definition_of(source, ctx.settings)
    if processor_of(source.type_id, definition) != MAPPER:
        return None
    return mapper_output_keys(source.config, definition, port)


def _judged(
    ctx: RuleContext,
    node: Node,
    expression: ConfigExpression,
    context: frozenset[str],
    inputs: frozenset[str] | None,
    *,
    near_misses_only: bool,
) -> Iterator[Finding]:
    parsed = parse(expression, twig_vocabulary_of(ctx.settings), expression_functions(ctx.settings))
    if parsed is None or parsed.problems:
        return  # a template Twig refuses is R11's: what it reads is not yet settled
    yield from name_findings(
        RULE,
        node,
        expression,
        parsed,
        context,
        consequence="renders as '' at run time",
        near_misses_only=near_misses_only,
        close=names_alike,
        inputs=inputs,
    )


SCOPED = Scoped(RULE.code, node_check=check_node, edge_check=check_variables_edge)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "Twig renders a variable its context does not hold as an empty string, without an error "
    "(FlowDrop's Twig environment is not strict). In a data mapper, the context is the map of "
    "the mapper's own inputs, named by its `dynamicInputs`: a misspelt input name builds an "
    "empty URL or an empty prompt section and nobody is told. A prompt template's context is "
    "the map arriving on its `variables`: where the one edge feeding it says which keys that map "
    "has (a data mapper's ExpressionLanguage output written as a hash, `{'brand_brief': brief}`), "
    "a read close to one of them (`brand_breif`) is said. Names the template sets "
    "itself, loops over, or guards with `is defined` or `|default` are fine.",
    failing="""\
{
  "nodes": [
    {"id": "geo_url", "type": "data_mapper", "data": {"label": "Geo URL",
      "config": {"engine": "twig",
        "dynamicInputs": [{"name": "query", "label": "Query", "dataType": "string"}],
        "dynamicOutputs": [{"name": "url", "label": "Url", "dataType": "string",
          "value": "https://example.com/search?name={{ qurey|url_encode }}"}]}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "geo_url", "type": "data_mapper", "data": {"label": "Geo URL",
      "config": {"engine": "twig",
        "dynamicInputs": [{"name": "query", "label": "Query", "dataType": "string"}],
        "dynamicOutputs": [{"name": "url", "label": "Url", "dataType": "string",
          "value": "https://example.com/search?name={{ query|url_encode }}"}]}}}
  ],
  "edges": []
}
""",
)
