"""lsp/guard.py: the one way a request handler survives its own failure."""

from __future__ import annotations

import inspect

import pytest

from flowdrop_lsp.lsp.guard import answers_on_failure


class RecordingServer:
    def __init__(self) -> None:
        self.logged: list[tuple[str, BaseException]] = []

    def log_error(self, context: str, error: BaseException) -> None:
        self.logged.append((context, error))


class Refusal(Exception):
    """Stands for an error meant for the client (pygls's JsonRpcException)."""


def test_an_answer_passes_through_untouched() -> None:
    @answers_on_failure("hover", None)
    def handler(ls: RecordingServer, value: int) -> int:
        return value * 2

    server = RecordingServer()
    assert handler(server, 21) == 42
    assert server.logged == []


def test_a_failure_is_logged_under_its_context_and_answered_empty() -> None:
    failure = ValueError("bad")

    @answers_on_failure("textDocument/inlayHint", [])
    def handler(ls: RecordingServer) -> list[int]:
        raise failure

    server = RecordingServer()
    assert handler(server) == []
    assert server.logged == [("textDocument/inlayHint", failure)]


def test_named_errors_reach_the_caller_unlogged() -> None:
    @answers_on_failure("rename", None, passing=(Refusal,))
    def handler(ls: RecordingServer) -> None:
        raise Refusal("that id is taken")

    server = RecordingServer()
    with pytest.raises(Refusal):
        handler(server)
    assert server.logged == []


def test_what_is_not_an_exception_is_not_caught() -> None:
    """KeyboardInterrupt and SystemExit end the server as they always did."""

    @answers_on_failure("hover", None)
    def handler(ls: RecordingServer) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        handler(RecordingServer())


def test_the_signature_pygls_reads_is_the_handlers() -> None:
    """pygls passes the server only to a handler whose first parameter is named `ls`."""

    def handler(ls: RecordingServer, params: str) -> str:
        return params

    guarded = answers_on_failure("hover", None)(handler)
    assert list(inspect.signature(guarded).parameters) == ["ls", "params"]
    assert guarded.__name__ == "handler"
