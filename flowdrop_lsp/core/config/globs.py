"""Glob matching of paths, the one way `files`, `exclude` and `per-file-ignores` are matched.

A leaf: settings (per-file-ignores) and selection (files, exclude) both use it."""

from __future__ import annotations

from collections.abc import Sequence
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


def matches_globs(path: PurePath, patterns: Sequence[str], base: PurePath | None) -> bool:
    """Whether `path` matches one of `patterns`, relative to `base`."""
    return bool(patterns) and glob.globmatch(
        relative_to(path, base), list(patterns), flags=_GLOB_FLAGS
    )


def is_excluded(path: PurePath, patterns: Sequence[str], base: PurePath | None) -> bool:
    """Whether `path` or one of its folders (below `base`) matches an exclude pattern."""
    if not patterns:
        return False
    relative = PurePath(relative_to(path, base))
    candidates = [relative, *list(relative.parents)[:-1]]  # the path, then its folders
    return any(glob.globmatch(c.as_posix(), list(patterns), flags=_GLOB_FLAGS) for c in candidates)
