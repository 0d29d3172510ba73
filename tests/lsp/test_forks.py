"""The processes the LSP tests start are forked from a fork server (tests/support/forks.py): each
behaves as the `python -m flowdrop_lsp …` it stands for — its output, exit code, working
directory and environment, the end of its input and a signal ending it —, and without a fork
server the launcher runs `python -m` itself."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.support.builders import FIXTURES
from tests.support.forks import FORKS, Forks
from tests.support.raw_lsp import WAIT, request

COLLISION = FIXTURES / "collision-golden.flowdrop.json"


def _fresh(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flowdrop_lsp", *args], capture_output=True, text=True, **kwargs
    )


def _forked(*args: str, forks: Forks = FORKS, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        forks.command("flowdrop_lsp", *args), capture_output=True, text=True, **kwargs
    )


def test_a_forked_check_prints_and_exits_as_a_fresh_one_from_its_folder(tmp_path: Path) -> None:
    (tmp_path / COLLISION.name).write_bytes(COLLISION.read_bytes())
    args = ("check", "--no-cache", "--show-fixes", COLLISION.name)
    fresh, forked = _fresh(*args, cwd=tmp_path), _forked(*args, cwd=tmp_path)
    assert forked.returncode == fresh.returncode == 1
    assert forked.stdout == fresh.stdout and COLLISION.name in forked.stdout
    assert forked.stderr == fresh.stderr
    usage = _forked("check", "--no-such-option")
    assert usage.returncode == _fresh("check", "--no-such-option").returncode == 2
    assert "--no-such-option" in usage.stderr


def test_a_forked_process_has_the_environment_it_was_started_with(tmp_path: Path) -> None:
    (tmp_path / COLLISION.name).write_bytes(COLLISION.read_bytes())
    cache = tmp_path / "cache"
    env = {**os.environ, "FLOWDROP_LSP_CACHE_DIR": str(cache)}
    assert not cache.exists()
    assert _forked("check", COLLISION.name, cwd=tmp_path, env=env).returncode == 1
    assert cache.is_dir() and any(cache.iterdir())  # the result cache, where the variable says


def _serve(command: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def _output_ends(process: subprocess.Popen[bytes]) -> bool:
    """Whether the process's output reaches its end within WAIT (read and dropped until then)."""
    assert process.stdout is not None
    fd = process.stdout.fileno()
    deadline = time.monotonic() + WAIT
    while (left := deadline - time.monotonic()) > 0:
        if select.select([fd], [], [], left)[0] and not os.read(fd, 65536):
            return True
    return False


def test_a_forked_server_ends_as_a_fresh_one_at_the_end_of_its_input_and_on_a_signal() -> None:
    fresh = [sys.executable, "-m", "flowdrop_lsp", "serve"]
    forked = FORKS.command("flowdrop_lsp", "serve")
    ended = []
    for command in (fresh, forked):
        server = _serve(command)
        _, err = server.communicate(b"", timeout=WAIT)  # its input closed at once
        ended.append((server.returncode, err))
    assert ended[0] == ended[1] and ended[0][0] == 0, ended
    stopped = []
    for command in (fresh, forked):
        server = _serve(command)
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(request(1, "initialize", {"capabilities": {}}))
        server.stdin.flush()
        # It answers: it runs, and the signal is the server's to handle, not a launcher's.
        assert server.stdout.readline().startswith(b"Content-Length:")
        server.send_signal(signal.SIGTERM)
        stopped.append(server.wait(timeout=WAIT))
        # Its output ends while its input is still open: the server itself has ended.
        assert _output_ends(server), command
        server.stdin.close()
    assert stopped[0] == stopped[1] == -signal.SIGTERM, stopped


def test_without_a_fork_server_the_launcher_runs_python_itself(tmp_path: Path) -> None:
    absent = Forks()  # never started: nothing answers at its socket
    (tmp_path / COLLISION.name).write_bytes(COLLISION.read_bytes())
    args = ("check", "--no-cache", COLLISION.name)
    alone, fresh = _forked(*args, forks=absent, cwd=tmp_path), _fresh(*args, cwd=tmp_path)
    assert (alone.returncode, alone.stdout) == (fresh.returncode, fresh.stdout)
    assert alone.returncode == 1
