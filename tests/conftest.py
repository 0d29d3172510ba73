"""Shared test options: `--slow` raises the number of examples of the property tests, and every
property test carries the `hypothesis` marker (`make fuzz` runs `-m hypothesis`): a `@given` test
gets it here, a test that runs a state machine itself says so with `@pytest.mark.hypothesis`
(tests/test_repository.py checks that it does)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.internal.detection import is_hypothesis_test

DEFAULT_EXAMPLES = 200
SLOW_EXAMPLES = 5000


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow",
        action="store_true",
        default=False,
        help=f"run the property tests with {SLOW_EXAMPLES} examples instead of {DEFAULT_EXAMPLES}",
    )


def pytest_configure(config: pytest.Config) -> None:
    slow = config.getoption("--slow")
    examples = SLOW_EXAMPLES if slow else DEFAULT_EXAMPLES
    settings.register_profile(
        "flowdrop",
        max_examples=examples,
        # `make test` (and CI) draws the same examples on every run, so that a red CI can be
        # reproduced anywhere and a green one is not luck; `make fuzz` (`--slow`) explores
        # fresh random examples and keeps what fails in hypothesis's database.
        derandomize=not slow,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    settings.load_profile("flowdrop")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_hypothesis_test(getattr(item, "obj", None)):
            item.add_marker(pytest.mark.hypothesis)
