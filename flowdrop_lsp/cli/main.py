"""`flowdrop-lsp check`: files in, findings out.

Exit codes of `check`: 0 no error-severity finding (or `--exit-zero`), 1 errors found, 2 usage,
configuration or I/O error.

Which findings are reported, in order: the settings (`ignore`, `severity`), the command line's
`--select` / `--extend-select` / `--ignore`, the settings' `per-file-ignores` for the file, then
`--baseline`. Fixes (`--fix`, `--diff`) apply only to reported findings.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import os
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from flowdrop_lsp.cli.formats import (
    FORMATS,
    FORMATTERS,
    STDIN_DISPLAY,
    FileFailure,
    FileResult,
    fix_summary,
    format_statistics,
    format_text,
    summary,
)
from flowdrop_lsp.core.analysis import Analysis, analyze
from flowdrop_lsp.core.config.baseline import Baseline, BaselineError, baseline_json
from flowdrop_lsp.core.config.node_types import NodeTypeLocator
from flowdrop_lsp.core.config.selection import Candidate, Skipped, syntax_of, walk
from flowdrop_lsp.core.config.settings import Settings, SettingsError
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from flowdrop_lsp.core.rules.document import undecodable_finding
from flowdrop_lsp.core.rules.registry import RULES_BY_CODE
from flowdrop_lsp.core.workspace.resolver import SettingsResolver, unknown_rule_codes

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
    rules = check.add_argument_group("which rules")
    rules.add_argument(
        "--select",
        type=_codes,
        metavar="CODES",
        help="comma-separated rule codes to check, instead of the settings' choice",
    )
    rules.add_argument(
        "--extend-select",
        type=_codes,
        metavar="CODES",
        action="append",
        default=[],
        help="rule codes to check in addition (also ones the settings ignore)",
    )
    rules.add_argument(
        "--ignore",
        type=_codes,
        metavar="CODES",
        action="append",
        default=[],
        help="rule codes not to check (wins over --select)",
    )
    baseline = check.add_argument_group("baseline (known findings)")
    baseline.add_argument(
        "--baseline",
        type=Path,
        metavar="FILE",
        help="report only findings FILE does not list (see --write-baseline)",
    )
    baseline.add_argument(
        "--write-baseline",
        type=Path,
        metavar="FILE",
        help=(
            "record every finding of this run in FILE, report nothing, exit 0; an existing FILE "
            "keeps the entries of files not checked in this run (pre-commit checks only the "
            "staged files), of those that still exist"
        ),
    )
    output = check.add_argument_group("output")
    output.add_argument(
        "-o",
        "--output-file",
        type=Path,
        metavar="FILE",
        help="write the --format report to FILE; the text report still goes to stdout",
    )
    output.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="findings only: no summary or notes (with --output-file: nothing on stdout)",
    )
    output.add_argument(
        "--statistics",
        action="store_true",
        help="count findings per rule (`count code title`) instead of listing them",
    )
    output.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 even when errors are found (2 still means a usage or I/O error)",
    )
    output.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text report (auto: on a terminal, unless NO_COLOR is set)",
    )


def _codes(value: str) -> tuple[str, ...]:
    """`CMP-9,R13` → the codes, each checked (argparse reports a bad one as a usage error)."""
    codes = tuple(code.strip() for code in value.split(",") if code.strip())
    problems = unknown_rule_codes(None, codes)
    if problems:
        raise argparse.ArgumentTypeError("; ".join(problems))
    return codes


@dataclass(frozen=True)
class RuleChoice:
    """The command line's `--select`, `--extend-select` and `--ignore`, applied to each file's
    settings as Ruff does: `--select` replaces the settings' choice (their `ignore` included),
    `--extend-select` turns rules on in addition, `--ignore` turns them off whatever else says."""

    select: frozenset[str] | None
    extend_select: frozenset[str]
    ignore: frozenset[str]

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RuleChoice:
        def flat(groups: Sequence[tuple[str, ...]]) -> frozenset[str]:
            return frozenset(code for group in groups for code in group)

        return cls(
            None if args.select is None else frozenset(args.select),
            flat(args.extend_select),
            flat(args.ignore),
        )

    def apply(self, settings: Settings) -> Settings:
        if self.select is None and not self.extend_select and not self.ignore:
            return settings
        if self.select is None:
            ignored = settings.ignore - self.extend_select
        else:
            ignored = frozenset(RULES_BY_CODE) - self.select - self.extend_select
        return replace(settings, ignore=ignored | self.ignore)


def use_color(choice: str, stream: TextIO) -> bool:
    """`--color`: always, never, or (auto) on a terminal unless NO_COLOR is set and not empty
    (no-color.org; an explicit `--color=always` wins over it)."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _resolver(config: Path | None) -> SettingsResolver:
    """The CLI's settings, strict: a bad settings file raises SettingsError naming it (exit 2).
    Paths are resolved, as the walk resolves the folders it finds; `per-file-ignores` without a
    settings file are relative to the working directory."""
    return SettingsResolver(
        config=config,
        node_types=NodeTypeLocator(base=Path.cwd()),
        canonical=Path.resolve,
        fallback_base=Path.cwd(),
    )


def _settings_of_path(resolver: SettingsResolver, path: Path) -> Settings:
    """A walk's folder, or standard input (the working directory's): only the settings of the
    folder. A workflow file: with the node-type registry of its folder too."""
    if str(path) == "-":
        return resolver.for_folder(Path.cwd())
    if path.is_dir():
        return resolver.for_folder(path)
    return resolver.for_workflow(path)


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
    resolver: SettingsResolver, path: Path, verbose: bool, noted: set[object]
) -> None:
    """Once per registry: its problems (unreadable or invalid definitions) on stderr, and with
    `--verbose` which registry the folder's workflows are checked against."""
    if str(path) == "-":
        return
    registry = None if path.is_dir() else resolver.registry_for(path)
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


def _usage_problem(args: argparse.Namespace) -> str | None:
    if args.fix and args.diff:
        return "--fix and --diff cannot be used together"
    if args.write_baseline and (args.fix or args.diff):
        return "--write-baseline records findings; it cannot be used with --fix or --diff"
    if args.statistics and args.diff:
        return "--statistics and --diff cannot be used together"
    if args.statistics and args.format not in ("text", "json"):
        return "--statistics is written as text or json, not " + args.format
    return None


def _settings_of_file(
    resolver: SettingsResolver, choice: RuleChoice, path: Path, stdin_filename: str
) -> Settings:
    """The settings in force for one file: its folder's, the command line's rule choice, and
    the `per-file-ignores` matching it (standard input: matching its `--stdin-filename`)."""
    settings = choice.apply(_settings_of_path(resolver, path))
    named = Path(stdin_filename) if str(path) == "-" else path
    if str(path) == "-" and stdin_filename == STDIN_DISPLAY:
        return settings
    return resolver.with_file_ignores(settings, named)


class _Reporter:
    """Findings as reported: without the ones a `--baseline` lists (counted)."""

    def __init__(self, baseline: Baseline | None) -> None:
        self.baseline = baseline
        self.suppressed = 0

    def peek(self, display: str, findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
        if self.baseline is None:
            return findings
        return self.baseline.split(display, findings, count=False)[0]

    def result(
        self, display: str, text: str, findings: tuple[Finding, ...], docs: str
    ) -> FileResult:
        if self.baseline is not None:
            findings, suppressed = self.baseline.split(display, findings)
            self.suppressed += suppressed
        return FileResult(display, text, findings, docs)


def _write_output_file(path: Path, text: str) -> str | None:
    """Write a report file; the error message when it cannot be written."""
    try:
        path.write_text(text, encoding="utf-8", newline="")
    except OSError as error:
        return f"cannot write {path}: {error}"
    return None


def run_check(args: argparse.Namespace) -> int:
    problem = _usage_problem(args)
    if problem:
        print(f"flowdrop-lsp: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        resolver = _resolver(args.config)
    except SettingsError as error:
        print(f"flowdrop-lsp: {error}", file=sys.stderr)
        return EXIT_USAGE
    baseline = None
    if args.baseline and not args.write_baseline:  # writing one records every finding
        try:
            baseline = Baseline.read(args.baseline)
        except BaselineError as error:
            print(f"flowdrop-lsp: {error}", file=sys.stderr)
            return EXIT_USAGE
    reporter = _Reporter(baseline)
    choice = RuleChoice.from_args(args)
    results: list[FileResult] = []
    failures: list[FileFailure] = []
    diffs: list[str] = []
    # `--fix -` writes the fixed document to stdout (a filter), so the report goes to stderr.
    report = sys.stderr if args.fix and "-" in args.paths else sys.stdout
    noted: set[object] = set()
    try:
        # Each folder is walked with the settings in force there (`files`, `exclude`).
        cwd = Path.cwd()
        settings_for = functools.partial(_settings_of_path, resolver)
        items = [item for raw in args.paths for item in walk(raw, settings_for, cwd)]
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
            settings = _settings_of_file(resolver, choice, item.path, args.stdin_filename)
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
            findings = (finding,) if finding.code not in settings.ignore else ()
            results.append(reporter.result(display, shown, findings, settings.docs_url))
            continue
        except OSError as error:
            failures.append(FileFailure(display, f"cannot read {display}: {error}"))
            print(f"flowdrop-lsp: {failures[-1].message}", file=sys.stderr)
            continue
        _note_node_types(resolver, item.path, args.verbose, noted)
        syntax = syntax_of(display)
        allow_comments = item.path.suffix == ".jsonc"
        analysis = analyze(text, settings, allow_comments=allow_comments, syntax=syntax)
        if args.verbose:
            _verbose_graph(display, analysis)
        # Fixes only for what is reported: a finding the baseline lists is left alone.
        reported = reporter.peek(display, analysis.findings)
        edits = preferred_edits(reported) if (args.fix or args.diff) else []
        if args.fix and str(item.path) == "-":
            # stdin has no file to write back to: the (fixed) document goes to stdout, always.
            if edits:
                text = apply_edits(text, edits)
                analysis = analyze(text, settings, allow_comments=False, syntax=syntax)
            sys.stdout.write(text)
            results.append(reporter.result(display, text, analysis.findings, settings.docs_url))
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
                except OSError as error:
                    failures.append(FileFailure(display, f"cannot write {display}: {error}"))
                    print(f"flowdrop-lsp: {failures[-1].message}", file=sys.stderr)
                else:
                    fixed_now = [f for f in reported if f.preferred_fix]
                    _err(fix_summary(display, fixed_now, len(edits)))
                    text = fixed
                    analysis = analyze(text, settings, allow_comments=allow_comments, syntax=syntax)
        results.append(reporter.result(display, text, analysis.findings, settings.docs_url))
    if not any(isinstance(item, Candidate) for item in items) and not args.quiet:
        _err(
            "flowdrop-lsp: no workflow files to check in "
            + ", ".join(args.paths)
            + " (files matching the `files` globs, or JSON shaped like a FlowDrop workflow)"
        )
    if args.write_baseline:
        return _write_baseline(args, results, failures)
    if args.diff:
        _emit(sys.stdout, "".join(diffs))
    else:
        failed = _report(args, results, failures, report, reporter.suppressed)
        if failed:
            return EXIT_USAGE
    if baseline is not None and baseline.unmatched and not args.quiet:
        _err(
            f"flowdrop-lsp: {baseline.unmatched} baseline entr"
            f"{'ies' if baseline.unmatched != 1 else 'y'} matched no finding in the files "
            "checked (fixed since); --write-baseline with those files drops them"
        )
    if failures:
        return EXIT_USAGE
    has_errors = any(f.severity == Severity.ERROR for r in results for f in r.findings)
    return EXIT_ERRORS if has_errors and not args.exit_zero else EXIT_OK


def _report(
    args: argparse.Namespace,
    results: list[FileResult],
    failures: list[FileFailure],
    stream: TextIO,
    suppressed: int,
) -> bool:
    """Write the report (to `--output-file` and/or `stream`); False when the file could not be
    written."""
    root = Path.cwd()
    # With nothing read, "no problems in 0 files" would read as a pass: stderr says what
    # happened (no workflow found, or the I/O error and exit code 2).
    closing = summary(results, suppressed) + "\n" if results and not args.quiet else ""
    if args.statistics:
        report = format_statistics(results, args.format)
    else:
        report = FORMATTERS[args.format](results, failures, root=root)
    if args.format == "text" and not args.statistics:
        report += closing
    if args.output_file is not None:
        error = _write_output_file(args.output_file, report)
        if error:
            _err(f"flowdrop-lsp: {error}")
            return True
        if args.quiet:
            return False
        # The file is for a machine (SARIF for code scanning): the log gets the text report.
        color = use_color(args.color, stream)
        _emit(stream, format_text(results, failures, root=root, color=color) + closing)
        return False
    if args.format == "text" and not args.statistics:
        color = use_color(args.color, stream)
        report = format_text(results, failures, root=root, color=color) + closing
    _emit(stream, report)
    if suppressed and args.format != "text" and not args.quiet:
        _err(
            f"flowdrop-lsp: {suppressed} finding{'s' if suppressed != 1 else ''} suppressed by the baseline"
        )
    return False


def _write_baseline(
    args: argparse.Namespace, results: list[FileResult], failures: list[FileFailure]
) -> int:
    target: Path = args.write_baseline
    kept: list[dict[str, object]] = []
    if target.exists():  # the entries of the files this run did not check are kept
        try:
            earlier = Baseline.read(target)
        except BaselineError as unreadable:
            _err(f"flowdrop-lsp: {unreadable}; not overwritten")
            return EXIT_USAGE
        # A file that could not be read was not checked: its entries stay as they were.
        kept = earlier.kept_items(r.path for r in results)
    folder = target.resolve().parent
    text = baseline_json(((r.path, r.findings) for r in results), folder, kept)
    error = _write_output_file(target, text)
    if error:
        _err(f"flowdrop-lsp: {error}")
        return EXIT_USAGE
    if not args.quiet:
        count = sum(len(r.findings) for r in results)
        files = len({r.path for r in results if r.findings})
        kept_files = len({item["path"] for item in kept})
        also = (
            f"; kept {len(kept)} entr{'ies' if len(kept) != 1 else 'y'} of {kept_files} "
            f"file{'s' if kept_files != 1 else ''} not checked"
            if kept
            else ""
        )
        _err(
            f"flowdrop-lsp: wrote {count} finding{'s' if count != 1 else ''} in {files} "
            f"file{'s' if files != 1 else ''} to {target}{also}"
        )
    return EXIT_USAGE if failures else EXIT_OK
