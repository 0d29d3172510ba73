"""Which files `flowdrop-lsp check` looks at.

A file named on the command line is always checked. In a directory, files matching the
configured globs (default `**/*.flowdrop.json`) are checked, and any other `*.json` file is
checked when its content is a workflow (a top-level object with `nodes` or `edges`); the rest
are skipped, each with its reason, which `--verbose` prints.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from flowdrop_lsp.core.jsonsyntax import parse_json
from flowdrop_lsp.core.model import looks_like_workflow

SKIPPED_DIRECTORIES = {
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
}
MAX_SNIFF_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Candidate:
    path: Path
    explicit: bool


@dataclass(frozen=True)
class Skipped:
    path: Path
    reason: str


def matches_globs(path: Path, globs: Sequence[str]) -> bool:
    posix = path.as_posix()
    for pattern in globs:
        # `**/` also matches no directory at all, as editors' globs do.
        if fnmatch.fnmatch(posix, pattern) or fnmatch.fnmatch(
            path.name, pattern.removeprefix("**/")
        ):
            return True
    return False


def _is_workflow_file(path: Path) -> tuple[bool, str]:
    try:
        if path.stat().st_size > MAX_SNIFF_BYTES:
            return False, "larger than 64 MiB and not named like a workflow"
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return False, f"unreadable: {error}"
    if looks_like_workflow(parse_json(text).root):
        return True, ""
    return False, "not a workflow (no top-level 'nodes' or 'edges')"


def discover(paths: Sequence[str], globs: Sequence[str]) -> Iterator[Candidate | Skipped]:
    for raw in paths:
        path = Path(raw)
        if raw == "-" or not path.is_dir():
            yield Candidate(path, explicit=True)
            continue
        for folder, directories, files in os.walk(path):
            directories[:] = sorted(d for d in directories if d not in SKIPPED_DIRECTORIES)
            for name in sorted(files):
                file = Path(folder) / name
                if matches_globs(file, globs):
                    yield Candidate(file, explicit=False)
                elif name.endswith(".json"):
                    is_workflow, reason = _is_workflow_file(file)
                    yield Candidate(file, explicit=False) if is_workflow else Skipped(file, reason)
