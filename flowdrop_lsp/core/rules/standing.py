"""Where flowdrop-lsp stands on each rule of the FlowDrop spec (flowdrop-io/flowdrop-spec,
`rules/<ID>.yml`), which asks every implementation to publish it.

Two sources, joined here and nowhere else:

- `spec_rules.tsv`, next to this module (package data): the spec's rule ids with our own class
  for each and a short reason in our own words. Only ids: the spec's text stays upstream.
- the rule registry: each rule's `spec_ids`, the spec rules it checks. The "checked by" column
  is derived from them alone, so the table cannot claim a check that no rule module makes, and
  a rule claiming an id the table does not list is refused (`standing` raises).

`render_standing` gives the Markdown that docs/spec-standing.md holds and
`flowdrop-lsp rule --standing` prints (tests/core/rules/test_spec_standing.py keeps the two
equal: `UPDATE_GOLDEN=1` rewrites the file). Pure: no I/O but reading the data file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from flowdrop_lsp.core.rules.base import Rule

DATA_FILE = "spec_rules.tsv"
COLUMNS = ("id", "family", "class", "why")

# The classes, in the order the figures list them, with what each means (the header says it).
CLASSES: dict[str, str] = {
    "static": "decidable from one workflow document",
    "site": "decidable from the document plus the site's config (node types, other "
    "workflows, trigger config)",
    "runtime": "only the runtime, storage, API or UI can decide it",
    "vocabulary": "definitions, scoping and deprecated rules that other rules use",
}
# What a checker can decide without running anything: the rules it could check at all.
STATIC_CLASSES = frozenset({"static", "site"})

NOT_CHECKED = "not checked"  # a static or site rule no rule of ours claims: a gap
NOT_CHECKABLE = "—"  # a runtime or vocabulary rule: nothing for a checker to claim
SPEC_URL = "https://github.com/flowdrop-io/flowdrop-spec"


@dataclass(frozen=True)
class SpecEntry:
    """One line of the data file: a spec rule id, its family, our class and our reason."""

    id: str
    family: str
    spec_class: str
    why: str


@dataclass(frozen=True)
class SpecStanding:
    """One spec rule and the codes of our rules that claim it (in the registry's order)."""

    id: str
    family: str
    spec_class: str
    why: str
    checked_by: tuple[str, ...]

    @property
    def static(self) -> bool:
        """Decidable without running the workflow (from the document, or with its site)."""
        return self.spec_class in STATIC_CLASSES

    @property
    def checked_by_text(self) -> str:
        """The table's "checked by" cell: the codes when claimed (whatever the class: a claim
        is never hidden), else whether the rule is a gap or outside what a checker decides."""
        if self.checked_by:
            return ", ".join(f"`{code}`" for code in self.checked_by)
        return NOT_CHECKED if self.static else NOT_CHECKABLE


def parse_table(text: str) -> tuple[SpecEntry, ...]:
    """The data file's entries, in its order. Strict, since a typo here would misstate the
    standing in public: a header of exactly `COLUMNS`, four tab-separated cells a line, known
    classes, unique ids, a reason on every line and no `|` (it would break the Markdown table)."""
    lines = text.splitlines()
    if not lines or tuple(lines[0].split("\t")) != COLUMNS:
        raise ValueError(f"{DATA_FILE}: the header must be {' '.join(COLUMNS)} (tab-separated)")
    entries: list[SpecEntry] = []
    seen: set[str] = set()
    for number, line in enumerate(lines[1:], 2):
        cells = [cell.strip() for cell in line.split("\t")]
        if len(cells) != len(COLUMNS):
            raise ValueError(f"{DATA_FILE}:{number}: {len(cells)} cells, not {len(COLUMNS)}")
        entry = SpecEntry(*cells)
        if not all(cells):
            raise ValueError(f"{DATA_FILE}:{number}: an empty cell")
        if entry.spec_class not in CLASSES:
            raise ValueError(f"{DATA_FILE}:{number}: unknown class {entry.spec_class!r}")
        if entry.id in seen:
            raise ValueError(f"{DATA_FILE}:{number}: {entry.id} listed twice")
        if "|" in line:
            raise ValueError(f"{DATA_FILE}:{number}: a '|' would break the Markdown table")
        seen.add(entry.id)
        entries.append(entry)
    return tuple(entries)


@cache
def spec_table() -> tuple[SpecEntry, ...]:
    """The shipped data file, read once (importlib.resources: it is package data, so this works
    from an installed wheel as from the work tree)."""
    data = resources.files("flowdrop_lsp.core.rules").joinpath(DATA_FILE)
    return parse_table(data.read_text(encoding="utf-8"))


def standing(
    rules: Iterable[Rule], table: Sequence[SpecEntry] | None = None
) -> tuple[SpecStanding, ...]:
    """Each spec rule of `table` (default: the shipped one) with the codes of `rules` (the
    registry's, core.rules.registry.standing_markdown) claiming it. A claimed id the table does not list raises ValueError: the
    claim would otherwise vanish from the published standing."""
    entries = spec_table() if table is None else tuple(table)
    known = {entry.id for entry in entries}
    claims: dict[str, list[str]] = {}
    for rule in rules:
        for spec_id in rule.spec_ids:
            if spec_id not in known:
                raise ValueError(
                    f"rule {rule.code} claims spec rule {spec_id!r}, not in {DATA_FILE}"
                )
            claims.setdefault(spec_id, []).append(rule.code)
    return tuple(
        SpecStanding(e.id, e.family, e.spec_class, e.why, tuple(claims.get(e.id, ())))
        for e in entries
    )


def _row(*cells: object) -> str:
    return "| " + " | ".join(str(cell) for cell in cells) + " |\n"


def render_standing(rows: Sequence[SpecStanding]) -> str:
    """The standing as Markdown: what it is and how it is made, the figures (overall, per class,
    per family, families in the data file's order), then one row per spec rule."""
    total = len(rows)
    checked = sum(1 for row in rows if row.checked_by)
    static = sum(1 for row in rows if row.static)
    by_class = Counter(row.spec_class for row in rows)
    checked_by_class = Counter(row.spec_class for row in rows if row.checked_by)
    families = list(dict.fromkeys(row.family for row in rows))

    out = [
        "# Standing against the FlowDrop specification\n",
        "\n",
        f"Where flowdrop-lsp stands on each rule of the [FlowDrop specification]({SPEC_URL}) "
        "(`rules/<ID>.yml`): whether the rule can be decided without running a workflow, "
        "and which of our rules checks it.\n",
        "\n",
        "Generated, not written by hand: `flowdrop-lsp rule --standing` prints this page for "
        "the version installed. The ids, our class for each and our reason are its data "
        "(`flowdrop_lsp/core/rules/spec_rules.tsv`); the *checked by* column comes only from "
        "its rule registry (each rule's `spec_ids`).\n",
        "\n",
        f"**{checked} checked / {static} decidable statically (static + site) / {total} total.**\n",
        "\n",
        "## Figures by class\n",
        "\n",
        _row("class", "meaning", "rules", "checked"),
        "|---|---|---:|---:|\n",
        *(
            _row(name, meaning, by_class[name], checked_by_class[name])
            for name, meaning in CLASSES.items()
        ),
        _row("total", "", total, checked),
        "\n",
        "## Figures by family\n",
        "\n",
        _row("family", "rules", *CLASSES, "checked"),
        "|---|---:|" + "---:|" * len(CLASSES) + "---:|\n",
    ]
    for family in families:
        of_family = [row for row in rows if row.family == family]
        classes = Counter(row.spec_class for row in of_family)
        out.append(
            _row(
                family,
                len(of_family),
                *(classes[name] for name in CLASSES),
                sum(1 for row in of_family if row.checked_by),
            )
        )
    out += [
        "\n",
        "## Rules\n",
        "\n",
        f"*checked by*: the codes of our rules that check it; *{NOT_CHECKED}*: decidable "
        f"statically, but no rule of ours checks it yet; *{NOT_CHECKABLE}*: a runtime or "
        "vocabulary rule, nothing for a checker to decide.\n",
        "\n",
        _row("id", "family", "class", "checked by", "why"),
        "|---|---|---|---|---|\n",
        *(_row(row.id, row.family, row.spec_class, row.checked_by_text, row.why) for row in rows),
    ]
    return "".join(out)
