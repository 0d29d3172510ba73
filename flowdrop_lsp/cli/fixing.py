"""`check --fix` and `--diff` until nothing changes, as Ruff fixes: a fix can uncover another
(removing a dead gateway branch leaves the edges out of it, which the next look finds), so the
files are checked again after each pass and fixed again, up to `MAX_FIX_PASSES`.

Each pass asks the host for every file's findings as they are now: a file fixed in this run is
analysed afresh and its site told (`Host.refresh`), so a fix in one file changes the
cross-file findings of the others before their turn. A pass writes (`--fix`) only the files
whose text it changed; `--diff` writes nothing and shows each file's first text against its
last.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from flowdrop_lsp.cli.formats import FileFailure
from flowdrop_lsp.cli.report import ReadOnlyError, Reporter, err, write_atomically
from flowdrop_lsp.cli.text import fix_summary
from flowdrop_lsp.core.facade import (
    RULES_BY_CODE,
    CheckedFile,
    Finding,
    Host,
    apply_edits,
    preferred_edits,
)

# Enough for any chain a rule makes today (two passes: a branch, then its edges); a run that
# still changes files after this many is reported rather than looped for ever.
MAX_FIX_PASSES = 10


@dataclass
class Checked:
    """One file checked: `walked` as the walk gave it (where fixes are written), `display` as
    reported, `file` what the host checks (its path resolved; replaced when a fix changes it),
    `unsafe` whether `--fix` applies its unsafe fixes (`--unsafe-fixes`, else its settings')."""

    walked: Path
    display: str
    file: CheckedFile
    unsafe: bool = False
    original: str = field(init=False)
    # What `--fix` did to it over the run: edits applied, findings fixed, passes that changed
    # it, and whether every fix was a CMP-9 rename (said as "renamed N tools").
    edits: int = field(default=0, init=False)
    fixed: int = field(default=0, init=False)
    passes: int = field(default=0, init=False)
    renames_only: bool = field(default=True, init=False)
    # A file `--fix` could not write: left as it is on disk for the rest of the run.
    stuck: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        self.original = self.file.text

    @property
    def applies_fixes(self) -> bool:
        """Whether `--fix` changes this file: every kind (a node-type definition too: the
        registries and its site read the fixed text, and its folder's workflows are judged
        again, `Host.rejudge`), but not standard input's, which the report only names."""
        return True

    @property
    def fixable(self) -> bool:
        """Whether the loop still fixes this file (not when it could not be written)."""
        return self.applies_fixes and not self.stuck


@dataclass(frozen=True)
class FixRun:
    """How the loop ended: the passes run, whether it stopped at the cap with fixes still
    changing files, and the files that could not be written."""

    passes: int
    capped: bool
    failures: tuple[FileFailure, ...]


def _renames_tools(finding: Finding) -> bool:
    """Whether the finding's fix renames a tool (its rule says so: CMP-9)."""
    rule = RULES_BY_CODE.get(finding.code)
    return rule is not None and rule.fixes_rename_tools


def _taken(findings: Sequence[Finding], edits: Sequence[object], unsafe: bool) -> list[Finding]:
    """The findings whose applied fix was taken whole (one conflicting with a fix taken before
    it waits for the next pass)."""
    taken = set(edits)
    return [
        f
        for f in findings
        if (fix := f.applied_fix(unsafe)) is not None and taken.issuperset(fix.edits)
    ]


def _next_text(slot: Checked, host: Host, reporter: Reporter) -> tuple[str, int, list[Finding]]:
    """The file's text with the fixes of its reported findings applied (fixes apply only to
    what is reported: a finding the baseline lists is left alone), the edits applied and the
    findings they fix; the text unchanged when there is nothing to fix."""
    text = slot.file.text
    reported = reporter.peek(slot.display, host.findings(slot.file.path))
    edits = preferred_edits(reported, slot.unsafe)
    if not edits:
        return text, 0, []
    return apply_edits(text, edits), len(edits), _taken(reported, edits, slot.unsafe)


def fix_until_stable(
    slots: Sequence[Checked],
    host: Host,
    reporter: Reporter,
    *,
    write: bool,
    max_passes: int = MAX_FIX_PASSES,
) -> FixRun:
    """Fix `slots` pass after pass until a pass changes nothing (or `max_passes`); with
    `write`, each pass writes the files it changed (standard input never: its caller prints
    the last text)."""
    failures: list[FileFailure] = []
    for number in range(1, max_passes + 1):
        changed = False
        for slot in slots:
            if not slot.fixable:
                continue
            fixed, edits, findings = _next_text(slot, host, reporter)
            if fixed == slot.file.text:
                continue
            if write and not slot.file.is_stdin:
                try:
                    write_atomically(slot.walked, fixed)
                except ReadOnlyError as error:
                    failure = f"cannot fix {slot.display}: {error}"
                except OSError as error:
                    failure = f"cannot write {slot.display}: {error}"
                else:
                    failure = ""
                if failure:
                    failures.append(FileFailure(slot.display, failure))
                    slot.stuck = True
                    continue
            # Analysed afresh (never from the cache): the file as it is now, its site told.
            slot.file = host.refresh(slot.file, fixed)
            if slot.file.is_node_type:
                # The workflows of its folder are judged with it (R6's parameters, roles).
                folder = slot.file.path.parent
                for other in slots:
                    if other is not slot and other.file.path.parent == folder:
                        other.file = host.rejudge(other.file)
            slot.edits += edits
            slot.fixed += len(findings)
            slot.passes += 1
            slot.renames_only &= all(_renames_tools(f) for f in findings)
            changed = True
        if not changed:
            return FixRun(number, False, tuple(failures))
    # At the cap: stopped early only if one more pass would still change a file.
    capped = any(
        slot.fixable and _next_text(slot, host, reporter)[0] != slot.file.text for slot in slots
    )
    return FixRun(max_passes, capped, tuple(failures))


def fix_and_say(
    checked: list[Checked], host: Host, reporter: Reporter, *, write: bool
) -> tuple[list[FileFailure], bool]:
    """`--fix` (`write`) / `--diff`: every file fixed until nothing changes; on stderr, each
    file `--fix` changed, each it could not write, and a stop at the cap. The files not
    written, and whether the passes stopped at their cap with fixes still to make."""
    run = fix_until_stable(checked, host, reporter, write=write)
    for failure in run.failures:
        print(f"flowdrop-lsp: {failure.message}", file=sys.stderr)
    if write:
        for slot in checked:
            if slot.edits and not slot.file.is_stdin:
                said = fix_summary(
                    slot.display, slot.fixed, slot.edits, slot.renames_only, slot.passes
                )
                err(said)
    if run.capped:
        passes = f"{run.passes} pass{'es' if run.passes != 1 else ''}"
        err(
            f"flowdrop-lsp: fixes still change files after {passes}; stopped there (what is "
            "left is reported)"
        )
    return list(run.failures), run.capped


def diff_of(checked: Sequence[Checked], order: Callable[[str], tuple[str, ...]]) -> str:
    """`--diff`: each file's text as read against its text fixed, files in report `order`."""
    diffs = []
    for slot in sorted(checked, key=lambda slot: order(slot.display)):
        if slot.file.text != slot.original:
            before = slot.original.splitlines(keepends=True)
            after = slot.file.text.splitlines(keepends=True)
            diffs.append("".join(difflib.unified_diff(before, after, slot.display, slot.display)))
    return "".join(diffs)
