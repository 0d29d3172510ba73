"""`flowdrop-lsp check`: files in, findings out.

Exit codes of `check`: 0 no error-severity finding, 1 errors found, 2 usage, configuration or
I/O error.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from flowdrop_lsp.cli.formats import FORMATS, FORMATTERS, FileFailure, FileResult, summary
from flowdrop_lsp.core.analysis import Analysis, analyze
from flowdrop_lsp.core.edits import apply_edits, preferred_edits
from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.core.node_types import NodeTypeLocator, NodeTypeRegistry
from flowdrop_lsp.core.rules.document import undecodable_finding
from flowdrop_lsp.core.selection import Candidate, Skipped, syntax_of, walk
from flowdrop_lsp.core.settings import Settings, SettingsError, find_project_settings, load_settings

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def add_check_arguments(check: argparse.ArgumentParser) -> None:
    """The options of `flowdrop-lsp check` (the entry module owns the top-level parser)."""
    check.add_argument(
        "paths", nargs="*", default=["."], help="files, directories, or - for stdin (default: .)"
    )
    check.add_argument(
        "--format", choices=FORMATS, default="text", help="output format (default: text)"
    )
    check.add_argument("--fix", action="store_true", help="apply the preferred fixes in place")
    check.add_argument(
        "--diff", action="store_true", help="print the preferred fixes as a diff; change nothing"
    )
    check.add_argument(
        "--config",
        type=Path,
        help="settings file (TOML); default: the nearest flowdrop-lsp.toml or pyproject.toml",
    )
    check.add_argument("--stdin-filename", default="<stdin>", help="the path to report for -")
    check.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="say which files were skipped and why, and each consumer's tools",
    )


class _SettingsResolver:
    """Settings per file: `--config`, else the nearest project file (cached per folder); a
    workflow file's settings also carry the node-type registry of its folder (core/node_types)."""

    def __init__(self, config: Path | None) -> None:
        self.fixed = load_settings(config=config) if config else None
        self.by_file: dict[Path | None, Settings] = {}
        self.node_types = NodeTypeLocator(base=Path.cwd())
        self.by_folder: dict[tuple[Path | None, Path], Settings] = {}

    def _project_settings(self, path: Path) -> tuple[Path | None, Settings]:
        if self.fixed is not None:
            return None, self.fixed
        # A file's own folder, or a directory itself (find_project_settings takes either).
        start = Path.cwd() if str(path) == "-" else path.resolve()
        project_file = find_project_settings(start)
        if project_file not in self.by_file:
            self.by_file[project_file] = (
                load_settings(config=project_file) if project_file else Settings()
            )
        return project_file, self.by_file[project_file]

    def registry_for(self, path: Path) -> NodeTypeRegistry | None:
        """The node-type registry of a workflow file (None: none found, or stdin)."""
        if str(path) == "-" or path.is_dir():
            return None
        return self.node_types.for_workflow(path, self._project_settings(path)[1])

    def for_path(self, path: Path) -> Settings:
        project_file, settings = self._project_settings(path)
        if str(path) == "-" or path.is_dir():  # a walk's folder: only `files` and `exclude`
            return settings
        key = (project_file, path.resolve().parent)
        if key not in self.by_folder:
            self.by_folder[key] = settings.with_registry(self.registry_for(path))
        return self.by_folder[key]


def _read(path: Path) -> str:
    if str(path) == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is not None:  # bytes, so that \r\n survives as it does for files
            return buffer.read().decode("utf-8")
        return sys.stdin.read()
    # Bytes decoded whole: \r\n stays (spans count it), and a decoding error has the whole
    # content and the error's offset in it.
    return path.read_bytes().decode("utf-8")


class ReadOnlyError(OSError):
    """A file `--fix` must not change: the user made it read-only."""


def _write_atomically(path: Path, text: str) -> None:
    """Replace the file `path` names with `text` so that a reader never sees a half-written
    file. A symbolic link stays a link: its target is what changes. The file keeps its mode; a
    read-only file is refused (root could write it, but the user said not to)."""
    target = path.resolve()
    mode = target.stat().st_mode
    if not mode & 0o222:
        raise ReadOnlyError(f"{target} is read-only; not changed")
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode & 0o7777)
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _printable(text: str) -> str:
    """`text` writable as UTF-8: a lone surrogate (a label's half-typed `\\ud83d` escape, decoded)
    is written as that escape again."""
    if not _LONE_SURROGATE.search(text):
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _emit(stream: TextIO, text: str) -> None:
    """Write the report; a reader that went away (`check | head -1`) ends it quietly, and the
    exit code still says what was found."""
    try:
        stream.write(_printable(text))
        stream.flush()
    except BrokenPipeError:
        # Later writes (and the interpreter's own flush at exit) go nowhere instead of raising.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)


def _err(text: str) -> None:
    print(_printable(text), file=sys.stderr)


def _verbose_graph(display: str, analysis: Analysis) -> None:
    graph = analysis.graph
    if not graph.consumers:
        _err(f"{display}: no tool edges")
    for consumer in graph.consumers:
        flat = analysis.context.flat(consumer)
        tools = []
        for leaf in flat.leaves:
            node = graph.nodes_by_id.get(leaf)
            name = node.tool_name if node else "?"
            route = flat.route(leaf)
            via = f" via {' > '.join(route)}" if route else ""
            tools.append(f"{name} ({leaf}{via})")
        _err(
            f"{display}: consumer {analysis.context.describe(consumer)} sees {len(tools)} tools: {', '.join(tools)}"
        )


def _note_node_types(
    resolver: _SettingsResolver, path: Path, verbose: bool, noted: set[object]
) -> None:
    """Once per registry: its problems (unreadable or invalid definitions) on stderr, and with
    `--verbose` which registry the folder's workflows are checked against."""
    if str(path) == "-":
        return
    registry = resolver.registry_for(path)
    key: object = registry.sources if registry is not None else path.resolve().parent
    if key in noted:
        return
    noted.add(key)
    if registry is None:
        if verbose:
            folder = _relative(path.resolve().parent)
            _err(f"{folder}: no node-type definitions found: built-in defaults")
        return
    for problem in registry.problems:
        _err(f"flowdrop-lsp: warning: node types: {problem}")
    if verbose:
        _err(f"node types: {registry.describe(Path.cwd())}")


def _relative(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd())) or "."
    except ValueError:
        return str(path)


def run_check(args: argparse.Namespace) -> int:
    if args.fix and args.diff:
        print("flowdrop-lsp: --fix and --diff cannot be used together", file=sys.stderr)
        return EXIT_USAGE
    try:
        resolver = _SettingsResolver(args.config)
    except SettingsError as error:
        print(f"flowdrop-lsp: {error}", file=sys.stderr)
        return EXIT_USAGE
    results: list[FileResult] = []
    failures: list[FileFailure] = []
    diffs: list[str] = []
    # `--fix -` writes the fixed document to stdout (a filter), so the report goes to stderr.
    report = sys.stderr if args.fix and "-" in args.paths else sys.stdout
    first_settings = None
    noted: set[object] = set()
    try:
        # Each folder is walked with the settings in force there (`files`, `exclude`).
        cwd = Path.cwd()
        items = [item for raw in args.paths for item in walk(raw, resolver.for_path, cwd)]
    except SettingsError as error:
        print(f"flowdrop-lsp: {error}", file=sys.stderr)
        return EXIT_USAGE
    for item in items:
        if isinstance(item, Skipped):
            if args.verbose:
                _err(f"skipped {item.path}: {item.reason}")
            continue
        assert isinstance(item, Candidate)
        display = args.stdin_filename if str(item.path) == "-" else str(item.path)
        try:
            settings = resolver.for_path(item.path)
            text = _read(item.path)
        except SettingsError as error:
            print(f"flowdrop-lsp: {error}", file=sys.stderr)
            return EXIT_USAGE
        except UnicodeDecodeError as error:
            # Not UTF-8 (a Latin-1 export, a stray byte): one finding at the first bad byte,
            # never a fix (writing would change bytes nobody asked to change).
            raw = error.object if isinstance(error.object, bytes) else b""
            offset = len(raw[: error.start].decode("utf-8", "replace"))
            shown = raw.decode("utf-8", "replace")
            finding = undecodable_finding(shown, offset, raw[error.start] if raw else 0)
            results.append(FileResult(display, shown, (finding,), settings.docs_url))
            continue
        except OSError as error:
            failures.append(FileFailure(display, f"cannot read {display}: {error}"))
            print(f"flowdrop-lsp: {failures[-1].message}", file=sys.stderr)
            continue
        first_settings = first_settings or settings
        _note_node_types(resolver, item.path, args.verbose, noted)
        syntax = syntax_of(display)
        analysis = analyze(
            text, settings, allow_comments=item.path.suffix == ".jsonc", syntax=syntax
        )
        if args.verbose:
            _verbose_graph(display, analysis)
        edits = preferred_edits(analysis.findings) if (args.fix or args.diff) else []
        if args.fix and str(item.path) == "-":
            # stdin has no file to write back to: the (fixed) document goes to stdout, always.
            if edits:
                text = apply_edits(text, edits)
                analysis = analyze(text, settings, allow_comments=False, syntax=syntax)
            sys.stdout.write(text)
            results.append(FileResult(display, text, analysis.findings, settings.docs_url))
            continue
        if edits:
            fixed = apply_edits(text, edits)
            if args.diff:
                diffs.append(
                    "".join(
                        difflib.unified_diff(
                            text.splitlines(keepends=True),
                            fixed.splitlines(keepends=True),
                            display,
                            display,
                        )
                    )
                )
            else:
                try:
                    _write_atomically(item.path, fixed)
                except ReadOnlyError as error:
                    failures.append(FileFailure(display, f"cannot fix {display}: {error}"))
                    print(f"flowdrop-lsp: {failures[-1].message}", file=sys.stderr)
                    results.append(FileResult(display, text, analysis.findings, settings.docs_url))
                    continue
                except OSError as error:
                    failures.append(FileFailure(display, f"cannot write {display}: {error}"))
                    print(f"flowdrop-lsp: {failures[-1].message}", file=sys.stderr)
                    results.append(FileResult(display, text, analysis.findings, settings.docs_url))
                    continue
                fixed_count = sum(1 for f in analysis.findings if f.preferred_fix)
                _err(f"fixed {fixed_count} finding{'s' if fixed_count != 1 else ''} in {display}")
                text = fixed
                analysis = analyze(
                    text, settings, allow_comments=item.path.suffix == ".jsonc", syntax=syntax
                )
        results.append(FileResult(display, text, analysis.findings, settings.docs_url))
    if not any(isinstance(item, Candidate) for item in items):
        _err(
            "flowdrop-lsp: no workflow files to check in "
            + ", ".join(args.paths)
            + " (files matching the `files` globs, or JSON shaped like a FlowDrop workflow)"
        )
    if args.diff:
        _emit(sys.stdout, "".join(diffs))
    else:
        output = FORMATTERS[args.format](results, failures, root=Path.cwd())
        if args.format == "text" and results:
            # With nothing read, "no problems in 0 files" would read as a pass: stderr says
            # what happened (no workflow found, or the I/O error and exit code 2).
            output += summary(results) + "\n"
        _emit(report, output)
    if failures:
        return EXIT_USAGE
    has_errors = any(f.severity == Severity.ERROR for r in results for f in r.findings)
    return EXIT_ERRORS if has_errors else EXIT_OK
