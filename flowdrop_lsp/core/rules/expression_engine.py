"""LANG-2: a node's expression engine must be one the implementation provides (spec
rules/LANG-2.yml: a workflow naming another is refused when saved, and again when the parameter
is resolved).

A node selects its engine with the reserved `engine` parameter (the spec glossary: reserved on
every node), so any node's `config.engine` is judged, whatever its type. The engines are the
four the spec's glossary names, FlowDrop's own (`KNOWN_ENGINES`, data: a runtime with more
would list them there). Names are compared exactly. An absent, null or empty engine is unset
(the type's default applies, R6.i); a value of another type is skipped (the schema's).

Fix: the engine meant, when the value is one of them in another spelling (`JSONPath`,
`property-path`: safe, preferred); else the close ones (unsafe, several: each changes what the
expressions mean). Kept per node (`scoped_findings`)."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.remedies import change_at, fix_from
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped
from flowdrop_lsp.core.text.suggestions import alike_names

RULE = Rule(
    "LANG-2",
    "Unknown expression engine",
    Severity.ERROR,
    "A node's `config.engine` names no expression engine FlowDrop provides (`jsonpath`, "
    "`property_path`, `expression_language`, `twig`): the save is refused.",
    spec_ids=("LANG-2",),
)
KNOWN_ENGINES: tuple[str, ...] = ("jsonpath", "property_path", "expression_language", "twig")
ENGINE_PATH = ("data", "config", "engine")


def spelt_alike(value: str, choices: tuple[str, ...]) -> str | None:
    """The one choice `value` is in another spelling: case, `-` or blanks for `_`."""
    normal = "_".join(value.strip().lower().replace("-", " ").split())
    squeezed = normal.replace("_", "")
    found = [c for c in choices if c == normal or c.replace("_", "") == squeezed]
    return found[0] if len(found) == 1 else None


def replacement_fixes(
    node: Node, path: tuple[str | int, ...], value: str, choices: tuple[str, ...]
) -> tuple[Fix, ...]:
    """The fixes writing one of `choices` over the value at `path` (see the module): the
    member's value set in the mapping holding it, written in place in its own style."""
    located = node.editor.locate(path) if node.editor is not None else None
    key = path[-1]
    if located is None or not isinstance(key, str):
        return ()
    alike = spelt_alike(value, choices)
    if alike is not None:
        return _written(node, path[:-1], key, (alike,), preferred=True)
    close = alike_names(value.lower(), choices, cutoff=0.6)
    return _written(node, path[:-1], key, tuple(close), preferred=False)


def _written(
    node: Node,
    holder: tuple[str | int, ...],
    key: str,
    choices: tuple[str, ...],
    *,
    preferred: bool,
) -> tuple[Fix, ...]:
    fixes: list[Fix] = []
    for choice in choices:
        operation = change_at(node, holder, {key: choice})
        fix = (
            fix_from(
                f"Write '{choice}'",
                [(node, operation)],
                preferred=preferred,
                applicability=Applicability.SAFE if preferred else Applicability.UNSAFE,
            )
            if operation is not None
            else None
        )
        if fix is not None:
            fixes.append(fix)
    return tuple(fixes)


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    config = node.config
    if not isinstance(config, dict):
        return
    engine = config.get("engine")
    if not isinstance(engine, str) or not engine or engine in KNOWN_ENGINES:
        return
    located = node.editor.locate(ENGINE_PATH) if node.editor is not None else None
    yield RULE.finding(
        located.value if located is not None else node.anchor,
        f"engine '{short_text(engine)}' of {node.display} is no expression engine FlowDrop "
        f"provides ({', '.join(KNOWN_ENGINES)}): the save is refused",
        node=node.id,
        fixes=replacement_fixes(node, ENGINE_PATH, engine, KNOWN_ENGINES),
        key="engine",
    )


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "A node that evaluates expressions chooses its engine with the reserved `engine` "
    "parameter; its values are exactly the engines FlowDrop provides: `jsonpath` and "
    "`property_path` (paths into data), `expression_language` (calculations) and `twig` "
    "(templates). The store refuses any other name (spec LANG-2). The fix writes the engine "
    "meant when the name is one of them spelt differently (`JSONPath`), else offers the close "
    "ones.",
    failing="""\
{
  "nodes": [
    {"id": "pick", "type": "data_extractor", "data": {"label": "Pick",
      "config": {"engine": "JSONPath", "path": "$.results[0].name"}}}
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
