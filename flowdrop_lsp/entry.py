"""`flowdrop-lsp`: `check` workflows in CI, `serve` the language server, or explain a `rule`.

The one place that knows both commands: `cli/` and `lsp/` never import each other, and the
server's dependencies (pygls) are imported only when the server is started.

Exit codes of `check`: 0 no error-severity finding (or `--exit-zero`), 1 errors found, 2 usage,
configuration or I/O error.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from flowdrop_lsp import __version__
from flowdrop_lsp.cli.main import add_check_arguments, run_check
from flowdrop_lsp.cli.rule import add_rule_arguments, run_rule


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="flowdrop-lsp",
        description="Check FlowDrop workflows (CMP-9 tool-name collisions and neighbours) in CI, "
        "or serve them to an editor.",
    )
    parser.add_argument("--version", action="version", version=f"flowdrop-lsp {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    add_check_arguments(
        commands.add_parser("check", help="check workflow files (CMP-9 and neighbours)")
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        from flowdrop_lsp.lsp.app import run_server  # only the server needs pygls

        return run_server(tcp=args.tcp)
    if args.command == "rule":
        return run_rule(args)
    return run_check(args)
