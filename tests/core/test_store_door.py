"""STORE-1's door (core/syntax/door.py, core/rules/store_door.py): a workflow over 8 MiB (UTF-8
bytes) or nested 64 levels or deeper gets one finding on its first character and is never
parsed — through `check`, `check --fix`, `check -`, an editor's buffer (opened, edited across
the bound and back), the site's read, the Doctor's drafts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.core import analysis
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.ide.service import WorkflowService
from flowdrop_lsp.core.syntax import reader as reader_module
from flowdrop_lsp.core.syntax.door import MAX_WORKFLOW_BYTES, REFUSED_DEPTH, refusal
from flowdrop_lsp.core.syntax.json.depth import json_depth
from flowdrop_lsp.core.syntax.yaml.depth import yaml_depth
from flowdrop_lsp.core.workspace import batch
from flowdrop_lsp.core.workspace.site import SiteIndex
from tests.support.builders import node, tool_edge, workflow
from tests.support.cli import run, set_stdin
from tests.support.trees import shape

# On one worker (`make test`: --dist loadgroup): `oversized`, a document over the size limit,
# is made once for the module.
pytestmark = pytest.mark.xdist_group("store-door")

AGENT = "flowdrop_node_processor_reason"


def _export(min_bytes: int) -> str:
    """A real-looking export (agents with tools, CMP-9 collisions) of at least `min_bytes`."""
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    while True:
        k = len(nodes)
        nodes += [node(f"agent{k}", AGENT, label=f"Agent {k}"), node(f"tool{k}", label="Search")]
        edges.append(tool_edge(f"tool{k}", f"agent{k}"))
        if k % 2000 == 0 and len(json.dumps(nodes)) + 100 * len(edges) > min_bytes:
            return workflow(nodes, edges)


@pytest.fixture(scope="module")
def oversized() -> str:
    return _export(MAX_WORKFLOW_BYTES + 1)


@pytest.fixture
def no_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every parser behind the reader seam fails the test if it is called."""

    def parsed(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the door let a refused text through to a parser")

    for name in ("scan_workflow", "parse_json", "read_yaml", "parse_value_at"):
        monkeypatch.setattr(reader_module, name, parsed)


def _nested(levels: int, yaml: bool = False) -> str:
    """A workflow whose node config nests down to `levels` in all (the root is 1)."""
    inner = "[" * (levels - 5) + "]" * (levels - 5)
    if yaml:
        config = "".join(f"\n{'  ' * (4 + i)}k{i}:" for i in range(levels - 4)) + " 1"
        return (
            "id: deep\nlabel: Deep\nnodes:\n  -\n    id: a\n    type: universalNode\n"
            f"    data:\n      label: A\n      config:{config}\nedges: {{  }}\n"
        )
    return json.dumps(
        {
            "nodes": [{"id": "a", "type": "universalNode", "data": {"config": {"x": 0}}}],
            "edges": [],
        }
    ).replace('{"x": 0}', '{"x": ' + inner + "}")


# ----- the measures ------------------------------------------------------------------------------


@pytest.mark.parametrize("yaml", [False, True])
def test_63_levels_are_read_64_are_refused(yaml: bool) -> None:
    syntax = "yaml" if yaml else "json"
    below = analysis.analyze(_nested(REFUSED_DEPTH - 1, yaml), syntax=syntax).findings
    assert "STORE-1" not in {f.code for f in below}
    [refused] = analysis.analyze(_nested(REFUSED_DEPTH, yaml), syntax=syntax).findings
    assert refused.code == "STORE-1" and refused.span.start == 0 and refused.span.end == 1
    least = "at least " if yaml else ""
    assert f"nests {least}64 levels deep" in refused.message


@pytest.mark.parametrize("levels", range(REFUSED_DEPTH - 5, REFUSED_DEPTH + 4))
@pytest.mark.parametrize("leaf", [" 1", " {  }"])
def test_a_dump_read_before_the_door_is_what_the_door_first_gives(levels: int, leaf: str) -> None:
    # The reader takes Drupal's dump shape before measuring its depth (YamlReader.read): its
    # verdict and tree are the door-first read's, on both sides of the bound, with an empty
    # mapping as the deepest value (one level more than the collections open).
    text = _nested(levels, yaml=True).replace(" 1\nedges", leaf + "\nedges")
    read = reader_module.reader_for("yaml", False).read(text)
    door = refusal(text, lambda t: yaml_depth(t, REFUSED_DEPTH), at_least=True)
    assert read.refused == door
    if door is None:
        parsed, aliased = reader_module.read_yaml(text)
        # (The whole read keeps a node's config whole: said as it re-reads.)
        assert shape(read.parsed.root, text) == shape(parsed.root) is not None
        assert read.parsed.problems == parsed.problems
        assert read.local_edits == (not aliased)


def test_the_json_depth_is_exact_and_ignores_strings_escapes_and_comments() -> None:
    assert json_depth("{}") == 1 and json_depth('{"a": []}') == 2 and json_depth("3") == 0
    assert json_depth('{"a": "[[[{{{\\"]]]", "b": "\\\\"}') == 1
    assert json_depth('{"a": [1, /* [[[[ */ 2] // {{{{\n}', allow_comments=True) == 2
    assert json_depth("[" * 70) == 70  # broken: counted bracket by bracket


def test_the_yaml_count_never_exceeds_the_true_depth() -> None:
    # Text that looks like structure but is a scalar's: a block scalar, a quoted scalar over
    # lines, a plain scalar's continuation.
    text = "a: |\n  - b:\n    - c:\n" + "k: 'x\n   - b:\n     - c: 1'\n" + "p: plain\n  - more\n"
    assert yaml_depth(text * 40 + "z:\n" + " " * 70 + "[1]\n", 64) <= 2
    # `- key:` counts its mapping at the key's column, `{ }` values their levels.
    assert yaml_depth("nodes:\n  - id: x\n    data: {a: [1, [2]]}\n", 64) == 6


def test_the_size_is_counted_in_utf8_bytes_not_code_points(no_parse: None) -> None:
    # 3 bytes a character: under the bound in code points, over it in bytes.
    label = "数" * (MAX_WORKFLOW_BYTES // 3 + 10)
    text = workflow([node("a", label=label)], [])
    assert len(text) < MAX_WORKFLOW_BYTES
    [finding] = analysis.analyze(text).findings
    assert finding.code == "STORE-1" and "8 MiB" in finding.message


# ----- the command line ------------------------------------------------------------------------


def test_a_file_read_as_bytes_is_refused_without_a_document(
    oversized: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI's files come with their bytes: the door decides on them before any document
    (its line index, its chunks) is made; the finding is the document's own, settings
    applied."""
    made = analysis.analyze(oversized).findings

    def no_document(*_: object, **__: object) -> None:
        raise AssertionError("a document was made for a file the door refuses by its size")

    monkeypatch.setattr(batch, "WorkflowDocument", no_document)
    data = oversized.encode()
    job = batch.AnalysisJob(oversized, data, Settings(), "json")
    assert batch.analyse_file(job).findings == made
    quiet = Settings(ignore=frozenset({"STORE-1"}))
    assert batch.analyse_file(batch.AnalysisJob(oversized, data, quiet, "json")).findings == ()


def test_check_fix_and_stdin_tell_an_oversized_export_at_once(
    tmp_path: Path,
    oversized: str,
    no_parse: None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "big.flowdrop.json"
    path.write_text(oversized, encoding="utf-8")
    size = len(oversized.encode())
    code, out, _ = run(capsys, "--no-cache", str(path))
    assert code == 1
    [line] = [line for line in out.splitlines() if "STORE-1" in line]
    assert line.startswith(f"{path}:1:1: error STORE-1 the workflow is ")
    assert f"({size:,} bytes); FlowDrop refuses a workflow over 8 MiB (STORE-1)" in line
    assert "1 error in 1 file" in out
    code, out, _ = run(capsys, "--no-cache", "--fix", str(path))
    assert code == 1 and path.read_text(encoding="utf-8") == oversized
    set_stdin(monkeypatch, oversized.encode())
    code, out, _ = run(capsys, "-")
    assert code == 1 and "<stdin>:1:1: error STORE-1" in out


def test_a_yaml_site_file_too_deep_is_one_finding_and_no_facts(
    tmp_path: Path, no_parse: None, capsys: pytest.CaptureFixture[str]
) -> None:
    sync = tmp_path / "config" / "sync"
    sync.mkdir(parents=True)
    path = sync / "flowdrop_workflow.flowdrop_workflow.deep.yml"
    path.write_text(_nested(80, yaml=True), encoding="utf-8")
    code, out, _ = run(capsys, "--no-cache", str(sync))
    assert code == 1
    assert [line.split(": ", 1)[1] for line in out.splitlines() if ":1:1:" in line] == [
        "error STORE-1 the workflow nests at least 64 levels deep; FlowDrop refuses a "
        "workflow nested 64 levels or deeper (STORE-1), so it is not analysed"
    ]
    site = SiteIndex(sync)
    site.load()
    assert not site.has_workflows()


# ----- an editor's buffer ----------------------------------------------------------------------


def test_a_refused_buffer_answers_every_request_empty(oversized: str, no_parse: None) -> None:
    service = WorkflowService(oversized, release_on_close=True)
    try:
        [finding] = service.findings()
        assert finding.code == "STORE-1"
        middle = len(oversized) // 2
        assert service.hover(middle, True) is None
        completions = service.completions(middle)
        assert completions is None or not completions.items
        assert service.site_facts() is None
        # Edited, it is still refused, and still not parsed.
        service.apply_edit(middle, middle, " ")
        assert [f.code for f in service.findings()] == ["STORE-1"]
    finally:
        service.close()


def test_an_edit_across_the_depth_bound_is_judged_as_a_read_from_scratch() -> None:
    text = _nested(REFUSED_DEPTH - 1)
    service = WorkflowService(text)
    try:
        assert "STORE-1" not in {f.code for f in service.findings()}
        at = text.index("[]")
        service.apply_edit(at + 1, at + 1, "[]")  # one level more: 64
        deeper = service.text
        assert [f.code for f in service.findings()] == ["STORE-1"]
        assert service.findings() == analysis.analyze(deeper).findings
        service.apply_edit(at + 1, at + 3, "")  # and back
        assert service.findings() == analysis.analyze(text).findings
    finally:
        service.close()


def test_a_paste_past_the_size_bound_is_judged_as_a_read_from_scratch() -> None:
    text = workflow([node("a", label="Search"), node("b", label="Other")], [])
    service = WorkflowService(text)
    try:
        at = text.index("Other")
        service.apply_edit(at, at, "x" * MAX_WORKFLOW_BYTES)
        assert [f.code for f in service.findings()] == ["STORE-1"]
        service.apply_edit(at, at + MAX_WORKFLOW_BYTES, "")
        assert service.findings() == analysis.analyze(text).findings
    finally:
        service.close()


# ----- the Doctor's drafts ---------------------------------------------------------------------


def test_a_doctor_draft_too_deep_is_one_problem(tmp_path: Path) -> None:
    from flowdrop_lsp.core.doctor import DoctorService

    draft = json.loads(_nested(70))
    service = DoctorService(None)
    try:
        problems = service.diagnose("deep", draft)
    finally:
        service.close()
    assert [p.get("code") or p.get("rule") for p in problems] == ["STORE-1"]
