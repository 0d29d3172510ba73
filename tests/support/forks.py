"""`python -m flowdrop_lsp …` without its start-up, for the processes the tests start by the
hundred (a server per LSP test, a CLI run per agreement step): each process is forked from a
fork server that has imported the package once (tests/support/fork_server.py), so it starts
with nothing done but the imports — a fresh process, as `python -m` makes one, minus the 0.7 s
of importing pygls, lsprotocol and the package again.

`FORKS.command(module, *args)` is the command to start instead of `[python, "-m", module,
*args]`: a launcher (a Python started without `site`, a few milliseconds) that hands its
standard input, output and error, its working directory and its environment to the fork
server, which forks the process on them; the launcher then stands for the process: signals it
gets (SIGTERM, SIGINT, …) are passed on, and it ends as the process ends (its exit code, or the
signal that killed it). The process's own output goes straight to the pipes the launcher was
given: nothing is relayed. When no fork server answers (not started, or gone), the launcher
runs `python -m module args…` itself (exec), so a test never depends on the fork server,
only its time does.

What differs from a fresh `python -m`: the process's parent is the fork server's helper, not
the test process (its exit reaches the test through the launcher); it holds the modules
imported in advance even when it would not have imported them; and it has the hash seed of the
fork server (`random` is seeded again at each fork)."""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

FORK_SERVER = Path(__file__).with_name("fork_server.py")

# What a server and a CLI run import, imported once in the fork server.
PRELOADED = (
    "flowdrop_lsp.entry",
    "flowdrop_lsp.lsp.app",
    "flowdrop_lsp.cli.main",
    "flowdrop_lsp.core.workspace.batch",
)

# The launcher, run as `python -I -S -c LAUNCHER SOCKET MODULE ARGS…`: only the standard
# library, no site packages (`-S`) and no environment variables read (`-I`): it starts in a few
# milliseconds.
LAUNCHER = r"""
import json, os, signal, socket, sys
path, *args = sys.argv[1:]
def fallback():
    os.execv(sys.executable, [sys.executable, "-m", *args])
try:
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(path)
    request = {"args": args, "cwd": os.getcwd(), "env": dict(os.environ)}
    socket.send_fds(connection, [json.dumps(request).encode() + b"\n"], [0, 1, 2])
except OSError:
    fallback()
# The process holds the descriptors now; the launcher lets go of them, so that the pipes end
# when the process ends them.
null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
answers = connection.makefile("rb")
first = answers.readline()
if not first:
    os._exit(255)
pid = json.loads(first)["pid"]
def forward(signum, frame):
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass
for name in ("SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"):
    signal.signal(getattr(signal, name), forward)
last = answers.readline()
if not last:
    os._exit(255)
ended = json.loads(last)
if "signal" in ended:
    signal.signal(ended["signal"], signal.SIG_DFL)
    os.kill(os.getpid(), ended["signal"])
os._exit(ended["exit"])
"""

# How long the fork server may take to import what it imports in advance.
START_WAIT = 120.0


class Forks:
    """The fork server of this test process (started by `start`, once; it ends with this
    process), and the commands that ask it for a process."""

    def __init__(self) -> None:
        # A socket path of this process's own (short: a Unix socket's path has ~100 bytes).
        self.socket = os.path.join(tempfile.gettempdir(), f"flowdrop-forks-{uuid.uuid4().hex}")
        self._server: subprocess.Popen[bytes] | None = None
        self._lifeline: int | None = None

    def command(self, module: str, *args: str) -> list[str]:
        """What to start for `python -m module args…`."""
        return [sys.executable, "-I", "-S", "-c", LAUNCHER, self.socket, module, *args]

    def start(self) -> None:
        """Start the fork server, unless it runs; return once it answers."""
        if self._server is not None:
            return
        read, write = os.pipe()
        self._server = subprocess.Popen(
            [sys.executable, str(FORK_SERVER), self.socket, str(read), *PRELOADED],
            pass_fds=(read,),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        os.close(read)
        self._lifeline = write
        atexit.register(self.stop)
        deadline = time.monotonic() + START_WAIT
        while not os.path.exists(self.socket):
            if self._server.poll() is not None:
                raise RuntimeError(f"the fork server ended ({self._server.returncode})")
            if time.monotonic() > deadline:
                raise RuntimeError("the fork server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        """End the fork server (the processes it forked run on until their input ends)."""
        if self._server is None:
            return
        if self._lifeline is not None:
            os.close(self._lifeline)
            self._lifeline = None
        try:
            self._server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._server.kill()
            self._server.wait()
        self._server = None
        Path(self.socket).unlink(missing_ok=True)


FORKS = Forks()
