"""`flowdrop-lsp check`: exit codes, --fix/--diff, discovery, stdin, settings files, positions
in each format, and the real corpus. In-process through `main([...])`, once as a subprocess."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flowdrop_lsp.entry import main
from tests.support.builders import (
    CORPUS_JSON,
    FIXTURES,
    REPO,
    SPEC_EXAMPLES,
    node,
    tool_edge,
    vendored,
    workflow,
)
from tests.support.cli import CLEAN, COLLISION, UNICODE, WARNINGS_ONLY, copy, run, set_stdin

# ----- exit codes ---------------------------------------------------------------------------


def test_clean_file_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(CLEAN))
    assert code == 0
    assert out == "no problems in 1 file\n"


def test_collision_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(COLLISION))
    assert code == 1
    assert out.count(" error CMP-9 ") == 2


def test_warnings_only_exit_0(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "w.flowdrop.json"
    path.write_text(WARNINGS_ONLY, encoding="utf-8")
    code, out, _ = run(capsys, str(path))
    assert code == 1 and " error R8 " in out  # FlowDrop refuses it: an error by default
    # Lowered by the user to a warning: exit 0.
    (tmp_path / "flowdrop-lsp.toml").write_text('severity = { "R8" = "warning" }\n', "utf-8")
    code, out, _ = run(capsys, str(path))
    assert code == 0
    assert " warning R8 " in out


def test_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, str(tmp_path / "nope.flowdrop.json"))
    assert code == 2
    assert "cannot read" in err


def test_missing_file_beside_a_collision_still_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, str(COLLISION), str(tmp_path / "nope.json"))
    assert code == 2
    assert "CMP-9" in out


@pytest.mark.parametrize(
    "content",
    [
        "ignore = [",
        'ignore = "CMP-9"',
        '[flowdrop-lsp]\nseverity = { CMP-9 = "fatal" }',
        "passthrough-types = 5",
    ],
)
def test_bad_config_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str
) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "--config", str(config), str(COLLISION))
    assert code == 2
    assert err.startswith("flowdrop-lsp: ")
    assert out == ""


def test_missing_config_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "--config", str(tmp_path / "missing.toml"), str(CLEAN))
    assert code == 2
    assert "missing.toml" in err


def test_bad_project_settings_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "flowdrop-lsp.toml").write_text('severity = { CMP-9 = "loud" }\n', encoding="utf-8")
    path = copy(tmp_path, CLEAN)
    code, _, err = run(capsys, str(path))
    assert code == 2
    assert "loud" in err


def test_fix_and_diff_together_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--fix", "--diff", str(CLEAN))[0] == 2


def test_unknown_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--format", "xml", str(CLEAN)])
    assert exit_info.value.code == 2


# ----- --fix and --diff ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "fixture", sorted(FIXTURES.glob("collision-*.flowdrop.json")), ids=lambda p: p.name
)
def test_fix_writes_in_place_and_the_file_then_checks_clean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fixture: Path
) -> None:
    path = copy(tmp_path, fixture)
    before = path.read_bytes()
    code, out, err = run(capsys, "--fix", str(path))
    assert "renamed" in err and "fixing" in err
    after = path.read_bytes()
    assert after != before
    json.loads(after)
    assert "CMP-9" not in out
    code_again, out_again, _ = run(capsys, str(path))
    assert "CMP-9" not in out_again
    # The collision fixtures have no other error, except the type-fallback one (labels of the
    # wrong type) and R8 where one wires tools to an agent it does not define (FlowDrop refuses
    # such an edge at save: an error since issue 26).
    if fixture.name != "collision-type-fallback.flowdrop.json":
        errors = set(re.findall(r": error (\S+) ", out_again))
        assert errors <= {"R8", "DATA-10", "EDGE-5"}  # refusals no collision fix touches
        assert code_again == (1 if errors else 0)


def test_fix_keeps_crlf_and_file_mode(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "crlf.flowdrop.json"
    path.write_bytes(COLLISION.read_bytes().replace(b"\n", b"\r\n"))
    path.chmod(0o640)
    code, _, _ = run(capsys, "--fix", str(path))
    assert code == 0
    data = path.read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n") > 0
    assert path.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["crlf.flowdrop.json"]  # no temporary left


def test_diff_changes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = copy(tmp_path, COLLISION)
    before = path.read_bytes()
    code, out, _ = run(capsys, "--diff", str(path))
    assert path.read_bytes() == before
    assert code == 1
    assert out.startswith(f"--- {path}\n+++ {path}\n")
    removed = [
        line for line in out.splitlines() if line.startswith("-") and not line.startswith("---")
    ]
    added = [
        line for line in out.splitlines() if line.startswith("+") and not line.startswith("+++")
    ]
    # The first tool keeps its name ("Fetch Page"); only the other is renamed.
    assert len(removed) == len(added) == 1
    assert '"label": "fetch_page 2"' in added[0]


def test_diff_of_a_clean_file_is_empty(capsys: pytest.CaptureFixture[str]) -> None:
    # stdout stays a valid (empty) diff; stderr says why it is empty.
    assert run(capsys, "--diff", str(CLEAN)) == (0, "", "flowdrop-lsp: nothing to fix\n")


# ----- positions in each format -------------------------------------------------------------


def _unicode_position() -> tuple[int, int]:
    """0-based line and code-point column of the "Café" label (after CJK and emoji)."""
    lines = UNICODE.read_text(encoding="utf-8").split("\n")
    line = next(i for i, text in enumerate(lines) if '"Café"' in text)
    return line, lines[line].index('"Café"')


def test_text_columns_are_1_based_code_points(capsys: pytest.CaptureFixture[str]) -> None:
    line, column = _unicode_position()
    _, out, _ = run(capsys, str(UNICODE))
    assert (
        f'{UNICODE}:{line + 1}:{column + 1}: error CMP-9 [*] tool name "caf" also used by "Caf"'
        in out
    )
    assert (
        column + 1
        != len(UNICODE.read_text(encoding="utf-8").split("\n")[line][:column].encode("utf-8")) + 1
    )


def test_json_positions_are_0_based_code_points(capsys: pytest.CaptureFixture[str]) -> None:
    line, column = _unicode_position()
    _, out, _ = run(capsys, "--format", "json", str(UNICODE))
    item = next(f for f in json.loads(out) if f["node"] == "t.1")
    assert item["range"] == {
        "start": {"line": line, "character": column},
        "end": {"line": line, "character": column + len('"Café"')},
    }
    assert item["tool_name"] == "caf"
    assert item["consumers"] == [{"consumer": "agent", "colliding_with": ["t.2"], "route": []}]


def test_github_and_sarif_columns_are_1_based_code_points(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line, column = _unicode_position()
    _, out, _ = run(capsys, "--format", "github", str(UNICODE))
    width = len('"Café"')
    assert (
        f"line={line + 1},col={column + 1},endLine={line + 1},endColumn={column + 1 + width}" in out
    )
    _, out, _ = run(capsys, "--format", "sarif", str(UNICODE))
    region = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {
        "startLine": line + 1,
        "startColumn": column + 1,
        "endLine": line + 1,
        "endColumn": column + 7,
    }


def test_lone_surrogate_in_a_label_is_printed_as_an_escape(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "s.flowdrop.json"
    path.write_text(
        workflow(
            [node("a", label="X"), node("b", label="x")], [tool_edge("a", "g"), tool_edge("b", "g")]
        ).replace('"X"', '"X\\ud83d"'),
        encoding="utf-8",
    )
    for output_format in ("text", "json", "sarif", "github"):
        code, out, _ = run(capsys, "--format", output_format, str(path))
        assert code == 1
        assert "X\\ud83d" in out
        # The same report written to a file (`-o`): the same escape, no UnicodeEncodeError.
        report = tmp_path / f"report.{output_format}"
        code, _, _ = run(capsys, "--format", output_format, "-o", str(report), str(path))
        assert code == 1
        assert report.read_text(encoding="utf-8").count("X\\ud83d") == out.count("X\\ud83d")
    code, out, _ = run(capsys, "--fix", str(path))
    assert code == 1 and "CMP-9" not in out  # left: R8, an error (the agent "g" is no node)
    # "X\ud83d" keeps its name (it comes first); "x" is renamed.
    assert '"X\\ud83d"' in path.read_text(encoding="utf-8")
    assert '"x 2"' in path.read_text(encoding="utf-8")


def test_newline_in_a_label_stays_on_one_output_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "n.flowdrop.json"
    path.write_text(
        workflow(
            [node("a", label="Two\nLines"), node("b", label="two lines")],
            [tool_edge("a", "g"), tool_edge("b", "g")],
        ),
        encoding="utf-8",
    )
    _, out, _ = run(capsys, str(path))
    lines = out.splitlines()
    # 2 CMP-9, 2 R8, the summary, its fixable line and the unsafe one (R8: remove the edge)
    assert len(lines) == 7
    assert '"Two\\nLines"' in lines[1]  # the finding on "two lines" names it


# ----- discovery ----------------------------------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "flows" / "deep").mkdir(parents=True)
    (root / "node_modules" / "pkg").mkdir(parents=True)
    (root / ".git").mkdir()
    shutil.copyfile(COLLISION, root / "flows" / "a.flowdrop.json")
    shutil.copyfile(CLEAN, root / "flows" / "deep" / "plain-name.json")  # a workflow by content
    (root / "flows" / "package.json").write_text(
        '{"name": "x", "version": "1.0.0"}', encoding="utf-8"
    )
    (root / "flows" / "list.json").write_text("[1, 2]", encoding="utf-8")
    (root / "flows" / "notes.txt").write_text("{}", encoding="utf-8")
    (root / "flows" / "latin1.json").write_bytes(b'{"nodes": "\xe9"}')
    shutil.copyfile(COLLISION, root / "node_modules" / "pkg" / "x.flowdrop.json")
    shutil.copyfile(COLLISION, root / ".git" / "y.flowdrop.json")
    return root


def test_directory_recursion_skips_non_workflow_json(
    capsys: pytest.CaptureFixture[str], tree: Path
) -> None:
    code, out, err = run(capsys, "--format", "json", str(tree))
    assert code == 1
    paths = {Path(item["path"]).relative_to(tree).as_posix() for item in json.loads(out)}
    assert paths == {"flows/a.flowdrop.json"}
    assert err == ""


def test_directory_recursion_verbose_says_why(
    capsys: pytest.CaptureFixture[str], tree: Path
) -> None:
    code, out, err = run(capsys, "--verbose", str(tree))
    assert code == 1
    assert out.endswith("in 1 of 2 files\n[*] 2 fixable with --fix (see them with --diff)\n")
    skipped = {
        line.split(":")[0].removeprefix("skipped ")
        for line in err.splitlines()
        if line.startswith("skipped ")
    }
    assert {Path(p).name for p in skipped} == {"package.json", "list.json", "latin1.json"}
    assert f"skipped {tree / 'flows' / 'package.json'}: not a FlowDrop workflow" in err
    assert "latin1.json: unreadable" in err
    assert "notes.txt" not in err and "node_modules" not in err and ".git" not in err


def test_explicit_non_workflow_file_is_checked(
    capsys: pytest.CaptureFixture[str], tree: Path
) -> None:
    code, out, _ = run(capsys, str(tree / "flows" / "package.json"))
    assert code == 1
    assert "FD-NOT-WORKFLOW" in out


# ----- stdin --------------------------------------------------------------------------------


def test_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    set_stdin(monkeypatch, COLLISION.read_bytes())
    code, out, _ = run(capsys, "-")
    assert code == 1
    assert out.startswith("<stdin>:10:")
    set_stdin(monkeypatch, COLLISION.read_bytes())
    code, out, _ = run(
        capsys, "--stdin-filename", "flows/x.flowdrop.json", "--format", "github", "-"
    )
    assert "file=flows/x.flowdrop.json," in out


def test_stdin_fix_writes_the_document_to_stdout_and_the_report_to_stderr(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    original = COLLISION.read_bytes().replace(b"\n", b"\r\n")
    set_stdin(monkeypatch, original)
    code, out, err = run(capsys, "--fix", "-")
    assert code == 0
    fixed = json.loads(out)
    assert out.count("\r\n") == original.count(b"\r\n")
    assert [n["data"]["label"] for n in fixed["nodes"]][4:6] == ["Fetch Page", "fetch_page 2"]
    assert err.endswith("no problems in 1 file\n")


def test_stdin_fix_without_findings_echoes_the_document(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    set_stdin(monkeypatch, CLEAN.read_bytes())
    code, out, err = run(capsys, "--fix", "-")
    assert (code, out) == (0, CLEAN.read_text(encoding="utf-8"))
    assert "no problems" in err


def test_stdin_fix_reports_what_remains(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    set_stdin(monkeypatch, b'{"nodes": [')
    code, out, err = run(capsys, "--fix", "-")
    assert code == 1
    assert out == '{"nodes": ['
    assert "FD-SYNTAX" in err


# ----- settings files -----------------------------------------------------------------------

KIT = workflow(
    [
        node("a", label="Search"),
        node("b", label="search"),
        node("kit", "site_kit", "Kit"),
        node("agent", "agent"),
    ],
    [tool_edge("a", "kit"), tool_edge("b", "kit"), tool_edge("kit", "agent")],
)


def _json_findings(
    capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, list[dict[str, object]]]:
    code, out, _ = run(capsys, "--format", "json", *args)
    return code, json.loads(out)


def test_pyproject_table_sets_passthrough_types(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "sub" / "kit.flowdrop.json"
    path.parent.mkdir()
    path.write_text(KIT, encoding="utf-8")
    _, before = _json_findings(capsys, str(path))
    assert {c["consumer"] for f in before if f["code"] == "CMP-9" for c in f["consumers"]} == {
        "kit"
    }
    (tmp_path / "pyproject.toml").write_text(
        '[tool.flowdrop-lsp]\nextend-passthrough-types = ["site_kit"]\n', encoding="utf-8"
    )
    _, after = _json_findings(capsys, str(path))
    assert {c["consumer"] for f in after if f["code"] == "CMP-9" for c in f["consumers"]} == {
        "agent"
    }
    assert all(c["route"] == ["kit"] for f in after if f["code"] == "CMP-9" for c in f["consumers"])


def test_project_file_severity_override_and_ignore(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "kit.flowdrop.json"
    path.write_text(KIT, encoding="utf-8")
    settings = tmp_path / "flowdrop-lsp.toml"
    settings.write_text('[severity]\nCMP-9 = "warning"\n', encoding="utf-8")
    code, found = _json_findings(capsys, str(path))
    assert code == 0
    assert {f["severity"] for f in found if f["code"] == "CMP-9"} == {"warning"}
    settings.write_text('ignore = ["CMP-9"]\n', encoding="utf-8")
    code, found = _json_findings(capsys, str(path))
    assert (code, found) == (0, [])


def test_flowdrop_toml_beats_pyproject_in_the_same_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "kit.flowdrop.json"
    path.write_text(KIT, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.flowdrop-lsp]\nignore = ["CMP-9"]\n', encoding="utf-8"
    )
    (tmp_path / "flowdrop-lsp.toml").write_text("ignore = []\n", encoding="utf-8")
    code, found = _json_findings(capsys, str(path))
    assert code == 1 and {f["code"] for f in found} == {"CMP-9"}


def test_explicit_config_wins_over_the_project_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "kit.flowdrop.json"
    path.write_text(KIT, encoding="utf-8")
    (tmp_path / "flowdrop-lsp.toml").write_text('ignore = ["CMP-9"]\n', encoding="utf-8")
    config = tmp_path / "elsewhere.toml"
    config.write_text('passthrough-types = ["site_kit"]\n', encoding="utf-8")
    _, found = _json_findings(capsys, "--config", str(config), str(path))
    assert {c["consumer"] for f in found if f["code"] == "CMP-9" for c in f["consumers"]} == {
        "agent"
    }


def test_project_file_globs_select_files_in_a_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "flowdrop-lsp.toml").write_text('files = ["**/*.workflow"]\n', encoding="utf-8")
    (tmp_path / "a.workflow").write_text(KIT, encoding="utf-8")
    code, out, _ = run(capsys, str(tmp_path))
    assert code == 1
    assert "a.workflow:" in out and "CMP-9" in out


# ----- the spec examples and the real corpus --------------------------------------------------


def test_spec_examples(capsys: pytest.CaptureFixture[str]) -> None:
    refused = vendored(SPEC_EXAMPLES / "cmp9-refused-two-tools-through-a-box.json")
    accepted = vendored(SPEC_EXAMPLES / "cmp9-accepted-same-name-two-consumers.json")
    code, out, _ = run(capsys, str(accepted))
    # The examples are fragments: their agents are not defined (R8, an error); no CMP-9.
    assert code == 1 and "CMP-9" not in out and " error R8 " in out
    code, out, _ = run(capsys, str(refused))
    assert code == 1 and out.count("error CMP-9") == 2


def test_corpus_checks_clean_and_verbose_lists_consumers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    corpus = vendored(CORPUS_JSON)
    code, out, err = run(capsys, "--verbose", str(corpus))
    assert code == 0, out
    assert "CMP-9" not in out
    # FD-TOOL-ROUTE's only fix there removes the branch: unsafe, so hidden behind the flag.
    assert out.endswith("in 4 of 15 files\n[~] 4 fixable with --fix --unsafe-fixes\n")
    audit = corpus / "aincient_audit_agent.flowdrop.json"
    lines = [line for line in err.splitlines() if line.startswith(f"{audit}: consumer ")]
    assert len(lines) == 2  # the shared toolbox feeds a Reason node and an Invoke node
    assert any('"Reason (agent step)" (aincient_reason.2) sees 4 tools:' in line for line in lines)
    assert all(
        "capability_run_page_audit (aincient_flows_aincient_capability_run_page_audit.1 via flowdrop_node_processor_toolbox.1)"
        in line
        for line in lines
    )
    assert f"{corpus / 'reason.flowdrop.json'}: no tool edges" in err


def test_corpus_has_no_error_in_any_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, found = _json_findings(capsys, str(vendored(CORPUS_JSON)))
    assert code == 0
    assert [f for f in found if f["severity"] == "error"] == []


def test_subprocess_python_m(tmp_path: Path) -> None:
    path = copy(tmp_path, COLLISION)
    result = subprocess.run(
        [sys.executable, "-m", "flowdrop_lsp", "check", "--format", "json", str(path)],
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )
    assert result.returncode == 1, result.stderr
    found = json.loads(result.stdout.decode("utf-8"))
    assert [f["code"] for f in found] == ["CMP-9", "CMP-9"]
    assert result.stderr == b""


def test_fix_says_what_it_changed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Two findings (one per colliding tool), one label renamed: the summary says both, truly.
    text = workflow(
        [node("a", label="Web Search"), node("b", label="web-search"), node("x", "agent")],
        [tool_edge("a", "x"), tool_edge("b", "x")],
    )
    path = tmp_path / "a.flowdrop.json"
    path.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "--fix", str(path))
    assert code == 0
    assert f"renamed 1 tool in {path}, fixing 2 findings" in err
    assert "fixed 2 findings" not in err
