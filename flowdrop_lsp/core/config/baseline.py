"""Finding fingerprints, and the baseline file built from them.

A fingerprint identifies a finding across runs by what the finding is about, never by where it
is or how it is worded: an edit elsewhere in the file (lines inserted above, a node moved) or a
reworded message (a "did you mean" added) keeps it. SARIF's `partialFingerprints`
(cli/formats.py) and the baseline use the same one.

The baseline (`flowdrop-lsp check --write-baseline FILE`) records today's findings, so that a
project adopting a rule late sees only new ones: JSON has no comments to suppress a finding in
place. `check --baseline FILE` reports only the findings the file does not list, and counts the
others. Paths in the file are relative to the file's own folder, so that it means the same
wherever `check` runs from; each entry keeps the code and message for the human reading a diff.

A run may check only some files (pre-commit passes the staged ones): an entry is stale only when
its file was checked and no finding matched it, and `--write-baseline` rewrites the entries of
the files checked, keeping those of the other files that still exist.

Version 1 of the file held fingerprints taken from the message (digits stripped), which every
rewording broke. Version 2 holds the structural ones. A version-1 file is still read: its
entries are matched against the findings' version-1 fingerprints (`message_fingerprints`, kept
for that alone), and a rewrite keeps the version-1 entries of the files it did not check as
`fingerprint_v1`, matched the same way until those files are checked and written again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from flowdrop_lsp.core.config.renamed_codes import FINGERPRINT_CODES
from flowdrop_lsp.core.findings import Finding

FORMAT_KEY = "flowdrop-lsp-baseline"
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, FORMAT_VERSION)
# An entry of a version-2 file carried over from a version-1 file (its file not checked since).
V1_FINGERPRINT = "fingerprint_v1"

# A locator's position in an array (`edge.3`, `schema.input.2`) moves when an item is inserted
# above: the fingerprint keeps the array and takes the item's identity from `Finding.identity`.
_POSITIONAL_LOCATOR = re.compile(r"^(edge|schema\.[^.]+)\.\d+$")


def _tool_name_facts(finding: Finding) -> list[str] | None:
    """Rules that name a tool (CMP-9, FD-LLM-NAME, FD-TOOL-ROUTE) are identified by it and
    their consumer (CMP-9 findings per consumer, or one finding with a list of consumers: a new
    consumer joining a collision keeps the alert). None for the other rules."""
    extra = finding.extra_dict()
    if not isinstance(extra.get("tool_name"), str):
        return None
    facts = [extra["tool_name"]]
    if isinstance(extra.get("consumer"), str):
        facts.append(extra["consumer"])
    return facts


def fingerprint_facts(finding: Finding, where: str) -> tuple[str, ...]:
    """What identifies a finding across runs: its rule (the first code of a renamed rule,
    core/config/renamed_codes.py, so that a rename keeps it), the file (`where`), the node it
    is about, and its structural place — the spec's locator code and locator without array
    positions, and its `identity` (a config path, an edge's ends, a name). Never its position
    in the text, nor its message: a reworded message is the same finding. A tool-name rule's
    facts are its tool name and consumer, as they always were."""
    facts = [FINGERPRINT_CODES.get(finding.code, finding.code), where, finding.node or ""]
    tool_facts = _tool_name_facts(finding)
    if tool_facts is not None:
        return (*facts, *tool_facts)
    locator = finding.locator or ""
    return (
        *facts,
        finding.locator_code or "",
        _POSITIONAL_LOCATOR.sub(r"\1", locator),
        *finding.identity,
    )


def message_fingerprint_facts(finding: Finding, where: str) -> tuple[str, ...]:
    """The version-1 facts, only to match the entries of a version-1 baseline: as today's, but
    the message (digits stripped: `nodes[3]` shifts when something is inserted above) where
    today's take the structural place. Rewording a message changed them."""
    facts = [FINGERPRINT_CODES.get(finding.code, finding.code), where, finding.node or ""]
    tool_facts = _tool_name_facts(finding)
    if tool_facts is not None:
        return (*facts, *tool_facts)
    return (*facts, re.sub(r"\d+", "", finding.message))


def _fingerprint(facts: tuple[str, ...], occurrence: int) -> str:
    digest = hashlib.sha256("\0".join(facts).encode("utf-8", "surrogatepass")).hexdigest()
    # The occurrence number tells apart findings whose facts are equal (as CodeQL's
    # primaryLocationLineHash does); it counts in document order, which unrelated edits keep.
    return f"{digest[:32]}:{occurrence}"


def _numbered(
    findings: Iterable[Finding],
    where: str,
    facts_of: Callable[[Finding, str], tuple[str, ...]],
) -> list[str]:
    occurrences: Counter[tuple[str, ...]] = Counter()
    result = []
    for finding in findings:
        facts = facts_of(finding, where)
        occurrences[facts] += 1
        result.append(_fingerprint(facts, occurrences[facts]))
    return result


def fingerprints(findings: Iterable[Finding], where: str) -> list[str]:
    """The fingerprint of each of one file's findings (all of them, in document order: the
    occurrence numbers count equal facts)."""
    return _numbered(findings, where, fingerprint_facts)


def message_fingerprints(findings: Iterable[Finding], where: str) -> list[str]:
    """The version-1 fingerprint of each of one file's findings: only to read a version-1
    baseline (`message_fingerprint_facts`)."""
    return _numbered(findings, where, message_fingerprint_facts)


class BaselineError(ValueError):
    """The baseline file cannot be read, or is not one; the message names it."""


def baseline_path_key(path: str, folder: Path) -> str:
    """How the baseline in `folder` names the file `path` (as the user named it): POSIX,
    relative to `folder` (`../x.json` for a file beside it)."""
    return Path(os.path.relpath(os.path.abspath(path), folder)).as_posix()


# An entry of the file as matched: (path key, fingerprint version, fingerprint).
Entry = tuple[str, int, str]


def _entry(item: dict[str, object]) -> Entry | None:
    """An item of a version-2 file as an entry: its fingerprint, or the version-1 one it was
    carried over with; None when it has neither (or both)."""
    path, current, old = item.get("path"), item.get("fingerprint"), item.get(V1_FINGERPRINT)
    if not isinstance(path, str):
        return None
    if isinstance(current, str) and old is None:
        return path, FORMAT_VERSION, current
    if isinstance(old, str) and current is None:
        return path, 1, old
    return None


def _carried_over(item: dict[str, object]) -> dict[str, object]:
    """An item of a version-1 file as a version-2 file keeps it: its fingerprint named
    version-1, so that a rewrite which does not check its file keeps matching it."""
    return {(V1_FINGERPRINT if key == "fingerprint" else key): value for key, value in item.items()}


@dataclass
class Baseline:
    """The findings a baseline file lists: (path key, fingerprint version, fingerprint) → how
    many times."""

    folder: Path
    entries: Counter[Entry] = field(default_factory=Counter)
    used: Counter[Entry] = field(default_factory=Counter)
    checked: set[str] = field(default_factory=set)  # path keys of the files split (counted)
    # The file's entries as a version-2 file keeps them (a version-1 file's carried over).
    items: list[dict[str, object]] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> Baseline:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise BaselineError(f"cannot read the baseline {path}: {error}") from None
        version = data.get(FORMAT_KEY) if isinstance(data, dict) else None
        items = data.get("findings") if isinstance(data, dict) else None
        if (
            # (JSON's `true` reads as a bool, which Python counts as 1: not a version.)
            type(version) is int
            and version in READABLE_VERSIONS
            and isinstance(items, list)
            and all(isinstance(item, dict) for item in items)
        ):
            if version == 1:
                items = [_carried_over(item) for item in items]
            entries = [_entry(item) for item in items]
            if all(entry is not None for entry in entries):
                baseline = cls(path.resolve().parent, items=items)
                baseline.entries.update(entry for entry in entries if entry is not None)
                return baseline
        raise BaselineError(
            f"{path} is not a flowdrop-lsp baseline (write one with --write-baseline)"
        )

    def split(
        self, path: str, findings: Sequence[Finding], *, count: bool = True
    ) -> tuple[tuple[Finding, ...], int]:
        """The findings of the file `path` the baseline does not list, and how many it does.
        With `count`, the listed ones are used up (a file checked again, e.g. after `--fix`,
        is split with `count=False` first). A finding matches an entry by its fingerprint, or
        an entry of a version-1 file by its version-1 fingerprint."""
        key = baseline_path_key(path, self.folder)
        prints = fingerprints(findings, key)
        # Taken only when the file has version-1 entries (a message per finding costs little,
        # but most baselines never need it).
        has_v1 = any(entry[0] == key and entry[1] == 1 for entry in self.entries)
        old_prints = message_fingerprints(findings, key) if has_v1 else [""] * len(prints)
        used: Counter[Entry] = Counter()
        kept = []
        for finding, print_, old_print in zip(findings, prints, old_prints, strict=True):
            for entry in ((key, FORMAT_VERSION, print_), (key, 1, old_print)):
                if used[entry] < self.entries[entry]:
                    used[entry] += 1
                    break
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
        return sum(n for (path, _, _), n in stale.items() if path in self.checked)

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
        key=lambda item: (
            str(item["path"]),
            str(item.get("code")),
            str(item.get("fingerprint", item.get(V1_FINGERPRINT))),
        )
    )
    data = {FORMAT_KEY: FORMAT_VERSION, "findings": items}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
