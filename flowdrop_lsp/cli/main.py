"""`flowdrop-lsp check`: files in, findings out (its options, and what they mean once parsed:
cli/options.py).

Exit codes of `check`: 0 no error-severity finding (or `--exit-zero`), 1 errors found, 2 usage,
configuration or I/O error.

Which findings are reported, in order: the settings (`ignore`, `severity`), the command line's
`--select` / `--extend-select` / `--ignore`, the settings' `per-file-ignores` for the file, then
`--baseline`. Fixes (`--fix`, `--diff`) apply only to reported findings: each finding's
preferred fix (always a safe one); with `--unsafe-fixes` (or the settings' `unsafe-fixes`), also
a finding's only fix when that one is unsafe (`Finding.applied_fix`). They are applied pass after
pass until nothing changes (cli/fixing.py).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flowdrop_lsp.cli.fixing import Checked, diff_of, fix_and_say
from flowdrop_lsp.cli.formats import STDIN_DISPLAY, FileFailure, FileResult
from flowdrop_lsp.cli.limits import warnings_over
from flowdrop_lsp.cli.options import RuleChoice, usage_problem
from flowdrop_lsp.cli.report import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_USAGE,
    Reporter,
    emit,
    err,
    relative,
    write_baseline,
    write_report,
)
from flowdrop_lsp.cli.staged import StagedError, paths_to_check
from flowdrop_lsp.core.facade import (
    Baseline,
    BaselineError,
    Candidate,
    CheckedFile,
    Finding,
    Host,
    ReadOnce,
    Settings,
    SettingsError,
    SettingsResolver,
    Severity,
    Skipped,
    WorkflowDocument,
    is_node_type_file,
    syntax_of,
    syntax_of_text,
    walk,
)

__all__ = ["run_check"]


def _settings_of_path(resolver: SettingsResolver, path: Path) -> Settings:
    """A walk's folder, or standard input (the working directory's): only the settings of the
    folder. A workflow file: with the node-type registry of its folder too."""
    if str(path) == "-":
        return resolver.for_folder(Path.cwd())
    if path.is_dir():
        return resolver.for_folder(path)
    return resolver.for_workflow(path)


def _verbose_graph(display: str, analysis: Any) -> None:
    graph = analysis.graph
    if not graph.consumers:
        err(f"{display}: no tool edges")
    for consumer in graph.consumers:
        flat = analysis.context.flat(consumer)
        tools = []
        for leaf in flat.leaves:
            node = graph.nodes_by_id.get(leaf)
            name = node.tool_name if node else "?"
            route = flat.route(leaf)
            via = f" via {' > '.join(route)}" if route else ""
            tools.append(f"{name} ({leaf}{via})")
        err(
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
            folder = relative(path.resolve().parent)
            err(f"{folder}: no node-type definitions found: built-in defaults")
        return
    for problem in registry.problems:
        err(f"flowdrop-lsp: warning: node types: {problem}")
    if verbose:
        err(f"node types: {registry.describe(Path.cwd())}")


def _settings_of_file(
    resolver: SettingsResolver, choice: RuleChoice, path: Path, stdin_filename: str = ""
) -> Settings:
    """The settings in force for one file: its folder's, the command line's rule choice, and
    the `per-file-ignores` matching it (standard input: matching its `--stdin-filename`)."""
    settings = choice.apply(_settings_of_path(resolver, path))
    named = Path(stdin_filename) if str(path) == "-" else path
    if str(path) == "-" and stdin_filename == STDIN_DISPLAY:
        return settings
    return resolver.with_file_ignores(settings, named)


def _related_texts(host: Host, findings: Sequence[Finding]) -> dict[str, str]:
    """The texts of the other files the findings' related locations point into."""
    found: dict[str, str] = {}
    for finding in findings:
        for related in finding.related:
            if related.path is not None and related.path not in found:
                text = host.text(related.path)
                if text is not None:
                    found[related.path] = text
    return found


def _unsafe_of(args: argparse.Namespace, settings: Settings) -> bool:
    """Whether `--fix` applies a file's unsafe fixes: the command line's `--unsafe-fixes` /
    `--no-unsafe-fixes` when given, else its settings' `unsafe-fixes`."""
    return bool(settings.unsafe_fixes if args.unsafe_fixes is None else args.unsafe_fixes)


def _path_order(display: str) -> tuple[str, ...]:
    """Reports list files by path, folder by folder (`a/b.yml` before `a.b/c.yml`)."""
    return Path(display).parts


def _record(host: Host, reporter: Reporter, slot: Checked) -> FileResult:
    findings = host.findings(slot.file.path)
    return reporter.result(
        slot.display,
        slot.file.text,
        findings,
        slot.file.settings.docs_url,
        _related_texts(host, findings),
        unsafe_fixes=slot.unsafe,
        fixable=slot.applies_fixes,
    )


def run_check(args: argparse.Namespace) -> int:  # noqa: C901 - check's steps in order, a branch per option; to be cut along them
    problem = usage_problem(args)
    if problem:
        print(f"flowdrop-lsp: {problem}", file=sys.stderr)
        return EXIT_USAGE
    # The run's reads: each file read once, for the settings' node-type registries, the check
    # and the sites alike.
    reads = ReadOnce()
    try:
        resolver = SettingsResolver.for_check(args.config, Path.cwd(), reads)
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
    reporter = Reporter(baseline)
    choice = RuleChoice.from_args(args)
    results: list[FileResult] = []
    failures: list[FileFailure] = []
    # `--fix -` writes the fixed document to stdout (a filter), so the report goes to stderr.
    report = sys.stderr if args.fix and "-" in args.paths else sys.stdout
    noted: set[object] = set()
    settings_of = functools.partial(_settings_of_file, resolver, choice, stdin_filename="")
    host = Host.for_check(
        resolver, settings_of, cache=not args.no_cache, cache_dir=args.cache_dir, jobs=args.jobs
    )
    cwd = Path.cwd()
    try:
        args.paths = paths_to_check(args.paths, args.staged, cwd, host)
        # Each folder is walked with the settings in force there (`files`, `exclude`).
        settings_for = functools.partial(_settings_of_path, resolver)
        items = [item for raw in args.paths for item in walk(raw, settings_for, cwd)]
    except (SettingsError, StagedError) as error:
        print(f"flowdrop-lsp: {error}", file=sys.stderr)
        return EXIT_USAGE
    prints: dict[Path, str] = {}
    # 1. Read each candidate (its settings, bytes and text), in walk order.
    slots: list[FileResult | Checked] = []
    for item in items:
        if isinstance(item, Skipped):
            if args.verbose:
                err(f"skipped {item.path}: {item.reason}")
            continue
        assert isinstance(item, Candidate)
        from_stdin = str(item.path) == "-"
        display = args.stdin_filename if from_stdin else str(item.path)
        # Standard input named by --stdin-filename is judged as the file at that path would
        # be: its folder's settings and node types, its site, its format by its name.
        named = from_stdin and display != STDIN_DISPLAY
        judged_as = Path(args.stdin_filename) if named else item.path
        try:
            settings = _settings_of_file(resolver, choice, judged_as, args.stdin_filename)
        except SettingsError as error:
            print(f"flowdrop-lsp: {error}", file=sys.stderr)
            return EXIT_USAGE
        # Standard input judged as the file it stands for; a file through the run's reads
        # (with the bytes the walk's content check read, when it did).
        read = reads.stream(judged_as, sys.stdin) if from_stdin else reads(item.path, item.data)
        if read.unreadable:
            failures.append(FileFailure(display, f"cannot read {display}: {read.error}"))
            print(f"flowdrop-lsp: {failures[-1].message}", file=sys.stderr)
            continue
        if read.undecodable is None:
            _note_node_types(resolver, judged_as, args.verbose, noted)
        if read.text is None:
            # Not UTF-8 (a Latin-1 export, a stray byte): one finding at the first bad byte,
            # never a fix (writing would change bytes nobody asked to change). Over the size
            # limit, never loaded: a workflow's one finding (STORE-1), told from its size.
            findings = read.findings(settings)
            slots.append(FileResult(display, read.shown, findings, settings.docs_url))
            continue
        text = read.text
        folder = None if str(judged_as) == "-" else judged_as.parent.resolve()
        registry = "" if folder is None else prints.get(folder, "")
        if folder is not None and folder not in prints:
            registry = prints[folder] = host.registry_print(judged_as)
        syntax = syntax_of(display) if str(judged_as) != "-" else syntax_of_text(text)
        allow_comments = judged_as.suffix == ".jsonc"
        if args.verbose and is_node_type_file(judged_as):
            err(f"node type {display}: judged by the node-type rules and its site's checks")
        elif args.verbose:  # (the graph of a fresh analysis: this output is for a person)
            document = WorkflowDocument(
                text, settings, syntax=syntax, allow_comments=allow_comments
            )
            _verbose_graph(display, document)
        resolved = judged_as if folder is None else folder / judged_as.name
        file = CheckedFile(
            resolved, text, read.data, settings, syntax, allow_comments, registry, stdin=from_stdin
        )
        slots.append(Checked(item.path, display, file, unsafe=_unsafe_of(args, settings)))
    # 2. Each file's own analysis (cached, in parallel), 3. the sites' cross-file findings:
    # the host, as the server's.
    checked = [slot for slot in slots if isinstance(slot, Checked)]
    host.check([slot.file for slot in checked])
    # The node types of a folder walked (the site's checks judge them too), under their folder
    # as the files checked there show it: those with findings are fixed like the workflows.
    walked = [Path(raw).resolve() for raw in args.paths if raw != "-" and Path(raw).is_dir()]
    shown_folders = {
        slot.file.path.parent: os.path.dirname(slot.display)
        for slot in checked
        if not slot.file.is_stdin
    }
    keys = {str(slot.file.path) for slot in checked}
    if args.fix or args.diff:
        for path, found in host.walked_node_types(walked, keys):
            folder_shown = shown_folders.get(Path(path).parent)
            known = host.text(path) if found and folder_shown is not None else None
            if known is None or folder_shown is None:
                continue
            settings = settings_of(Path(path))
            display = os.path.join(folder_shown, os.path.basename(path))
            file = CheckedFile(
                Path(path), known, known.encode("utf-8", "surrogatepass"), settings, "yaml"
            )
            checked.append(Checked(Path(path), display, file, unsafe=_unsafe_of(args, settings)))
            slots.append(checked[-1])
            keys.add(path)
    # 4. Fixes, pass after pass until nothing changes, then the results.
    capped = False
    # `--diff` changes nothing: its exit code is about the files as they are.
    errors_as_read = args.diff and any(
        f.severity == Severity.ERROR
        for slot in checked
        for f in reporter.peek(slot.display, host.findings(slot.file.path))
    )
    if args.fix or args.diff:
        not_written, capped = fix_and_say(checked, host, reporter, write=args.fix)
        failures.extend(not_written)
    for slot in slots:
        if isinstance(slot, FileResult):
            results.append(
                reporter.result(slot.path, slot.text, slot.findings, slot.docs_url, fixable=False)
            )
            continue
        if args.fix and slot.file.is_stdin:
            # stdin has no file to write back to: the (fixed) document goes to stdout, always.
            sys.stdout.write(slot.file.text)
        results.append(_record(host, reporter, slot))
    # The other node types of the folders walked (their findings as the fixes left them).
    for path, found in host.walked_node_types(walked, keys):
        folder_shown = shown_folders.get(Path(path).parent)
        if folder_shown is None:
            continue
        settings = settings_of(Path(path))
        # Its text only places findings: without any, none is read.
        text = (host.text(path) or "") if found else ""
        related = _related_texts(host, found)
        display = os.path.join(folder_shown, os.path.basename(path))
        results.append(
            reporter.result(
                display,
                text,
                found,
                settings.docs_url,
                related,
                unsafe_fixes=_unsafe_of(args, settings),
            )
        )
    # Every kind of file in one order: by path, then (each file's findings) by position.
    results.sort(key=lambda result: _path_order(result.path))
    if args.verbose and host.node_types.parsed:
        parsed = host.node_types.parsed
        err(
            f"node types: {parsed} definition file{'s' if parsed != 1 else ''} parsed "
            "(each once, for the settings and the site alike)"
        )
    if not items and args.staged and not args.quiet:
        err("flowdrop-lsp: no workflow or node type is staged, nor touched by what is")
    elif not any(isinstance(item, Candidate) for item in items) and not args.quiet:
        err(
            "flowdrop-lsp: no workflow files to check in "
            + ", ".join(args.paths)
            + " (files matching the `files` globs, JSON shaped like a FlowDrop workflow, or "
            "node-type definitions)"
        )
    if args.write_baseline:
        return write_baseline(args, results, failures)
    if args.diff:
        diff = diff_of(checked, _path_order)
        emit(sys.stdout, diff)
        if not diff and not args.quiet:
            err("flowdrop-lsp: nothing to fix")
    else:
        failed = write_report(args, results, failures, report, reporter.suppressed)
        if failed:
            return EXIT_USAGE
    if baseline is not None and baseline.unmatched and not args.quiet:
        err(
            f"flowdrop-lsp: {baseline.unmatched} baseline entr"
            f"{'ies' if baseline.unmatched != 1 else 'y'} matched no finding in the files "
            "checked (fixed since); --write-baseline with those files drops them"
        )
    if failures:
        return EXIT_USAGE
    has_errors = errors_as_read or any(
        f.severity == Severity.ERROR for r in results for f in r.findings
    )
    # Fixes that never settle are a failure to report only while findings remain.
    left = capped and any(r.findings for r in results)
    too_many = warnings_over(args, checked, results) if not args.write_baseline else None
    if too_many is not None:
        err(too_many)  # on stderr even with --quiet: it is why the run fails
    failing = has_errors or left or too_many is not None
    return EXIT_ERRORS if failing and not args.exit_zero else EXIT_OK
