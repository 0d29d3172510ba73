"""The rule cases of tests/cases (docs/architecture.md "Rule cases", tests/support/rule_cases.py):
each case's findings and fixes against its reviewed snapshots, its YAML twin against its JSON,
and the runner itself: a wrong or missing snapshot fails, with the diff.

`UPDATE_GOLDEN=1 pytest tests/core/rules/test_rule_cases.py` (no `-n`: one process writes) writes
the YAML twins and the snapshots; review them with `git diff` before committing."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowdrop_lsp.core.rules.registry import RULES_BY_CODE
from tests.support import rule_cases
from tests.support.builders import node, tool_edge, workflow
from tests.support.operation_cases import assert_rendered_as_operated
from tests.support.rule_cases import (
    CASES,
    FINDINGS_SUFFIX,
    FIXES_SUFFIX,
    Case,
    case_settings,
    cases,
    compare,
    drupal_yaml,
    gist,
    snapshots,
    twin_data,
    twin_reads_as_its_case,
)

# On one worker (`make test`: --dist loadgroup): a case's reports are made once for its
# snapshots and its twin's comparison (rule_cases._REPORTS).
pytestmark = pytest.mark.xdist_group("rule-cases")

if rule_cases.updating():  # before the cases are listed: a new JSON case gets its twin here
    rule_cases.write_twins(cases())
CASE_LIST = cases()
WITH_TWINS = [case for case in CASE_LIST if twin_data(case) is not None]


@pytest.mark.parametrize("case", CASE_LIST, ids=str)
def test_the_case_gives_its_snapshots(case: Case) -> None:
    findings, fixes = snapshots(case)
    compare(case.findings_snapshot, findings)
    compare(case.fixes_snapshot, fixes)


@pytest.mark.parametrize("case", CASE_LIST, ids=str)
def test_every_fix_of_the_case_is_its_operations(case: Case) -> None:
    """A fix's edits read back as its operations applied (tests/core/test_fix_operations.py's
    proof, on every case): the diff of a snapshot is what FlowDrop's editor would do."""
    assert_rendered_as_operated(case.text(), case.syntax, case_settings(case), case.code)


@pytest.mark.parametrize("case", WITH_TWINS, ids=str)
def test_the_yaml_twin_says_what_its_json_says(case: Case) -> None:
    assert case.twin is not None
    twin = Case(case.twin.relative_to(case.root).as_posix(), case.root)
    assert gist(twin) == gist(case)


def test_there_are_cases_of_many_rules() -> None:
    codes = {case.code for case in CASE_LIST}
    assert len(codes) >= 6 and len(CASE_LIST) >= 50, sorted(codes)


def test_every_folder_is_named_after_a_rule() -> None:
    folders = {path.name for path in CASES.iterdir() if path.is_dir()}
    assert folders, "no rule folder found"
    assert folders <= RULES_BY_CODE.keys(), sorted(folders - RULES_BY_CODE.keys())


def test_every_file_is_a_case_a_snapshot_of_one_or_settings() -> None:
    names = {case.name for case in CASE_LIST}
    strays = []
    for path in sorted(CASES.rglob("*")):
        if path.is_dir() or path.name in {"flowdrop-lsp.toml", "README.md"}:
            continue
        name = path.relative_to(CASES).as_posix()
        for suffix in (FINDINGS_SUFFIX, FIXES_SUFFIX):
            if name.endswith(suffix):
                name = name[: -len(suffix)]
                break
        if name not in names:
            strays.append(path.relative_to(CASES).as_posix())
    assert strays == []


def test_every_json_case_of_plain_data_has_its_yaml_twin_holding_the_same_data() -> None:
    assert WITH_TWINS, "no JSON case with a twin found"
    missing = [str(case) for case in WITH_TWINS if case.twin is None or not case.twin.exists()]
    assert missing == [], "run with UPDATE_GOLDEN=1 (Symfony's YAML: make oracle-deps)"
    assert [str(case) for case in WITH_TWINS if not twin_reads_as_its_case(case)] == []


def test_the_yaml_twins_are_what_drupal_writes() -> None:
    written = drupal_yaml([twin_data(case) for case in WITH_TWINS])
    stale = [
        str(case)
        for case, text in zip(WITH_TWINS, written, strict=True)
        if case.twin is not None and case.twin.read_bytes() != text.encode("utf-8")
    ]
    assert stale == [], "rewrite them with UPDATE_GOLDEN=1"


def test_a_json_case_that_is_not_plain_data_has_no_twin(tmp_path: Path) -> None:
    root = tmp_path / "CMP-9"
    root.mkdir()
    texts = {
        "plain.json": '{"nodes": [], "edges": []}',
        "broken.json": '{"nodes": [',
        "repeated.json": '{"nodes": [], "nodes": []}',
        "surrogate.json": '{"nodes": [{"id": "\\ud83d"}], "edges": []}',
        "yaml_only.yml": "nodes: {  }\n",
    }
    for name, text in texts.items():
        (root / name).write_text(text, encoding="utf-8")
    found = rule_cases.cases(tmp_path)
    assert [str(case) for case in found] == [f"CMP-9/{name}" for name in sorted(texts)]
    with_twin = {case.name for case in found if twin_data(case) is not None}
    assert with_twin == {"CMP-9/plain.json"}


# ----- the runner fails when it should -------------------------------------------------------


@pytest.fixture
def comparing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UPDATE_GOLDEN", raising=False)


@pytest.mark.usefixtures("comparing")
def test_a_wrong_snapshot_fails_with_the_diff(tmp_path: Path) -> None:
    case = next(case for case in CASE_LIST if case.code == "CMP-9")
    findings, _ = snapshots(case)
    snapshot = tmp_path / "case.findings.txt"
    wrong = findings.replace("error CMP-9", "warning CMP-9", 1)
    assert wrong != findings
    snapshot.write_text(wrong, encoding="utf-8")
    with pytest.raises(pytest.fail.Exception) as failure:
        compare(snapshot, findings, root=tmp_path)
    message = str(failure.value)
    assert "case.findings.txt differs from the snapshot" in message
    assert "\n-" + wrong.splitlines()[1] in message
    assert "\n+" + findings.splitlines()[1] in message
    compare(snapshot.with_name("right.txt"), None, root=tmp_path)  # none expected, none there
    snapshot.write_text(findings, encoding="utf-8")
    compare(snapshot, findings, root=tmp_path)  # the same: passes


@pytest.mark.usefixtures("comparing")
def test_a_missing_snapshot_fails_and_is_not_written(tmp_path: Path) -> None:
    snapshot = tmp_path / "case.fix.diff"
    with pytest.raises(pytest.fail.Exception, match="case.fix.diff is missing"):
        compare(snapshot, "--- a\n+++ b\n", root=tmp_path)
    assert not snapshot.exists()


@pytest.mark.usefixtures("comparing")
def test_a_snapshot_no_longer_made_fails_as_stale(tmp_path: Path) -> None:
    snapshot = tmp_path / "case.fix.diff"
    snapshot.write_text("--- a\n+++ b\n", encoding="utf-8")
    with pytest.raises(pytest.fail.Exception, match="case.fix.diff is stale"):
        compare(snapshot, None, root=tmp_path)


def test_a_new_case_fails_until_written_then_fails_when_its_rule_says_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole round, in a folder of cases of its own: no snapshot yet fails; UPDATE_GOLDEN
    writes both; the same run then passes; an edit of the case fails with the diff."""
    (tmp_path / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    (tmp_path / "CMP-9").mkdir()
    pair = workflow(
        [node("a", label="Search"), node("b", label="search"), node("x", "agent")],
        [tool_edge("a", "x"), tool_edge("b", "x")],
    )
    (tmp_path / "CMP-9" / "pair.json").write_text(pair, encoding="utf-8")
    (case,) = cases(tmp_path)
    findings, fixes = snapshots(case)
    assert fixes is not None and '+        "label": "search 2"' in fixes
    monkeypatch.delenv("UPDATE_GOLDEN", raising=False)
    with pytest.raises(pytest.fail.Exception, match="CMP-9/pair.json.findings.txt is missing"):
        compare(case.findings_snapshot, findings, root=tmp_path)
    monkeypatch.setenv("UPDATE_GOLDEN", "1")
    compare(case.findings_snapshot, findings, root=tmp_path)
    compare(case.fixes_snapshot, fixes, root=tmp_path)
    monkeypatch.delenv("UPDATE_GOLDEN")
    assert snapshots(case) == (findings, fixes)
    compare(case.findings_snapshot, findings, root=tmp_path)
    compare(case.fixes_snapshot, fixes, root=tmp_path)
    case.path.write_text(pair.replace('"search"', '"Lookup"'), encoding="utf-8")
    now, none = snapshots(case)
    assert none is None  # no collision left: no fix, so no fixes snapshot
    with pytest.raises(pytest.fail.Exception, match="pair.json.fix.diff is stale"):
        compare(case.fixes_snapshot, none, root=tmp_path)
    with pytest.raises(pytest.fail.Exception) as failure:
        compare(case.findings_snapshot, now, root=tmp_path)
    assert "\n-CMP-9/pair.json:14:18: error CMP-9 [*] tool name" in str(failure.value)
    assert "\n+no problems in 1 file" in str(failure.value)


def test_update_golden_writes_and_removes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UPDATE_GOLDEN", "1")
    snapshot = tmp_path / "case.fix.diff"
    compare(snapshot, "new\n", root=tmp_path)
    assert snapshot.read_text(encoding="utf-8") == "new\n"
    compare(snapshot, None, root=tmp_path)
    assert not snapshot.exists()
