"""Cap exploding output (issue 10 §5): past a bound, one summary finding instead of thousands.

A document with a million bad `edges` items or a million duplicate edges would otherwise give a
million findings: tens of megabytes of CLI output and an editor that chokes on the diagnostics.
Past `FINDINGS_PER_GROUP` findings of one group (a rule's code; FD-SCHEMA per array), the first
ones by position are kept and one summary finding of the same code says how many more there are.
The cap is decided on the whole set of findings each time they are collected, so an edit that
fixes one item changes the count exactly as a from-scratch analysis would.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TypeVar

from flowdrop_lsp.core.findings import Finding

T = TypeVar("T")

FINDINGS_PER_GROUP = 100
# CMP-9 already bounds its own findings (consumers and colliding names per finding, and a
# summary past many colliding pairs); each of its findings is about a different tool name.
UNCAPPED_CODES = frozenset({"CMP-9"})


def schema_array_group(finding: Finding) -> Hashable:
    """FD-SCHEMA findings are capped per array (`nodes[3].id: …` → "nodes"), the rest per code."""
    if finding.code == "FD-SCHEMA":
        head = finding.message.split(":", 1)[0]
        return (finding.code, head.split("[", 1)[0] if "[" in head else head)
    return finding.code


def cap_with_summary(
    findings: Iterable[Finding],
    *,
    limit: int = FINDINGS_PER_GROUP,
    group_of: Callable[[Finding], Hashable] = schema_array_group,
    resolve: Callable[[Finding], Finding] = lambda finding: finding,
) -> list[Finding]:
    """`findings`, each group cut to its first `limit` by position plus one summary finding
    (anchored on the first finding left out) that counts the rest. Below the cap, unchanged.

    `resolve` makes a finding's spans absolute; it is applied to the findings kept only (the
    order is decided on resolved main spans), since a million findings left out need not be
    copied with their related locations and fixes first."""
    groups: dict[Hashable, list[Finding]] = {}
    kept: list[Finding] = []
    for finding in findings:
        if finding.code in UNCAPPED_CODES:
            kept.append(resolve(finding))
        else:
            groups.setdefault(group_of(finding), []).append(finding)
    for group, members in groups.items():
        # A rule may have capped itself already (`first_with_summary`): its summary's count
        # joins the count of the findings cut here, in one summary.
        summaries = [m for m in members if _capped(m)]
        if not summaries and len(members) <= limit:
            kept.extend(map(resolve, members))
            continue
        listed = sorted((m for m in members if not _capped(m)), key=_resolved_sort_key)
        kept.extend(map(resolve, listed[:limit]))
        left_out = sum(_capped(m) for m in summaries) + max(0, len(listed) - limit)
        first_left_out = min([*listed[limit : limit + 1], *summaries], key=_resolved_sort_key)
        kept.append(_summary(resolve(first_left_out), left_out, limit, group))
    return kept


def first_with_summary(
    items: Sequence[T], finding_of: Callable[[T], Finding], limit: int = FINDINGS_PER_GROUP
) -> Iterator[Finding]:
    """The findings of the first `limit` of `items` (in document order), then one summary
    counting the rest: for a rule whose findings are costly to make (R13 re-reads each edge
    for its span), so that a million of them are never made."""
    for item in items[:limit]:
        yield finding_of(item)
    if len(items) > limit:
        first_left_out = finding_of(items[limit])
        yield _summary(first_left_out, len(items) - limit, limit, first_left_out.code)


def _capped(finding: Finding) -> int:
    return int(dict(finding.extra).get("capped", 0)) if finding.extra else 0


def _resolved_sort_key(finding: Finding) -> tuple[int, int, str, str]:
    span = finding.span.resolve()
    return (span.start, span.end, finding.code, finding.message)  # as Finding.sort_key


def _summary(first_left_out: Finding, left_out: int, limit: int, group: Hashable) -> Finding:
    where = f" in `{group[1]}`" if isinstance(group, tuple) else ""
    return replace(
        first_left_out,
        message=(
            f"… and {left_out:,} more {first_left_out.code} findings{where} from here on "
            f"(only the first {limit:,} are listed one by one)"
        ),
        node=None,
        related=(),
        fixes=(),
        extra=(("capped", left_out),),
    )
