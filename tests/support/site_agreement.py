"""Whether the language server publishes, for every file of a site, what `flowdrop-lsp check
--no-cache` reports for it: both sides normalised to comparable findings (where, code, severity,
message) and the server's latest publishes waited for until they equal the CLI's.

The CLI runs as a subprocess (`python -m flowdrop_lsp check --no-cache --format json FOLDER`,
forked from the fork server of tests/support/forks.py): a fresh process, no cache, the same settings files found the same way. It runs in an empty
folder of its own, outside the site, so that it shows every path whole, as the server does
(run inside the workspace, it would show them relative to it, in its paths and in messages
that name a folder, such as FD-UNKNOWN-NODE-TYPE's "definitions from config/sync"). Its
positions (0-based lines, code-point columns into the text it read) are converted to the
session's position encoding with the text on disk, read as the CLI reads it (a file that is
not UTF-8 with replacement characters).

Files are keyed by their path exactly as spelt (a `file:` URI's path, unquoted; the CLI's
path, whole): the same file published under two spellings is two files, so a duplicate under
another spelling is seen, not merged away.

Waiting is a liveness wait (AGREE_WAIT, an upper bound, never the expected time); on timeout
the test fails with the difference, file by file.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from lsprotocol import types

from flowdrop_lsp.core.text.positions import LineIndex
from tests.support.forks import FORKS
from tests.support.lsp import Publishes, Session

# An upper bound for the server to catch up, not a speed assertion: CI machines under load ran
# the suite 2x slower than a quiet one.
AGREE_WAIT = 30.0

# As `python -m flowdrop_lsp check …`, forked from the fork server (tests/support/forks.py): a
# fresh process without the import time.
CHECK = FORKS.command("flowdrop_lsp", "check", "--no-cache", "--format", "json")

# The CLI's severities as LSP numbers (lsprotocol's DiagnosticSeverity).
SEVERITY = {"error": 1, "warning": 2, "info": 3, "hint": 4}


@dataclass(frozen=True, order=True)
class Shown:
    """One diagnostic as either side shows it: its range (0-based line and column in the
    session's position encoding), code, severity (LSP's number) and message."""

    start: tuple[int, int]
    end: tuple[int, int]
    code: str
    severity: int
    message: str

    def __str__(self) -> str:
        (sl, sc), (el, ec) = self.start, self.end
        return f"{sl}:{sc}-{el}:{ec} [{self.severity}] {self.code} {self.message}"

    @classmethod
    def of(cls, diagnostic: types.Diagnostic) -> Shown:
        rng = diagnostic.range
        severity = diagnostic.severity
        return cls(
            (rng.start.line, rng.start.character),
            (rng.end.line, rng.end.character),
            str(diagnostic.code),
            int(severity) if severity is not None else 0,
            diagnostic.message,
        )


# A file's path as spelt → its findings, sorted; a file with none is not in it.
Report = dict[str, tuple[Shown, ...]]


def path_of_uri(uri: str) -> str:
    """The path a `file:` URI names, as spelt (`..` and symlinks kept)."""
    return unquote(urlparse(uri).path)


def text_as_check_reads(path: str) -> str:
    """The text `check` counts positions in: the file's UTF-8 text, or, for a file that is not
    UTF-8, its bytes decoded with replacement characters (cli/main.py)."""
    return Path(path).read_bytes().decode("utf-8", "replace")


def _converted(lines: LineIndex, at: dict[str, int], encoding: str) -> tuple[int, int]:
    offset = lines.offset(at["line"], at["character"])
    return lines.position(offset, encoding)  # type: ignore[arg-type]


async def check_report(folders: Sequence[Path], encoding: str) -> Report:
    """What `flowdrop-lsp check --no-cache --format json FOLDERS…` (absolute paths) reports,
    positions in `encoding`."""
    FORKS.start()
    with tempfile.TemporaryDirectory(prefix="flowdrop-check-") as cwd:
        process = await asyncio.create_subprocess_exec(
            *CHECK,
            *(str(folder) for folder in folders),
            cwd=cwd,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await process.communicate()
    if process.returncode not in (0, 1):  # 1: errors found; anything else is no report
        raise AssertionError(f"check exited {process.returncode}: {err.decode(errors='replace')}")
    found: dict[str, list[Shown]] = {}
    lines: dict[str, LineIndex] = {}
    for item in json.loads(out):
        path = item["path"]
        assert os.path.isabs(path), f"check showed {path!r} relative to its empty folder"
        if path not in lines:
            lines[path] = LineIndex(text_as_check_reads(path))
        index = lines[path]
        found.setdefault(path, []).append(
            Shown(
                _converted(index, item["range"]["start"], encoding),
                _converted(index, item["range"]["end"], encoding),
                item["code"],
                SEVERITY[item["severity"]],
                item["message"],
            )
        )
    return {path: tuple(sorted(shown)) for path, shown in found.items()}


def published_report(publishes: Publishes) -> Report:
    """The server's latest publish for every file it published, files with none left out (an
    empty publish clears a file)."""
    report: Report = {}
    for uri, params in publishes.by_uri.items():
        latest = params[-1]
        if latest.diagnostics:
            report[path_of_uri(uri)] = tuple(sorted(Shown.of(d) for d in latest.diagnostics))
    return report


def difference(check: Report, server: Report) -> str:
    """File by file, what `check` reports and the server does not publish (-), and what the
    server publishes and `check` does not report (+)."""
    out: list[str] = []
    for path in sorted(set(check) | set(server)):
        wanted, got = Counter(check.get(path, ())), Counter(server.get(path, ()))
        missing, extra = wanted - got, got - wanted
        if not missing and not extra:
            continue
        out.append(path)
        out.extend(f"  - check reports, server does not: {s}" for s in sorted(missing.elements()))
        out.extend(f"  + server publishes, check does not: {s}" for s in sorted(extra.elements()))
    return "\n".join(out)


async def until_agreed(
    session: Session,
    folders: Sequence[Path],
    timeout: float = AGREE_WAIT,
    step: str = "",
) -> Report:
    """Wait until the server's latest publishes equal what `check --no-cache FOLDERS…` reports
    now, for every file: a file `check` reports nothing for has no diagnostics (or an empty
    publish). Answer the CLI's report; fail with the difference on timeout."""
    expected = await check_report(folders, session.encoding)
    publishes = session.publishes

    async def agreed() -> None:
        while published_report(publishes) != expected:
            publishes.changed.clear()
            await publishes.changed.wait()

    try:
        await asyncio.wait_for(agreed(), timeout)
    except (asyncio.TimeoutError, TimeoutError):
        where = f" after {step}" if step else ""
        pytest.fail(
            f"the server's diagnostics{where} are not what `check --no-cache` reports "
            f"(waited {timeout:.0f} s; '-' only check, '+' only the server):\n"
            + difference(expected, published_report(publishes)),
            pytrace=False,
        )
    return expected


def watched(session: Session, *changes: tuple[Path | str, types.FileChangeType]) -> None:
    """Send `workspace/didChangeWatchedFiles` for `changes` (a path is sent as spelt: a
    `Path`'s `as_uri`, or a `file:` URI given as a string)."""
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(uri=where if isinstance(where, str) else where.as_uri(), type=kind)
                for where, kind in changes
            ]
        )
    )
