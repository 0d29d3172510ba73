"""Write flowdrop_lsp/core/expressions/twig/names_generated.py: the Twig names of Twig itself and
of Drupal core, read from their PHP sources (never typed by hand).

    python scripts/generate_twig_vocabulary.py \\
        --twig-35 /usr/share/php/Twig \\
        --twig PATH/TO/Twig --twig-commit SHA \\
        --drupal PATH/TO/drupal-core --drupal-commit SHA

- `--twig-35`: Debian's php-twig 3.5.1 (the oracle the tests ask): `TWIG_35`.
- `--twig`: a checkout of twigphp/Twig (3.x): `TWIG_CORE`, what `new Environment()` registers.
- `--drupal`: a checkout of drupal/core (the `core/` folder of drupal/drupal): `DRUPAL`, the
  extensions core.services.yml tags `twig.extension`, the ones `TwigEnvironment` adds itself,
  and those of core's modules' services files (their `tests/` left out), read with the Twig
  checkout for the classes Drupal takes from Twig (`DebugExtension`, `SandboxExtension`).

Which extensions a plain `Environment` has is read from its constructor, and every name from
the extensions' `getFilters`/`getFunctions`/`getTests`/`getTokenParsers`, through the package's
one reader of PHP extensions (core/expressions/twig/php_extensions.py), which also reads a
site's modules. Versions are read from `Environment::VERSION` and `Drupal::VERSION`; commits
are given (the sources may be an export, not a repository). Run from the repository's root;
`ruff format` the result."""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

# The package's reader, loaded by its path: importing the package would import the very module
# this script writes (and fail on a broken one). The reader imports nothing of the package.
_READER = (
    Path(__file__).resolve().parents[1] / "flowdrop_lsp/core/expressions/twig/php_extensions.py"
)
_spec = importlib.util.spec_from_file_location("php_extensions", _READER)
assert _spec is not None and _spec.loader is not None
php_extensions = importlib.util.module_from_spec(_spec)
sys.modules["php_extensions"] = php_extensions  # dataclasses look their module up
_spec.loader.exec_module(php_extensions)
if TYPE_CHECKING:  # the same class, named for the type checker (nothing imported at run time)
    from flowdrop_lsp.core.expressions.twig.php_extensions import ReadExtensions
else:
    ReadExtensions = php_extensions.ReadExtensions
constructed_classes = php_extensions.constructed_classes
read_extensions = php_extensions.read_extensions
twig_extension_services = php_extensions.twig_extension_services

OUTPUT = Path("flowdrop_lsp/core/expressions/twig/names_generated.py")
KINDS = ("filters", "functions", "tests", "tags")


def _reader(root: Path) -> Callable[[str], str | None]:
    def read(path: str) -> str | None:
        full = root / path
        return full.read_text(encoding="utf-8") if full.is_file() else None

    return read


def twig_source(path: Path) -> Path:
    """The folder `Twig\\` maps to: `src/` of a checkout, the folder itself for Debian's."""
    return path / "src" if (path / "src" / "Environment.php").is_file() else path


def _version(text: str, pattern: str) -> str:
    found = re.search(pattern, text)
    return found.group(1) if found else "unknown"


def twig_environment(path: Path) -> tuple[ReadExtensions, str]:
    """What `new Environment(new ArrayLoader())` of the Twig at `path` registers, its version."""
    src = twig_source(path)
    environment = (src / "Environment.php").read_text(encoding="utf-8")
    extensions = [
        name
        for name in constructed_classes(environment, "__construct")
        if name.endswith("Extension")
    ]
    read = read_extensions(extensions, [("Twig\\", ".")], _reader(src))
    return read, _version(environment, r"VERSION = '([^']+)'")


def drupal_environment(drupal: Path, twig: Path) -> tuple[ReadExtensions, str]:
    """What Drupal core's `twig` service adds to Twig's own (see the module), its version."""
    services = [drupal / "core.services.yml"]
    psr4 = [
        ("Drupal\\Core\\", "lib/Drupal/Core"),
        ("Drupal\\Component\\", "lib/Drupal/Component"),
        ("Twig\\", "@twig"),
    ]
    for module in sorted((drupal / "modules").iterdir()):
        if (module / f"{module.name}.info.yml").is_file():
            psr4.append((f"Drupal\\{module.name}\\", f"modules/{module.name}/src"))
            if (module / f"{module.name}.services.yml").is_file():
                services.append(module / f"{module.name}.services.yml")
    classes = [
        name for file in services for name in twig_extension_services(file.read_text("utf-8"))
    ]
    environment = (drupal / "lib/Drupal/Core/Template/TwigEnvironment.php").read_text("utf-8")
    classes += [
        name
        for name in constructed_classes(environment, "__construct")
        if name.endswith("Extension")
    ]
    drupal_read, twig_read = _reader(drupal), _reader(twig_source(twig))

    def read(path: str) -> str | None:
        return twig_read(path[len("@twig/") :]) if path.startswith("@twig/") else drupal_read(path)

    found = read_extensions(classes, psr4, read)
    version = _version((drupal / "lib/Drupal.php").read_text("utf-8"), r"VERSION = '([^']+)'")
    return found, version


def _constant(name: str, read: ReadExtensions, provenance: list[str]) -> list[str]:
    lines = [f"# {line}" for line in provenance]
    lines += [f"#   {class_name}: {path}" for class_name, path in read.files]
    lines += [f"#   not read: {problem}" for problem in read.unread]
    lines.append(f"{name}: Mapping[str, tuple[str, ...]] = {{")
    for kind in KINDS:
        names = ", ".join(repr(n) for n in sorted(getattr(read, kind)))
        lines.append(f"    {kind!r}: ({names}{',' if names else ''}),")
    lines.append("}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--twig-35", type=Path, required=True)
    parser.add_argument("--twig", type=Path, required=True)
    parser.add_argument("--twig-commit", default="unknown")
    parser.add_argument("--drupal", type=Path, required=True)
    parser.add_argument("--drupal-commit", default="unknown")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)

    twig_35, version_35 = twig_environment(args.twig_35)
    twig, twig_version = twig_environment(args.twig)
    drupal, drupal_version = drupal_environment(args.drupal, args.twig)
    out = [
        '"""The names Twig and Drupal core register, GENERATED from their PHP sources by',
        "scripts/generate_twig_vocabulary.py (do not edit; run it again). Each list says where it",
        'was read: the project, its version, commit and files; vocabulary.py makes them vocabularies."""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "",
    ]
    out += _constant(
        "TWIG_35_NAMES",
        twig_35,
        [
            f"Twig {version_35} as Debian's php-twig installs it ({args.twig_35}): the plain",
            "`new Environment(new ArrayLoader())` of the oracle tests (Environment::__construct).",
        ],
    )
    out.append("")
    out += _constant(
        "TWIG_CORE_NAMES",
        twig,
        [
            f"twigphp/Twig, branch 3.x at commit {args.twig_commit}",
            f"(Environment::VERSION {twig_version}): what `new Environment()` registers.",
        ],
    )
    out.append("")
    out += _constant(
        "DRUPAL_NAMES",
        drupal,
        [
            f"drupal/core at commit {args.drupal_commit} (Drupal::VERSION {drupal_version}):",
            "the extensions tagged `twig.extension` in core.services.yml and core modules'",
            "services files, and those TwigEnvironment::__construct adds; Twig's classes read",
            f"from twigphp/Twig at {args.twig_commit}.",
        ],
    )
    args.output.write_text("\n".join(out) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
