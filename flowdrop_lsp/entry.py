"""`flowdrop-lsp`: `check` workflows in CI, `serve` the language server, explain a `rule`, or
answer FlowDrop's visual editor as its `doctor`.

The one place that knows every front: `cli/`, `lsp/` and `doctor/` never import each other, the
server's dependencies (pygls) are imported only when the server is started, and the Doctor's
(aiohttp) only when it is.

Exit codes of `check`: 0 no error-severity finding (or `--exit-zero`), 1 errors found, 2 usage,
configuration or I/O error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from flowdrop_lsp import __version__
from flowdrop_lsp.cli.replay import Recorder, replayed


def build_parser() -> argparse.ArgumentParser:
    # Imported here: an unchanged `check` is answered from its recording without them.
    from flowdrop_lsp.cli.options import add_check_arguments
    from flowdrop_lsp.cli.rule import add_rule_arguments
    from flowdrop_lsp.doctor.options import add_doctor_arguments

    parser = argparse.ArgumentParser(
        prog="flowdrop-lsp",
        description="Check FlowDrop workflows and node types as FlowDrop judges them: the "
        "spec's statically decidable rules (tool-name collisions through toolboxes among them), "
        "the expressions in node config, calls and contracts across a site. In CI and "
        "pre-commit (check), in an editor (serve), in FlowDrop's own editor (doctor).",
    )
    parser.add_argument("--version", action="version", version=f"flowdrop-lsp {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    add_check_arguments(
        commands.add_parser(
            "check",
            help="check workflow and node-type files, a site's or a folder's (CI, pre-commit)",
        )
    )
    add_rule_arguments(
        commands.add_parser(
            "rule", help="explain a rule, with a failing and a passing example (offline)"
        )
    )
    serve = commands.add_parser("serve", help="run the language server")
    serve.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    serve.add_argument(
        "--tcp", metavar="HOST:PORT", help="listen on a TCP socket instead (for debugging)"
    )
    add_doctor_arguments(
        commands.add_parser(
            "doctor",
            help="answer FlowDrop's visual editor over HTTP: a draft's problems and their remedies",
        )
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = _run(argv)
    except BrokenPipeError:
        # The reader went away (`flowdrop-lsp rule | head -1`): nothing more to tell it, and no
        # traceback.
        _stdout_to_nowhere()
        return 1
    try:
        if not sys.stdout.closed:  # (the server closes it when its client has gone)
            sys.stdout.flush()  # a reader gone is found here, not in Python's flush at exit
    except BrokenPipeError:
        _stdout_to_nowhere()  # the command is done (a server's client closed first): its code
    return code


# The commands that end with the process: their findings are out once `main` returns.
_ENDS_WITH_ITS_PROCESS = frozenset({"check", "rule"})


def command_line() -> NoReturn:
    """The `flowdrop-lsp` console script and `python -m flowdrop_lsp`: `main`, then the exit.

    A `check` ends without Python's teardown (`os._exit`, as mypy's CLI ends): freeing every
    object one by one — the analyses, the site's facts, the registries — took 0.2–0.5 s
    after a 1,000-workflow site's report was out, and nothing is left to do. Whatever it
    wrote is flushed first, and its files (the report, the cache's entries) were closed as
    written. The server and the Doctor exit as usual: their threads end as they do."""
    code = main()
    if not _ends_with_its_process(sys.argv[1:]):
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            if not stream.closed:
                stream.flush()
        except (BrokenPipeError, ValueError):
            pass  # a reader gone: `main` has said what it could
    os._exit(code)


def _ends_with_its_process(given: Sequence[str]) -> bool:
    command = next((word for word in given if not word.startswith("-")), "check")
    return command in _ENDS_WITH_ITS_PROCESS


def _stdout_to_nowhere() -> None:
    """Python flushes stdout again at exit: after a closed pipe it goes to /dev/null."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _run(argv: Sequence[str] | None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    # An unchanged run of `check` (cli/replay.py): printed as recorded, nothing else loaded.
    code = replayed(given)
    if code is not None:
        return code
    args = build_parser().parse_args(given)
    if args.command == "serve":
        from flowdrop_lsp.lsp.app import run_server  # only the server needs pygls

        return run_server(tcp=args.tcp)
    if args.command == "doctor":
        from flowdrop_lsp.doctor.serve import run_doctor  # only the Doctor needs aiohttp

        return run_doctor(args)
    if args.command == "rule":
        from flowdrop_lsp.cli.rule import run_rule

        return run_rule(args)
    from flowdrop_lsp.cli.main import run_check

    with Recorder(given) as recorder:
        code = run_check(args)
    recorder.finish(code)
    return code
