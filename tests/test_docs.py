"""The documentation holds together: every relative link and image in the README, docs/ and the
shipped rule pages points at a file that exists, every `#anchor` at a heading (GitHub's slugs)
or an explicit `<a id>`; the README's rule list is generated from the rule registry; the
sections the code cites (`docs/domain.md §3`) exist; and the README stays short."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from flowdrop_lsp.core.rules.registry import RULE_PAGES
from scripts import generate_docs
from tests.support.repository import OUTSIDE

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
README_MAX_LINES = 300


def documents() -> list[Path]:
    return [
        README,
        *sorted((REPO / "docs").glob("*.md")),
        *sorted(RULE_PAGES.glob("*.md")),
        *sorted((REPO / "editors").glob("*/README.md")),
    ]


# ----- the checker -------------------------------------------------------------------------------

FENCE = re.compile(r"^ {0,3}(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$")
EXPLICIT_ID = re.compile(r"""<a\s+(?:[^>]*\s)?(?:id|name)\s*=\s*["']([^"']+)["']""", re.I)
# [text](target "title") and ![alt](target); the text may hold one level of brackets (an image
# inside a link). Angle-bracketed targets (`<a b.md>`) are allowed by CommonMark.
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^\s()]+)(?:\s+\"[^\"]*\")?\s*\)"
)
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)", re.M)
HTML_TARGET = re.compile(r"""<(?:a|img)\s[^>]*?(?:href|src)\s*=\s*["']([^"']+)["']""", re.I)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines outside fenced code blocks, with their inline code spans blanked."""
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        opened = FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1) == fence:
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        yield number, CODE_SPAN.sub(lambda m: " " * len(m.group()), line)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: inline markup reduced to its text, lowercase, every
    character that is not a letter, digit, space, `-` or `_` dropped, spaces to `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a Markdown text defines: heading slugs (a repeated one gets `-1`, `-2`, …,
    as on GitHub) and explicit `<a id>`/`<a name>`."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fence: str | None = None
    for line in text.splitlines():
        opened = FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1) == fence:
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        found.update(EXPLICIT_ID.findall(line))
        heading = HEADING.match(line)
        if heading:
            base = slug(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def link_targets(text: str) -> Iterator[tuple[int, str]]:
    for number, line in prose_lines(text):
        for pattern in (INLINE_LINK, HTML_TARGET):
            for match in pattern.finditer(line):
                yield number, match.group(1).strip("<>")
    for match in REFERENCE_DEFINITION.finditer(text):
        yield text.count("\n", 0, match.start()) + 1, match.group(1).strip("<>")


def _read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def broken_links(path: Path, text: str, read: Callable[[Path], str] | None = None) -> list[str]:
    """`path:line: target (why)` for each relative link of `text` (the contents of `path`)
    that points nowhere. `read(path)` gives another file's text (for its anchors)."""
    if read is None:
        read = _read_text
    problems = []
    for number, target in link_targets(text):
        if SCHEME.match(target) or target.startswith("//"):
            continue  # external: not checked here (no network)
        file_part, _, anchor = target.partition("#")
        where = f"{path.name}:{number}: {target}"
        if file_part:
            resolved = (path.parent / file_part).resolve()
            if not resolved.exists():
                problems.append(f"{where} (no such file)")
                continue
            if not anchor:
                continue
            if resolved.is_dir() or resolved.suffix != ".md":
                continue  # anchors into code or folders are GitHub's line links: not checked
            defined = anchors(read(resolved))
        else:
            defined = anchors(text)
        if anchor and anchor not in defined:
            problems.append(f"{where} (no heading or <a id> {anchor!r})")
    return problems


# ----- the checker, checked ----------------------------------------------------------------------


def test_slugs_follow_github() -> None:
    assert slug("How names and tool edges are read") == "how-names-and-tool-edges-are-read"
    assert slug("CMP-9 — Tool name collision (error)") == "cmp-9--tool-name-collision-error"
    assert slug("While you type: half-typed elements") == "while-you-type-half-typed-elements"
    assert slug("1. A tool's name") == "1-a-tools-name"
    assert slug("`flowdrop-lsp check DIR`") == "flowdrop-lsp-check-dir"
    assert slug("See [the rules](x.md)") == "see-the-rules"
    assert anchors("# A\n## A\n") == {"a", "a-1"}
    assert anchors('<a id="rule-cmp-9"></a>\n```\n# not a heading\n```\n') == {"rule-cmp-9"}


def test_the_checker_finds_planted_broken_links(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## Its section\n", encoding="utf-8")
    (tmp_path / "image.png").write_bytes(b"")
    page = tmp_path / "page.md"
    text = (
        "# Page\n\n"
        "[fine](other.md) [fine too](other.md#its-section) ![ok](image.png) [here](#page)\n"
        "[gone](missing.md) ![gone](missing.png) [bad anchor](other.md#no-such-section)\n"
        "[bad local](#nowhere) [external](https://example.org/x.md) `[in code](nope.md)`\n"
        '<img src="missing.svg"> [ref]: also-missing.md\n'
        "[ref2]: other.md#its-section\n"
        "```\n[in a block](nope.md)\n```\n"
    )
    problems = broken_links(page, text)
    assert problems == [
        "page.md:4: missing.md (no such file)",
        "page.md:4: missing.png (no such file)",
        "page.md:4: other.md#no-such-section (no heading or <a id> 'no-such-section')",
        "page.md:5: #nowhere (no heading or <a id> 'nowhere')",
        "page.md:6: missing.svg (no such file)",
    ], problems


def test_the_checker_sees_the_real_documents() -> None:
    names = {p.relative_to(REPO).as_posix() for p in documents()}
    assert {"README.md", "docs/architecture.md", "docs/domain.md"} <= names
    assert "flowdrop_lsp/docs/rules/CMP-9.md" in names
    assert sum(1 for _ in link_targets(README.read_text(encoding="utf-8"))) > 10


# ----- the real documents ------------------------------------------------------------------------


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_relative_link_and_anchor_resolves(path: Path) -> None:
    assert broken_links(path, path.read_text(encoding="utf-8")) == []


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines: move detail to docs/"


def test_the_docs_name_nothing_beside_the_repository() -> None:
    """Contributors have no shared folder beside the clone: the docs stand on their own."""
    offenders = [
        f"{path.relative_to(REPO)}: {match.group()}"
        for path in documents()
        for match in OUTSIDE.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


# ----- the README's rule list: generated (scripts/generate_docs.py) --------------------------------


def test_the_readme_rule_list_is_generated_from_the_registry() -> None:
    """Regenerate with `make generate` (or `UPDATE_GOLDEN=1 pytest tests/test_docs.py`)."""
    if os.environ.get("UPDATE_GOLDEN") == "1":
        generate_docs.write()
    text = README.read_text(encoding="utf-8")
    start, end = generate_docs.readme_rule_list_span(text)
    assert text[start:end] == generate_docs.readme_rule_list()


def test_make_generate_has_nothing_to_write(capsys: pytest.CaptureFixture[str]) -> None:
    """`make generate` (scripts/generate_docs.py) writes the rule pages, the README's rule list
    and docs/spec-standing.md; the committed files are what it makes."""
    assert generate_docs.main(["--check"]) == 0, capsys.readouterr().out
    assert set(generate_docs.generated()) >= {
        README,
        REPO / "docs" / "spec-standing.md",
        RULE_PAGES / "CMP-9.md",
        RULE_PAGES / "index.md",
    }


# ----- sections the code cites -------------------------------------------------------------------

CITATION = re.compile(r"\bdocs/([a-z-]+)\.md(?: §(\d+))?")
CITING = ("flowdrop_lsp", "tests", "bench", "editors")


def citations() -> Iterator[tuple[str, str, str | None]]:
    for folder in CITING:
        for path in sorted((REPO / folder).rglob("*")):
            if path.suffix not in {".py", ".lua", ".el", ".vim", ".ts", ".mjs", ".sh"}:
                continue
            if "node_modules" in path.parts or path == Path(__file__).resolve():
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for match in CITATION.finditer(text):
                yield path.relative_to(REPO).as_posix(), match.group(1), match.group(2)


def test_every_docs_section_the_code_cites_exists() -> None:
    found = list(citations())
    assert any(name == "domain" and section for _, name, section in found), "scan is broken"
    problems = []
    for source, name, section in found:
        page = REPO / "docs" / f"{name}.md"
        if not page.is_file():
            problems.append(f"{source}: docs/{name}.md does not exist")
        elif section and not re.search(
            rf"^#+ {section}\. ", page.read_text(encoding="utf-8"), re.M
        ):
            problems.append(f"{source}: docs/{name}.md has no section {section}")
    assert problems == []
