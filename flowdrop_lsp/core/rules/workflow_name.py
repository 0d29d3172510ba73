"""STORE-2: a workflow must be named (spec rules/STORE-2.yml: a request that omits the name or
sends an empty one is refused, and nothing is stored).

The name is the top-level `name` of a workflow as the API exports it, and `label` in Drupal's
config (the entity's label: what the store's `name` is saved as); a document with a `label`
is judged by it, else by its `name`. Reported: a name that is empty or blank (a null `label`
too; a null `name` is FD-SCHEMA's), on its value. A missing one is not reported: hand-written documents (the spec's own examples, the
fixtures people keep beside their workflows) name nothing, often not even with an `id` beside,
and the store and Drupal always write one (reporting it would drown every other finding). A name of another type is the
schema's (FD-SCHEMA types `name` as a string). The spec's bound on its length (at least 255
code points accepted, more allowed) names no limit to judge.

No fix: the name is the author's to choose. Read from the top level kept at each whole read
(`RuleContext.top_level`): an edit there re-reads the top level."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext

RULE = Rule(
    "STORE-2",
    "Workflow without a name",
    Severity.ERROR,
    "A workflow's name (`name`; `label` in Drupal config) is empty or blank: the save is refused.",
    spec_ids=("STORE-2",),
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    top = ctx.top_level
    key = "label" if "label" in top else "name"
    member = top.get(key)
    if member is None:
        return  # unnamed: see the module (hand-written documents name nothing)
    value = member.value
    if value is None and key == "name":
        return  # a null `name`: FD-SCHEMA's (typed a string there)
    if value is not None and not (isinstance(value, str) and not value.strip()):
        return  # named (a value of another type is the schema's)
    yield RULE.finding(
        member.span, f"the workflow's {key} is empty: a workflow must be named, the save is refused"
    )


EXPLANATION = RULE.explained(
    "The store refuses a workflow without a name, on creation and on every update (spec "
    "STORE-2): the name is what a person finds it by. It is the top-level `name` of an "
    "exported workflow, and `label` in Drupal's config. An empty or blank name is reported; "
    "a missing one is not, since hand-written shorthand documents name nothing.",
    failing="""\
{
  "id": "weather",
  "name": " ",
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "id": "weather",
  "name": "Weather lookup",
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}}
  ],
  "edges": []
}
""",
)
