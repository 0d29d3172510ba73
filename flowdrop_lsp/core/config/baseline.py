"""Finding fingerprints, and the baseline file built from them.

A fingerprint identifies a finding across runs without its position, so that an edit elsewhere
in the file (lines inserted above, a node moved) keeps it: SARIF's `partialFingerprints`
(cli/formats.py) and the baseline use the same one.

The baseline (`flowdrop-lsp check --write-baseline FILE`) records today's findings, so that a
project adopting a rule late sees only new ones: JSON has no comments to suppress a finding in
place. `check --baseline FILE` reports only the findings the file does not list, and counts the
others. Paths in the file are relative to the file's own folder, so that it means the same
wherever `check` runs from; each entry keeps the code and message for the human reading a diff.

A run may check only some files (pre-commit passes the staged ones): an entry is stale only when
its file was checked and no finding matched it, and `--write-baseline` rewrites the entries of
the files checked, keeping those of the other files that still exist.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from flowdrop_lsp.core.config.renamed_codes import FINGERPRINT_CODES
from flowdrop_lsp.core.findings import Finding

FORMAT_KEY = "flowdrop-lsp-baseline"
FORMAT_VERSION = 1


def fingerprint_facts(finding: Finding, where: str) -> tuple[str, ...]:
    """What identifies a finding across runs, without positions: an edit elsewhere moves it but
    is the same finding. `where` names the file. Rules that name a tool (CMP-9, FD-LLM-NAME)
    are identified by it and their consumer (CMP-9 findings per consumer, or one finding with a
    list of consumers: a new consumer joining a collision keeps the alert); others by their
    message, without digits (indexes like `nodes[3]` shift when something is inserted above)."""
    extra = finding.extra_dict()
    # (A renamed rule's findings keep the fingerprints they had: core/config/renamed_codes.py.)
    facts = [FINGERPRINT_CODES.get(finding.code, finding.code), where, finding.node or ""]
    if isinstance(extra.get("tool_name"), str):
        facts.append(extra["tool_name"])
        if isinstance(extra.get("consumer"), str):
            facts.append(extra["consumer"])
    else:
        facts.append(re.sub(r"\d+", "", finding.message))
    return tuple(facts)


def _fingerprint(facts: tuple[str, ...], occurrence: int) -> str:
    digest = hashlib.sha256("\0".join(facts).encode("utf-8", "surrogatepass")).hexdigest()
    # The occurrence number tells apart findings whose facts are equal (as CodeQL's
    # primaryLocationLineHash does); it counts in document order, which unrelated edits keep.
    return f"{digest[:32]}:{occurrence}"


def fingerprints(findings: Iterable[Finding], where: str) -> list[str]:
    """The fingerprint of each of one file's findings (all of them, in document order: the
    occurrence numbers count equal facts)."""
    occurrences: Counter[tuple[str, ...]] = Counter()
    result = []
    for finding in findings:
        facts = fingerprint_facts(finding, where)
        occurrences[facts] += 1
        result.append(_fingerprint(facts, occurrences[facts]))
    return result


class BaselineError(ValueError):
    """The baseline file cannot be read, or is not one; the message names it."""


def baseline_path_key(path: str, folder: Path) -> str:
    """How the baseline in `folder` names the file `path` (as the user named it): POSIX,
    relative to `folder` (`../x.json` for a file beside it)."""
    return Path(os.path.relpath(os.path.abspath(path), folder)).as_posix()


@dataclass
class Baseline:
    """The findings a baseline file lists: (path key, fingerprint) → how many times."""

    folder: Path
    entries: Counter[tuple[str, str]] = field(default_factory=Counter)
    used: Counter[tuple[str, str]] = field(default_factory=Counter)
    checked: set[str] = field(default_factory=set)  # path keys of the files split (counted)
    items: list[dict[str, object]] = field(default_factory=list)  # the file's entries as read

    @classmethod
    def read(cls, path: Path) -> Baseline:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise BaselineError(f"cannot read the baseline {path}: {error}") from None
        items = data.get("findings") if isinstance(data, dict) else None
        if (
            not isinstance(data, dict)
            or data.get(FORMAT_KEY) != FORMAT_VERSION
            or not isinstance(items, list)
            or not all(
                isinstance(item, dict)
                and isinstance(item.get("path"), str)
                and isinstance(item.get("fingerprint"), str)
                for item in items
            )
        ):
            raise BaselineError(
                f"{path} is not a flowdrop-lsp baseline (write one with --write-baseline)"
            )
        baseline = cls(path.resolve().parent, items=items)
        baseline.entries.update((item["path"], item["fingerprint"]) for item in items)
        return baseline

    def split(
        self, path: str, findings: Sequence[Finding], *, count: bool = True
    ) -> tuple[tuple[Finding, ...], int]:
        """The findings of the file `path` the baseline does not list, and how many it does.
        With `count`, the listed ones are used up (a file checked again, e.g. after `--fix`,
        is split with `count=False` first)."""
        key = baseline_path_key(path, self.folder)
        used: Counter[tuple[str, str]] = Counter()
        kept = []
        for finding, print_ in zip(findings, fingerprints(findings, key), strict=True):
            entry = (key, print_)
            if used[entry] < self.entries[entry]:
                used[entry] += 1
            else:
                kept.append(finding)
        if count:
            self.used.update(used)
            self.checked.add(key)
        return tuple(kept), sum(used.values())

    @property
    def unmatched(self) -> int:
        """Entries of the files checked that no finding of this run matched (fixed since).
        The entries of files this run did not check are not counted: they may well match."""
        stale = self.entries - self.used
        return sum(n for (path, _), n in stale.items() if path in self.checked)

    def kept_items(self, checked: Iterable[str]) -> list[dict[str, object]]:
        """The entries to keep when a run that checked the files `checked` (as the user named
        them) rewrites the baseline: those of the other files, if the file still exists."""
        rewritten = {baseline_path_key(path, self.folder) for path in checked}
        return [
            item
            for item in self.items
            if item["path"] not in rewritten and (self.folder / str(item["path"])).is_file()
        ]


def baseline_json(
    files: Iterable[tuple[str, Sequence[Finding]]],
    folder: Path,
    kept: Iterable[dict[str, object]] = (),
) -> str:
    """The baseline file, in `folder`, listing every finding of `files` ((path as the user
    named it, findings) pairs) and the `kept` entries of an earlier one, sorted so that
    rewriting it gives a readable diff."""
    items: list[dict[str, object]] = list(kept)
    for path, findings in files:
        key = baseline_path_key(path, folder)
        for finding, print_ in zip(findings, fingerprints(findings, key), strict=True):
            items.append(
                {
                    "path": key,
                    "code": finding.code,
                    "fingerprint": print_,
                    "message": finding.message,
                }
            )
    items.sort(
        key=lambda item: (str(item["path"]), str(item.get("code")), str(item["fingerprint"]))
    )
    data = {FORMAT_KEY: FORMAT_VERSION, "findings": items}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
