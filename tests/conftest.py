"""Shared test options: `--slow` raises the number of examples of the property tests."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

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
    examples = SLOW_EXAMPLES if config.getoption("--slow") else DEFAULT_EXAMPLES
    settings.register_profile(
        "flowdrop",
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    settings.load_profile("flowdrop")
