"""`--max-warnings`: how many warnings a run may report before it fails (ESLint's option), from
the command line or the settings' `max-warnings`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from flowdrop_lsp.cli.fixing import Checked
from flowdrop_lsp.cli.formats import FileResult
from flowdrop_lsp.core.facade import Severity


def warning_limit(text: str) -> int:
    """`--max-warnings N`'s value: a whole number, 0 or more (argparse reports anything else)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number, 0 or more: {text!r}")
    return value


def warnings_over(
    args: argparse.Namespace, checked: Sequence[Checked], results: Sequence[FileResult]
) -> str | None:
    """What to say when the run reports more warnings than allowed: `--max-warnings`, else the
    strictest `max-warnings` of the checked files' settings (one project file usually sets it
    for all); None when within it, or when none is set. What is counted is what is reported
    (a baselined or ignored warning is not)."""
    limit = args.max_warnings
    if limit is None:
        limit = min(
            (n for n in (slot.file.settings.max_warnings for slot in checked) if n is not None),
            default=None,
        )
    if limit is None:
        return None
    count = sum(f.severity == Severity.WARNING for r in results for f in r.findings)
    if count <= limit:
        return None
    plural = "s" if count != 1 else ""
    return f"flowdrop-lsp: {count} warning{plural}, more than the {limit} allowed (max-warnings)"
