"""Rule cases (tests/cases, docs/architecture.md "Rule cases"): a workflow file per case, in a
folder named after the rule it is a case of, judged by `flowdrop-lsp check --select CODE` run in
this process from tests/cases, so with the settings a `flowdrop-lsp.toml` there gives. Beside
each case, its reviewed snapshots:

- `<case>.findings.txt`: the text report with `--show-fixes`, as printed, then what the json
  report adds (each finding's range and the text it covers, related locations, locator, the
  rule's extra keys, each fix's operations);
- `<case>.fix.diff`, when a finding has a fix: what `check --fix` (and `--unsafe-fixes`, when it
  does more) makes of the file, as a unified diff, and each fix alone; each followed by the
  rule's findings left after it.

A JSON case has a YAML twin, `<case>.yml`: the same data as Drupal writes config (Symfony's YAML
dumper, as Drupal calls it; tests/support/php/drupal_yaml.php), with its own snapshots (its
positions are its own). `UPDATE_GOLDEN=1` writes the snapshots and the twins (the twins need
Symfony's YAML: `make oracle-deps`); without it a missing or different snapshot fails."""

from __future__ import annotations

import contextlib
import difflib
import functools
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.workspace import node_types
from flowdrop_lsp.core.workspace.resolver import SettingsResolver
from flowdrop_lsp.entry import main
from tests.support.builders import REPO
from tests.support.symfony_yaml import require_symfony_yaml

CASES = REPO / "tests" / "cases"
REPOSITORY = "<repository>"
JSON_SUFFIX = ".json"
YAML_SUFFIX = ".yml"
FINDINGS_SUFFIX = ".findings.txt"
FIXES_SUFFIX = ".fix.diff"
_DUMPER = Path(__file__).with_name("php") / "drupal_yaml.php"
# The keys of a json report's finding that the details below show their own way (or not at all:
# the path and the rule's page are the same for every finding of a case).
_SHOWN_KEYS = frozenset(
    {"path", "code", "severity", "message", "range", "node", "locator_code", "locator"}
    | {"fixes", "related", "url"}
)
# How much of the text a range covers the details show.
_COVERED_SHOWN = 60


def updating() -> bool:
    """Whether this run writes snapshots and twins instead of comparing them."""
    return os.environ.get("UPDATE_GOLDEN") == "1"


@dataclass(frozen=True, order=True)
class Case:
    """A case file: `name` is its path under `root` (`CMP-9/three_way.json`), whose first
    folder names the rule."""

    name: str
    root: Path = CASES

    def __str__(self) -> str:
        return self.name

    @property
    def code(self) -> str:
        return self.name.split("/", 1)[0]

    @property
    def path(self) -> Path:
        return self.root / self.name

    @property
    def findings_snapshot(self) -> Path:
        return self.root / (self.name + FINDINGS_SUFFIX)

    @property
    def fixes_snapshot(self) -> Path:
        return self.root / (self.name + FIXES_SUFFIX)

    @property
    def twin(self) -> Path | None:
        """The YAML twin's path, for a JSON case."""
        if self.path.suffix != JSON_SUFFIX:
            return None
        return self.path.with_suffix(YAML_SUFFIX)

    @property
    def syntax(self) -> str:
        return "yaml" if self.path.suffix == YAML_SUFFIX else "json"

    def text(self) -> str:
        return self.path.read_bytes().decode("utf-8")


def cases(root: Path = CASES) -> list[Case]:
    """Every case under `root`: its `.json` and `.yml` files."""
    return sorted(
        Case(path.relative_to(root).as_posix(), root)
        for path in root.rglob("*")
        if path.is_file() and path.suffix in (JSON_SUFFIX, YAML_SUFFIX)
    )


# ----- running the checker -------------------------------------------------------------------


@functools.cache
def _resolver(root: Path) -> SettingsResolver:
    return SettingsResolver.for_check(None, root)


def case_settings(case: Case) -> Settings:
    """The settings `check` judges the case with (its folder's settings file, the node types it
    names), through the CLI's own resolver."""
    return _resolver(case.root).for_file(case.path)


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


@contextlib.contextmanager
def _in(root: Path, stdin: str) -> Iterator[tuple[io.StringIO, io.StringIO]]:
    out, err = io.StringIO(), io.StringIO()
    before, saved_stdin = Path.cwd(), sys.stdin
    os.chdir(root)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            yield out, err
    finally:
        sys.stdin = saved_stdin
        os.chdir(before)


# A definition file's read, kept for the process: the node types a folder of cases names (the
# real site's 90, FD-UNKNOWN-NODE-TYPE/) are the same texts in every run, and reading them again
# in each of a case's runs was most of what the runs cost. The read is the checker's own
# (NodeTypeRead is frozen, and nothing changes its tree).
_read_node_type = functools.cache(node_types.read_node_type)


def check(*args: str, stdin: str = "", root: Path = CASES) -> Run:
    """`flowdrop-lsp check --no-cache --jobs 1 ARGS` in this process, from the cases' `root`
    (so that it reports a case by its name, with the settings found there); `stdin` is standard
    input's text. A node-type definition is read once per text (`_read_node_type`)."""
    with _in(root, stdin) as (out, err), pytest.MonkeyPatch.context() as patch:
        patch.setattr(node_types, "read_node_type", _read_node_type)
        code = main(["check", "--no-cache", "--jobs", "1", *args])
    return Run(code, _anywhere(out.getvalue()), _anywhere(err.getvalue()))


def _anywhere(output: str) -> str:
    """`output` with the repository's path (a message names where node types came from) as
    `<repository>`: a snapshot holds wherever the repository is cloned."""
    return output.replace(str(REPO), REPOSITORY)


# ----- the snapshots -------------------------------------------------------------------------


def _line_starts(text: str) -> list[int]:
    """Where each line starts (found here, not by the checker's own line index, which also
    breaks lines at a lone carriage return: a case has none)."""
    assert "\r" not in text.replace("\r\n", ""), "a lone carriage return"
    return [0, *(index + 1 for index, char in enumerate(text) if char == "\n")]


def _offset(starts: list[int], position: dict[str, int]) -> int:
    return starts[position["line"]] + position["character"]


def _where(item: dict[str, Any]) -> str:
    """A json range as `line:column-line:column`, 1-based, columns in code points as the text
    report counts them."""
    start, end = item["range"]["start"], item["range"]["end"]
    return f"{start['line'] + 1}:{start['character'] + 1}-{end['line'] + 1}:{end['character'] + 1}"


def _covered(text: str, starts: list[int], item: dict[str, Any]) -> str:
    """The text a json range covers, its line breaks, tabs and backslashes escaped as in a JSON
    string (its quotes as they are), and cut."""
    shown = text[_offset(starts, item["range"]["start"]) : _offset(starts, item["range"]["end"])]
    escaped = json.dumps(shown, ensure_ascii=False)[1:-1].replace('\\"', '"')
    if len(escaped) > _COVERED_SHOWN:
        escaped = escaped[:_COVERED_SHOWN] + "…"
    return f"`{escaped}`"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _details(text: str, items: list[dict[str, Any]]) -> list[str]:
    """What the json report says beyond the text report, finding by finding."""
    starts = _line_starts(text)
    lines = []
    for item in items:
        head = f"{_where(item)} {item['code']} on {_covered(text, starts, item)}"
        if item["node"] is not None:
            head += f" (node {item['node']})"
        lines.append(head)
        locator = [part for part in (item["locator_code"], item["locator"]) if part is not None]
        if locator:
            lines.append(f"  locator: {' '.join(locator)}")
        for related in item["related"]:
            where = f"{related['path']}:" if "path" in related else ""
            covered = "" if "path" in related else f" on {_covered(text, starts, related)}"
            lines.append(f"  related {where}{_where(related)}{covered}: {related['message']}")
        for key, value in item.items():
            if key not in _SHOWN_KEYS:
                lines.append(f"  {key}: {_compact(value)}")
        for number, fix in enumerate(item["fixes"], 1):
            lines.append(f"  fix {number} operations: {_compact(fix['operations'])}")
            if "destructive" in fix:
                lines.append(f"  fix {number} destructive: {fix['destructive']}")
    return lines


def _report(case: Case) -> tuple[str, list[dict[str, Any]]]:
    """The text report (`--show-fixes`) and the json report's findings of `case`. (Two runs:
    `--output-file` fails on a label holding a lone surrogate, which stdout writes escaped.)"""
    key = (case, case.text())
    if key not in _REPORTS:
        select = ("--select", case.code)
        text_run = check(*select, "--show-fixes", case.name, root=case.root)
        json_run = check(*select, "--format", "json", case.name, root=case.root)
        assert text_run.code in (0, 1) and not text_run.err, text_run
        assert json_run.code == text_run.code and not json_run.err, json_run
        _REPORTS[key] = (text_run.out, json.loads(json_run.out))
    return _REPORTS[key]


# A case's reports, kept while its text is the same: its snapshots and its twin's comparison
# ask for them.
_REPORTS: dict[tuple[Case, str], tuple[str, list[dict[str, Any]]]] = {}


def gist(case: Case) -> list[tuple[Any, ...]]:
    """What the case's findings say, wherever they are: the json report without positions."""
    _, items = _report(case)
    return [
        (
            item["code"],
            item["severity"],
            item["message"],
            item["node"],
            item["locator_code"],
            item["locator"],
            [related["message"] for related in item["related"]],
            [(key, value) for key, value in item.items() if key not in _SHOWN_KEYS],
            [{key: value for key, value in fix.items() if key != "edits"} for fix in item["fixes"]],
        )
        for item in items
    ]


def findings_snapshot(case: Case, text: str, report: str, items: list[dict[str, Any]]) -> str:
    command = f"flowdrop-lsp check --select {case.code} --show-fixes {case.name}"
    lines = [f"# {command}", *report.splitlines()]
    if items:
        lines += ["", "# what --format json adds", *_details(text, items)]
    return "\n".join(lines) + "\n"


def _diff(case: Case, before: str, after: str, label: str) -> list[str]:
    if before == after:
        return ["(no change)"]
    diff = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        case.name,
        f"{case.name} ({label})",
    )
    # A last line without its line break gets one, marked as `diff` marks it.
    return [
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in diff
    ]


def _left(case: Case, text: str) -> list[str]:
    """The rule's findings in `text` judged as the case's file (standard input under its
    name): the text report's finding lines."""
    run = check(
        *("--select", case.code, "-q", "--stdin-filename", case.name, "-"),
        stdin=text,
        root=case.root,
    )
    assert run.code in (0, 1) and not run.err, run
    return [f"then: {line}" for line in run.out.splitlines()] or ["then: no findings"]


def _fix_run(case: Case, text: str, unsafe: bool) -> list[str]:
    """`check --fix` (with `--unsafe-fixes`) of the case, as a filter: the diff it makes, then
    what it still reports."""
    flags = ["--fix", *(["--unsafe-fixes"] if unsafe else [])]
    run = check(
        *("--select", case.code, "-q", *flags, "--stdin-filename", case.name, "-"),
        stdin=text,
        root=case.root,
    )
    assert run.code in (0, 1), run
    report = [line for line in run.err.splitlines() if line]
    return [
        *_diff(case, text, run.out, " ".join(flags)),
        *([f"then: {line}" for line in report] or ["then: no findings"]),
    ]


def _applied(text: str, fix: dict[str, Any]) -> str:
    """`text` with the fix's edits (json ranges) applied, last first."""
    starts = _line_starts(text)
    spans = sorted(
        (
            (_offset(starts, edit["range"]["start"]), _offset(starts, edit["range"]["end"]))
            + (edit["new_text"],)
            for edit in fix["edits"]
        ),
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


def _flat(lines: list[str]) -> str:
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def fixes_snapshot(case: Case, text: str, items: list[dict[str, Any]]) -> str | None:
    """The diffs of `check --fix` and of each fix, each with the findings left after it; None
    when no finding has a fix."""
    if not any(item["fixes"] for item in items):
        return None
    safe = _fix_run(case, text, unsafe=False)
    sections = [["# check --fix", *safe]]
    if any(fix["applicability"] == "unsafe" for item in items for fix in item["fixes"]):
        unsafe = _fix_run(case, text, unsafe=True)
        if unsafe != safe:
            sections.append(["# check --fix --unsafe-fixes", *unsafe])
        else:
            sections.append(["# check --fix --unsafe-fixes: the same"])
    for item in items:
        start = item["range"]["start"]
        place = f"{start['line'] + 1}:{start['character'] + 1} {item['code']}"
        for number, fix in enumerate(item["fixes"], 1):
            trust = fix["applicability"] + (", preferred" if fix["preferred"] else "")
            fixed = _applied(text, fix)
            sections.append(
                [
                    f"# {place} fix {number} ({trust}): {fix['title']}",
                    *_diff(case, text, fixed, f"fix {number}"),
                    *_left(case, fixed),
                ]
            )
    return "\n".join(_flat(section) for section in sections)


def _printable(text: str) -> str:
    """`text` with a lone surrogate (a label's `\\ud83d`, as the checker reads it) written as its
    escape: a snapshot is UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def snapshots(case: Case) -> tuple[str, str | None]:
    """The case's findings snapshot and its fixes snapshot (None: no fix)."""
    text = case.text()
    report, items = _report(case)
    fixes = fixes_snapshot(case, text, items)
    return (
        _printable(findings_snapshot(case, text, report, items)),
        None if fixes is None else _printable(fixes),
    )


def compare(path: Path, actual: str | None, root: Path = CASES) -> None:
    """`actual` against the snapshot at `path` (None: there must be none); `UPDATE_GOLDEN=1`
    writes it (or removes it) instead. A difference fails with the unified diff."""
    name = path.relative_to(root).as_posix()
    if updating():
        if actual is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(actual.encode("utf-8"))
        return
    if actual is None:
        if path.exists():
            pytest.fail(
                f"{name} is stale (no finding has a fix): UPDATE_GOLDEN=1 removes it",
                pytrace=False,
            )
        return
    if not path.exists():
        pytest.fail(f"{name} is missing: run with UPDATE_GOLDEN=1, then review it", pytrace=False)
    expected = path.read_bytes().decode("utf-8")
    if expected != actual:
        diff = difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            f"{name} (snapshot)",
            f"{name} (now)",
        )
        pytest.fail(
            f"{name} differs from the snapshot (UPDATE_GOLDEN=1 rewrites it: review the diff)\n"
            + _flat(list(diff)),
            pytrace=False,
        )


# ----- the YAML twins ------------------------------------------------------------------------


class _NoPlainData(ValueError):
    """A JSON text that is not plain data: a repeated key, a lone surrogate."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise _NoPlainData("a repeated key")
    return dict(pairs)


def _no_lone_surrogates(value: Any) -> None:
    if isinstance(value, str):
        value.encode("utf-8")  # UnicodeEncodeError on a lone surrogate
    elif isinstance(value, dict):
        for key, item in value.items():
            _no_lone_surrogates(key)
            _no_lone_surrogates(item)
    elif isinstance(value, list):
        for item in value:
            _no_lone_surrogates(item)


def twin_data(case: Case) -> Any | None:
    """The data of a JSON case, which its YAML twin holds; None when the case has no twin: its
    text is not plain JSON data (a syntax error, a repeated key, a lone surrogate), which no
    YAML written from data could say."""
    if case.twin is None:
        return None
    try:
        data = json.loads(case.text(), object_pairs_hook=_unique_keys)
        _no_lone_surrogates(data)
    except (ValueError, UnicodeEncodeError):
        return None
    return data


def as_data(value: Any) -> Any:
    """A value as Drupal keeps it: an empty object and an empty list are the same empty
    array (the dumper writes both `{  }`)."""
    if isinstance(value, dict):
        return {key: as_data(item) for key, item in value.items()} if value else []
    if isinstance(value, list):
        return [as_data(item) for item in value]
    return value


def twin_reads_as_its_case(case: Case) -> bool:
    twin = case.twin
    assert twin is not None
    read = yaml.safe_load(twin.read_bytes().decode("utf-8"))
    return bool(as_data(read) == as_data(twin_data(case)))


def drupal_yaml(documents: list[Any]) -> list[str]:
    """Each value as Drupal writes config: Symfony's YAML dumper with Drupal's indentation and
    flags (Drupal\\Component\\Serialization\\YamlSymfony::encode)."""
    php = require_symfony_yaml()
    done = subprocess.run(
        [php, "-d", "error_reporting=E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED", str(_DUMPER)],
        input=json.dumps(documents),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return list(json.loads(done.stdout))


def write_twins(found: list[Case]) -> None:
    """Write each JSON case's YAML twin that is missing or no longer what Drupal writes of it."""
    with_twins = [(case, data) for case in found if (data := twin_data(case)) is not None]
    if not with_twins:
        return
    written = drupal_yaml([data for _, data in with_twins])
    for (case, _), text in zip(with_twins, written, strict=True):
        twin = case.twin
        assert twin is not None
        if not twin.exists() or twin.read_bytes() != text.encode("utf-8"):
            twin.write_bytes(text.encode("utf-8"))
