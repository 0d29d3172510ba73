"""R11: an expression in a node's config that its engine refuses (spec rules/R11.yml; LANG-11
for property paths, LANG-13 for Twig, whose validation is a compile).

Which strings are expressions, and in which engine, is core/domain/expressions.py's: a data
extractor's `path`, a data mapper's dynamic output values, a data shaper's mapping sources, a
prompt template's `template`. An empty expression is valid (LANG-3); a JSONPath engine judges
`$`-rooted paths only (LANG-12); an engine FlowDrop does not provide is LANG-2's finding.

Twig: a syntax error, an unclosed block, and a filter, function, test or tag the environment
does not define are refused at compile. FlowDrop renders through Drupal's `twig` service: Twig's
own names and Drupal core's (lists generated from their PHP sources), plus whatever the site's
enabled modules add. Those are read from the site's code when it is in the repository (the
services tagged `twig.extension` of the modules under `modules/` or `profiles/` at the site's
root or its `web/`, `docroot/`, `html/`) and declared in the settings (`extend-twig-filters`,
`extend-twig-functions`, `extend-twig-tests`, `extend-twig-tags`). A name none of them has is
never silent:

- an error when the site's extensions are known — its module code was found and read whole,
  or the settings say so (`twig-extensions-complete = true`);
- otherwise a warning (locator `R11_UNKNOWN_TWIG_NAME`: not the save's refusal, as a module
  the checker cannot see may add it) naming the settings line that declares it; Twig would go
  on past a name it knows, so the template's later problems are still found
  (`twig-extensions-complete = false` keeps it a warning even where module code was found:
  contrib modules installed by Composer and left out of the repository).

A name close to a known one (`frist` for `first`) is an error either way. ExpressionLanguage:
syntax only (LANG-10), and a function it does not register.

One error per expression: its engine's first refusal, at its exact character inside the
string (a warning on each unknown name before it). Fix: an unknown name close to exactly one
known name is renamed to it (safe: the expression is refused as it stands, and the one name
meant is the only change); several close names are each a choice (unsafe)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from functools import partial

from flowdrop_lsp.core.domain.expressions import (
    EXPRESSION_LANGUAGE,
    TWIG,
    ConfigExpression,
    definition_of,
    document_span,
    expression_functions,
    node_expressions,
    parse,
    twig_vocabulary_of,
)
from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.remedies import fix_from, node_ref
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.expressions.base import Problem, ProblemKind
from flowdrop_lsp.core.findings import (
    Applicability,
    Finding,
    Fix,
    RelatedLocation,
    Severity,
    later,
)
from flowdrop_lsp.core.operations import EditString
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped
from flowdrop_lsp.core.text.suggestions import alike_names, did_you_mean, quoted

RULE = Rule(
    "R11",
    "Expression its engine refuses",
    Severity.ERROR,
    "A Twig template, ExpressionLanguage expression, JSONPath or property path in a node's "
    "config does not parse (or, for Twig, compile) with its engine: the save is refused.",
    spec_ids=("R11", "LANG-11"),
)
LOCATOR_CODE = "R11_EXPRESSION_INVALID"
# A Twig name no known list has, where the site's modules are not known (see the module).
UNKNOWN_NAME_LOCATOR_CODE = "R11_UNKNOWN_TWIG_NAME"
UNKNOWN_NAME_SEVERITY = Severity.WARNING
ENGINE_NAMES = {
    TWIG: "Twig template",
    EXPRESSION_LANGUAGE: "ExpressionLanguage expression",
    "jsonpath": "JSONPath",
    "property_path": "property path",
}
_KIND_WORDS = {
    ProblemKind.UNKNOWN_FILTER: "filter",
    ProblemKind.UNKNOWN_FUNCTION: "function",
    ProblemKind.UNKNOWN_TEST: "test",
    ProblemKind.UNKNOWN_TAG: "tag",
}
_CLOSE = 0.75  # how alike an unknown name and a known one must be to call it a misspelling


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    definition = definition_of(node, ctx.settings)
    expressions = node_expressions(node.type_id, node.config, definition)
    if not expressions:
        return
    vocabulary = twig_vocabulary_of(ctx.settings)
    functions = expression_functions(ctx.settings)
    complete = ctx.settings.twig_names_complete
    for expression in expressions:
        parsed = parse(expression, vocabulary, functions)
        if parsed is None:
            continue
        for problem in parsed.problems:
            known = _known_names(expression, problem, vocabulary, functions)
            close = _close_names(problem, known)
            twig_name = problem.kind in _KIND_WORDS and expression.engine == TWIG
            if twig_name and not close and not complete:
                # A name like no known one where the site's modules are not known: one of them
                # may add it. Said, not refused; and Twig would go on past it, so do we.
                yield _unknown_name_finding(node, expression, problem)
                continue
            yield _finding(node, expression, problem, close, ctx.settings.site_twig_origin)
            break  # the engine stops at its first refusal


def _known_names(
    expression: ConfigExpression, problem: Problem, vocabulary: object, functions: frozenset[str]
) -> frozenset[str]:
    if expression.engine == EXPRESSION_LANGUAGE:
        return functions
    field = {
        ProblemKind.UNKNOWN_FILTER: "filters",
        ProblemKind.UNKNOWN_FUNCTION: "functions",
        ProblemKind.UNKNOWN_TEST: "tests",
        ProblemKind.UNKNOWN_TAG: "tags",
    }.get(problem.kind)
    return getattr(vocabulary, field) if field is not None else frozenset()


def _close_names(problem: Problem, known: frozenset[str]) -> list[str]:
    if problem.kind not in _KIND_WORDS or not problem.name:
        return []
    return alike_names(problem.name, known, cutoff=_CLOSE)


def _declaration(problem: Problem) -> str:
    """The settings line that declares an unknown Twig name a module of the site adds."""
    key = f"extend-twig-{_KIND_WORDS[problem.kind]}s"
    return f"`{key} = [{json.dumps(problem.name)}]`"


def _unknown_name_finding(node: Node, expression: ConfigExpression, problem: Problem) -> Finding:
    word = _KIND_WORDS[problem.kind]
    return RULE.finding(
        document_span(node, expression, problem.start, problem.end),
        f"Twig template in {expression.where} of {node.display} uses the {word} "
        f"'{short_text(problem.name or '')}', which neither Twig nor Drupal core defines: "
        f"refused unless a module of the site adds it (if one does, declare it with "
        f"{_declaration(problem)} in flowdrop-lsp.toml)",
        severity=UNKNOWN_NAME_SEVERITY,
        node=node.id,
        locator_code=UNKNOWN_NAME_LOCATOR_CODE,
        key=expression.key,
    )


def _finding(
    node: Node, expression: ConfigExpression, problem: Problem, close: list[str], origin: str = ""
) -> Finding:
    engine = ENGINE_NAMES.get(expression.engine, expression.engine)
    what = problem.message
    if problem.kind in _KIND_WORDS and problem.name:
        what = f"unknown {_KIND_WORDS[problem.kind]} '{short_text(problem.name)}'"
        if close:
            what += f" ({did_you_mean(quoted(close))})"
        elif expression.engine == TWIG:
            where = f"the site's modules in {origin}" if origin else "the settings"
            what += (
                f" (Twig, Drupal core and {where} define no such name; if a module not there "
                f"adds it, declare it with {_declaration(problem)})"
            )
    verb = "does not compile" if expression.engine == TWIG else "does not parse"
    span = document_span(node, expression, problem.start, problem.end)
    fixable = bool(close and problem.name and problem.end > problem.start)
    return RULE.finding(
        span,
        f"{engine} in {expression.where} of {node.display} {verb}: {what}",
        node=node.id,
        # The places the engine's message speaks of (the tag left open, the block defined
        # first), in the file: its lines are not the template's.
        related=tuple(
            RelatedLocation(document_span(node, expression, start, end), said)
            for start, end, said in problem.related
        ),
        later_fixes=(
            later(partial(renames_in_string, node, expression, problem.start, problem.end, close))
            if fixable
            else None
        ),
        locator_code=LOCATOR_CODE,
        key=expression.key,
        identity=expression.identity,
    )


def renames_in_string(
    node: Node, expression: ConfigExpression, start: int, end: int, names: Sequence[str]
) -> tuple[Fix, ...]:
    """A fix per name of `names` written over the characters `[start, end)` of the expression
    (an edit inside its string: the rest kept as written); the one name safe and preferred, each
    of several a choice (unsafe)."""
    fixes: list[Fix] = []
    for name in names:
        fix = fix_from(
            f"Write '{name}'",
            [(node, EditString(node_ref(node), expression.path, start, end, name))],
            applicability=Applicability.SAFE if len(names) == 1 else Applicability.UNSAFE,
            preferred=len(names) == 1,
        )
        if fix is not None:
            fixes.append(fix)
    return tuple(fixes)


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "Much of a workflow's logic is in strings its nodes evaluate: a data mapper's output "
    "values, a data shaper's mapping sources, a data extractor's path, a prompt template. "
    "Each is written in the node's engine (its `engine` key: `twig`, `expression_language`, "
    "`jsonpath`, `property_path`; a prompt template is always Twig), and FlowDrop refuses to "
    "save a workflow whose expression its engine cannot parse — for Twig, compile: an unknown "
    "filter, function, test or tag is refused too. The finding is at the character the engine "
    "stops at. A misspelt Twig name close to exactly one known name is fixed by writing it. "
    "The Twig names known are Twig's own and Drupal core's, those the site's modules register "
    "(read from their code when it is in the repository: the services tagged "
    "`twig.extension` under `modules/` or `profiles/`, at the site's root or in `web/`, "
    "`docroot/`, `html/`) and those the settings declare (`extend-twig-filters`, "
    "`extend-twig-functions`, `extend-twig-tests`, `extend-twig-tags`). Another name is an "
    "error where the site's extensions are known (its module code was found and read whole, "
    "or `twig-extensions-complete = true`); elsewhere it is a warning (locator "
    "`R11_UNKNOWN_TWIG_NAME`) naming the settings line that declares it, since a module "
    "the checker cannot see may add it. `twig-extensions-complete = false` keeps it a "
    "warning where module code is found but some modules are not in the repository.",
    failing="""\
{
  "nodes": [
    {"id": "geo_url", "type": "data_mapper", "data": {"label": "Geo URL",
      "config": {"engine": "twig",
        "dynamicInputs": [{"name": "q", "label": "Q", "dataType": "string"}],
        "dynamicOutputs": [{"name": "url", "label": "Url", "dataType": "string",
          "value": "https://example.com/search?name={{ q|frist|url_encode }}"}]}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "geo_url", "type": "data_mapper", "data": {"label": "Geo URL",
      "config": {"engine": "twig",
        "dynamicInputs": [{"name": "q", "label": "Q", "dataType": "string"}],
        "dynamicOutputs": [{"name": "url", "label": "Url", "dataType": "string",
          "value": "https://example.com/search?name={{ q|first|url_encode }}"}]}}}
  ],
  "edges": []
}
""",
)
