"""LANG-6: an ExpressionLanguage expression reads a name its context does not hold, which fails
the node at run time (spec rules/LANG-6.yml: a name absent from the context raises; LANG-10:
the save does not see it, since validation treats every identifier as declared).

Judged where the context is known from the workflow itself: a data mapper in ExpressionLanguage
(FlowDrop's default engine for it), whose context is the map of its inputs, named by its
`dynamicInputs` (and its type's parameters). A name read behind `??` or `?.` is guarded (a
missing one is meant). An expression the engine refuses is R11's.

Fix: the one close name meant (safe when it is the only one: the node fails as it stands), else
each close name as a choice. `name_findings`, the findings of reads outside a context, is
LANG-7's too (core/rules/twig_undefined_name.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from flowdrop_lsp.core.domain.expressions import (
    EXPRESSION_LANGUAGE,
    MAPPER,
    ConfigExpression,
    definition_of,
    document_span,
    expression_functions,
    mapper_context,
    names_alike,
    node_expressions,
    parse,
    processor_of,
    twig_vocabulary_of,
)
from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.expressions.base import Parsed
from flowdrop_lsp.core.findings import Finding, Severity, later
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.expression_invalid import renames_in_string
from flowdrop_lsp.core.rules.scoped import Scoped
from flowdrop_lsp.core.text.suggestions import did_you_mean, quoted

RULE = Rule(
    "LANG-6",
    "ExpressionLanguage name the context does not have",
    Severity.ERROR,
    "An ExpressionLanguage expression reads a name its node's context does not hold: the node "
    "fails when it runs.",
    spec_ids=("LANG-6",),
)


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    definition = definition_of(node, ctx.settings)
    if processor_of(node.type_id, definition) != MAPPER:
        return
    context = mapper_context(node.config, definition)
    if context is None:
        return
    inputs = mapper_context(node.config, None)
    vocabulary = twig_vocabulary_of(ctx.settings)
    functions = expression_functions(ctx.settings)
    for expression in node_expressions(node.type_id, node.config, definition):
        if expression.engine != EXPRESSION_LANGUAGE:
            continue
        parsed = parse(expression, vocabulary, functions)
        if parsed is None or parsed.problems:
            continue
        yield from name_findings(
            RULE,
            node,
            expression,
            parsed,
            context,
            consequence="fails the node at run time",
            near_misses_only=False,
            close=names_alike,
            inputs=inputs,
        )


# How many reads of one expression are reported: a template written for another context reads
# many names, and the first few say what there is to say.
MOST_READS = 10


def name_findings(
    rule: Rule,
    node: Node,
    expression: ConfigExpression,
    parsed: Parsed,
    context: frozenset[str],
    *,
    consequence: str,
    near_misses_only: bool,
    close: Callable[[str, frozenset[str]], list[str]],
    inputs: frozenset[str] | None = None,
) -> Iterator[Finding]:
    """A finding per read of a name `context` lacks (neither guarded nor bound by the
    expression itself); with `near_misses_only`, only the reads close to a name it holds.
    `inputs`: the names a message lists when no close one is found (a data mapper's inputs, of
    a context that also holds its type's parameters)."""
    reported = 0
    for read in parsed.reads:
        if read.guarded or read.name in context:
            continue
        candidates = close(read.name, context)
        if near_misses_only and not candidates:
            continue
        reported += 1
        if reported > MOST_READS:
            return
        span = document_span(node, expression, read.start, read.end)
        listed = sorted(inputs if inputs is not None else context)
        known = ", ".join(f"'{short_text(name)}'" for name in listed[:8])
        if len(listed) > 8:
            known += ", …"
        hint = (
            f" ({did_you_mean(quoted(candidates))})"
            if candidates
            else f"; its inputs: {known}"
            if listed
            else "; it has no input"
        )
        yield rule.finding(
            span,
            f"'{short_text(read.name)}' in {expression.where} of {node.display} is not in its "
            f"context: it {consequence}{hint}",
            node=node.id,
            later_fixes=(
                later(
                    partial(renames_in_string, node, expression, read.start, read.end, candidates)
                )
                if candidates
                else None
            ),
            extra=(("name", read.name),),
            key=expression.key,
            identity=(*expression.identity, read.name),
        )


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "A data mapper evaluates each output's expression against the map of its inputs, named by "
    "its `dynamicInputs`; ExpressionLanguage is its default engine. The save accepts any name "
    "(validation is syntax only), but evaluating one the context does not hold raises, and the "
    "node fails. Guard an optional one with `??`.",
    failing="""\
{
  "nodes": [
    {"id": "title", "type": "data_mapper", "data": {"label": "Title",
      "config": {"engine": "expression_language",
        "dynamicInputs": [{"name": "page", "label": "Page", "dataType": "json"}],
        "dynamicOutputs": [{"name": "heading", "label": "Heading", "dataType": "string",
          "value": "pgae.title ~ ' | ' ~ page.site"}]}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "title", "type": "data_mapper", "data": {"label": "Title",
      "config": {"engine": "expression_language",
        "dynamicInputs": [{"name": "page", "label": "Page", "dataType": "json"}],
        "dynamicOutputs": [{"name": "heading", "label": "Heading", "dataType": "string",
          "value": "page.title ~ ' | ' ~ page.site"}]}}}
  ],
  "edges": []
}
""",
)
