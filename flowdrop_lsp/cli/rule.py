"""`flowdrop-lsp rule [CODE]`: a rule's explanation, with a failing and a passing example,
offline (the text of the rule's shipped page, without its HTML anchor); without a code, the list of rules;
`--standing`: where the rules stand against the FlowDrop spec (docs/spec-standing.md's text).

A code may be a rule's, a renamed rule's old one, or a FlowDrop spec locator code such as
`R6_CONFIG_REQUIRED` (a finding's `locator_code` in json and SARIF): the page of the rule that
reports it is shown."""

from __future__ import annotations

import argparse
import functools
import inspect
import re
import sys

from flowdrop_lsp.core.facade import (
    ALL_RULES,
    RULE_MODULES,
    RULES_BY_CODE,
    current_rule_codes,
    near_code,
    rule_text,
    standing_markdown,
)

EXIT_OK, EXIT_USAGE = 0, 2


def add_rule_arguments(rule: argparse.ArgumentParser) -> None:
    rule.add_argument("code", nargs="?", help="a rule code, e.g. CMP-9 (default: list the rules)")
    rule.add_argument(
        "--standing",
        action="store_true",
        help="print the standing against the FlowDrop spec's rules (Markdown, as "
        "docs/spec-standing.md)",
    )


# A spec locator code as rule modules write it: `R6_CONFIG_REQUIRED`, `R13_EDGE_PARALLEL_DUPLICATE`.
_LOCATOR_LITERAL = re.compile(r"""["'](R\d+_[A-Z][A-Z0-9_]*)["']""")


@functools.cache
def locator_rules() -> dict[str, str]:
    """Each spec locator code a rule reports → that rule's code. Read from the rule modules'
    sources (the locator codes are their constants); in a module of several rules, the rule
    whose page names the locator code."""
    found: dict[str, str] = {}
    for module in RULE_MODULES:
        rules = tuple(getattr(module, "RULES", None) or (module.RULE,))
        try:
            source = inspect.getsource(module)
        except (OSError, TypeError):  # pragma: no cover - a frozen install without sources
            continue
        for locator in dict.fromkeys(_LOCATOR_LITERAL.findall(source)):
            named = [rule.code for rule in rules if f"`{locator}`" in rule_text(rule.code)]
            found.setdefault(locator, named[0] if named else rules[0].code)
    return found


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
    locators = {_loose(locator): locator for locator in locator_rules()}
    # A renamed rule's old code (FD-TOOLBOX-CYCLE) shows the rule it is now (DATA-10).
    (current,) = current_rule_codes([args.code])
    code = by_loose.get(_loose(current))
    if code is None and _loose(args.code) in locators:
        locator = locators[_loose(args.code)]
        code = locator_rules()[locator]
        print(
            f"flowdrop-lsp: {locator} is the FlowDrop spec's locator code of rule {code}; "
            "its page:",
            file=sys.stderr,
        )
    if code is None:
        hint = near_code(args.code, [*locator_rules(), *RULES_BY_CODE]) or "see `flowdrop-lsp rule`"
        print(f"flowdrop-lsp: unknown rule code '{args.code}' ({hint})", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(rule_text(code))  # the page without its HTML anchor line
    return EXIT_OK
