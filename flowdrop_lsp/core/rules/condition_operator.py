"""LANG-28: a condition node compares with exactly six operators (spec rules/LANG-28.yml): a
workflow naming another is refused when saved; a `regex` pattern that cannot be compiled fails
the node when it runs.

The condition node is FlowDrop's `if_else` processor: a node of type `if_else`, or of a type the
site defines with that executor (`CONDITION_EXECUTOR`). Its `config.operator` must be one of
`OPERATORS`, exactly (an error); absent or empty, the type's default applies (`equals`), and a
value of another type is skipped. With `regex`, its `config.matchText` is the pattern, compiled
by PHP's PCRE: Python's `re` judges it only where both engines agree, so a pattern is reported
(a warning: the save accepts it, the node fails each time it runs) only when Python refuses it
for a reason PCRE refuses too (`PCRE_AGREES`: an unclosed group or set, a quantifier with
nothing before it) and it holds no PCRE-only syntax Python could misread (`(*VERB)`, `\\Q…\\E`).
Anything else is left alone: no false positives.

Fix (operator): the operator meant, when the value is one of them in another spelling
(`Not Equals`: safe, preferred); else the close ones (unsafe). Kept per node
(`scoped_findings`)."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.expression_engine import replacement_fixes
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "LANG-28",
    "Condition operator unknown, or its pattern broken",
    Severity.ERROR,
    "A condition node's `operator` is none of `equals`, `not_equals`, `contains`, "
    "`starts_with`, `ends_with`, `regex` (the save is refused), or its `regex` pattern cannot "
    "be compiled (the node fails when it runs).",
    spec_ids=("LANG-28",),
)
OPERATORS: tuple[str, ...] = (
    "equals",
    "not_equals",
    "contains",
    "starts_with",
    "ends_with",
    "regex",
)
CONDITION_TYPE = "if_else"
CONDITION_EXECUTOR = "flowdrop_node_processor:if_else"
CONFIG_PATH = ("data", "config")
# Python `re` errors whose cause PCRE refuses as well.
PCRE_AGREES = (
    "missing ), unterminated subpattern",
    "unbalanced parenthesis",
    "unterminated character set",
    "nothing to repeat",
)
# Syntax of PCRE alone that could make Python report one of those errors wrongly.
PCRE_ONLY = ("(*", "\\Q", "\\E")


def is_condition(ctx: RuleContext, node: Node) -> bool:
    if node.type_id == CONDITION_TYPE:
        return True
    catalog = ctx.settings.node_type_catalog
    definition = catalog.get(node.type_id) if catalog is not None else None
    return definition is not None and definition.executor_plugin == CONDITION_EXECUTOR


def pattern_error(pattern: str) -> str | None:
    """Why PCRE cannot compile `pattern`, when Python's `re` can tell (see the module)."""
    if any(token in pattern for token in PCRE_ONLY):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "possible nested set" (a POSIX class): no error
            re.compile(pattern)
    except re.error as error:
        message = error.msg
        if message not in PCRE_AGREES:
            return None
        if message == "nothing to repeat":
            # Only a quantifier opening the pattern, a group or an alternative: after an
            # escape or an assertion, the engines differ on what may be repeated.
            at = error.pos or 0
            return message if at == 0 or pattern[at - 1] in "(|" else None
        return message
    except (OverflowError, RecursionError, ValueError):
        return None
    return None


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    config = node.config
    if not isinstance(config, dict) or not is_condition(ctx, node):
        return
    operator = config.get("operator")
    if not isinstance(operator, str) or not operator:
        return
    if operator not in OPERATORS:
        path = (*CONFIG_PATH, "operator")
        located = node.editor.locate(path) if node.editor is not None else None
        yield RULE.finding(
            located.value if located is not None else node.anchor,
            f"operator '{short_text(operator)}' of {node.display} is none of "
            f"{', '.join(OPERATORS)}: the save is refused",
            node=node.id,
            fixes=replacement_fixes(node, path, operator, OPERATORS),
            key="operator",
        )
        return
    pattern = config.get("matchText")
    if operator != "regex" or not isinstance(pattern, str):
        return
    error = pattern_error(pattern)
    if error is None:
        return
    located = node.editor.locate((*CONFIG_PATH, "matchText")) if node.editor else None
    yield RULE.finding(
        located.value if located is not None else node.anchor,
        f"the regex pattern of {node.display} cannot be compiled ({error}): the node fails "
        "each time it runs",
        severity=Severity.WARNING,
        node=node.id,
        key="matchText",
    )


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "A condition node (`if_else`) compares its input with `config.matchText` by one of six "
    "operators: `equals`, `not_equals`, `contains`, `starts_with`, `ends_with`, `regex`. The "
    "store refuses any other operator (spec LANG-28), an error. With `regex`, a pattern that "
    "cannot be compiled fails the node each time it runs: reported as a warning where Python "
    "and PHP's PCRE agree it is broken (an unclosed group or set, a quantifier with nothing "
    "to repeat), never otherwise. The fix writes the operator meant when it is one of the six "
    "spelt differently (`Not Equals`).",
    failing="""\
{
  "nodes": [
    {"id": "check", "type": "if_else", "data": {"label": "Found?",
      "config": {"operator": "Not Equals", "matchText": ""}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "check", "type": "if_else", "data": {"label": "Found?",
      "config": {"operator": "not_equals", "matchText": ""}}}
  ],
  "edges": []
}
""",
)
