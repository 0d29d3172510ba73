"""Write what is generated from the rule registry (core/rules/registry.py): the shipped rule
pages (flowdrop_lsp/docs/rules/), the README's rule list and docs/spec-standing.md.

    python scripts/generate_docs.py           # write them (`make generate`)
    python scripts/generate_docs.py --check   # write nothing; exit 1 naming any out of date

The rendering itself stays in the package (`rule_page`, `rule_text`, `rule_index_page`,
`standing_markdown`): `flowdrop-lsp rule CODE` prints a page, SARIF's `help.markdown` embeds
one and `flowdrop-lsp rule --standing` prints the standing, so the renderer is runtime code.
This module decides which files are made of it and writes them; the tests compare the
committed files with what it makes (tests/core/rules/test_rule_catalogue.py, tests/test_docs.py,
tests/core/rules/test_spec_standing.py). Run from anywhere; it writes into this checkout."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # `python scripts/generate_docs.py` from a checkout, not installed
    sys.path.insert(0, str(REPO))

from flowdrop_lsp.core.rules.registry import (  # noqa: E402 - after the checkout is importable
    ALL_RULES,
    RULE_INDEX,
    RULE_PAGES,
    rule_index_page,
    rule_page,
    standing_markdown,
)

README = REPO / "README.md"
STANDING_PAGE = REPO / "docs" / "spec-standing.md"
# The README's markers (its opening one names the test that checks the list).
RULES_BEGIN = (
    "<!-- rules: generated from flowdrop_lsp/core/rules/registry.py by `make generate` -->"
)
RULES_END = "<!-- end of rules -->"


def rule_pages() -> dict[str, str]:
    """Each shipped page by file name: one per rule, and the index."""
    pages = {f"{rule.code}.md": rule_page(rule.code) for rule in ALL_RULES}
    pages[RULE_INDEX] = rule_index_page()
    return pages


def readme_rule_list() -> str:
    """One line per rule, in the registry's order, linking to its shipped page; each carries the
    `#rule-<code>` anchor that a `docs-url` pointing at the README links to."""
    pages = RULE_PAGES.relative_to(REPO).as_posix()
    return "".join(
        f'- <a id="{rule.anchor}"></a>[{rule.code}]({pages}/{rule.code}.md) — {rule.title} '
        f"({rule.severity_shown})\n"
        for rule in ALL_RULES
    )


def readme_rule_list_span(text: str) -> tuple[int, int]:
    """Where the generated list stands in the README's text: after the line of its opening
    marker, up to its closing marker."""
    start = text.index(RULES_BEGIN + "\n") + len(RULES_BEGIN) + 1
    return start, text.index(RULES_END, start)


def readme_with_rule_list(text: str) -> str:
    start, end = readme_rule_list_span(text)
    return text[:start] + readme_rule_list() + text[end:]


def generated() -> dict[Path, str]:
    """Every generated file, by path, with the text it should have."""
    files = {RULE_PAGES / name: text for name, text in rule_pages().items()}
    files[README] = readme_with_rule_list(README.read_text(encoding="utf-8"))
    files[STANDING_PAGE] = standing_markdown()
    return files


def _current(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def out_of_date() -> tuple[list[Path], list[Path]]:
    """The generated files whose text differs from what is generated, and the rule pages no
    rule has any more."""
    files = generated()
    changed = [path for path, text in files.items() if _current(path) != text]
    stale = sorted(path for path in RULE_PAGES.glob("*.md") if path not in files)
    return changed, stale


def write() -> list[Path]:
    """Write every generated file that differs, remove the stale rule pages; what changed."""
    files = generated()
    changed, stale = out_of_date()
    RULE_PAGES.mkdir(parents=True, exist_ok=True)
    for path in changed:
        path.write_text(files[path], encoding="utf-8")
    for path in stale:
        path.unlink()
    return [*changed, *stale]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when a file is out of date"
    )
    args = parser.parse_args(argv)
    if args.check:
        changed, stale = out_of_date()
        for path in changed:
            print(f"out of date: {path.relative_to(REPO)}")
        for path in stale:
            print(f"no rule has this page: {path.relative_to(REPO)}")
        return 1 if changed or stale else 0
    for path in write():
        print(f"{'wrote' if path.exists() else 'removed'} {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
