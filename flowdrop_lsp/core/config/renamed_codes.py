"""Rule codes that were renamed, and what they are now.

A code is renamed when a rule turns out to be the spec's own (issue 26: FD-TOOLBOX-CYCLE is
DATA-10). The old code keeps working wherever a user wrote it — `ignore`, `select`,
`per-file-ignores`, `severity`, `--select`/`--ignore`, `flowdrop-lsp rule` — and a baseline
written before the rename still matches: fingerprints are taken with the old code
(core/config/baseline.py), so that renaming a rule never turns a baselined finding into a new one.
"""

from __future__ import annotations

RENAMED_CODES: dict[str, str] = {"FD-TOOLBOX-CYCLE": "DATA-10"}
# The code a fingerprint is taken with: the first one the rule had.
FINGERPRINT_CODES: dict[str, str] = {new: old for old, new in RENAMED_CODES.items()}


def current_code(code: str) -> str:
    """`code` as it is called today (itself unless renamed)."""
    return RENAMED_CODES.get(code, code)
