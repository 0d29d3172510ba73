"""Where a project is: its settings file, and the folder `check`'s result cache goes in.

Kept free of the rest of the checker (only the standard library), because the replay of an
unchanged run (cli/replay.py) must find the same cache folder as the run that recorded it
without importing the checker.
"""

from __future__ import annotations

from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

PROJECT_FILE = "flowdrop-lsp.toml"
PYPROJECT_TABLE = "flowdrop-lsp"
CACHE_DIR_NAME = ".flowdrop_lsp_cache"
CACHE_DIR_ENV = "FLOWDROP_LSP_CACHE_DIR"
# What marks a repository's top: the cache goes there rather than in a subfolder a run started
# in (inside a site's `config/sync`, a cache folder would sit among the config Drupal imports).
REPOSITORY_MARKERS = (".git", ".hg", ".svn")


def find_project_settings(start: Path) -> Path | None:
    """The nearest `flowdrop-lsp.toml`, or `pyproject.toml` with a `[tool.flowdrop-lsp]` table,
    in `start` or its parents."""
    directory = start if start.is_dir() else start.parent
    for folder in (directory, *directory.parents):
        candidate = folder / PROJECT_FILE
        if candidate.is_file():
            return candidate
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            try:
                if PYPROJECT_TABLE in tomllib.loads(pyproject.read_text(encoding="utf-8")).get(
                    "tool", {}
                ):
                    return pyproject
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
    return None


def check_cache_folder(cwd: Path, config: Path | None = None) -> Path:
    """Where `check` keeps its result cache unless told (`--cache-dir`, $FLOWDROP_LSP_CACHE_DIR):
    beside the settings file in force (`config`, else the nearest project settings file from
    the working directory), else at the top of the repository the working directory is in,
    else in the working directory."""
    try:
        settings = config if config is not None else find_project_settings(cwd)
        if settings is not None:
            return settings.resolve().parent / CACHE_DIR_NAME
        for folder in (cwd, *cwd.parents):
            if any((folder / marker).exists() for marker in REPOSITORY_MARKERS):
                return folder / CACHE_DIR_NAME
    except OSError:
        pass
    return cwd / CACHE_DIR_NAME
