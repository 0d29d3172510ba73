"""A `check` ends without Python's teardown (entry.command_line: `os._exit` once its output is
flushed), and loses nothing by it: the whole report, the exit code, the `-o` file. The server's
and the Doctor's commands, `--help` and usage errors exit as usual."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.builders import REPO

# Runs the console script's function with an exit handler that says whether teardown ran.
_SCRIPT = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('TEARDOWN\\n'))\n"
    "sys.argv = ['flowdrop-lsp', *sys.argv[1:]]\n"
    "from flowdrop_lsp.entry import command_line\n"
    "command_line()\n"
)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _SCRIPT, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )


def test_check_ends_without_teardown_and_its_output_whole(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = _run("check", "examples", "--no-cache", "-o", str(report), "--format", "json")
    assert done.returncode == 1, done.stderr
    assert "TEARDOWN" not in done.stderr
    assert done.stdout.rstrip().endswith("[~] 1 more fixable with --fix --unsafe-fixes")
    assert report.read_text(encoding="utf-8").rstrip().endswith("]")


def test_an_exit_zero_check_exits_zero_without_teardown() -> None:
    done = _run("check", "examples", "--no-cache", "--exit-zero")
    assert (done.returncode, "TEARDOWN" in done.stderr) == (0, False), done.stderr


@pytest.mark.parametrize("args", [["check", "--help"], ["check", "--no-such-option"]])
def test_help_and_usage_errors_exit_as_usual(args: list[str]) -> None:
    done = _run(*args)
    assert "TEARDOWN" in done.stderr
    assert done.returncode == (0 if "--help" in args else 2)
