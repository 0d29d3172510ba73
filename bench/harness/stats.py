"""Percentiles over samples, the selections the reports make, and their number formats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from harness.session import Sample

# The edit kinds that change the graph (not a label); "structural" in a report means all of them.
STRUCTURAL = ["add_edge", "delete", "paste"]


def percentile(xs: Sequence[float], q: float) -> float | None:
    """Linear interpolation between the closest ranks (None without samples)."""
    if not xs:
        return None
    s = sorted(xs)
    k = (len(s) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def nearest_rank(values: Sequence[float], q: float) -> float:
    """The sample closest to rank q·(n−1): the p90 of the navigation and hover reports, kept
    apart from `percentile` so that their figures stay comparable with earlier runs."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def values(
    samples: list[Sample], server: str, size: int, kind: str, scenario: str = "edits"
) -> list[float]:
    """The measured ms of one server × size × kind × scenario (failures left out)."""
    kinds = STRUCTURAL if kind == "structural" else [kind]
    return [
        s.ms
        for s in samples
        if s.server == server
        and s.size == size
        and s.kind in kinds
        and s.ms is not None
        and s.scenario == scenario
    ]


def failures(
    samples: list[Sample], server: str, size: int, scenario: str = "edits"
) -> dict[str, int]:
    """status → count of the samples that were not measured (timeout, died, skipped …)."""
    out: dict[str, int] = {}
    for s in samples:
        if s.server == server and s.size == size and s.status != "ok" and s.scenario == scenario:
            out[s.status] = out.get(s.status, 0) + 1
    return out


def fmt_failures(fails: dict[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in fails.items()) or "–"


def fmt_ms(v: float | None) -> str:
    if v is None:
        return "–"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def fmt_size(n: int) -> str:
    return f"{n // 1000}k" if n % 1000 == 0 else str(n)


def fmt_ratio(v: float) -> str:
    return f"{v:.3g}×" + (f" (1/{1 / v:.0f})" if v < 0.1 else "")


def cell(xs: list[float]) -> str:
    """A latency table cell: `p50 / p90 (n)`, or – without samples."""
    if not xs:
        return "–"
    return f"{fmt_ms(percentile(xs, 0.5))} / {fmt_ms(percentile(xs, 0.9))} ({len(xs)})"
