"""R6.c: a key in a node's config that its node type's derived config schema does not hold
(spec rules/R6.c.yml).

The save is not refused: the value is ignored at execution, which is what the warning says
(often a misspelt or renamed parameter, whose intended value then never arrives). The derived
config schema (SCH-2/3) holds the type's *configurable* parameters only — a parameter whose
`configurable` flag is false or not recorded (CFG-1) takes no config, and CFG-5 ignores a
value given for it — plus the keys FlowDrop writes into a node's config itself
(`EDITOR_CONFIG_KEYS`, each with where it comes from): `instanceTitle` and
`instanceDescription` (SCH-21) and `instanceBadge` (the editor's own) on every node,
`maxRetries` and `ports` (SCH-21: an executable node's; taken as written everywhere, as a type's
config does not always tell), `requiresConfirmation` (the editor's confirmation switch, which
RT-GATE-8 judges) and `nodeType`. SCH-20 writes `nodeType` into the schema only where the type
supports more than one visual type, but the editor reads it on every node and a real 1.0-alpha
site writes it (`nodeType: default`) on types that support one: it is never an unknown key, and
a value outside the visual types the type offers is SCH-20's to report, never this rule's too.
On the real site (15 workflows, 90 node types) none of these is reported. Only for a node whose type the site defines (R6.j: without a
derived schema nothing is judged).

Fixes, in order. When the key is close to a key of the derived schema the config does not hold
yet (`close_config_keys`: the same letters but for case and `_`/`-`, `max_tokens` for
`maxTokens`, else a difflib match, `maxTokes`), the message asks "did you mean 'maxTokens'?"
and the key is renamed in place, its value and the file's style kept (only the key's token is
rewritten, as a label is: JSON escaping, YAML's quoting). The rename is safe and preferred when
it is the key's one candidate, a plain slip (`typo_of`: the same but for case and separators,
or a letter or two off in a name of six letters or more — `mode` may not mean `model`), and no
other unknown key of the node is close to that candidate (two renames to one key would write it
twice, and `--fix` applies every safe fix of a run); it is unsafe otherwise, one per candidate. Last, removing the key — unsafe, never preferred:
removing it loses the value."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition
from flowdrop_lsp.core.domain.remedies import fix_from, node_ref
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity, later
from flowdrop_lsp.core.operations import Update
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped
from flowdrop_lsp.core.text.positions import Span
from flowdrop_lsp.core.text.suggestions import alike_names, did_you_mean, likeness

RULE = Rule(
    "R6.c",
    "Config key the node type does not declare",
    Severity.WARNING,
    "A key in a node's config is no parameter of its node type (nor one of the editor's own "
    "settings): its value is ignored at execution.",
    spec_ids=("R6.c",),
)
CONFIG_PATH = ("data", "config")
# The keys FlowDrop writes into a node's config beside its type's parameters, and where each
# comes from. None is ever an unknown key; what their values may be is other rules' (SCH-20 for
# `nodeType`, RT-GATE-8 for `requiresConfirmation`, R7/R10 read `ports`). "The editor" is
# FlowDrop's editor, flowdrop-io/flowdrop: its `NodeConfig` "Reserved Property Names"
# (libs/flowdrop/src/lib/schemas/v1/workflow.schema.json) and the node components reading them
# (libs/flowdrop/src/lib/components/nodes/*.svelte, components/UniversalNode.svelte).
EDITOR_CONFIG_KEYS: dict[str, str] = {
    "instanceTitle": "injected into every node's config schema (SCH-21); the editor's title",
    "instanceDescription": (
        "injected into every node's config schema (SCH-21); the editor's description"
    ),
    # Not in the spec: the editor's reserved property, read by components/nodes/ToolNode.svelte.
    "instanceBadge": "the editor's badge of a node (its reserved property instanceBadge)",
    # SCH-20 injects it only where the type supports more than one visual type, but the editor
    # reads it on every node (UniversalNode.svelte, resolveNodeType in utils/nodeTypes.ts) and a
    # real 1.0-alpha site writes `nodeType: default` on types supporting one.
    "nodeType": "the node's visual type, which the editor reads on every node (SCH-20)",
    # SCH-21 injects both into an executable node's schema only; whether a type is executable
    # is not always in its config (an executor may be found by the type's id), so they are
    # taken as written on every node: no warning we cannot stand by.
    "maxRetries": "injected into an executable node's config schema (SCH-21)",
    "ports": "the node's port exposure overrides, injected into an executable node's (SCH-21)",
    # Not in the editor's sources: FlowDrop's Drupal side writes it on any node (71 nodes of
    # the real site); the instance's confirmation switch (RT-GATE-8).
    "requiresConfirmation": "the node's confirmation switch (RT-GATE-8)",
}


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    catalog = ctx.settings.node_type_catalog
    definition = catalog.get(node.type_id) if catalog is not None else None
    config = node.config
    if definition is None or node.id is None or not isinstance(config, dict):
        return
    if definition.legacy_format:
        return  # a pre-1.0 type's `config:` block holds some defaults; its schema is in code
    declared = config_schema_keys(definition)
    unknown = [key for key in config if key not in declared]
    if not unknown:
        return
    # Removing every key at once would leave no mapping at all in Drupal's YAML (`config:`
    # alone is null, which FlowDrop refuses, R6.a; each removal is written as if alone): when
    # all of several keys are unknown, the first keeps no removal. A lone unknown key's removal
    # writes the empty mapping itself (`config: {  }`).
    kept_back = unknown[0] if len(unknown) > 1 and len(unknown) == len(config) else None
    free = declared - config.keys()
    candidates = {key: close_config_keys(key, free) for key in unknown}
    wanted = [candidate for close in candidates.values() for candidate in close]
    for key in unknown:
        anchor = _key_span(node, key) or node.anchor
        close = candidates[key]
        # Safe only for a plain slip (`typo_of`) that no other unknown key could take the same
        # name by (two renames to one name would write it twice).
        sure = len(close) == 1 and wanted.count(close[0]) == 1 and typo_of(key, close[0])
        guess = f"; {_did_you_mean(close)}" if close else ""
        yield RULE.finding(
            anchor,
            f"config key '{short_text(key)}' of {node.display} is not a parameter of node type "
            f"'{short_text(definition.id)}': its value is ignored at execution{guess}",
            node=node.id,
            # Made for the findings kept only (a generated workflow may have thousands).
            later_fixes=later(partial(_fixes, node, key, close, sure, key != kept_back)),
            key=key,
        )


# How close (difflib ratio of the folded names) a schema key must be to be offered for a key;
# how close, and how long, to be renamed without review (`typo_of`).
CLOSE = 0.75
SURE = 0.8
SURE_LENGTH = 6


def _folded(name: str) -> str:
    """A key as a near miss reads alike: case, `_`, `-` and spaces left out (`max_tokens`,
    `MaxTokens` and `maxTokens` are one)."""
    return "".join(c for c in name.casefold() if c not in "_- ")


def close_config_keys(key: str, schema_keys: frozenset[str] | set[str]) -> tuple[str, ...]:
    """The keys of `schema_keys` that `key` most likely means, closest first: those that differ
    only in case and separators when there are any, else the close ones (difflib, as the other
    "did you mean"s)."""
    by_folded: dict[str, list[str]] = {}
    for name in sorted(schema_keys):
        by_folded.setdefault(_folded(name), []).append(name)
    folded = _folded(key)
    if folded in by_folded:
        return tuple(by_folded[folded])
    close = alike_names(folded, by_folded, cutoff=CLOSE)
    return tuple(name for near in close for name in by_folded[near])


def typo_of(key: str, name: str) -> bool:
    """Whether `key` is `name` with a slip of the keyboard: the same but for case and
    separators, or a letter or two off in a name long enough that another word is unlikely
    (`maxTokes`, `timout`). A short key close to a parameter may be another word (`mode` and
    `model`, `text` and `next`): its rename is offered for review only."""
    folded, wanted = _folded(key), _folded(name)
    if folded == wanted:
        return True
    ratio = likeness(folded, wanted)
    return ratio >= SURE and min(len(folded), len(wanted)) >= SURE_LENGTH


def _did_you_mean(names: tuple[str, ...]) -> str:
    return did_you_mean([f"'{short_text(name)}'" for name in names])


def config_schema_keys(definition: NodeTypeDefinition) -> frozenset[str]:
    """The keys a node's config may hold: its type's configurable parameters (the derived
    config schema, SCH-2/3) and the keys FlowDrop writes itself (`EDITOR_CONFIG_KEYS`)."""
    keys = {spec.name for spec in definition.parameters if spec.configurable is True}
    return frozenset(keys | EDITOR_CONFIG_KEYS.keys())


def _key_span(node: Node, key: str) -> Span | None:
    """Where `config.<key>` is written: from what the whole read kept of the node's config
    keys, else (a node the fast path read) by re-reading its element."""
    known = node.config_keys
    if known is not None:
        return known.get(key)
    located = node.editor.locate((*CONFIG_PATH, key)) if node.editor is not None else None
    return located.key if located is not None else None


def _fixes(
    node: Node, key: str, close: tuple[str, ...], sure: bool, removable: bool
) -> tuple[Fix, ...]:
    """The renames to the close keys (the one sure rename safe and preferred), then the removal."""
    fixes: list[Fix] = []
    config = node.config if isinstance(node.config, dict) else {}
    for name in close:
        if key not in config:
            break
        # The member renamed, its value kept: the key's token is rewritten in its own style
        # (a YAML plain key stays plain), the value untouched (core.engine.rendering).
        rename = fix_from(
            f"Rename '{short_text(key)}' to '{short_text(name)}'",
            [(node, Update.of(node_ref(node), "config", {name: config[key]}, unset=(key,)))],
            preferred=sure,
            applicability=Applicability.SAFE if sure else Applicability.UNSAFE,
        )
        if rename is not None:
            fixes.append(rename)
    if removable:
        fixes.extend(_removal_fix(node, key))
    return tuple(fixes)


def _removal_fix(node: Node, key: str) -> tuple[Fix, ...]:
    removal = fix_from(
        f"Remove '{short_text(key)}'",
        [(node, Update.of(node_ref(node), "config", unset=(key,)))],
        applicability=Applicability.UNSAFE,
        destructive=f"the setting '{short_text(key)}' and its value are deleted",
    )
    return () if removal is None else (removal,)


SCOPED = Scoped(RULE.code, node_check=check_node, node_types=True)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXAMPLE_NODE_TYPE = """\
id: http_request
parameters:
  url:
    configurable: true
    required: false
  timeout:
    configurable: true
    required: false
    default: 30
"""

EXPLANATION = RULE.explained(
    "A node's config holds the values of its node type's configurable parameters (a "
    "parameter whose `configurable` flag is false or not recorded takes none), and the keys "
    "FlowDrop writes itself: `instanceTitle`, `instanceDescription`, `instanceBadge`, "
    "`requiresConfirmation` and the visual type `nodeType` (SCH-20 judges its value) on every "
    "node, `maxRetries` and `ports` on an executable one (accepted on every node: a type's "
    "config does not always say whether it is). Any "
    "other key is stored but ignored at execution: most often a misspelt or renamed "
    "parameter, whose value then never reaches the node. Only for nodes of a type the site "
    "defines. When the key is close to a key the config does not hold yet (`timout` for "
    '`timeout`; `max_tokens` or `MaxTokens` for `maxTokens`), the message asks "did you mean '
    "'timeout'?\" and the fix renames the key in place, its value and the file's layout kept. "
    "`--fix` applies the rename when it is the only candidate, a plain slip (case and `_`, or a "
    "letter or two off in a name of six letters or more: `mode` may not mean `model`), and no "
    "other unknown key of the node is close to the same one (two renames would write the key "
    "twice); otherwise the editor offers each rename for review. Removing the key (its value lost) is the last, "
    "unsafe choice.",
    failing="""\
{
  "nodes": [
    {"id": "fetch", "type": "http_request", "data": {"label": "Fetch",
      "config": {"url": "https://example.com/feed", "timout": 5}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "fetch", "type": "http_request", "data": {"label": "Fetch",
      "config": {"url": "https://example.com/feed", "timeout": 5, "maxRetries": 2}}}
  ],
  "edges": []
}
""",
    site_node_types=(EXAMPLE_NODE_TYPE,),
)
