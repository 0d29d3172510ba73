"""docs/architecture.md holds true of the tree: its code map names every module of the package,
and every path the document names exists.

A module is named by its file name in the code map's entry for its folder (a row of the layer
table, or a bullet of the list of what sits above `core`): `positions.py` in the `core/text/`
row, `lexer.py` (of `twig/`) in the `core/expressions/` row, a glob such as `node_type_*.py`, or
the entry itself (`core/analysis.py`). A package's `__init__.py` is named with its folder
(`twig/`). The one folder entry that covers modules without naming them is `core/rules/`'s "one
module per rule": the modules the registry lists (`RULE_MODULES`), each with its rule page."""

from __future__ import annotations

import fnmatch
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from flowdrop_lsp.core.rules.registry import RULE_MODULES

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "flowdrop_lsp"
ARCHITECTURE = REPO / "docs" / "architecture.md"

CODE_SPAN = re.compile(r"(`+)((?:(?!\1).)+?)\1")
# The rules row's own words for the folder entry that covers the rule modules.
ONE_MODULE_PER_RULE = "one module per rule"
# Folders the build makes (`make` creates the virtualenv the docs' commands run from).
MADE_BY_THE_BUILD = (".venv/",)
# The places a path the document names may be relative to: the repository, the package, the core.
ROOTS = (REPO, PACKAGE, PACKAGE / "core")
# Where a bare file name (an example's file, `members.py` of each format) is looked for.
SEARCHED = ("flowdrop_lsp", "tests", "bench", "scripts", "docs", "examples", "editors")
FILE_SUFFIX = re.compile(r"\.(py|md|toml|ya?ml|tsv|json|sh|txt|lua|el|vim)$")
# An LSP method (`workspace/diagnostic`, `$/progress`), not a path.
LSP_METHOD = re.compile(r"^(\$|textDocument|workspace|window|client)/[A-Za-z]+$")


@dataclass(frozen=True)
class Entry:
    """One entry of the code map: the folders or files it is about (relative to the package,
    folders ending in `/`) and its text."""

    bases: tuple[str, ...]
    text: str


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def code_map_text() -> str:
    return _section(ARCHITECTURE.read_text(encoding="utf-8"), "Code map")


def spans(text: str) -> list[str]:
    return [match.group(2) for match in CODE_SPAN.finditer(text)]


def entries(code_map: str) -> list[Entry]:
    """The layer table's rows (`| 1 | `core/text/` | … |`) and the bullets of what sits above
    `core` (`- `flowdrop_lsp/cli/`: …`, its continuation lines with it)."""
    found: list[Entry] = []
    bullet: list[str] | None = None
    for line in [*code_map.splitlines(), ""]:
        if bullet is not None and line.startswith("  ") and line.strip():
            bullet.append(line)
            continue
        if bullet is not None:
            found.append(_bullet_entry("\n".join(bullet)))
            bullet = None
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and cells[0].isdigit():
            found.append(Entry(tuple(spans(cells[1])), cells[2]))
        elif line.startswith("- `flowdrop_lsp/"):
            bullet = [line]
    return found


def _bullet_entry(text: str) -> Entry:
    """A bullet names its folder (or file) first; it may name more beside it
    (`flowdrop_lsp/schemas/` after the rule pages)."""
    bases = tuple(
        name.removeprefix("flowdrop_lsp/")
        for name in spans(text)
        if name.startswith("flowdrop_lsp/")
    )
    return Entry(bases, text)


def package_modules() -> list[str]:
    return sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py"))


def _rule_modules() -> set[str]:
    return {
        Path(str(m.__file__)).relative_to(PACKAGE).as_posix()
        for m in RULE_MODULES
        if not str(m.__file__).endswith("__init__.py")  # a package's modules are named
    }


def _covers(base: str, module: str) -> bool:
    return module == base or (base.endswith("/") and module.startswith(base))


def _named_in(entry: Entry, base: str, module: str) -> bool:
    if module == base or module == base + "__init__.py":
        return True  # the entry is about the module, or the package, itself
    relative = module[len(base) :]
    folder, _, name = relative.rpartition("/")
    for token in spans(entry.text):
        if name == "__init__.py":
            if token.rstrip("/") and token.endswith("/") and (folder + "/").endswith(token):
                return True
            continue
        if fnmatch.fnmatchcase(relative, token) or fnmatch.fnmatchcase(relative, "*/" + token):
            return True
    return False


def _folder_named(code_map: str, init: str) -> bool:
    """A package's folder named as itself anywhere in the map (`flowdrop_lsp/core/`)."""
    folder = init.removesuffix("__init__.py")
    return any(token in (folder, "flowdrop_lsp/" + folder) for token in spans(code_map))


def unnamed_modules(code_map: str, modules: list[str], rule_modules: set[str]) -> list[str]:
    found = entries(code_map)
    rules_rows = [e for e in found if "core/rules/" in e.bases]
    rules_covered = any(ONE_MODULE_PER_RULE in e.text for e in rules_rows)
    missing = []
    for module in modules:
        if module == "__init__.py":
            continue  # the package itself: every bullet's `flowdrop_lsp/`
        if rules_covered and module in rule_modules:
            continue
        named = any(
            _named_in(entry, base, module)
            for entry in found
            for base in entry.bases
            if _covers(base, module)
        ) or (module.endswith("/__init__.py") and _folder_named(code_map, module))
        if not named:
            missing.append(module)
    return missing


# ----- paths -------------------------------------------------------------------------------------


def named_paths(text: str) -> Iterator[str]:
    """The paths a document names in code spans: a span, or a word of a command in one, that is
    a folder (`core/text/`), a file (`core/operations.py`, `members.py`) or a glob of them."""
    for span in spans(text):
        for word in span.split():
            if "<" in word or "{" in word or word.startswith(("-", "*.")):
                continue  # a placeholder, an option, a pattern of a site's file names
            if re.fullmatch(r"\.\w+", word):
                continue  # a file suffix (`.yml`)
            if not re.fullmatch(r"[\w.*/-]+", word) or LSP_METHOD.match(word):
                continue
            if word.endswith("/") or FILE_SUFFIX.search(word) or "/" in word:
                yield word


@functools.cache
def _repository_names() -> frozenset[str]:
    """The names of the repository's files and folders (those of the root, and everything under
    the folders the documents talk about)."""
    names = {path.name for path in REPO.iterdir()}
    for folder in SEARCHED:
        for path in (REPO / folder).rglob("*"):
            if "node_modules" not in path.parts:
                names.add(path.name)
    return frozenset(names)


def _bare_name_exists(name: str) -> bool:
    """A name without a folder (`members.py` of each format, `twig/` in its row, a glob): some
    file or folder of the repository is named so, or ends so (an example's short name,
    `brand_studio.yml` for `flowdrop_workflow.flowdrop_workflow.brand_studio.yml`)."""
    return any(
        fnmatch.fnmatchcase(found, name) or fnmatch.fnmatchcase(found, "*." + name)
        for found in _repository_names()
    )


def path_exists(name: str) -> bool:
    if name.startswith(MADE_BY_THE_BUILD):
        return True
    pattern = name.rstrip("/")
    if "/" not in pattern:
        return _bare_name_exists(pattern)
    for root in ROOTS:
        if any(ch in pattern for ch in "*?["):
            if any(root.glob(pattern)):
                return True
        elif (root / pattern).exists():
            return True
    return False


# ----- the checks, checked -----------------------------------------------------------------------

PLANTED_MAP = """
## Code map

| layer | folder | what lives there |
|---|---|---|
| 1 | `core/text/` | `positions.py`: positions |
| 3 | `core/syntax/` | `tree.py`; `json/` (`parser.py`), `node_*.py` |
| 6 | `core/rules/` | `base.py`, one module per rule |
| 9 | `core/analysis.py` | the one-shot API |

- `flowdrop_lsp/cli/`: `main.py` (the command),
  `text.py` (the text report).
- `flowdrop_lsp/entry.py`: the entry.
"""


def test_a_planted_code_map_is_read_as_written() -> None:
    modules = [
        "__init__.py",
        "core/text/positions.py",
        "core/text/changes.py",  # not named
        "core/syntax/tree.py",
        "core/syntax/json/__init__.py",
        "core/syntax/json/parser.py",
        "core/syntax/json/depth.py",  # not named
        "core/syntax/node_types.py",  # the glob
        "core/syntax/yaml/__init__.py",  # its folder is not named
        "core/rules/base.py",
        "core/rules/cmp.py",  # a rule module
        "core/rules/helper.py",  # not a rule module, not named
        "core/analysis.py",
        "cli/main.py",
        "cli/text.py",
        "cli/staged.py",  # not named
        "entry.py",
        "lsp/app.py",  # no entry at all
    ]
    missing = unnamed_modules(PLANTED_MAP, modules, {"core/rules/cmp.py"})
    assert missing == [
        "core/text/changes.py",
        "core/syntax/json/depth.py",
        "core/syntax/yaml/__init__.py",
        "core/rules/helper.py",
        "cli/staged.py",
        "lsp/app.py",
    ]
    # Without the rules row's words, a rule module is named like any other.
    without = PLANTED_MAP.replace(ONE_MODULE_PER_RULE, "the rules")
    assert "core/rules/cmp.py" in unnamed_modules(without, modules, {"core/rules/cmp.py"})


def test_the_path_scan_sees_paths_and_nothing_else() -> None:
    text = (
        "`core/text/` `positions.py` `UPDATE_GOLDEN=1 pytest tests/test_docs.py` `$/progress` "
        "`workspace/diagnostic` `tests/core/<layer>/` `*.services.yml` `--fix` `Host.check` "
        "`node_type_*.py` `.ci/run` `.yml`"
    )
    assert list(named_paths(text)) == [
        "core/text/",
        "positions.py",
        "tests/test_docs.py",
        "node_type_*.py",
        ".ci/run",
    ]
    assert path_exists("core/text/") and path_exists("rules/base.py")
    assert path_exists("tests/lsp/test_site_agreement*.py")
    assert path_exists("brand_studio.yml")  # the corpus's file, by its short name
    assert path_exists("twig/") and path_exists(".pre-commit-hooks.yaml")
    assert not path_exists("core/nothing.py") and not path_exists("nothing_here.py")


# ----- the real document -------------------------------------------------------------------------


def test_the_code_map_names_every_module_of_the_package() -> None:
    modules = package_modules()
    assert len(modules) > 150 and "core/text/positions.py" in modules, "scan is broken"
    assert len(entries(code_map_text())) > 12, "the code map's entries are not read"
    assert unnamed_modules(code_map_text(), modules, _rule_modules()) == []


def test_every_path_the_architecture_names_exists() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    names = list(dict.fromkeys(named_paths(text)))
    assert len(names) > 100, "scan is broken"
    assert [name for name in names if not path_exists(name)] == []
