"""The report of `flowdrop-lsp check`: writing it (to stdout, a file, a baseline) and the small
I/O it needs (colour, atomic writes, a reader that went away)."""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from flowdrop_lsp.cli.formats import FORMATTERS, FileFailure, FileResult
from flowdrop_lsp.cli.text import format_statistics, format_text, summary
from flowdrop_lsp.core.facade import Baseline, BaselineError, Finding, baseline_json

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def use_color(choice: str, stream: TextIO) -> bool:
    """`--color`: always, never, or (auto) on a terminal unless NO_COLOR is set and not empty
    (no-color.org; an explicit `--color=always` wins over it)."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class ReadOnlyError(OSError):
    """A file `--fix` must not change: the user made it read-only."""


def write_atomically(path: Path, text: str) -> None:
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


def printable(text: str) -> str:
    """`text` writable as UTF-8: a lone surrogate (a label's half-typed `\\ud83d` escape, decoded)
    is written as that escape again."""
    if not _LONE_SURROGATE.search(text):
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def emit(stream: TextIO, text: str) -> None:
    """Write the report; a reader that went away (`check | head -1`) ends it quietly, and the
    exit code still says what was found."""
    try:
        stream.write(printable(text))
        stream.flush()
    except BrokenPipeError:
        # Later writes (and the interpreter's own flush at exit) go nowhere instead of raising.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)


def err(text: str) -> None:
    print(printable(text), file=sys.stderr)


def relative(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd())) or "."
    except ValueError:
        return str(path)


class Reporter:
    """Findings as reported: without the ones a `--baseline` lists (counted)."""

    def __init__(self, baseline: Baseline | None) -> None:
        self.baseline = baseline
        self.suppressed = 0

    def peek(self, display: str, findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
        if self.baseline is None:
            return findings
        return self.baseline.split(display, findings, count=False)[0]

    def result(
        self,
        display: str,
        text: str,
        findings: tuple[Finding, ...],
        docs: str,
        related_texts: Mapping[str, str] | None = None,
        *,
        unsafe_fixes: bool = False,
        fixable: bool = True,
    ) -> FileResult:
        if self.baseline is not None:
            findings, suppressed = self.baseline.split(display, findings)
            self.suppressed += suppressed
        return FileResult(
            display, text, findings, docs, dict(related_texts or {}), unsafe_fixes, fixable
        )


def write_output_file(path: Path, text: str) -> str | None:
    """Write a report file (as stdout gets it: a lone surrogate as its escape); the error
    message when it cannot be written."""
    try:
        path.write_text(printable(text), encoding="utf-8", newline="")
    except OSError as error:
        return f"cannot write {path}: {error}"
    return None


def write_report(
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
    show_fixes = bool(getattr(args, "show_fixes", False))
    closing = summary(results, suppressed, show_fixes) + "\n" if results and not args.quiet else ""
    if args.statistics:
        report = format_statistics(results, args.format)
    elif args.format == "text":
        report = format_text(results, failures, root=root, show_fixes=show_fixes) + closing
    else:
        report = FORMATTERS[args.format](results, failures, root=root)
    if args.output_file is not None:
        error = write_output_file(args.output_file, report)
        if error:
            err(f"flowdrop-lsp: {error}")
            return True
        if args.quiet:
            return False
        # The file is for a machine (SARIF for code scanning): the log gets the text report.
        color = use_color(args.color, stream)
        text = format_text(results, failures, root=root, color=color, show_fixes=show_fixes)
        emit(stream, text + closing)
        return False
    if args.format == "text" and not args.statistics:
        color = use_color(args.color, stream)
        report = format_text(results, failures, root=root, color=color, show_fixes=show_fixes)
        report += closing
    emit(stream, report)
    if suppressed and args.format != "text" and not args.quiet:
        err(
            f"flowdrop-lsp: {suppressed} finding{'s' if suppressed != 1 else ''} suppressed by the baseline"
        )
    return False


def write_baseline(
    args: argparse.Namespace, results: list[FileResult], failures: list[FileFailure]
) -> int:
    target: Path = args.write_baseline
    kept: list[dict[str, object]] = []
    if target.exists():  # the entries of the files this run did not check are kept
        try:
            earlier = Baseline.read(target)
        except BaselineError as unreadable:
            err(f"flowdrop-lsp: {unreadable}; not overwritten")
            return EXIT_USAGE
        # A file that could not be read was not checked: its entries stay as they were.
        kept = earlier.kept_items(r.path for r in results)
    folder = target.resolve().parent
    text = baseline_json(((r.path, r.findings) for r in results), folder, kept)
    error = write_output_file(target, text)
    if error:
        err(f"flowdrop-lsp: {error}")
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
        err(
            f"flowdrop-lsp: wrote {count} finding{'s' if count != 1 else ''} in {files} "
            f"file{'s' if files != 1 else ''} to {target}{also}"
        )
    return EXIT_USAGE if failures else EXIT_OK
