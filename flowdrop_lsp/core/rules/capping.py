"""Cap exploding output (issue 10 §5): past a bound, one summary finding instead of thousands.

A document with a million bad `edges` items or a million duplicate edges would otherwise give a
million findings: tens of megabytes of CLI output and an editor that chokes on the diagnostics.
Past `FINDINGS_PER_GROUP` findings of one group (a rule's code, or its `Rule.cap_group`: FD-SCHEMA
per array), the first ones by position are kept and one summary finding of the same code says
how many more there are. The cap is decided on the whole set of findings each time they are
collected, so an edit that fixes one item changes the count exactly as a from-scratch analysis
would. What is capped and how is each rule's own say (`Rule.capped`, `Rule.cap_group`), read
from the registry: no rule's code is named here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.base import (
    FINDINGS_PER_GROUP,
    Rule,
    capped_count,
    resolved_sort_key,
    summary_finding,
)
from flowdrop_lsp.core.rules.registry import RULES_BY_CODE


def cap_with_summary(
    findings: Iterable[Finding],
    *,
    limit: int = FINDINGS_PER_GROUP,
    rules: dict[str, Rule] = RULES_BY_CODE,
    resolve: Callable[[Finding], Finding] = lambda finding: finding,
) -> list[Finding]:
    """`findings`, each group cut to its first `limit` by position plus one summary finding
    (anchored on the first finding left out) that counts the rest. Below the cap, unchanged.
    A code that is no rule of `rules` (a test's) is capped by its code.

    `resolve` makes a finding's spans absolute; it is applied to the findings kept only (the
    order is decided on resolved main spans), since a million findings left out need not be
    copied with their related locations and fixes first."""
    groups: dict[Hashable, list[Finding]] = {}
    kept: list[Finding] = []
    for finding in findings:
        rule = rules.get(finding.code)
        if rule is not None and not rule.capped:
            kept.append(resolve(finding))
        else:
            group_of = rule.cap_group if rule is not None else None
            group = group_of(finding) if group_of is not None else finding.code
            groups.setdefault(group, []).append(finding)
    for group, members in groups.items():
        # A rule may have capped itself already (`first_with_summary`): its summary's count
        # joins the count of the findings cut here, in one summary.
        summaries = [m for m in members if capped_count(m)]
        if not summaries and len(members) <= limit:
            kept.extend(map(resolve, members))
            continue
        listed = sorted((m for m in members if not capped_count(m)), key=resolved_sort_key)
        kept.extend(map(resolve, listed[:limit]))
        left_out = sum(capped_count(m) for m in summaries) + max(0, len(listed) - limit)
        first_left_out = min([*listed[limit : limit + 1], *summaries], key=resolved_sort_key)
        kept.append(summary_finding(resolve(first_left_out), left_out, limit, group))
    return kept
