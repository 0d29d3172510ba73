"""FD-NODE-TYPE-KEY: a key a node-type definition (or one of its parameters or outputs) does not
have.

A config entity keeps the properties its type exports and nothing else: Drupal's import drops
any other key of the file without a word, so a misspelt `executor_pluign` or `tool_exposd` is a
type that silently lost what it said (no executor, not a tool). The keys known are those of a
FlowDrop 1.0 definition as Drupal exports it — every key the 90 definitions of a real site write
(tests/corpus/atelier-cms; `DEFINITION_KEYS`, core/domain/node_types.py) — and, in a
parameter's entry, its gate flags, `default` and an inline `schema`; in an output's, its
exposure flags. A key of the pre-1.0 format (`version`, `inputs`, `config`, `config_schema`,
`color`) beside `parameters` is a leftover FlowDrop 1.0 reads nothing from (a definition in that
format altogether is FD-NODE-TYPE-LEGACY's, not judged here).

A key a few typed letters from a known one (core/text/suggestions.py) says which it may mean,
with a fix writing that key (when the definition does not hold it already); every unknown key
has a fix removing it. Both are unsafe: a renamed key starts to count, which changes what the
type does, and a removal loses what the author wrote.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from flowdrop_lsp.core.domain.node_types import (
    DEFINITION_KEYS,
    LEGACY_KEYS,
    OUTPUT_KEYS,
    PARAMETER_KEYS,
    is_legacy_format,
)
from flowdrop_lsp.core.findings import Finding, Fix, Severity
from flowdrop_lsp.core.rules.base import NodeTypeContext, Rule
from flowdrop_lsp.core.syntax.tree import JMember, JObject
from flowdrop_lsp.core.text.positions import Span
from flowdrop_lsp.core.text.suggestions import close_names, did_you_mean

RULE = Rule(
    "FD-NODE-TYPE-KEY",
    "Unknown key in a node-type definition",
    Severity.WARNING,
    "A node-type definition, or one of its parameters or outputs, has a key FlowDrop does not "
    "read: Drupal's import drops it (a misspelt key is a setting lost).",
)


def check_node_type(ctx: NodeTypeContext) -> Iterator[Finding]:
    top = ctx.top
    if top is None or is_legacy_format(top):
        return
    for member in top.members:
        key = member.key.value
        if key in DEFINITION_KEYS:
            continue
        if key in LEGACY_KEYS:
            why = f"'{key}' is a key of the pre-1.0 format: FlowDrop 1.0 reads nothing from it"
            yield _finding(ctx, top, member, why, ())
        else:
            yield _finding(ctx, top, member, None, DEFINITION_KEYS, "the definition")
    for section, kind, known in (
        ("parameters", "parameter", PARAMETER_KEYS),
        ("outputs", "output", OUTPUT_KEYS),
    ):
        entries = top.get(section)
        for entry in entries.members if isinstance(entries, JObject) else ():
            if not isinstance(entry.value, JObject):
                continue  # FD-NODE-TYPE-ENTRY's
            for member in entry.value.members:
                if member.key.value not in known:
                    where = f"{kind} '{entry.key.value}'"
                    yield _finding(ctx, entry.value, member, None, known, where)


def _finding(
    ctx: NodeTypeContext,
    holder: JObject,
    member: JMember,
    said: str | None,
    known: Sequence[str],
    where: str = "the definition",
) -> Finding:
    key = member.key.value
    span = Span(member.key.start, member.key.end)
    meant = [name for name in close_names(key, known) if holder.member(name) is None]
    fixes: list[Fix | None] = []
    if said is None:
        said = f"{where} has no key '{key}': Drupal's import drops it"
        if meant:
            said += f" ({did_you_mean([repr(name) for name in meant])})"
    for name in meant:
        fixes.append(
            ctx.key_renaming(
                span,
                name,
                f"Rename '{key}' to '{name}'",
                f"the node type's key '{key}', renamed: what it holds starts to count",
            )
        )
    fixes.append(
        ctx.removal(
            holder,
            key,
            f"Remove '{key}'",
            f"removes the node type's key '{key}' and what it holds",
        )
    )
    return RULE.finding(span, said, fixes=tuple(fix for fix in fixes if fix is not None))


EXPLANATION = RULE.explained(
    "A node type is a config entity: Drupal keeps the properties its type exports and drops "
    "any other key of the file on import, without a word. A misspelt `executor_pluign` is a "
    "type with no executor, a misspelt `tool_exposd` one that is no tool. The keys known are "
    "those of a FlowDrop 1.0 definition as Drupal exports it, and in a parameter its gate "
    "flags, `default` and `schema`, in an output its exposure flags. A key a few letters from "
    "a known one is offered renamed; any unknown key may be removed. Both fixes are unsafe: a "
    "renamed key starts to count, a removed one loses what was written.",
    failing="""\
id: web_search
label: 'Web Search'
parameters:
  query:
    configurable: false
    connectable: true
    requried: true
outputs:
  results:
    exposed: true
executor_plugin: 'flowdrop_node_processor:web_search'
tool_exposd: true
""",
    passing="""\
id: web_search
label: 'Web Search'
parameters:
  query:
    configurable: false
    connectable: true
    required: true
outputs:
  results:
    exposed: true
executor_plugin: 'flowdrop_node_processor:web_search'
tool_exposed: true
""",
    file_name="flowdrop_node_type.flowdrop_node_type.web_search.yml",
)
