"""The options users of Ruff, ESLint and actionlint reach for: rule selection, --exit-zero,
--output-file, --quiet, --statistics, --color, and per-file-ignores from the settings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from flowdrop_lsp.cli.report import use_color
from tests.support.builders import REPO, node, tool_edge, workflow
from tests.support.cli import COLLISION, WARNINGS_ONLY, copy, run

# Two CMP-9 errors and one R8 warning (an edge to a node nobody defined).
MIXED = workflow(
    [node("a", label="Web Search"), node("b", label="web-search"), node("x", "agent")],
    [tool_edge("a", "x"), tool_edge("b", "x"), tool_edge("a", "ghost")],
)


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    path = tmp_path / "mixed.flowdrop.json"
    path.write_text(MIXED, encoding="utf-8")
    return path


def codes_of(out: str) -> list[str]:
    return [finding["code"] for finding in json.loads(out)]


# ----- --select / --extend-select / --ignore ---------------------------------------------------


def test_select_keeps_only_those_rules(capsys: pytest.CaptureFixture[str], mixed: Path) -> None:
    code, out, _ = run(capsys, "--format", "json", "--select", "R8", str(mixed))
    assert (code, codes_of(out)) == (1, ["R8"])  # R8 is an error (FlowDrop refuses it)


def test_ignore_drops_rules_and_wins_over_select(
    capsys: pytest.CaptureFixture[str], mixed: Path
) -> None:
    code, out, _ = run(capsys, "--format", "json", "--ignore", "CMP-9", str(mixed))
    assert (code, codes_of(out)) == (1, ["R8"])
    code, out, _ = run(
        capsys, "--format", "json", "--select", "CMP-9,R8", "--ignore", "R8", str(mixed)
    )
    assert (code, codes_of(out)) == (1, ["CMP-9", "CMP-9"])


def test_extend_select_turns_on_a_rule_the_settings_ignore(
    capsys: pytest.CaptureFixture[str], mixed: Path
) -> None:
    (mixed.parent / "flowdrop-lsp.toml").write_text('ignore = ["R8", "CMP-9"]\n', "utf-8")
    code, out, _ = run(capsys, "--format", "json", str(mixed))
    assert (code, codes_of(out)) == (0, [])
    code, out, _ = run(capsys, "--format", "json", "--extend-select", "R8", str(mixed))
    assert (code, codes_of(out)) == (1, ["R8"])
    # --select replaces the settings' choice, their `ignore` included.
    code, out, _ = run(capsys, "--format", "json", "--select", "CMP-9", str(mixed))
    assert (code, codes_of(out)) == (1, ["CMP-9", "CMP-9"])


def test_an_unknown_code_on_the_command_line_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], mixed: Path
) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(capsys, "--ignore", "CMP9", str(mixed))
    assert exit_.value.code == 2
    assert "unknown rule code 'CMP9' (did you mean 'CMP-9'?)" in capsys.readouterr().err


def test_ignored_findings_are_not_fixed(capsys: pytest.CaptureFixture[str], mixed: Path) -> None:
    code, out, _ = run(capsys, "--diff", "--ignore", "CMP-9,R8", str(mixed))
    assert (code, out) == (0, "")


# ----- --exit-zero, --quiet, --statistics ------------------------------------------------------


def test_exit_zero_reports_errors_but_exits_0(
    capsys: pytest.CaptureFixture[str], mixed: Path
) -> None:
    code, out, _ = run(capsys, "--exit-zero", str(mixed))
    assert code == 0 and "error CMP-9" in out
    code, _, _ = run(capsys, "--exit-zero", str(mixed.parent / "missing.flowdrop.json"))
    assert code == 2  # an I/O error is still one


def test_quiet_prints_findings_only(capsys: pytest.CaptureFixture[str], mixed: Path) -> None:
    code, out, _ = run(capsys, "-q", str(mixed))
    assert code == 1
    assert out.count("\n") == 3 and "in 1 file" not in out
    empty = mixed.parent / "empty"
    empty.mkdir()
    assert "no workflow files" in run(capsys, str(empty))[2]
    assert run(capsys, "-q", str(empty))[1:] == ("", "")


def test_statistics_counts_per_rule_like_ruff(
    capsys: pytest.CaptureFixture[str], mixed: Path
) -> None:
    code, out, _ = run(capsys, "--statistics", str(mixed))
    assert code == 1
    assert out == (
        "2\tCMP-9\terror\t[*] Tool name collision\n1\tR8   \terror\t[~] Undefined edge endpoint\n"
    )
    code, out, _ = run(capsys, "--statistics", "--format", "json", str(mixed))
    assert json.loads(out) == [
        {
            "code": "CMP-9",
            "title": "Tool name collision",
            "severity": "error",
            "count": 2,
            "fixable": 2,
            "mark": "[*]",
        },
        {
            "code": "R8",
            "title": "Undefined edge endpoint",
            "severity": "error",
            "count": 1,
            "fixable": 0,
            "mark": "[~]",
        },
    ]
    code, _, err = run(capsys, "--statistics", "--format", "sarif", str(mixed))
    assert code == 2 and "--statistics is written as text or json" in err


# ----- --output-file -----------------------------------------------------------------------------


def test_output_file_gets_the_format_and_the_log_gets_text(
    capsys: pytest.CaptureFixture[str], mixed: Path, tmp_path: Path
) -> None:
    sarif = tmp_path / "results.sarif"
    code, out, _ = run(capsys, "--format", "sarif", "--output-file", str(sarif), str(mixed))
    assert code == 1
    log = json.loads(sarif.read_text(encoding="utf-8"))
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["CMP-9", "CMP-9", "R8"]
    assert "error CMP-9 [*]" in out and out.endswith(
        "3 errors in 1 file\n[*] 2 fixable with --fix (see them with --diff)\n"
        "[~] 1 more fixable with --fix --unsafe-fixes\n"  # R8: remove the dangling edge
    )
    code, out, _ = run(capsys, "--format", "sarif", "-o", str(sarif), "-q", str(mixed))
    assert (code, out) == (1, "")
    assert json.loads(sarif.read_text(encoding="utf-8")) == log


def test_an_unwritable_output_file_is_an_io_error(
    capsys: pytest.CaptureFixture[str], mixed: Path, tmp_path: Path
) -> None:
    code, _, err = run(capsys, "-o", str(tmp_path / "no" / "such" / "dir.txt"), str(mixed))
    assert code == 2 and "cannot write" in err


# ----- colour ----------------------------------------------------------------------------------


class _Terminal:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_colour_only_on_a_terminal_and_never_with_no_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color("auto", _Terminal(True))  # type: ignore[arg-type]
    assert not use_color("auto", _Terminal(False))  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color("auto", _Terminal(True))  # type: ignore[arg-type]
    assert use_color("always", _Terminal(False))  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "")  # no-color.org: set but empty means nothing
    assert use_color("auto", _Terminal(True))  # type: ignore[arg-type]
    assert not use_color("never", _Terminal(True))  # type: ignore[arg-type]


def test_color_always_paints_the_text_report_and_never_a_file(
    capsys: pytest.CaptureFixture[str], mixed: Path, tmp_path: Path
) -> None:
    # (R8 lowered to a warning, as a user may: FlowDrop refuses it, so it is an error by default.)
    (mixed.parent / "flowdrop-lsp.toml").write_text('severity = { "R8" = "warning" }\n', "utf-8")
    _, out, _ = run(capsys, "--color", "always", str(mixed))
    assert "\x1b[31merror\x1b[0m" in out and "\x1b[33mwarning\x1b[0m" in out
    report = tmp_path / "report.txt"
    _, out, _ = run(capsys, "--color", "always", "-o", str(report), str(mixed))
    assert "\x1b[" in out and "\x1b[" not in report.read_text(encoding="utf-8")
    _, out, _ = run(capsys, str(mixed))  # captured output is no terminal
    assert "\x1b[" not in out


def test_colour_in_a_real_pseudo_terminal(mixed: Path) -> None:
    """`check` on a pty colours by itself; with NO_COLOR it does not."""
    pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX-only")
    import os

    def under_pty(env: dict[str, str]) -> bytes:
        pid, fd = pty.fork()
        if pid == 0:  # the child: its stdout is the pty
            os.execve(
                sys.executable,
                [sys.executable, "-m", "flowdrop_lsp", "check", str(mixed)],
                env,
            )
        chunks = []
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.waitpid(pid, 0)
        return b"".join(chunks)

    base = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    assert b"\x1b[31merror" in under_pty(base)
    assert b"\x1b[" not in under_pty({**base, "NO_COLOR": "1"})


# ----- per-file-ignores --------------------------------------------------------------------------


def test_per_file_ignores_from_the_settings_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "flowdrop-lsp.toml").write_text(
        '[per-file-ignores]\n"legacy/**" = ["CMP-9"]\n', encoding="utf-8"
    )
    (tmp_path / "legacy").mkdir()
    copy(tmp_path / "legacy", COLLISION)
    copy(tmp_path, COLLISION, "current.flowdrop.json")
    code, out, _ = run(capsys, "--format", "json", str(tmp_path))
    paths = {(Path(f["path"]).name, f["code"]) for f in json.loads(out)}
    assert ("current.flowdrop.json", "CMP-9") in paths
    assert not any(name == COLLISION.name and c == "CMP-9" for name, c in paths)
    assert code == 1


def test_per_file_ignores_apply_to_stdin_by_its_stdin_filename(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    (tmp_path / "flowdrop-lsp.toml").write_text(
        'per-file-ignores = { "legacy/**" = ["R8"] }\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    for name, expected in (("legacy/a.flowdrop.json", []), ("a.flowdrop.json", ["R8"])):
        monkeypatch.setattr(sys, "stdin", io.StringIO(WARNINGS_ONLY))
        _, out, _ = run(capsys, "--format", "json", "--stdin-filename", name, "-")
        assert codes_of(out) == expected


def test_the_installed_command_has_the_options() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "flowdrop_lsp", "check", "--help"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    for option in (
        "--select",
        "--extend-select",
        "--ignore",
        "--exit-zero",
        "--output-file",
        "--quiet",
        "--statistics",
        "--color",
        "--baseline",
        "--write-baseline",
        "--unsafe-fixes",
        "--no-unsafe-fixes",
    ):
        assert option in result.stdout
