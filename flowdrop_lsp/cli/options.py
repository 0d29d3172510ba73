"""The options of `flowdrop-lsp check` (the entry module owns the top-level parser), and what
they mean once parsed: the rule choice applied to each file's settings, the combinations refused
as a usage error (exit 2)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from flowdrop_lsp.cli.fixing import MAX_FIX_PASSES
from flowdrop_lsp.cli.formats import FORMATS
from flowdrop_lsp.cli.limits import warning_limit
from flowdrop_lsp.core.facade import (
    CACHE_DIR_ENV,
    CACHE_DIR_NAME,
    RULES_BY_CODE,
    Settings,
    current_rule_codes,
    unknown_rule_codes,
)

__all__ = ["RuleChoice", "add_check_arguments", "usage_problem"]


def add_check_arguments(check: argparse.ArgumentParser) -> None:
    """The options of `flowdrop-lsp check` (the entry module owns the top-level parser)."""
    check.add_argument(
        "paths",
        nargs="*",
        help="files, directories, or - for stdin (default: ., or with "
        "--staged only what is staged)",
    )
    check.add_argument(
        "--staged",
        action="store_true",
        help="also check what the changes staged in git touch: the staged workflows and node "
        "types, the workflows using a staged node type, the callers of a staged or deleted "
        "workflow (the pre-commit hook's mode)",
    )
    check.add_argument(
        "--format", choices=FORMATS, default="text", help="output format (default: text)"
    )
    check.add_argument(
        "--fix",
        action="store_true",
        help=f"apply the preferred fixes in place, again until nothing changes (at most "
        f"{MAX_FIX_PASSES} passes)",
    )
    check.add_argument(
        "--diff",
        action="store_true",
        help="print what --fix would change as a diff; change nothing",
    )
    check.add_argument(
        "--unsafe-fixes",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=(
            "with --fix or --diff, also apply unsafe fixes (removing a branch, an edge, an "
            "entry or a setting): a finding's only fix when it is unsafe; default: the "
            "settings' unsafe-fixes, else off"
        ),
    )
    check.add_argument(
        "--show-fixes",
        action="store_true",
        help="text report: under each finding, list its fixes (safe or unsafe, preferred, which --fix applies)",
    )
    check.add_argument(
        "--config",
        type=Path,
        help="settings file (TOML); default: the nearest flowdrop-lsp.toml or pyproject.toml",
    )
    check.add_argument(
        "--stdin-filename",
        default="<stdin>",
        help="the file standard input stands for: judged as that file would be (its site, "
        "node types, settings, format), reported under its name, never written",
    )
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
    speed = check.add_argument_group("cache and parallelism")
    speed.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor write the result cache",
    )
    speed.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help=(
            f"the result cache's folder (default: ${CACHE_DIR_ENV}, else {CACHE_DIR_NAME} in "
            "the folder of the settings file, else in the working directory)"
        ),
    )
    speed.add_argument(
        "--jobs",
        type=_jobs,
        metavar="N",
        help="analyse files in N processes (default: one per core; 1: in this process)",
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
        "--max-warnings",
        type=warning_limit,
        metavar="N",
        help="exit 1 when more than N warnings are reported (the settings' `max-warnings`; "
        "0: any warning fails the run)",
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
    return current_rule_codes(codes)


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(
            f"expected a number of processes (1 or more), not {value!r}"
        )
    return jobs


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


def usage_problem(args: argparse.Namespace) -> str | None:
    if args.fix and args.diff:
        return "--fix and --diff cannot be used together"
    if args.write_baseline and (args.fix or args.diff):
        return "--write-baseline records findings; it cannot be used with --fix or --diff"
    if args.statistics and args.diff:
        return "--statistics and --diff cannot be used together"
    if args.statistics and args.format not in ("text", "json"):
        return "--statistics is written as text or json, not " + args.format
    return None
