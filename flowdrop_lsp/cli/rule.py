"""`flowdrop-lsp rule [CODE]`: a rule's explanation, with a failing and a passing example,
offline (the text of the rule's shipped page, without its HTML anchor); without a code, the list of rules;
`--standing`: where the rules stand against the FlowDrop spec (docs/spec-standing.md's text)."""

from __future__ import annotations

import argparse
import difflib
import sys

from flowdrop_lsp.core.rules.registry import ALL_RULES, RULES_BY_CODE, rule_text, standing_markdown
from flowdrop_lsp.core.workspace.resolver import current_rule_codes

EXIT_OK, EXIT_USAGE = 0, 2


def add_rule_arguments(rule: argparse.ArgumentParser) -> None:
    rule.add_argument("code", nargs="?", help="a rule code, e.g. CMP-9 (default: list the rules)")
    rule.add_argument(
        "--standing",
        action="store_true",
        help="print the standing against the FlowDrop spec's rules (Markdown, as "
        "docs/spec-standing.md)",
    )


def _loose(code: str) -> str:
    """Codes are written many ways on a command line: `cmp9`, `CMP_9`, `cmp-9`."""
    return code.upper().replace("-", "").replace("_", "")


def run_rule(args: argparse.Namespace) -> int:
    if args.standing:
        # One table for all rules: a code would be ignored silently, so it is refused as an
        # unknown code is (a usage error, exit 2).
        if args.code is not None:
            print(
                f"flowdrop-lsp: rule --standing takes no rule code (got '{args.code}'); "
                "use `flowdrop-lsp rule --standing` alone",
                file=sys.stderr,
            )
            return EXIT_USAGE
        sys.stdout.write(standing_markdown())  # the same text as docs/spec-standing.md
        return EXIT_OK
    if args.code is None:
        width = max(len(rule.code) for rule in ALL_RULES)
        for rule in ALL_RULES:
            print(f"{rule.code:<{width}}  {rule.default_severity.value:<7}  {rule.title}")
        return EXIT_OK
    by_loose = {_loose(code): code for code in RULES_BY_CODE}
    # A renamed rule's old code (FD-TOOLBOX-CYCLE) shows the rule it is now (DATA-10).
    (current,) = current_rule_codes([args.code])
    code = by_loose.get(_loose(current))
    if code is None:
        matches = difflib.get_close_matches(_loose(args.code), list(by_loose), n=1)
        hint = f"did you mean '{by_loose[matches[0]]}'?" if matches else "see `flowdrop-lsp rule`"
        print(f"flowdrop-lsp: unknown rule code '{args.code}' ({hint})", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(rule_text(code))  # the page without its HTML anchor line
    return EXIT_OK
