"""An unchanged `check` answered from the last identical run (issue 28: "warm in a blink").

A report-only run (no `--fix`, `--diff`, baseline writing, output file, standard input or
`--verbose`) whose command line, environment, package and inputs are exactly those of a run
recorded before prints what that run printed and exits with its code, without importing the
checker. What counts as its inputs is deliberately more than it reads:

- every path named on the command line that exists (an option's value too: more inputs only
  make a replay rarer), and whether each named path exists; a folder as its whole listing,
  recursively, with each file's size, modification time and inode (the folders a walk skips —
  hidden ones, `node_modules`, `vendor`, `__pycache__` — left out, as the walk leaves them);
  a file with the listing of its folder (its site, its node types); with no path named, the
  working directory, as the run checks it;
- the settings files (`flowdrop-lsp.toml`, `pyproject.toml`) of every folder from each of those
  up to the root, present or absent, and the listing of the module code beside each of those
  folders (`modules/`, `web/modules/`…: the Twig names a site's modules add);
- the package's own files (size and modification time), the Python that runs it, the
  `FLOWDROP*`, `NO_COLOR`, `FORCE_COLOR` and `TERM` variables, and whether stdout and stderr are
  terminals.

A settings file naming node types elsewhere (`node-types`) makes a run unrecorded: those
sources lie outside what is listed. A file changed within two seconds of the recording (a
modification time the file system may not tell apart from a later edit) leaves the run
unrecorded too. Recordings live in the result cache's folder, `runs/`, only where that folder
is once the run is over (the run may have made it): `--cache-dir`, `$FLOWDROP_LSP_CACHE_DIR`, or
`.flowdrop_lsp_cache` where the run keeps it (core/config/project.py: beside the settings file,
else at the repository's top, else in the working directory). Any problem reading or writing them is silently a cold run: a replay is never
required, only taken when it is exactly the same run.

This module imports nothing of the checker but core/config/project.py (the point is not to
load it).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import flowdrop_lsp

# (The one module of the checker imported here: where the run's cache folder is, standard
# library only, so that the replay looks where the run recorded.)
from flowdrop_lsp.core.config.project import CACHE_DIR_ENV, check_cache_folder

VERSION = 1
SETTINGS_NAMES = ("flowdrop-lsp.toml", "pyproject.toml")
SKIPPED = frozenset({"node_modules", "vendor", "__pycache__"})
# Where a site keeps its module code, as core/config/site_files.py names it (WEB_ROOTS,
# CODE_FOLDERS; a test keeps them equal: importing it here would load the core's packages).
SITE_CODE = (("", "web", "docroot", "html"), ("modules", "profiles"))
# How close to the recording a file's modification time may be and still be trusted.
RACY_NS = 2_000_000_000
# The options a replayable run may use, exactly as written; those followed by a value.
FLAGS = frozenset(
    {"-q", "--quiet", "--statistics", "--exit-zero", "--show-fixes", "--unsafe-fixes"}
    | {"--no-unsafe-fixes"}
)
VALUED = frozenset(
    {"--format", "--select", "--extend-select", "--ignore", "--baseline", "--config"}
    | {"--cache-dir", "--jobs", "--color"}
)
ENV_PREFIXES = ("FLOWDROP",)
ENV_NAMES = ("NO_COLOR", "FORCE_COLOR", "TERM")


def _options(argv: Sequence[str]) -> dict[str, str] | None:
    """The valued options of a replayable `check` command line, or None when it is not one."""
    parsed = _parsed(argv)
    return parsed[0] if parsed is not None else None


def _paths(argv: Sequence[str]) -> list[str]:
    """The paths a replayable command line names (none: the working directory is checked)."""
    parsed = _parsed(argv)
    return parsed[1] if parsed is not None else []


def _parsed(argv: Sequence[str]) -> tuple[dict[str, str], list[str]] | None:
    """A replayable `check` command line's valued options and paths; None when it is not one."""
    if not argv or argv[0] != "check":
        return None
    values: dict[str, str] = {}
    paths: list[str] = []
    tokens = list(argv[1:])
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token == "-" or token == "--":
            return None  # standard input; or paths that may look like options
        if token.startswith("-"):
            name, equals, value = token.partition("=")
            if name in VALUED:
                if not equals:
                    index += 1
                    if index >= len(tokens):
                        return None
                    value = tokens[index]
                values[name] = value
            elif name not in FLAGS or equals:
                return None
        else:
            paths.append(token)
        index += 1
    return values, paths


def _runs_folder(options: dict[str, str]) -> str | None:
    chosen = options.get("--cache-dir") or os.environ.get(CACHE_DIR_ENV)
    if chosen:
        return os.path.join(os.path.abspath(chosen), "runs")
    config = options.get("--config")
    here = check_cache_folder(Path.cwd(), Path(config) if config else None)
    return os.path.join(here, "runs") if here.is_dir() else None


def _package_print() -> list[Any]:
    root = os.path.dirname(os.path.abspath(flowdrop_lsp.__file__))
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            stat = os.stat(os.path.join(folder, name))
            found.append(
                [os.path.relpath(os.path.join(folder, name), root), stat.st_size, stat.st_mtime_ns]
            )
    return found


def _key(argv: Sequence[str]) -> str:
    env = sorted(
        (name, value)
        for name, value in os.environ.items()
        if name.startswith(ENV_PREFIXES) or name in ENV_NAMES
    )
    facts = {
        "version": VERSION,
        "argv": list(argv),
        "cwd": os.getcwd(),
        "env": env,
        "tty": [_isatty(sys.stdout), _isatty(sys.stderr)],
        "python": [sys.executable, sys.version],
        # The installed libraries (PyYAML, jsonschema…): installing, upgrading or removing one
        # changes its folder on the path (a new dist-info name), so the folder's stat.
        "libraries": [
            [entry, _stat(entry)] for entry in sys.path if entry and os.path.isdir(entry)
        ],
        "package": _package_print(),
    }
    return hashlib.sha256(
        json.dumps(facts, sort_keys=True).encode("utf-8", "surrogatepass")
    ).hexdigest()


def _isatty(stream: TextIO | None) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


def _stat(path: str) -> list[int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino, int(os.path.isdir(path))]


def _listing(folder: str, recursive: bool) -> list[Any]:
    """Every entry below `folder` (the walk's skipped folders left out), with its stat."""
    found: list[Any] = []
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            entries = sorted(os.scandir(current), key=lambda entry: entry.name)
        except OSError:
            found.append([current, None])
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir()
                stat = entry.stat()
            except OSError:
                found.append([entry.path, None])
                continue
            if is_dir:
                if entry.name.startswith(".") or entry.name in SKIPPED:
                    continue
                found.append([entry.path, "dir"])
                if recursive:
                    stack.append(entry.path)
            else:
                found.append([entry.path, [stat.st_size, stat.st_mtime_ns, stat.st_ino]])
    return found


def _ancestors(path: str) -> list[str]:
    folders = []
    current = path if os.path.isdir(path) else os.path.dirname(path)
    while True:
        folders.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            return folders
        current = parent


def _code_folders(folder: str) -> list[str]:
    webs, names = SITE_CODE
    return [
        os.path.join(folder, web, name) if web else os.path.join(folder, name)
        for web in webs
        for name in names
    ]


def _inputs(argv: Sequence[str]) -> list[Any]:
    """What the run depends on (see the module docstring), as comparable data."""
    named = [os.path.abspath(token) for token in _paths(argv)]
    options = _options(argv) or {}
    # The settings and baseline files the command line names (the cache folder is not input).
    files = [
        os.path.abspath(options[name]) for name in ("--config", "--baseline") if name in options
    ]
    facts: list[Any] = [["named", path, os.path.exists(path)] for path in named + files]
    facts += [["file", path, _stat(path)] for path in files]
    roots = [path for path in named if os.path.exists(path)] if named else [os.getcwd()]
    folders: set[str] = {os.getcwd()}
    for path in roots:
        if os.path.isdir(path):
            facts.append(["tree", path, _listing(path, recursive=True)])
        else:
            facts.append(["file", path, _stat(path)])
            facts.append(["folder", os.path.dirname(path), _listing(os.path.dirname(path), False)])
        folders.update(_ancestors(path))
    # A site's module code (the Twig names its modules add) may lie beside a folder checked,
    # outside its listing: listed too, unless a named folder's listing holds it already.
    for folder in sorted(folders):
        for code in _code_folders(folder):
            inside = any(code.startswith(os.path.join(root, "")) for root in roots)
            if not inside and os.path.isdir(code):
                facts.append(["tree", code, _listing(code, recursive=True)])
    for folder in sorted(folders):
        for name in SETTINGS_NAMES:
            facts.append(
                ["settings", os.path.join(folder, name), _stat(os.path.join(folder, name))]
            )
    return facts


def _stats_of(facts: list[Any]) -> list[list[int]]:
    """Every file stat among `facts` (for the racy-time check)."""
    found: list[list[int]] = []
    for fact in facts:
        kind, value = fact[0], fact[-1]
        if kind in ("tree", "folder"):
            found.extend(stat for _, stat in value if isinstance(stat, list))
        elif kind in ("file", "settings") and isinstance(value, list):
            found.append(value)
    return found


def _names_node_types_elsewhere(facts: list[Any]) -> bool:
    """Whether a settings file present names node-type sources (they may lie anywhere)."""
    for fact in facts:
        settings = fact[0] == "settings" or (fact[0] == "file" and fact[1].endswith(".toml"))
        if not settings or fact[-1] is None:
            continue
        try:
            with open(fact[1], encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            return True
        if "node-types" in text or "node_types" in text:
            return True
    return False


def replayed(argv: Sequence[str]) -> int | None:
    """When `argv` is a run recorded before with exactly these inputs: its output printed and
    its exit code; else None (run it)."""
    try:
        options = _options(argv)
        folder = _runs_folder(options) if options is not None else None
        if folder is None or options is None:
            return None
        path = os.path.join(folder, _key(argv) + ".json")
        try:
            with open(path, encoding="utf-8") as handle:
                recorded = json.load(handle)
        except (OSError, ValueError):
            return None
        if recorded.get("inputs") != json.loads(json.dumps(_inputs(argv))):
            return None
        sys.stdout.write(recorded["stdout"])
        sys.stdout.flush()
        sys.stderr.write(recorded["stderr"])
        sys.stderr.flush()
        return int(recorded["code"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


class _Tee:
    """A stream that writes through to `stream` and keeps what was written."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.kept: list[str] = []

    def write(self, text: str) -> int:
        self.kept.append(text)
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class Recorder:
    """Around a run that may be recorded: what it printed, then (`finish`) the recording."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.argv = list(argv)
        self.options = _options(self.argv)
        self._tees: tuple[_Tee, _Tee] | None = None

    def __enter__(self) -> Recorder:
        if self.options is not None:
            self._tees = (_Tee(sys.stdout), _Tee(sys.stderr))
            sys.stdout, sys.stderr = self._tees
        return self

    def __exit__(self, *exc: object) -> None:
        if self._tees is not None:
            sys.stdout, sys.stderr = (tee._stream for tee in self._tees)  # noqa: SLF001 - this module's own tees

    def finish(self, code: int) -> None:
        """Record the run (after `__exit__`): only a run that judged files (exit 0 or 1)."""
        if self._tees is None or self.options is None or code not in (0, 1):
            return
        # Asked after the run: its first run in a folder creates the cache it records into.
        folder = _runs_folder(self.options)
        if folder is None:
            return
        try:
            key = _key(self.argv)
            inputs = _inputs(self.argv)
            now = time.time_ns()
            if any(now - stat[1] < RACY_NS for stat in _stats_of(inputs)):
                return
            if _names_node_types_elsewhere(inputs):
                return
            record = {
                "inputs": inputs,
                "stdout": "".join(self._tees[0].kept),
                "stderr": "".join(self._tees[1].kept),
                "code": code,
            }
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, key + ".json")
            partial = f"{path}.{os.getpid()}.tmp"
            with open(partial, "w", encoding="utf-8") as handle:
                json.dump(record, handle)
            os.replace(partial, path)
            _prune(folder)
        except (OSError, ValueError, TypeError):
            return


# Recordings kept (pre-commit runs `check` on each commit's staged files: a command line each).
KEPT_RUNS = 64


def _prune(folder: str) -> None:
    """The oldest recordings beyond `KEPT_RUNS` removed."""
    runs = sorted(
        (entry.stat().st_mtime_ns, entry.path)
        for entry in os.scandir(folder)
        if entry.name.endswith(".json")
    )
    for _, path in runs[:-KEPT_RUNS]:
        with contextlib.suppress(OSError):
            os.remove(path)
