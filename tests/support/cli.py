"""Running `flowdrop-lsp check` in-process, and the fixtures the CLI suites share."""

from __future__ import annotations

import io
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from flowdrop_lsp.core.domain.site_view import SiteContext
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.entry import main
from tests.support.builders import (
    CORPUS_CONFIG,
    FIXTURES,
    node,
    tool_edge,
    workflow,
)
from tests.support.site import WORKFLOW_PREFIX

COLLISION = FIXTURES / "collision-nested-drupal.flowdrop.json"


UNICODE = FIXTURES / "collision-unicode.flowdrop.json"


CLEAN = FIXTURES / "clean.flowdrop.json"


WARNINGS_ONLY = workflow([node("a", label="A")], [tool_edge("a", "ghost")])


# A finding's line of the text report: `path:line:column: severity CODE ...`.
_FINDING_LINE = re.compile(r"^.+?:\d+:\d+: ")


def finding_lines(out: str) -> list[str]:
    """The text report's finding lines, without the summary and `--show-fixes` lines."""
    return [line for line in out.splitlines() if _FINDING_LINE.match(line)]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def copy(tmp_path: Path, source: Path, name: str | None = None) -> Path:
    target = tmp_path / (name or source.name)
    shutil.copyfile(source, target)
    return target


def set_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# The stand-in cross-file rule reports under a real code (so that settings can name it); its
# messages start with "fake: ".
FAKE_CODE = "R13"


def fake_site_rule(context: SiteContext) -> Iterator[Finding]:
    """A stand-in cross-file rule (the real ones are not the CLI's business): a workflow node
    whose type the site defines gets a hint, related to the type's `id` in its own
    file; a node type no workflow uses gets one on its `id`."""
    site = context.site
    if context.workflow is not None:
        for node in context.workflow.nodes:
            if node.type_id is None:
                continue
            defined = site.node_type(node.type_id.value)
            if defined is None:
                continue
            yield Finding(
                FAKE_CODE,
                Severity.HINT,
                f"fake: node {node.display} uses type {node.type_id.value}",
                node.type_id.span,
                related=(
                    RelatedLocation(
                        defined.definition.located_id.span, "defined here", defined.path
                    ),
                ),
            )
    node_type = context.node_type
    if node_type is not None:
        users: list[str] = getattr(site, "users_of", lambda _type: [])(node_type.id)
        if not users:
            where = node_type.located_id.span
            yield Finding(FAKE_CODE, Severity.ERROR, "fake: no workflow uses it", where)


def use_fake_site_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("flowdrop_lsp.core.workspace.site.SITE_RULES", ((None, fake_site_rule),))


def texts_of(folder: Path) -> dict[str, str]:
    """Each file's text in `folder`, by name (what a fix run left there)."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}


# A real workflow with one FD-TOOL-ROUTE warning (a dead route: "Remove the branch"), no error,
# and nothing else (no call of the Twig functions the site's own modules add: R11's warnings).
ROUTE = WORKFLOW_PREFIX + "aincient_chrome_agent.yml"


def route_copy(folder: Path) -> Path:
    """`ROUTE` copied into `folder` (the working directory of the test)."""
    target = folder / ROUTE
    target.write_bytes((CORPUS_CONFIG / ROUTE).read_bytes())
    return target
