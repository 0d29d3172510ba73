"""The fork server of tests/support/forks.py, run as a script: `python fork_server.py SOCKET
LIFELINE_FD MODULE…`. It imports the MODULEs (what `python -m flowdrop_lsp serve` and `check`
import: most of a server's start-up), then, for each request on the Unix socket SOCKET, forks
a process that becomes `python -m ARGS…` as a fresh interpreter would run it, with the
requester's standard input, output and error, working directory and environment. It ends when
LIFELINE_FD (a pipe from the test process) reaches its end: the test process has gone.

A request is one line of JSON, `{"args": [...], "cwd": ..., "env": {...}}`, sent with the
three descriptors; the answers are lines of JSON: `{"pid": N}` once the process runs, then
`{"exit": CODE}` or `{"signal": N}` when it ends. Each request gets a supervisor (a fork of
this server) that forks the process, waits for it and answers, so that this loop waits for
nobody.

Nothing here imports the tests package: a forked process holds what a fresh `python -m` would,
plus the modules imported in advance."""

from __future__ import annotations

import importlib
import json
import os
import runpy
import selectors
import signal
import socket
import sys


def _answer(connection: socket.socket, message: dict[str, int]) -> None:
    connection.sendall(json.dumps(message).encode("ascii") + b"\n")


def _request(connection: socket.socket) -> tuple[dict[str, object], list[int]]:
    data = b""
    fds: list[int] = []
    while not data.endswith(b"\n"):
        chunk, received, _flags, _address = socket.recv_fds(connection, 1 << 20, 3)
        if not chunk:
            raise EOFError("the requester went away")
        data += chunk
        fds += received
    return json.loads(data), fds


def _become(request: dict[str, object], fds: list[int]) -> list[str]:
    """In the forked process: take the requester's descriptors, folder and environment; answer
    the arguments of `python -m` to run."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)  # dup2 makes 0, 1 and 2 inheritable, as a fresh process has them
        os.close(fd)
    cwd = str(request["cwd"])
    os.chdir(cwd)
    env = request["env"]
    assert isinstance(env, dict)
    os.environ.clear()
    os.environ.update(env)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    # `python -m` puts the working directory first on the path.
    sys.path[0] = cwd
    args = request["args"]
    assert isinstance(args, list)
    return [str(arg) for arg in args]


def _supervise(connection: socket.socket, request: dict[str, object], fds: list[int]) -> list[str]:
    """In the supervisor: fork the process (which returns its arguments, to run them), answer
    its pid, wait for it and answer how it ended."""
    pid = os.fork()
    if pid == 0:
        connection.close()
        return _become(request, fds)
    for fd in fds:
        os.close(fd)
    _answer(connection, {"pid": pid})
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        _answer(connection, {"signal": os.WTERMSIG(status)})
    else:
        _answer(connection, {"exit": os.waitstatus_to_exitcode(status)})
    os._exit(0)


def serve(path: str, lifeline: int) -> list[str]:
    """Answer requests until the lifeline ends; return (in a forked process only) the
    arguments of `python -m` to run."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    selector.register(lifeline, selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            if key.fileobj == lifeline:
                if not os.read(lifeline, 1):
                    _reap()
                    os._exit(0)
                continue
            connection, _ = listener.accept()
            try:
                request, fds = _request(connection)
            except (EOFError, OSError, ValueError):
                connection.close()
                continue
            if os.fork() == 0:
                selector.close()
                listener.close()
                os.close(lifeline)
                return _supervise(connection, request, fds)
            connection.close()
            for fd in fds:
                os.close(fd)
        _reap()


def _reap() -> None:
    """Wait for the supervisors that have ended (their time then counts as this server's)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


if __name__ == "__main__":
    socket_path, lifeline_fd, *preloaded = sys.argv[1:]
    for module in preloaded:
        importlib.import_module(module)
    module_name, *arguments = serve(socket_path, int(lifeline_fd))
    # As `python -m MODULE ARGS…`: sys.argv[0] becomes the module's file, and SystemExit ends
    # the interpreter as it would (threads joined, atexit run, streams flushed).
    sys.argv = ["-m", *arguments]
    runpy.run_module(module_name, run_name="__main__", alter_sys=True)
