"""A copy of the real site (tests/corpus/atelier-cms/config/sync) to plant edits in — the one
`copy_site` of the core, CLI, LSP and editor tests —, and where a site finding is, as a file name
and a line and column computed from the text."""

from __future__ import annotations

import shutil
from pathlib import Path

from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition
from flowdrop_lsp.core.domain.site_facts import WorkflowFacts
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.workspace.node_types import NodeTypeFiles
from flowdrop_lsp.core.workspace.site import SiteIndex, read_facts
from tests.support.builders import CORPUS_CONFIG
from tests.support.builders import plant as planted_text

WORKFLOW = "flowdrop_workflow.flowdrop_workflow.{}.yml"
NODE_TYPE = "flowdrop_node_type.flowdrop_node_type.{}.yml"
COLOUR = WORKFLOW.format("aincient_brand_specialist_colour")
BRAND_STUDIO = WORKFLOW.format("brand_studio")
COLOUR_CALL_TYPE_ID = (
    "flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_colour"
)
COLOUR_CALL_TYPE = NODE_TYPE.format(COLOUR_CALL_TYPE_ID)


WORKFLOW_PREFIX = "flowdrop_workflow.flowdrop_workflow."


def copy_site(
    under: Path,
    at: str = "sync",
    *,
    copies: int = 0,
    broken_every: int = 0,
    project_file: bool = False,
) -> Path:
    """A fresh copy of the real site's folder at `under/at` (`sync`, or `config/sync` as a Drupal
    project keeps it), answered. With `copies`, each workflow again `copies` times under new ids
    (`<id>_c<n>`), and with `broken_every`, every n-th copy cut short (a YAML error planted).
    With `project_file`, an empty `flowdrop-lsp.toml` at `under`: every editor's root marker,
    so that the workspace folder is `under`."""
    folder = under / at
    folder.mkdir(parents=True, exist_ok=True)
    for source in sorted(CORPUS_CONFIG.iterdir()):
        shutil.copyfile(source, folder / source.name)
    planted = 0
    for source in sorted(CORPUS_CONFIG.glob(WORKFLOW_PREFIX + "*.yml")):
        workflow_id = source.name[len(WORKFLOW_PREFIX) : -len(".yml")]
        text = source.read_text(encoding="utf-8")
        for n in range(copies):
            new_id = f"{workflow_id}_c{n}"
            copied = text.replace(f"\nid: {workflow_id}\n", f"\nid: {new_id}\n", 1)
            planted += 1
            if broken_every and planted % broken_every == 0:
                copied += "nodes: [\n"
            (folder / f"{WORKFLOW_PREFIX}{new_id}.yml").write_text(copied, encoding="utf-8")
    if project_file:
        (under / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    return folder


def plant(
    folder: Path, name: str, old: str, new: str, count: int = 1, *, of: int | None = None
) -> str:
    """`builders.plant` in file `name` of `folder` (`old` there exactly `count` times, or `of`
    times of which the first `count` are replaced); answers the new text."""
    path = folder / name
    text = planted_text(path.read_text(encoding="utf-8"), old, new, count, of=of)
    path.write_text(text, encoding="utf-8")
    return text


# The facts of a file's text, read once per test run: a copy of the site is mostly the same
# files, and reading the real site's YAML is what a test would spend its time on. (The facts'
# spans are offsets into the text, so equal texts give equal facts.)
_FACTS: dict[tuple[str, str], WorkflowFacts | NodeTypeDefinition | None] = {}
_DEFINITIONS = NodeTypeFiles()


def loaded(folder: Path) -> SiteIndex:
    """An index of `folder`, read as `SiteIndex.load` reads it."""
    index = SiteIndex(folder)
    for path in index.scan():
        text = path.read_text(encoding="utf-8")
        key = (path.name, text)
        if key not in _FACTS:
            _FACTS[key] = read_facts(path, text, _DEFINITIONS)
        index.update(path, text, _FACTS[key])
    return index


def position(text: str, offset: int) -> tuple[int, int]:
    """0-based line and column (code points) of `offset`."""
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def where_is(text: str, needle: str, after: str = "", nth: int = 0) -> tuple[int, int]:
    """The line and column of the `nth` occurrence of `needle` after the first `after`."""
    at = text.index(after) if after else 0
    for _ in range(nth + 1):
        at = text.index(needle, at + (1 if _ else 0))
    return position(text, at)


def site_findings(index: SiteIndex, code: str) -> list[tuple[str, int, int, Finding]]:
    """Every finding of `code` in the site: (file name, line, column, finding), sorted."""
    found = []
    for path in index.files:
        text = index.text(path) or ""
        for finding in index.findings(path):
            if finding.code == code:
                line, column = position(text, finding.span.start)
                found.append((Path(path).name, line, column, finding))
    return sorted(found, key=lambda item: item[:3])


def places(index: SiteIndex, code: str) -> list[tuple[str, int, int]]:
    return [item[:3] for item in site_findings(index, code)]


def all_findings(index: SiteIndex) -> list[Finding]:
    return [finding for path in index.files for finding in index.findings(path)]
