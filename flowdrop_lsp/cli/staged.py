"""`check --staged`: what the changes staged in git touch, as files to check.

A commit that deletes a called workflow, or changes only a node type, stages no workflow that
shows the damage: the callers and users do. So the staged files (added, changed, renamed or
deleted, as `git diff --cached` lists them) that are site files (Drupal workflows and node types
by name) or JSON workflows (`*.flowdrop.json`) are read here, and each site file's dependents
are asked of its site (the host): the workflows using a changed node type, the callers of a
changed or deleted workflow. The files to check are the staged files that still exist and those
dependents (pre-commit names the staged files itself). pre-commit (`.pre-commit-hooks.yaml`) runs this on every commit (`always_run`), so a
commit staging only a deletion is judged too; pre-commit has stashed what is not staged, so the
files on disk are the commit's.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from flowdrop_lsp.core.facade import Host, is_site_file

GIT_TIMEOUT_S = 60
JSON_WORKFLOW_SUFFIX = ".flowdrop.json"


class StagedError(RuntimeError):
    """git could not say what is staged (no repository, no git); the message says so."""


def _git(cwd: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, timeout=GIT_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise StagedError(f"--staged needs git: {error}") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise StagedError(
            "--staged needs a git repository: " + (said[0] if said else f"git {args[0]} failed")
        )
    return done.stdout


def staged_changes(cwd: Path) -> list[Path]:
    """The workflow and node-type files the index changes against HEAD, absolute (a rename is
    a deletion and an addition; a deleted file is listed though it is gone)."""
    top = Path(_git(cwd, "rev-parse", "--show-toplevel").decode("utf-8").strip())
    listed = _git(cwd, "diff", "--cached", "--name-only", "-z", "--no-renames").split(b"\0")
    paths = (top / name.decode("utf-8", "surrogateescape") for name in listed if name)
    return [
        path for path in paths if is_site_file(path) or path.name.endswith(JSON_WORKFLOW_SUFFIX)
    ]


def staged_paths(cwd: Path, host: Host, *, themselves: bool = True) -> list[str]:
    """The workflows of the sites of the staged files whose cross-file findings those can
    change, and (`themselves`) the staged files that exist. Raises StagedError."""
    chosen: set[Path] = set()
    for path in staged_changes(cwd):
        if themselves and path.is_file():
            chosen.add(path)
        if is_site_file(path):
            chosen.update(Path(file) for file in host.dependents(path))
    return sorted(_shown(path, cwd) for path in chosen if path.is_file())


def paths_to_check(given: list[str] | None, staged: bool, cwd: Path, host: Host) -> list[str]:
    """What `check` is asked to check: the paths given (default `.`); with `--staged`, the
    paths given (pre-commit's: the staged files its `files:` matches) and the dependents of the
    staged changes, or with no path given the staged files themselves and their dependents."""
    if staged:
        touched = staged_paths(cwd, host, themselves=not given)
        return list(dict.fromkeys([*(given or []), *touched]))
    return given or ["."]


def _shown(path: Path, cwd: Path) -> str:
    """A path as the report shows it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(cwd.resolve()))
    except ValueError:
        return str(path)
