"""The incremental engine gives exactly the findings of a from-scratch analysis, after every edit.

A hypothesis state machine applies LSP-style edit sequences to workflow documents — label
edits, node and edge insertion and deletion, retargeting edges into and out of toolboxes,
toolbox chains and cycles, cut and paste of blocks, edits that break the JSON and later repair
it, half-typed elements (a node or an edge typed a few characters at a time in the middle of its
array, a deleted brace, an unterminated string, a stray comma), several changes at once — and
after EVERY step compares the incremental state's findings
(codes, severities, messages, ranges, related locations, fixes) with a from-scratch analysis
of the same text. `--slow` runs many more examples.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from tests.support.engine import (
    STEPS,
    IncrementalEqualsScratch,
)


@pytest.mark.hypothesis
def test_incremental_equals_from_scratch(request) -> None:
    examples = 400 if request.config.getoption("--slow") else 40
    run = settings(
        max_examples=examples,
        stateful_step_count=20,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )(IncrementalEqualsScratch)
    run.TestCase().runTest()
    print(STEPS)
    # The comparison proves something only if many steps took the incremental path, broken
    # ones included (syntax errors inside the arrays stay local). Over runs of 40 examples the
    # share varies with the start documents and the mix of edits drawn (runs showed 40-65 %
    # incremental, 12-32 % incremental with a syntax error): the bars are well below, so that
    # they fail when locality is lost rather than by chance.
    assert STEPS["incremental"] > STEPS["all"] * 0.25, STEPS
    assert STEPS["broken_incremental"] > STEPS["all"] * 0.05, STEPS
