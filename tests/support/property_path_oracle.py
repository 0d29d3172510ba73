"""Symfony PropertyAccess's PropertyPath (Debian's `php-symfony-property-access`, 5.4, run by
`php`), the oracle of how a property path parses. Without it the tests that need it are skipped
with the reason, unless FLOWDROP_REQUIRE_ORACLES=1 (CI) makes the absence a failure."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

PROPERTY_ACCESS_AUTOLOAD = Path("/usr/share/php/Symfony/Component/PropertyAccess/autoload.php")
_SCRIPT = Path(__file__).with_name("php") / "property_path_oracle.php"


def require_property_access() -> str:
    """The `php` binary, or skip (fail under FLOWDROP_REQUIRE_ORACLES=1) saying what is missing."""
    php = shutil.which("php")
    if php is not None and PROPERTY_ACCESS_AUTOLOAD.is_file():
        return php
    why = (
        "Symfony's PropertyAccess is not installed (php-cli and php-symfony-property-access "
        "from Debian, as root)"
    )
    if os.environ.get("FLOWDROP_REQUIRE_ORACLES") == "1":
        pytest.fail(why)
    pytest.skip(why)


def symfony_property_paths(paths: list[str]) -> list[tuple[bool, int | None]]:
    """Each path as `new PropertyPath($path)` takes it: (accepted, the refusal's position, a
    byte offset)."""
    php = require_property_access()
    done = subprocess.run(
        [php, "-d", "error_reporting=E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED", str(_SCRIPT)],
        input=json.dumps(paths),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return [
        (answer[0] == "ok", answer[2] if len(answer) > 2 else None)
        for answer in json.loads(done.stdout)
    ]
