"""R6.b: a node's config lacks a key its node type requires (spec rules/R6.b.yml).

The required list is the one the node type's *derived* config schema publishes: a parameter
declared `configurable: true` and `required: true`, minus those also declared `connectable:
true` (an edge may feed them, so they are deliberately not required in config). A parameter
whose `configurable` flag is not recorded is not configurable (CFG-1, SCH-2/3: an unrecorded
flag is false), so it is not in the config schema and cannot be required there. Required-ness
is decided from the declared flags, never from the workflow's edges (R6.b's own words), so a
node offered to an agent as a tool is judged like any other: until issue 26 such nodes were
left out, and the real site shows why that was never needed — every node of it lacking a
required parameter lacks a connectable one (15 workflows, 90 node types: no R6.b either way).
A key present with the value null counts as present (R6.i).

Out of scope: a node whose type the site does not define (no derived schema, R6.j: R9 reports
it) and a `config` that is not an object (R6.a: FD-SCHEMA reports it).

Fix, when the parameter declares a default: add the key with that default, written in the
document's own format. Safe when the default says something (it adds what the node type itself
declares); unsafe when it is empty (`''`, `[]`, `{}`, null: the type's placeholder, as
`check: ''` of the real site's policy check), since plain `--fix` would then silence the launch
error with a value that means nothing: the editor offers it, titled as what it is, and the
author fills it in. Without a default, when the parameter's schema lists the values it takes
(`enum`, of strings: the node's stored config schema, `data.metadata.configSchema`, which a
JSON export carries and Drupal's YAML does not), FlowDrop's editor offers to choose one
(`Finding.choices`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition, ParameterSpec
from flowdrop_lsp.core.domain.remedies import fix_from, node_ref
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity
from flowdrop_lsp.core.operations import PICKED, Choice, Update
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "R6.b",
    "Required config key missing",
    Severity.ERROR,
    "A node's config lacks a key its node type requires (a required parameter no edge can "
    "feed): FlowDrop refuses to save or launch the workflow.",
    spec_ids=("R6.b",),
)
LOCATOR_CODE = "R6_CONFIG_REQUIRED"
CONFIG_PATH = ("data", "config")


def required_in_config(definition: NodeTypeDefinition) -> list[ParameterSpec]:
    """The derived config schema's required keys, in the order the node type declares them."""
    return [
        spec
        for spec in definition.parameters
        if spec.required is True and spec.connectable is not True and spec.configurable is True
    ]


def spelled_default(value: Any) -> str:
    # JSON's spelling in a fix title: both formats read it (YAML is a superset for scalars).
    return short_text(json.dumps(value, ensure_ascii=False, default=str), 40)


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    catalog = ctx.settings.node_type_catalog
    definition = catalog.get(node.type_id) if catalog is not None else None
    if definition is None or node.id is None:
        return
    config = node.config if node.has_config else {}
    if not isinstance(config, dict):
        return  # R6.a (FD-SCHEMA): config that is not an object is reported once, there
    missing = [spec for spec in required_in_config(definition) if spec.name not in config]
    if not missing:
        return
    located = node.editor.locate(CONFIG_PATH) if node.editor and node.has_config else None
    anchor = located.key if located is not None and located.key is not None else node.anchor
    type_text = short_text(definition.id)
    # The defaults that say something are set together by one safe fix; an empty one by its own
    # unsafe fix (see the module's docstring).
    meaningful = _defaults_fix(node, [s for s in missing if not is_empty_default(s)])
    for spec in missing:
        key = short_text(spec.name)
        if node.has_config:
            message = (
                f"config of {node.display} lacks '{key}', which node type '{type_text}' "
                f"requires (no edge can supply it): FlowDrop refuses to launch the workflow"
            )
        else:
            message = (
                f"{node.display} has no config, and node type '{type_text}' requires its key "
                f"'{key}' (no edge can supply it): FlowDrop refuses to launch the workflow"
            )
        yield RULE.finding(
            anchor,
            message,
            node=node.id,
            fixes=_fixes_for(node, spec, meaningful),
            locator_code=LOCATOR_CODE,
            key=spec.name,
            choices=_value_choice(node, spec),
        )


def is_empty_default(spec: ParameterSpec) -> bool:
    """Whether the parameter's declared default is empty: `''` (or blank), an empty list or
    mapping, null — a placeholder the author has to fill, no value to set without review."""
    default = spec.default
    if isinstance(default, str):
        return not default.strip()
    return default is None or (isinstance(default, list | dict) and not default)


def _fixes_for(node: Node, spec: ParameterSpec, meaningful: tuple[Fix, ...]) -> tuple[Fix, ...]:
    if not spec.has_default:
        return ()
    if not is_empty_default(spec):
        return meaningful
    if not node.has_config:
        return ()
    title = f"Set '{short_text(spec.name)}' to its empty default (fill it in)"
    fix = fix_from(
        title,
        [(node, Update.of(node_ref(node), "config", {spec.name: spec.default}))],
        applicability=Applicability.UNSAFE,
    )
    return () if fix is None else (fix,)


def _defaults_fix(node: Node, missing: list[ParameterSpec]) -> tuple[Fix, ...]:
    """Adding every missing key that has a declared default, in the order the node type
    declares them, as one fix: each finding of the node offers the same one (`--fix` applies it
    once), since insertions into one mapping made apart would each be written as if alone. None
    without a default, or without a config object to add to (creating `config` is left to the
    author: where it goes in `data` is a matter of the editor's layout)."""
    with_default = [spec for spec in missing if spec.has_default]
    if not with_default or not node.has_config:
        return ()
    if len(with_default) == 1:
        spec = with_default[0]
        title = f"Set '{short_text(spec.name)}' to its default {spelled_default(spec.default)}"
    else:
        names = ", ".join(f"'{short_text(spec.name)}'" for spec in with_default)
        title = f"Set {names} to their defaults"
    patch = {spec.name: spec.default for spec in with_default}
    fix = fix_from(title, [(node, Update.of(node_ref(node), "config", patch))], preferred=True)
    return () if fix is None else (fix,)


def enum_values(node: Node, key: str) -> tuple[str, ...]:
    """The values the parameter `key` takes, when its schema lists them (`enum`) and they are
    all strings (a picked value is a string): from the node's stored config schema."""
    schema = node.config_schema
    properties = schema.get("properties") if isinstance(schema, dict) else None
    spec = properties.get(key) if isinstance(properties, dict) else None
    enum = spec.get("enum") if isinstance(spec, dict) else None
    if not isinstance(enum, list) or not enum or not all(isinstance(v, str) for v in enum):
        return ()
    return tuple(dict.fromkeys(enum))


def _value_choice(node: Node, spec: ParameterSpec) -> tuple[Fix, ...]:
    """ "Choose a value for 'key'" (FlowDrop's editor only): a parameter without a default whose
    schema lists its values, one of them picked and set."""
    if spec.has_default or not node.has_config:
        return ()
    values = enum_values(node, spec.name)
    if not values:
        return ()
    return (
        Fix(
            f"Choose a value for '{short_text(spec.name)}'",
            (),
            operations=(Update.of(node_ref(node), "config", {spec.name: PICKED}),),
            choice=Choice(spec.name, tuple((value, value) for value in values)),
        ),
    )


SCOPED = Scoped(RULE.code, node_check=check_node, node_types=True)


def check(ctx: RuleContext) -> list[Finding]:
    # Kept per node, recomputed for the nodes a change reaches.
    return SCOPED.findings(ctx)


EXAMPLE_NODE_TYPE = """\
id: http_request
parameters:
  url:
    configurable: true
    connectable: false
    required: true
  method:
    configurable: true
    connectable: false
    required: true
    default: GET
  body:
    configurable: true
    connectable: true
    required: true
"""

EXPLANATION = RULE.explained(
    "FlowDrop re-validates a workflow when it is saved and launched, and refuses it when a "
    "node's config lacks a key its node type requires (`R6_CONFIG_REQUIRED` at "
    "`node.{id}.config.{key}`). The required keys are the node type's parameters declared "
    "`configurable: true` and `required: true`, except those also `connectable: true` (an edge "
    "may feed them, so config need not hold them, whether or not an edge does); a parameter "
    "whose `configurable` flag is not recorded is not configurable (CFG-1). Required-ness "
    "comes from these flags only, never from the workflow's edges: a node offered to an agent "
    "as a tool is judged like any other. A key present with the value null counts as present. "
    "Not checked: nodes of a type the site does not define. The fix, when the parameter "
    "declares a default, adds the key with it; `--fix` applies it only when the default says "
    "something. An empty default (`''`, `[]`, `{}`, null) is a placeholder: setting it would "
    'silence the error with a value that means nothing, so the editor offers it as "Set '
    "'check' to its empty default (fill it in)\" and `--fix` leaves it to the author.",
    failing="""\
{
  "nodes": [
    {"id": "fetch", "type": "http_request", "data": {"label": "Fetch",
      "config": {"url": "https://example.com/feed"}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "fetch", "type": "http_request", "data": {"label": "Fetch",
      "config": {"url": "https://example.com/feed", "method": null}}}
  ],
  "edges": []
}
""",
    site_node_types=(EXAMPLE_NODE_TYPE,),
)
