"""What settings cost, counted (never timed): parsing tens of thousands of rule codes is linear
and names a few of the unknown ones, not each; a table of thousands of `per-file-ignores` globs
compiles each glob at most once, and a file is matched only against the globs that can match it.
Measured numbers: docs/performance.md."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePath
from typing import Any

import pytest

from flowdrop_lsp.core.config import globs
from flowdrop_lsp.core.config import settings as settings_module
from flowdrop_lsp.core.config.globs import GlobIndex, is_excluded
from flowdrop_lsp.core.config.settings import MAX_UNKNOWN_REPORTED, Settings, SettingsError
from flowdrop_lsp.core.workspace.resolver import RULE_CODES


class Counter:
    """Wraps a function, counting its calls."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.function(*args, **kwargs)


@pytest.fixture
def close_matches(monkeypatch: pytest.MonkeyPatch) -> Counter:
    # The search for a near miss (core/text/suggestions.py), as the settings call it.
    counter = Counter(settings_module.alike_names)
    monkeypatch.setattr(settings_module, "alike_names", counter)
    return counter


def _parse(values: dict[str, Any]) -> tuple[Settings, list[str]]:
    problems: list[str] = []
    return Settings().with_overrides(values, rule_codes=RULE_CODES, problems=problems), problems


@pytest.mark.parametrize(
    "values",
    [
        lambda n: {"ignore": [f"X-{i}" for i in range(n)] + ["CMP-9"]},
        lambda n: {"severity": {f"X-{i}": "hint" for i in range(n)} | {"CMP-9": "hint"}},
        lambda n: {"per-file-ignores": {f"d{i}/**": [f"X-{i}", "CMP-9"] for i in range(n)}},
        lambda n: {f"unknown-key-{i}": 1 for i in range(n)} | {"ignore": ["CMP-9"]},
    ],
    ids=["ignore", "severity", "per-file-ignores", "keys"],
)
def test_unknown_codes_and_keys_cost_a_few_suggestions_not_one_each(
    close_matches: Counter, values: Callable[[int], dict[str, Any]]
) -> None:
    found = {}
    for n in (20_000, 40_000):
        close_matches.calls = 0
        settings, problems = _parse(values(n))
        assert (
            "CMP-9" in settings.ignore
            or "CMP-9" in settings.severity
            or any("CMP-9" in codes for _, codes in settings.per_file_ignores)
        )
        found[n] = (close_matches.calls, len(problems))
        assert problems[-1].startswith(f"{n - MAX_UNKNOWN_REPORTED} more unknown")
    # The same few suggestions and one summary, for 20,000 unknowns as for 40,000.
    assert found[20_000] == found[40_000] == (MAX_UNKNOWN_REPORTED, MAX_UNKNOWN_REPORTED + 1)


def test_known_codes_cost_no_suggestion(close_matches: Counter) -> None:
    settings, problems = _parse({"ignore": list(RULE_CODES) * 1000})
    assert settings.ignore == frozenset(RULE_CODES)
    assert (problems, close_matches.calls) == ([], 0)


def test_a_few_unknowns_are_each_named_and_a_repeated_one_once() -> None:
    _, problems = _parse({"ignore": ["CMP9", "XYZZY", "CMP9"], "ignroe": []})
    assert len(problems) == 3
    assert any("'CMP9'" in p and "did you mean 'CMP-9'?" in p for p in problems)
    assert not [p for p in problems if "more" in p]


def test_the_strict_policy_names_a_few_unknowns_and_counts_the_rest() -> None:
    with pytest.raises(SettingsError) as raised:
        Settings().with_overrides({"ignore": [f"X-{i}" for i in range(500)]}, rule_codes=RULE_CODES)
    message = str(raised.value)
    assert message.count("unknown rule code '") == MAX_UNKNOWN_REPORTED
    assert f"{500 - MAX_UNKNOWN_REPORTED} more unknown rule codes in 'ignore'" in message


# ----- per-file-ignores globs ----------------------------------------------------------------------
class CountingMatcher:
    def __init__(self, matcher: Any, counts: dict[str, int]) -> None:
        self.matcher = matcher
        self.counts = counts

    def match(self, path: str) -> bool:
        self.counts["matched"] += 1
        return bool(self.matcher.match(path))


@pytest.fixture
def glob_work(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many globs were compiled and how many times a compiled glob was matched."""
    counts = {"compiled": 0, "matched": 0}
    compile_one = globs._compile

    def counting(pattern: str) -> CountingMatcher:
        counts["compiled"] += 1
        return CountingMatcher(compile_one(pattern), counts)

    monkeypatch.setattr(globs, "_compile", counting)
    return counts


PATH = PurePath("/ws/project/legacy/old.flowdrop.json")
BASE = PurePath("/ws/project")


@pytest.mark.parametrize("shape", ["dir{}/**/*.json", "**/dir{}/*.json", "src/**/x{}.json"])
def test_a_file_is_matched_only_against_the_globs_that_can_match_it(
    glob_work: dict[str, int], shape: str
) -> None:
    # Globs with a plain name in them: only those naming one of the file's own segments are
    # looked at, however many there are.
    for n in (20_000, 40_000):
        glob_work.update(compiled=0, matched=0)
        patterns = [shape.format(i) for i in range(n)] + ["legacy/**", "**/old.*"]
        index = GlobIndex(patterns)
        assert index.matching(PATH, BASE) == [n, n + 1]
        assert glob_work["compiled"] == 2
        assert glob_work["matched"] <= 2 * 3  # the two globs, against the file and its 2 folders


def test_globs_without_a_plain_name_are_compiled_once_each(glob_work: dict[str, int]) -> None:
    work = {}
    for n in (500, 1000):
        glob_work.update(compiled=0, matched=0)
        index = GlobIndex([f"**/*{i}.json" for i in range(n)] + ["**/legacy/**"])
        assert index.matching(PATH, BASE) == [n]
        first = dict(glob_work)
        assert index.matching(PurePath("/ws/project/other/legacy/b.json"), BASE) == [n]
        work[n] = (first, glob_work["compiled"])
    # Linear in the globs: each compiled once, matched against the file and its folders.
    for n, (first, compiled) in work.items():
        assert first["compiled"] == compiled == n + 1
        assert first["matched"] <= 3 * (n + 1)


PATTERNS = [
    "legacy/**",
    "legacy",
    "legacy/*",
    "leg*/**",
    "{legacy,old}/*.json",
    "[l]egacy/*.json",
    "./legacy/a.json",
    "/legacy/a.json",
    "legacy//a.json",
    "legacy\\/a.json",
    "Legacy/**",
    "legac/**",
    ".hidden/**",
    "**/a.json",
    "**/legacy/**",
    "src/**/legacy/*.json",
    "a/**/b",
    "x/../legacy/a.json",
    "legacy/a.json/",
    "**",
    "*.json",
    "**/*.json",
    "legacy/sub/deep.json",
]
PATHS = [
    "legacy/a.json",
    "legacy",
    "legacy/a/b.json",
    "old/a.json",
    ".hidden/a.json",
    "x/y/a.json",
    "src/a/legacy/b.json",
    "src/legacy/b.json",
    "a/b",
    "a/x/y/b",
    "a.json",
    "legacy/sub/deep.json",
]


@pytest.mark.parametrize("base", [BASE, None])
def test_the_index_matches_as_the_plain_glob_does(base: PurePath | None) -> None:
    index = GlobIndex(PATTERNS)
    matched = 0
    for path in PATHS:
        full = BASE / path
        expected = [i for i, p in enumerate(PATTERNS) if is_excluded(full, (p,), base)]
        assert index.matching(full, base) == expected, path
        matched += len(expected)
    assert matched > len(PATHS)  # the cases do match, and not only one glob each


def test_for_file_applies_only_the_matching_globs_codes(glob_work: dict[str, int]) -> None:
    table = {f"dir{i}/**": [RULE_CODES[i % len(RULE_CODES)]] for i in range(20_000)}
    table["legacy/**"] = ["CMP-9"]
    settings = Settings().with_overrides({"per-file-ignores": table}, rule_codes=RULE_CODES)
    assert settings.for_file(PATH, BASE).ignore == frozenset({"CMP-9"})
    assert settings.for_file(BASE / "dir7" / "a.json", BASE).ignore == frozenset(
        {RULE_CODES[7 % len(RULE_CODES)]}
    )
    assert glob_work["compiled"] == 2  # legacy/** and dir7/**, nothing else
