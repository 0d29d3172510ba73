"""A reader that goes away (`flowdrop-lsp rule | head -1`, `check … | head`) gets no traceback
on stderr: the command stops quietly."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("command", [["rule"], ["rule", "CMP-9"], ["rule", "--standing"]])
def test_a_closed_pipe_is_no_traceback(command: list[str]) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "flowdrop_lsp", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # before it writes a line: every write meets a closed pipe
    stderr = process.stderr.read().decode("utf-8", "replace")
    process.wait(timeout=60)
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr
    assert process.returncode == 1
