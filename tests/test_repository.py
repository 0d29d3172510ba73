"""The repository stands on its own: a bare clone passes its tests, and nothing it runs reads
files from beside the clone (contributors have no `../shared`)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.repository import OUTSIDE

REPO = Path(__file__).resolve().parents[1]
# What the project runs: the package, its tests, the benchmark, the editor integrations' own
# sources and scripts, the Makefile and CI.
SCANNED = (
    "flowdrop_lsp",
    "tests",
    "bench",
    "editors/vscode/src",
    "editors/vscode/e2e",
    "editors/vscode/scripts",
    "editors/nvim",
    "editors/vim",
    "editors/emacs",
    "Makefile",
    ".ci",
)


def _sources() -> list[Path]:
    files: list[Path] = []
    for name in SCANNED:
        path = REPO / name
        candidates = [path] if path.is_file() else path.rglob("*")
        files.extend(
            p
            for p in candidates
            if p.is_file() and "node_modules" not in p.parts and p.suffix not in {".png", ".vsix"}
        )
    return files


def test_nothing_reads_beside_the_clone() -> None:
    offenders = []
    for path in _sources():
        if path == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{path.relative_to(REPO)}: {m.group()}" for m in OUTSIDE.finditer(text)]
    assert offenders == []


def test_the_scan_sees_a_reference_beside_the_clone() -> None:
    assert OUTSIDE.search('SPEC = REPO.parent / "shared" / "spec"')
    assert OUTSIDE.search("cat ../shared/spec/rules.md")
    assert len(_sources()) > 50


def test_licence_is_declared_consistently() -> None:
    import json

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    assert (REPO / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    package = json.loads((REPO / "editors/vscode/package.json").read_text(encoding="utf-8"))
    assert package["license"] == "MIT"
    assert (REPO / "editors/vscode/LICENSE.txt").read_text(encoding="utf-8") == (
        REPO / "LICENSE"
    ).read_text(encoding="utf-8")


def test_vendored_third_party_material_keeps_its_notice() -> None:
    spec = (REPO / "tests/fixtures/spec/README.md").read_text(encoding="utf-8")
    assert "CC BY 4.0" in spec and "https://github.com/flowdrop-io/flowdrop-spec" in spec
    corpus = (REPO / "tests/corpus/README.md").read_text(encoding="utf-8")
    assert "GPL-2.0-or-later" in corpus and "3ca95a91642cb46d4e38309fde6336f871ea24b6" in corpus


def test_make_fuzz_runs_the_property_tests_by_marker() -> None:
    """`make test` draws fixed examples (tests/conftest.py); only `make fuzz` explores fresh ones,
    selecting the `hypothesis` marker: a `@given` test gets it in tests/conftest.py, and a test
    that runs a state machine itself must carry it, or fuzzing would never meet a new example."""
    import ast

    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"pytest --slow[^\n]*-m hypothesis", makefile)
    unmarked = []
    runners = 0
    for path in (REPO / "tests").rglob("test_*.py"):
        if path == Path(__file__).resolve():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for item in ast.walk(tree):
            if not isinstance(item, ast.FunctionDef):
                continue
            body = ast.unparse(item)
            if "run_state_machine_as_test(" in body or ".TestCase()" in body:
                runners += 1
                marks = {ast.unparse(d) for d in item.decorator_list}
                if "pytest.mark.hypothesis" not in marks:
                    unmarked.append(f"{path.relative_to(REPO)}::{item.name}")
    assert runners >= 2, "no state machine runner found: the scan is broken"
    assert unmarked == []


def test_no_test_file_imports_another() -> None:
    """What tests share lives in tests/support; a test module imported by another would run its
    tests twice and hide what the other depends on."""
    import ast

    offenders = []
    for path in (REPO / "tests").rglob("*.py"):
        if "support" in path.relative_to(REPO / "tests").parts[:1]:
            continue
        for item in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(item, ast.ImportFrom) and item.module and item.module.startswith("tests"):
                if not item.module.startswith("tests.support"):
                    offenders.append(f"{path.relative_to(REPO)}: {item.module}")
            elif isinstance(item, ast.Import):
                offenders += [
                    f"{path.relative_to(REPO)}: {alias.name}"
                    for alias in item.names
                    if alias.name.startswith("tests.")
                    and not alias.name.startswith("tests.support")
                ]
    assert offenders == []


def test_tests_mirror_the_package() -> None:
    """A core layer's tests live in the folder of that layer (tests/core/<layer>/)."""
    layers = {
        p.name for p in (REPO / "flowdrop_lsp" / "core").iterdir() if (p / "__init__.py").exists()
    }
    tested = {
        p.name
        for p in (REPO / "tests" / "core").iterdir()
        if p.is_dir() and p.name != "__pycache__"
    }
    assert tested <= layers, sorted(tested - layers)
    assert layers - tested <= set(), sorted(layers - tested)


def _lint_commands() -> list[list[str]]:
    """The commands of the Makefile's `lint` target, each split into words."""
    lines = (REPO / "Makefile").read_text(encoding="utf-8").splitlines()
    start = lines.index("lint: $(VENV)/.installed-test") + 1
    commands = []
    for line in lines[start:]:
        if not line.startswith("\t"):
            break
        commands.append(line.strip().replace("$(BIN)/", "").split())
    return commands


def test_the_contributor_hooks_run_what_make_lint_runs() -> None:
    """.pre-commit-config.yaml (the contributors' hooks, not the hook the repository offers:
    .pre-commit-hooks.yaml) runs ruff check, ruff format and mypy from .venv, on the folders
    `make lint` checks."""
    import yaml

    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}
    assert all(repo["repo"] == "local" for repo in config["repos"])
    commands = _lint_commands()
    assert [c[:2] for c in commands] == [["ruff", "check"], ["ruff", "format"], ["mypy"]]
    for command, hook_id in zip(commands, ("ruff-check", "ruff-format"), strict=False):
        hook = hooks[hook_id]
        assert hook["entry"].startswith(f".venv/bin/{command[0]} {command[1]} ")
        assert hook["language"] == "system"
        folders = [word for word in command[2:] if not word.startswith("-")]
        assert hook["files"] == f"^({'|'.join(folders)})/", hook_id
    assert hooks["mypy"]["entry"] == ".venv/bin/mypy"
    assert hooks["mypy"]["pass_filenames"] is False  # the files pyproject.toml names, whole


def test_the_contributor_hooks_are_a_valid_pre_commit_config() -> None:
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-config", ".pre-commit-config.yaml"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
