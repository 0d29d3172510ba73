"""The standing against the FlowDrop spec (docs/spec-standing.md): the data file lists the spec's
399 rules once each, every claim a rule makes is on it, the table claims no check that no rule
makes, its figures are the counts, and the shipped page is the rendered text.

Regenerate the page with `make generate` (scripts/generate_docs.py; or `UPDATE_GOLDEN=1 pytest
tests/core/rules/test_spec_standing.py`)."""

from __future__ import annotations

import csv
import os
import re
import sys
from collections import Counter
from importlib import resources

import pytest

from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.core.rules.base import Rule
from flowdrop_lsp.core.rules.registry import ALL_RULES, RULES_BY_CODE, standing_markdown
from flowdrop_lsp.core.rules.standing import (
    CLASSES,
    DATA_FILE,
    NOT_CHECKABLE,
    NOT_CHECKED,
    SpecEntry,
    parse_table,
    render_standing,
    spec_table,
    standing,
)
from scripts import generate_docs
from tests.support.builders import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

PAGE = REPO / "docs" / "spec-standing.md"
TSV = REPO / "flowdrop_lsp" / "core" / "rules" / DATA_FILE
SPEC_RULE_COUNT = 399  # the spec's rules/<ID>.yml files (and its REGISTRY.lock lines)
STATIC = {"static", "site"}


def tsv_rows() -> list[dict[str, str]]:
    """The data file read by the csv module, not by the code under test."""
    with TSV.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def claims() -> dict[str, set[str]]:
    """Spec id → the codes of the registry's rules that claim it, straight from ALL_RULES."""
    found: dict[str, set[str]] = {}
    for rule in ALL_RULES:
        for spec_id in rule.spec_ids:
            found.setdefault(spec_id, set()).add(rule.code)
    return found


def page_rows(text: str) -> dict[str, list[str]]:
    """The rendered rule table's rows: id → [family, class, checked by, why]."""
    table = text[text.index("## Rules\n") :]
    rows: dict[str, list[str]] = {}
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 5 and cells[0] not in {"id", "---"}:
            rows[cells[0]] = cells[1:]
    return rows


# ----- the data file ------------------------------------------------------------------------------


def test_the_data_file_lists_399_unique_ids_with_a_class_and_a_reason() -> None:
    rows = tsv_rows()
    assert list(rows[0]) == ["id", "family", "class", "why"]
    ids = [row["id"] for row in rows]
    assert len(ids) == SPEC_RULE_COUNT
    assert len(set(ids)) == SPEC_RULE_COUNT
    assert {row["class"] for row in rows} <= set(CLASSES)
    assert all(row["id"].strip() and row["family"].strip() for row in rows)
    assert [row["id"] for row in rows if not row["why"] or not row["why"].strip()] == []
    assert all(re.fullmatch(r"(GR|RT)-[A-Z]+", row["family"]) for row in rows)


def test_the_loader_reads_what_the_file_says() -> None:
    expected = [SpecEntry(row["id"], row["family"], row["class"], row["why"]) for row in tsv_rows()]
    assert list(spec_table()) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("id\tfamily\tkind\twhy\n", "header"),
        ("id\tfamily\tclass\twhy\nR2\tGR-VAL\tstatic\n", "cells"),
        ("id\tfamily\tclass\twhy\nR2\tGR-VAL\tstatc\tone document\n", "unknown class"),
        ("id\tfamily\tclass\twhy\nR2\tGR-VAL\tstatic\t \n", "empty"),
        ("id\tfamily\tclass\twhy\nR2\tGR-VAL\tstatic\ta\nR2\tGR-VAL\tstatic\tb\n", "twice"),
        ("id\tfamily\tclass\twhy\nR2\tGR-VAL\tstatic\ta | b\n", "'|'"),
    ],
)
def test_a_malformed_data_file_is_refused(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        parse_table(text)


def test_the_data_file_is_package_data() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    data = pyproject["tool"]["setuptools"]["package-data"]["flowdrop_lsp"]
    relative = TSV.parent.relative_to(REPO / "flowdrop_lsp").as_posix()
    assert f"{relative}/*.tsv" in data
    shipped = resources.files("flowdrop_lsp.core.rules").joinpath(DATA_FILE)
    assert shipped.read_text(encoding="utf-8") == TSV.read_text(encoding="utf-8")


# ----- the registry's claims ----------------------------------------------------------------------


def test_every_spec_id_a_rule_claims_is_in_the_data_file() -> None:
    listed = {row["id"] for row in tsv_rows()}
    unlisted = {
        f"{rule.code}: {spec_id}"
        for rule in ALL_RULES
        for spec_id in rule.spec_ids
        if spec_id not in listed
    }
    assert unlisted == set()


def test_a_claim_the_data_file_does_not_list_is_refused() -> None:
    rogue = Rule("FD-ROGUE", "Rogue", Severity.ERROR, "Claims what the spec has not.", ("R99",))
    with pytest.raises(ValueError, match=r"FD-ROGUE claims spec rule 'R99'"):
        standing((*ALL_RULES, rogue))


def test_no_runtime_or_vocabulary_rule_is_claimed() -> None:
    """A checker decides only what the document (and its site) decide: a claim on a rule the
    data file classes runtime or vocabulary is a wrong claim or a wrong class; fix one of them."""
    classes = {row["id"]: row["class"] for row in tsv_rows()}
    wrong = {
        f"{spec_id} ({classes[spec_id]}) claimed by {sorted(codes)}"
        for spec_id, codes in claims().items()
        if classes.get(spec_id) not in STATIC
    }
    assert wrong == set()


def test_checked_by_comes_from_the_registry_alone() -> None:
    """Each row's codes are exactly the rules claiming it, in the registry's order, and each
    of those rules exists and lists the id: no row claims a check no module makes."""
    by_id = claims()
    order = [rule.code for rule in ALL_RULES]
    for row in standing(ALL_RULES):
        assert set(row.checked_by) == by_id.get(row.id, set()), row.id
        assert list(row.checked_by) == sorted(row.checked_by, key=order.index)
        for code in row.checked_by:
            assert row.id in RULES_BY_CODE[code].spec_ids


def test_the_pages_checked_by_column_names_only_rules_that_claim_the_row() -> None:
    rows = page_rows(PAGE.read_text(encoding="utf-8"))
    classes = {row["id"]: row["class"] for row in tsv_rows()}
    by_id = claims()
    assert list(rows) == [row["id"] for row in tsv_rows()]
    for spec_id, (_family, spec_class, checked_by, why) in rows.items():
        assert spec_class == classes[spec_id] and why
        if checked_by in {NOT_CHECKED, NOT_CHECKABLE}:
            assert spec_id not in by_id, spec_id
            assert (checked_by == NOT_CHECKED) == (spec_class in STATIC), spec_id
            continue
        codes = {code.strip().strip("`") for code in checked_by.split(",")}
        assert codes == by_id.get(spec_id), spec_id
        assert all(spec_id in RULES_BY_CODE[code].spec_ids for code in codes)


def test_an_unclaimed_rule_is_a_gap_or_outside_a_checkers_reach() -> None:
    table = (
        SpecEntry("X-1", "GR-X", "static", "one document"),
        SpecEntry("X-2", "GR-X", "site", "needs node types"),
        SpecEntry("X-3", "GR-X", "runtime", "decided during a run"),
        SpecEntry("X-4", "GR-X", "vocabulary", "definition"),
    )
    rule = Rule("FD-X", "X", Severity.ERROR, "Checks X-2.", ("X-2",))
    cells = [row.checked_by_text for row in standing((rule,), table)]
    assert cells == [NOT_CHECKED, "`FD-X`", NOT_CHECKABLE, NOT_CHECKABLE]


# ----- the rendered figures -----------------------------------------------------------------------

FIGURES = re.compile(
    r"^\*\*(\d+) checked / (\d+) decidable statically \(static \+ site\) / (\d+) total\.\*\*$",
    re.M,
)


def _table(text: str, heading: str) -> dict[str, list[str]]:
    section = text[text.index(heading) :].split("\n## ", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            rows[cells[0]] = cells[1:]
    return rows


def test_the_header_figures_are_the_counts() -> None:
    rows = tsv_rows()
    by_id = claims()
    text = standing_markdown()
    figures = FIGURES.search(text)
    assert figures is not None
    checked = sum(1 for row in rows if row["id"] in by_id)
    static = sum(1 for row in rows if row["class"] in STATIC)
    assert tuple(map(int, figures.groups())) == (checked, static, len(rows))
    assert len(rows) == SPEC_RULE_COUNT

    classes = Counter(row["class"] for row in rows)
    checked_classes = Counter(row["class"] for row in rows if row["id"] in by_id)
    by_class = _table(text, "## Figures by class")
    for name in CLASSES:
        assert by_class[name][1:] == [str(classes[name]), str(checked_classes[name])], name
    assert by_class["total"][1:] == [str(len(rows)), str(checked)]

    by_family = _table(text, "## Figures by family")
    families = Counter(row["family"] for row in rows)
    assert set(by_family) - {"family"} == set(families)
    for family, count in families.items():
        of_family = [row for row in rows if row["family"] == family]
        expected = [
            str(count),
            *(str(sum(1 for row in of_family if row["class"] == name)) for name in CLASSES),
            str(sum(1 for row in of_family if row["id"] in by_id)),
        ]
        assert by_family[family] == expected, family


def test_the_figures_follow_a_planted_table() -> None:
    table = (
        SpecEntry("A-1", "GR-A", "static", "one document"),
        SpecEntry("A-2", "GR-A", "runtime", "decided during a run"),
        SpecEntry("B-1", "RT-B", "site", "needs node types"),
    )
    rule = Rule("FD-A", "A", Severity.ERROR, "Checks A-1.", ("A-1",))
    text = render_standing(standing((rule,), table))
    figures = FIGURES.search(text)
    assert figures is not None and figures.groups() == ("1", "2", "3")
    assert _table(text, "## Figures by family")["RT-B"] == ["1", "0", "1", "0", "0", "0"]
    assert "| A-1 | GR-A | static | `FD-A` | one document |" in text


# ----- the shipped page ---------------------------------------------------------------------------


def test_the_shipped_page_is_the_rendered_standing() -> None:
    """Regenerate with `make generate` (or `UPDATE_GOLDEN=1 pytest
    tests/core/rules/test_spec_standing.py`)."""
    expected = standing_markdown()
    assert generate_docs.generated()[PAGE] == expected
    if os.environ.get("UPDATE_GOLDEN") == "1":
        generate_docs.write()
    assert PAGE.read_text(encoding="utf-8") == expected
