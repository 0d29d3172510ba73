"""The text report of `flowdrop-lsp check`: one line per finding, its fix mark, the fixes under
it (`--show-fixes`), and the closing summary; also `--statistics` and `--fix`'s note per file.

Fix marks, as Ruff marks what `--fix` fixes (after the code, so that `path:line:col:` stays
first for editors and grep):

- `[*]`: `--fix` fixes it, as this run would (its preferred, safe fix; with `--unsafe-fixes`,
  also its only fix when that one is unsafe: `Finding.applied_fix`);
- `[~]`: only `--fix --unsafe-fixes` fixes it (its only fix is unsafe, and unsafe fixes are off);
- `[?]`: it has fixes to choose from (several, none preferred), which no `--fix` applies: the
  editor offers them one by one, `--show-fixes` lists them.

The summary says the same counts, each line starting with its mark.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from flowdrop_lsp.cli.formats import FileFailure, FileResult
from flowdrop_lsp.core.facade import ALL_RULES, RULES_BY_CODE, Finding, Severity

FIXED_BY_FIX = "[*]"
FIXED_BY_UNSAFE_FIXES = "[~]"
FIXES_TO_CHOOSE = "[?]"

# ANSI SGR sequences, as Ruff and ESLint colour their text output: a few fixed codes, so no
# library (colour is only ever on a terminal, never in a file or a pipe: see cli/report.py).
_BOLD, _DIM, _CYAN, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[36m", "\x1b[0m"
_SEVERITY_COLOUR = {
    Severity.ERROR: "\x1b[31m",  # red
    Severity.WARNING: "\x1b[33m",  # yellow
    Severity.INFO: "\x1b[34m",  # blue
    Severity.HINT: "\x1b[36m",  # cyan
}


def _paint(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{_RESET}" if color else text


def fixable_by_fix(finding: Finding, unsafe: bool = False) -> bool:
    """Whether `check --fix` fixes `finding`: it has a preferred (safe) fix, or, with
    `--unsafe-fixes` (`unsafe`), one fix only, an unsafe one (`Finding.applied_fix`)."""
    return finding.applied_fix(unsafe) is not None


def fix_mark(finding: Finding, unsafe: bool, fixable: bool = True) -> str:
    """The finding's mark (module docstring); "" when it has no fix. `fixable` False: `--fix`
    leaves the finding's file alone (a node-type definition), so its fixes are choices."""
    if not finding.fixes:
        return ""
    if fixable and fixable_by_fix(finding, unsafe):
        return FIXED_BY_FIX
    if fixable and fixable_by_fix(finding, True):
        return FIXED_BY_UNSAFE_FIXES
    return FIXES_TO_CHOOSE


def fix_lines(finding: Finding, unsafe: bool, fixable: bool = True) -> list[str]:
    """`--show-fixes`: every fix of the finding, its title and how far it can be trusted, and
    which one `--fix` applies (with or without `--unsafe-fixes`)."""
    applied = finding.applied_fix(True) if fixable else None
    lines = []
    for fix in finding.fixes:
        trust = "unsafe" if not fix.is_safe else "safe, preferred" if fix.preferred else "safe"
        if fix is applied:
            by_fix = fix.preferred or unsafe
            trust += ": --fix applies it" if by_fix else ": --fix --unsafe-fixes applies it"
        lines.append(f"    fix: {fix.title} ({trust})")
    return lines


def format_text(
    results: Sequence[FileResult],
    failures: Sequence[FileFailure] = (),
    *,
    root: Path | None = None,
    color: bool = False,
    show_fixes: bool = False,
) -> str:
    out = []
    for result in results:
        if not result.findings:
            continue  # no positions to count (a line index per file costs)
        lines = result.lines
        for finding in result.findings:
            line, column = lines.position(finding.span.start)
            where = _paint(result.path, _BOLD, color) + _paint(
                f":{line + 1}:{column + 1}:", _DIM, color
            )
            severity = _paint(finding.severity.value, _SEVERITY_COLOUR[finding.severity], color)
            code = _paint(finding.code, _BOLD, color)
            mark = fix_mark(finding, result.unsafe_fixes, result.fixable)
            marked = f"{_paint(mark, _CYAN, color)} " if mark else ""
            out.append(f"{where} {severity} {code} {marked}{finding.message}")
            if show_fixes:
                out.extend(fix_lines(finding, result.unsafe_fixes, result.fixable))
    return "".join(line + "\n" for line in out)


@dataclass(frozen=True)
class RuleCount:
    code: str
    title: str
    count: int
    fixable: int
    severity: Severity  # the most severe of its findings (settings may differ per file)
    mark: str  # the fix mark all its findings share, "" when they differ or have no fix


def rule_counts(results: Sequence[FileResult]) -> list[RuleCount]:
    """How many findings of each rule, most first (then in the documented order), as Ruff's
    `--statistics`; `fixable`: how many `--fix` fixes, as each file's run would."""
    counts: Counter[str] = Counter()
    fixable: Counter[str] = Counter()
    severities: dict[str, Severity] = {}
    marks: dict[str, set[str]] = {}
    for result in results:
        for finding in result.findings:
            counts[finding.code] += 1
            mark = fix_mark(finding, result.unsafe_fixes, result.fixable)
            fixable[finding.code] += mark == FIXED_BY_FIX
            marks.setdefault(finding.code, set()).add(mark)
            seen = severities.get(finding.code)
            if seen is None or finding.severity.rank < seen.rank:
                severities[finding.code] = finding.severity
    order = {rule.code: index for index, rule in enumerate(ALL_RULES)}
    codes = sorted(counts, key=lambda code: (-counts[code], order.get(code, len(order)), code))
    return [
        RuleCount(
            code,
            RULES_BY_CODE[code].title if code in RULES_BY_CODE else "",
            counts[code],
            fixable[code],
            severities[code],
            next(iter(marks[code])) if len(marks[code]) == 1 else "",
        )
        for code in codes
    ]


def format_statistics(results: Sequence[FileResult], output_format: str) -> str:
    """`count code severity title` per rule, the title marked as the report marks findings
    when they all share the mark (`[*]` --fix fixes them all, as this run's `--unsafe-fixes`
    says; `[~]` only with --unsafe-fixes; `[?]` fixes to choose from), or as JSON."""
    counts = rule_counts(results)
    if output_format == "json":
        items = [
            {
                "code": c.code,
                "title": c.title,
                "severity": c.severity.value,
                "count": c.count,
                "fixable": c.fixable,
                "mark": c.mark,
            }
            for c in counts
        ]
        return json.dumps(items, indent=2, ensure_ascii=False) + "\n"
    if not counts:
        return ""
    count_width = max(len(str(c.count)) for c in counts)
    code_width = max(len(c.code) for c in counts)
    severity_width = max(len(c.severity.value) for c in counts)
    return "".join(
        f"{c.count:>{count_width}}\t{c.code:<{code_width}}\t"
        f"{c.severity.value:<{severity_width}}\t{c.mark + ' ' if c.mark else ''}{c.title}\n"
        for c in counts
    )


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def summary(results: Sequence[FileResult], suppressed: int = 0, show_fixes: bool = False) -> str:
    """The closing lines of the text report (no final newline): the findings by severity and
    in how many of the files checked (every file the run judged: workflows and, in a folder
    walked, the node-type definitions of its site), then one line per fix mark found: how many
    `--fix` fixes, how many more only `--unsafe-fixes` would fix, how many have fixes to
    choose from (listed above with `show_fixes`)."""
    counts = {severity: 0 for severity in Severity}
    marks: Counter[str] = Counter()
    with_findings = 0
    for result in results:
        with_findings += bool(result.findings)
        for finding in result.findings:
            counts[finding.severity] += 1
            marks[fix_mark(finding, result.unsafe_fixes, result.fixable)] += 1
    parts = [_plural(n, s.value) for s, n in counts.items() if n]
    checked = len(results)
    if not parts:
        text = f"no problems in {_plural(checked, 'file')}"
    elif with_findings == checked:
        text = f"{', '.join(parts)} in {_plural(checked, 'file')}"
    else:
        text = f"{', '.join(parts)} in {with_findings} of {_plural(checked, 'file')}"
    if suppressed:
        text += f"; {suppressed} more suppressed by the baseline"
    fixable, unsafe, choices = (
        marks[FIXED_BY_FIX],
        marks[FIXED_BY_UNSAFE_FIXES],
        marks[FIXES_TO_CHOOSE],
    )
    if fixable:
        text += f"\n{FIXED_BY_FIX} {fixable} fixable with --fix (see them with --diff)"
    if unsafe:
        more = "more " if fixable else ""
        text += f"\n{FIXED_BY_UNSAFE_FIXES} {unsafe} {more}fixable with --fix --unsafe-fixes"
    if choices:
        verb = "have" if choices != 1 else "has"
        where = "listed above" if show_fixes else "or list them with --show-fixes"
        text += (
            f"\n{FIXES_TO_CHOOSE} {choices} {verb} fixes to choose from: in your editor, {where}"
        )
    return text


def fix_summary(display: str, fixed: int, edits: int, renames_only: bool, passes: int) -> str:
    """What `--fix` changed in one file, and how many findings that fixed: a CMP-9 rename of a
    tool is one edit per tool renamed, shared by the findings of the tools it collided with;
    another rule's fixes are counted as changes. `passes`: the runs it took (a fix can
    uncover another, as removing a branch leaves the edges out of it)."""
    what = (
        f"renamed {_plural(edits, 'tool')}" if renames_only else f"made {_plural(edits, 'change')}"
    )
    after = f" in {passes} passes" if passes > 1 else ""
    return f"{what} in {display}, fixing {_plural(fixed, 'finding')}{after}"
