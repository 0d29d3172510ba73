"""Bundle the flowdrop-lsp server and its Python dependencies into the extension.

    python3 editors/vscode/scripts/bundle_server.py

What Microsoft's Python-tool extensions (black, isort, pylint, ruff) do: the .vsix carries the
server's packages, and bundled/tool/flowdrop_launcher.py starts them with the user's Python.

The layout it writes (editors/vscode/bundled/, a build product):
  libs/            packages that are the same for every CPython version: the project itself
                   (copied from the checkout) and its pure-Python dependencies (and abi3 wheels)
  abi/cp3XY/       what differs per CPython version: compiled extensions (rpds-py, which
                   jsonschema needs; PyYAML's libyaml speed-up) and version-marked dependencies
                   (tomli and exceptiongroup on 3.10; wcmatch/bracex, whose newest releases need 3.11)
  manifest.json    the platform and CPython versions the bundle holds (the launcher checks them)

Why per-version folders: rpds-py has no pure-Python fallback and no abi3 wheel, so a single
folder would work for one CPython version only. The dependencies are resolved for each
supported version separately (uv pip install --python-version/--python-platform, wheels only);
what comes out identical for all of them is stored once.

Resolution per version is uv's (pip's --python-version does not apply to environment markers).
uv comes from PATH, or is pip-installed into editors/vscode/build/tools. Offline: uv's cache
holds the wheels after the first build (which needs PyPI); the dependencies are re-resolved
only when pyproject.toml's dependency list changes.
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import json
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

if sys.version_info < (3, 11):
    sys.exit("bundle_server.py needs Python 3.11 or newer (tomllib) to read pyproject.toml")
import tomllib

EXTENSION = Path(__file__).resolve().parent.parent
REPO = EXTENSION.parent.parent
PYTHON_VERSIONS = ("3.10", "3.11", "3.12", "3.13", "3.14")
# The launcher's platform name (sysconfig.get_platform()) and uv's --python-platform: wheels for
# glibc 2.17 (manylinux2014), what rpds-py, PyYAML and jsonschema-rs publish, and old enough for
# any distribution VS Code itself runs on.
PLATFORMS = {
    ("Linux", "x86_64"): ("linux-x86_64", "x86_64-manylinux_2_17"),
    ("Linux", "aarch64"): ("linux-aarch64", "aarch64-manylinux_2_17"),
}


def log(message: str) -> None:
    print(f"bundle: {message}", flush=True)


def dependencies() -> list[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return list(project["dependencies"])


def find_uv(tools: Path) -> str:
    """uv resolves for another Python version properly (pip's --python-version does not apply
    to environment markers, so CPython 3.10 would miss tomli and exceptiongroup)."""
    on_path = shutil.which("uv")
    if on_path:
        return on_path
    local = tools / "bin" / "uv"
    if not local.exists():
        log(f"installing uv (the resolver) into {tools} with pip")
        done = subprocess.run(
            [sys.executable, "-m", "pip", "--disable-pip-version-check", "install", "--quiet",
             "--target", str(tools), "uv"], capture_output=True, text=True)
        if done.returncode != 0 or not local.exists():
            sys.exit(f"bundle: cannot install uv with pip (PyPI or pip's cache):\n{done.stderr}")
    return str(local)


def install_for(uv: str, version: str, uv_platform: str, requirements: list[str],
                target: Path) -> None:
    """Install the dependencies as CPython `version` on `uv_platform` gets them, into `target`."""
    command = [uv, "pip", "install", "--quiet", "--target", str(target), "--python-version",
               version, "--python-platform", uv_platform, "--only-binary", ":all:",
               "--no-compile", *requirements]
    # Offline first: uv's cache holds everything after the first build.
    if subprocess.run([*command, "--offline"], capture_output=True, text=True).returncode == 0:
        return
    log(f"CPython {version}: not all in uv's cache; downloading (PyPI)")
    shutil.rmtree(target, ignore_errors=True)
    online = subprocess.run(command, capture_output=True, text=True)
    if online.returncode != 0:
        sys.exit(f"bundle: cannot install the dependencies for CPython {version}:\n"
                 f"{online.stderr}\nThe first build needs PyPI; later ones use uv's cache.")


def same_tree(a: Path, b: Path) -> bool:
    if a.is_file() or b.is_file():
        return a.is_file() and b.is_file() and filecmp.cmp(a, b, shallow=False)
    compared = filecmp.dircmp(a, b)
    if compared.left_only or compared.right_only or compared.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, compared.common_files, shallow=False)
    if mismatch or errors:
        return False
    return all(same_tree(a / sub, b / sub) for sub in compared.common_dirs)


def split(installs: dict[str, Path], libs: Path, abi_root: Path) -> None:
    """Entries identical for every version go to libs/, the rest to abi/<tag>/."""
    names = set().union(*({p.name for p in root.iterdir()} for root in installs.values()))
    names -= {"bin", "__pycache__", ".lock"}  # console scripts, caches, uv's lock: not needed
    first = next(iter(installs.values()))
    for name in sorted(names):
        paths = [root / name for root in installs.values()]
        if all(p.exists() for p in paths) and all(same_tree(paths[0], p) for p in paths[1:]):
            shutil.move(str(first / name), str(libs / name))
            continue
        for tag, root in installs.items():
            if (root / name).exists():
                shutil.move(str(root / name), str(abi_root / tag / name))


def deps_key(requirements: list[str], platform_name: str) -> str:
    text = json.dumps([requirements, PYTHON_VERSIONS, platform_name, 1])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=EXTENSION / "bundled")
    parser.add_argument("--tools", type=Path, default=EXTENSION / "build" / "tools",
                        help="where uv is installed when it is not on PATH")
    args = parser.parse_args()

    system = (platform.system(), platform.machine())
    if system not in PLATFORMS:
        sys.exit(f"bundle: building the bundled server on {system[0]} {system[1]} is not "
                 f"supported (only {', '.join(f'{s} {m}' for s, m in PLATFORMS)})")
    platform_name, uv_platform = PLATFORMS[system]
    requirements = dependencies()
    out: Path = args.out
    libs, abi_root, manifest_file = out / "libs", out / "abi", out / "manifest.json"
    key = deps_key(requirements, platform_name)

    try:
        manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    if manifest.get("dependencies_key") == key and libs.is_dir() and abi_root.is_dir():
        log(f"dependencies unchanged ({key}); refreshing flowdrop_lsp only")
    else:
        uv = find_uv(args.tools)
        shutil.rmtree(libs, ignore_errors=True)
        shutil.rmtree(abi_root, ignore_errors=True)
        libs.mkdir(parents=True)
        with tempfile.TemporaryDirectory(prefix="flowdrop-bundle-") as tmp:
            installs: dict[str, Path] = {}
            for version in PYTHON_VERSIONS:
                tag = "cp" + version.replace(".", "")
                log(f"resolving the dependencies for CPython {version} ({platform_name})")
                installs[tag] = Path(tmp) / tag
                install_for(uv, version, uv_platform, requirements, installs[tag])
                (abi_root / tag).mkdir(parents=True)
            split(installs, libs, abi_root)
        manifest = {"dependencies_key": key}

    # The project itself: pure Python plus its schema, copied (no build backend needed).
    shutil.rmtree(libs / "flowdrop_lsp", ignore_errors=True)
    shutil.copytree(REPO / "flowdrop_lsp", libs / "flowdrop_lsp",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    manifest.update(
        platform=platform_name,
        python=[f"cp{v.replace('.', '')}" for v in PYTHON_VERSIONS],
        requirements=requirements,
    )
    manifest_file.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    shared = sorted(p.name for p in libs.iterdir() if not p.name.endswith(".dist-info"))
    per_abi = sorted({p.name for d in abi_root.iterdir() for p in d.iterdir()
                      if not p.name.endswith(".dist-info")})
    log(f"libs/: {', '.join(shared)}")
    log(f"abi/cp3XY/ ({', '.join(manifest['python'])}): {', '.join(per_abi)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
