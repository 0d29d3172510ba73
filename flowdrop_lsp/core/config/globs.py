"""Glob matching of paths, the one way `files`, `exclude` and `per-file-ignores` are matched.

A leaf: settings (per-file-ignores) and selection (files, exclude) both use it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from heapq import merge
from pathlib import PurePath

from wcmatch import glob

_GLOB_FLAGS = glob.GLOBSTAR | glob.DOTGLOB | glob.BRACE


def relative_to(path: PurePath, base: PurePath | None) -> str:
    """`path` as the POSIX path a glob is matched against: relative to `base` when it lies under
    it, else as it is (a glob starting with `**/` still matches it)."""
    if base is not None:
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            pass
    return path.as_posix().lstrip("/")


@lru_cache(maxsize=256)
def _matcher(patterns: tuple[str, ...]) -> glob.WcMatcher:
    """The patterns compiled once (wcmatch compiles them on every `globmatch`: expanding the
    braces alone cost a millisecond a file in a thousand-file check)."""
    return glob.compile(list(patterns), flags=_GLOB_FLAGS)


def matches_globs(path: PurePath, patterns: Sequence[str], base: PurePath | None) -> bool:
    """Whether `path` matches one of `patterns`, relative to `base`."""
    return bool(patterns) and _matcher(tuple(patterns)).match(relative_to(path, base))


def is_excluded(path: PurePath, patterns: Sequence[str], base: PurePath | None) -> bool:
    """Whether `path` or one of its folders (below `base`) matches an exclude pattern."""
    if not patterns:
        return False
    matcher = _matcher(tuple(patterns))
    return any(matcher.match(name) for name in path_and_folders(path, base))


def path_and_folders(path: PurePath, base: PurePath | None) -> list[str]:
    """What an exclude or a per-file-ignores glob is matched against: `path` relative to `base`,
    then each of its folders below `base` (a glob naming a folder covers what is in it)."""
    relative = PurePath(relative_to(path, base))
    return [candidate.as_posix() for candidate in (relative, *list(relative.parents)[:-1])]


# What makes a glob segment more than a literal name: wildcards, classes, braces, escapes (and,
# to be safe, what other wcmatch flags would read: `!`, extglob's `(|)@+`).
_MAGIC = frozenset("*?[]{}\\!()|@+")
# Where `A` does not match `a` (not Windows), a literal segment must be equal to match.
_CASE_SENSITIVE = not glob.globmatch("A", "a", flags=_GLOB_FLAGS)


def _compile(pattern: str) -> glob.WcMatcher:
    return glob.compile(pattern, flags=_GLOB_FLAGS)


def _literal_segment(pattern: str) -> str | None:
    """A segment of `pattern` that is a plain name (the last one), which every path it matches
    has among its own segments; None when it has none (`**/*.json`), or case does not count."""
    if not _CASE_SENSITIVE:
        return None
    for segment in reversed(pattern.split("/")):
        if segment not in ("", ".", "..") and _MAGIC.isdisjoint(segment):
            return segment
    return None


class GlobIndex:
    """Many globs (`per-file-ignores` may hold thousands) matched against paths as `is_excluded`
    matches one: the path or one of its folders below the base.

    A path is matched only against the globs that can match it: those with a plain segment
    (`legacy` in `**/legacy/**`, `dir1` in `dir1/**/*.json`) that is one of the path's own
    segments (looked up by name), and those with none. Each glob is compiled at its first use,
    once (compiling is what costs: wcmatch's own cache holds a few hundred), so a file costs
    the globs it may match, not the whole table."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self.patterns = tuple(patterns)
        self._by_segment: dict[str, list[int]] = {}
        self._anywhere: list[int] = []
        for index, pattern in enumerate(self.patterns):
            segment = _literal_segment(pattern)
            if segment is None:
                self._anywhere.append(index)
            else:
                self._by_segment.setdefault(segment, []).append(index)
        self._compiled: dict[int, glob.WcMatcher] = {}

    def matching(self, path: PurePath, base: PurePath | None) -> list[int]:
        """The indices, in order, of the globs matching `path` or one of its folders."""
        names = path_and_folders(path, base)
        buckets = [self._by_segment.get(segment, []) for segment in set(names[0].split("/"))]
        found = []
        for index in merge(self._anywhere, *buckets):  # each in order
            matcher = self._compiled.get(index)
            if matcher is None:
                matcher = self._compiled[index] = _compile(self.patterns[index])
            if any(matcher.match(name) for name in names):
                found.append(index)
        return found


@lru_cache(maxsize=8)
def glob_index(patterns: tuple[str, ...]) -> GlobIndex:
    """The index of `patterns`, shared by every Settings holding the same table (the CLI makes
    one per file), so that each glob is compiled once per table."""
    return GlobIndex(patterns)
