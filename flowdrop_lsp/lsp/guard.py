"""A request never takes the server down: `answers_on_failure` wraps a request handler so that an
unexpected exception is logged (`FlowdropServer.log_error`: the traceback to stderr, a line to
the client's log) and the request gets the feature's empty answer instead of an error.

Errors meant for the client (a rename refused with a message) are let through by naming them in
`passing`. Notification handlers do not use it: each recovers in its own way (diagnostics.py).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar


class LogsErrors(Protocol):
    def log_error(self, context: str, error: BaseException) -> None: ...


Server = TypeVar("Server", bound=LogsErrors)
Params = ParamSpec("Params")
Answer = TypeVar("Answer")
Empty = TypeVar("Empty")


def answers_on_failure(
    context: str, empty: Empty, *, passing: tuple[type[Exception], ...] = ()
) -> Callable[
    [Callable[Concatenate[Server, Params], Answer]],
    Callable[Concatenate[Server, Params], Answer | Empty],
]:
    """Decorate a handler `(ls, ...) -> Answer`: on failure, log it under `context` and answer a
    copy of `empty` (a fresh list each time: the caller may keep and extend what it gets)."""

    def decorate(
        handler: Callable[Concatenate[Server, Params], Answer],
    ) -> Callable[Concatenate[Server, Params], Answer | Empty]:
        # functools.wraps keeps the signature pygls reads (`ls` first: it passes the server).
        @functools.wraps(handler)
        def guarded(ls: Server, /, *args: Params.args, **kwargs: Params.kwargs) -> Answer | Empty:
            try:
                return handler(ls, *args, **kwargs)
            except passing:
                raise
            except Exception as error:  # noqa: BLE001 - a request never takes the server down
                ls.log_error(context, error)
                return copy.copy(empty)

        return guarded

    return decorate
