"""Symfony ExpressionLanguage's lint (Debian's `php-symfony-expression-language`, 5.4, run by
`php`), the oracle of how the engine reads an expression. Without it the tests that need it are
skipped with the reason, unless FLOWDROP_REQUIRE_ORACLES=1 (CI) makes the absence a failure."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

EXPRESSION_LANGUAGE_AUTOLOAD = Path(
    "/usr/share/php/Symfony/Component/ExpressionLanguage/autoload.php"
)
_SCRIPT = Path(__file__).with_name("php") / "expression_language_oracle.php"
_TAIL = re.compile(r" around position \d+.*", re.S)


def require_expression_language() -> str:
    """The `php` binary, or skip (fail under FLOWDROP_REQUIRE_ORACLES=1) saying what is missing."""
    php = shutil.which("php")
    if php is not None and EXPRESSION_LANGUAGE_AUTOLOAD.is_file():
        return php
    why = (
        "Symfony's ExpressionLanguage is not installed (php-cli and "
        "php-symfony-expression-language from Debian, as root)"
    )
    if os.environ.get("FLOWDROP_REQUIRE_ORACLES") == "1":
        pytest.fail(why)
    pytest.skip(why)


@dataclass(frozen=True)
class Verdict:
    """Symfony's answer: ok, or its message (without the "around position …" tail) and its
    cursor (a byte offset into the UTF-8 expression; +1 for the parser's errors, which report a
    token's cursor, 1-based)."""

    ok: bool
    message: str = ""
    cursor: int | None = None


def symfony_lint(expressions: list[str], functions: frozenset[str]) -> list[Verdict]:
    """Each expression as `(new ExpressionLanguage())->lint($expression, null)` sees it, with
    `functions` registered."""
    php = require_expression_language()
    done = subprocess.run(
        [php, "-d", "error_reporting=E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED", str(_SCRIPT)],
        input=json.dumps({"functions": sorted(functions), "expressions": expressions}),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    verdicts = []
    for answer in json.loads(done.stdout):
        if answer[0] == "ok":
            verdicts.append(Verdict(True))
        else:
            verdicts.append(Verdict(False, _TAIL.sub("", answer[1]), answer[2]))
    return verdicts
