"""Symfony's YAML parser (Debian's `php-symfony-yaml`, run by `php`), the oracle of how Drupal
reads config YAML: `make oracle-deps` installs it (`.ci/run` runs that). Without it the tests
that need it are skipped with the reason, unless FLOWDROP_REQUIRE_ORACLES=1 (CI) makes the
absence a failure."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

SYMFONY_AUTOLOAD = Path("/usr/share/php/Symfony/Component/Yaml/autoload.php")
_SCRIPT = Path(__file__).with_name("php") / "symfony_yaml.php"


def require_symfony_yaml() -> str:
    """The `php` binary, or skip (fail under FLOWDROP_REQUIRE_ORACLES=1) saying what is missing."""
    php = shutil.which("php")
    if php is not None and SYMFONY_AUTOLOAD.is_file():
        return php
    why = (
        "Symfony's YAML parser is not installed (php-cli and php-symfony-yaml from Debian: "
        "`make oracle-deps`, as root)"
    )
    if os.environ.get("FLOWDROP_REQUIRE_ORACLES") == "1":
        pytest.fail(why)
    pytest.skip(why)


def symfony_parse(documents: list[str]) -> list[tuple[str, Any]]:
    """Each document as Symfony reads it: ("ok", value) with floats as {"float": repr} and
    mappings as {"map": [[key, value], ...]} (keys as PHP keeps them: ints as {"int": n}), or
    ("error", message)."""
    php = require_symfony_yaml()
    done = subprocess.run(
        [php, "-d", "error_reporting=E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED", str(_SCRIPT)],
        input=json.dumps(documents),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return [(status, value) for status, value in json.loads(done.stdout)]
