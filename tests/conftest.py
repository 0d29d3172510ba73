"""Shared test options: `--slow` raises the number of examples of the property tests, and every
property test carries the `hypothesis` marker (`make fuzz` runs `-m hypothesis`): a `@given` test
gets it here, a test that runs a state machine itself says so with `@pytest.mark.hypothesis`
(tests/test_repository.py checks that it does).

`--clients` picks the client profiles a test parametrized by one runs under (tests/support/lsp.py
`CLIENTS`): `first` (VS Code's, the default: `make test`), `others` (every other one: `make
test-clients`) or `all`. The tests left out are deselected, and pytest's summary counts them;
`.ci/run` runs both halves, so CI runs every test under every profile."""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.internal.detection import is_hypothesis_test

from tests.support.lsp import CLIENTS

DEFAULT_EXAMPLES = 200
SLOW_EXAMPLES = 5000


CLIENT_CHOICES = ("first", "others", "all")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--clients",
        choices=CLIENT_CHOICES,
        default="first",
        help="client profiles for the LSP tests: the first (VS Code's), the others, or all",
    )
    parser.addoption(
        "--slow",
        action="store_true",
        default=False,
        help=f"run the property tests with {SLOW_EXAMPLES} examples instead of {DEFAULT_EXAMPLES}",
    )


_MADE_CACHE_HOME: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    # The servers the tests start keep their result caches in the user's cache folder when the
    # project has none (core/workspace/cache.py `editor_cache_folder`): a folder of this run's
    # own, never the developer's, so that no run reads what an earlier one wrote.
    # The process that makes it (the xdist controller, whose workers inherit the variable)
    # removes it at the end (`pytest_unconfigure`): each run used to leave one in /tmp.
    global _MADE_CACHE_HOME
    if "FLOWDROP_TEST_CACHE_HOME" not in os.environ:
        _MADE_CACHE_HOME = tempfile.mkdtemp(prefix="flowdrop-test-cache-")
        os.environ["FLOWDROP_TEST_CACHE_HOME"] = _MADE_CACHE_HOME
    os.environ["XDG_CACHE_HOME"] = os.environ["FLOWDROP_TEST_CACHE_HOME"]
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


def pytest_unconfigure(config: pytest.Config) -> None:
    if _MADE_CACHE_HOME is not None:
        shutil.rmtree(_MADE_CACHE_HOME, ignore_errors=True)


@pytest.fixture(autouse=True)
def nothing_left_frozen() -> Iterator[None]:
    """A test that opens a server document (`release_on_close`: its analysis frozen out of the
    collector's way) closes it, as the server does. One left open keeps its analysis frozen for
    the rest of the process, and every later CLI-path read then skips its move to the oldest
    generation (WorkflowDocument._load): the tests after it ran up to 40x slower (a 1.4 s
    property test took 57 s after tests/lsp)."""
    yield
    left = gc.get_freeze_count()
    if left:
        gc.unfreeze()  # the tests after this one run as they would alone
        pytest.fail(f"the test left {left} objects frozen: close the documents it opened")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if is_hypothesis_test(getattr(item, "obj", None)):
            item.add_marker(pytest.mark.hypothesis)
    chosen = config.getoption("--clients")
    if chosen == "all":
        return
    kept: list[pytest.Item] = []
    left_out: list[pytest.Item] = []
    for item in items:
        profile = client_profile(item)
        if chosen == "first":
            runs = profile is None or profile == CLIENTS[0]
        else:  # "others": only what `first` left out, so that the two halves make the whole
            runs = profile is not None and profile != CLIENTS[0]
        (kept if runs else left_out).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


def client_profile(item: pytest.Item) -> str | None:
    """The client profile a test is parametrized with, None for a test that is not (it runs with
    `first` and with `all`)."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    for value in callspec.params.values():
        if isinstance(value, str) and value in CLIENTS:
            return value
    return None
