"""STORE-8: a workflow's published contract version is three dot-separated non-negative
integers, never empty and never absent (spec rules/STORE-8.yml; `0.0.0` before the first build).

It is the top-level `schema_version` of Drupal's workflow config (`0.0.0` on the real site's
workflow whose contract was never built, `1.0.0` on the others). A `schema_version` that is
present and is not `N.N.N` (digits only: no sign, no pre-release or build suffix) is reported, a
warning: the store keeps it, and consumers comparing versions (a cache validator) cannot. A
missing one is not: the API's export carries no `schema_version`, and the store writes it
itself. No fix: the version is the contract build's to bump (MAN-18), not the author's."""

from __future__ import annotations

import re
from collections.abc import Iterator

from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext

RULE = Rule(
    "STORE-8",
    "Contract version not three numbers",
    Severity.WARNING,
    "A workflow's `schema_version` (its published contract version) is not three "
    "dot-separated non-negative integers such as `1.0.0`.",
    spec_ids=("STORE-8",),
)
KEY = "schema_version"
VERSION = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+")


def check(ctx: RuleContext) -> Iterator[Finding]:
    member = ctx.top_level.get(KEY)
    if member is None:
        return
    value = member.value
    if isinstance(value, str) and VERSION.fullmatch(value):
        return
    shown = f"'{short_text(value)}'" if isinstance(value, str) else short_text(repr(value))
    yield RULE.finding(
        member.span,
        f"the workflow's {KEY} {shown} is not three dot-separated non-negative integers "
        "(such as 1.0.0; 0.0.0 before its contract is first built)",
    )


EXPLANATION = RULE.explained(
    "A workflow's published contract version, `schema_version` in Drupal's config, is read by "
    "consumers that never read the contract itself, a cache validator among them: it is always "
    "three dot-separated non-negative integers, `0.0.0` before the contract's first build "
    "(spec STORE-8). Anything else (`1.0`, `v1.0.0`, an empty value) cannot be compared. A "
    "workflow without one is not reported (the API's export carries none).",
    failing="""\
{
  "id": "weather",
  "name": "Weather lookup",
  "schema_version": "1.0",
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
  "schema_version": "1.0.0",
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}}
  ],
  "edges": []
}
""",
)
