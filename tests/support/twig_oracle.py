"""Twig's own lexer and parser (Debian's `php-twig`, run by `php`), the oracle of what Twig
accepts: `make oracle-deps` installs it. Without it the tests that need it are skipped with the
reason, unless FLOWDROP_REQUIRE_ORACLES=1 (CI) makes the absence a failure."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

TWIG_AUTOLOAD = Path("/usr/share/php/Twig/autoload.php")
_SCRIPT = Path(__file__).with_name("php") / "twig_oracle.php"
_QUIET = "error_reporting=E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED"


def require_twig() -> str:
    """The `php` binary, or skip (fail under FLOWDROP_REQUIRE_ORACLES=1) saying what is missing."""
    php = shutil.which("php")
    if php is not None and TWIG_AUTOLOAD.is_file():
        return php
    why = "Twig is not installed (php-cli and php-twig from Debian: `make oracle-deps`, as root)"
    if os.environ.get("FLOWDROP_REQUIRE_ORACLES") == "1":
        pytest.fail(why)
    pytest.skip(why)


def twig_verdicts(templates: list[str]) -> list[tuple[str, str, int]]:
    """Each template as Twig reads it: ("ok", "", 0) or ("error", message, line) with Twig's
    1-based line."""
    php = require_twig()
    done = subprocess.run(
        [php, "-d", _QUIET, str(_SCRIPT)],
        input=json.dumps(templates),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    verdicts: list[Any] = json.loads(done.stdout)
    return [(v[0], v[1] if len(v) > 1 else "", v[2] if len(v) > 2 else 0) for v in verdicts]


def twig_vocabulary() -> dict[str, list[str]]:
    """The filters, functions, tests and tags of a plain `new Environment(new ArrayLoader())`."""
    php = require_twig()
    done = subprocess.run(
        [php, "-d", _QUIET, str(_SCRIPT), "vocabulary"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    vocabulary: dict[str, list[str]] = json.loads(done.stdout)
    return vocabulary
