"""The core is pure analysis: it imports neither pygls nor lsprotocol (nor the CLI or server)."""

from __future__ import annotations

import ast
from pathlib import Path

import flowdrop_lsp.core

FORBIDDEN = ("pygls", "lsprotocol", "flowdrop_lsp.lsp", "flowdrop_lsp.cli")
CORE = Path(flowdrop_lsp.core.__file__).resolve().parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    modules: set[str] = set()
    for item in ast.walk(tree):
        if isinstance(item, ast.Import):
            modules.update(alias.name for alias in item.names)
        elif isinstance(item, ast.ImportFrom) and item.module and item.level == 0:
            modules.add(item.module)
        elif isinstance(item, ast.Call) and getattr(
            item.func, "id", getattr(item.func, "attr", None)
        ) in {"__import__", "import_module"}:
            modules.update(
                arg.value
                for arg in item.args
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            )
    return modules


def test_core_sources_exist() -> None:
    assert len(list(CORE.rglob("*.py"))) >= 10


def test_core_imports_no_protocol_library() -> None:
    offenders = {
        f"{path.relative_to(CORE)}: {module}"
        for path in CORE.rglob("*.py")
        for module in imported_modules(path)
        if any(module == name or module.startswith(name + ".") for name in FORBIDDEN)
    }
    assert offenders == set()


def test_the_scanner_sees_imports() -> None:
    """The scan itself works: it finds the imports of a known module."""
    assert "flowdrop_lsp.core.findings" in imported_modules(CORE / "analysis.py")
    sample = CORE.parent / "lsp" / "convert.py"
    assert sample.exists() and "lsprotocol" in {m.split(".")[0] for m in imported_modules(sample)}


PACKAGE = CORE.parent
# Layers point one way: core ← cli, core ← lsp; only the entry module knows both.
LAYER_FORBIDDEN = {
    "cli": ("pygls", "lsprotocol", "flowdrop_lsp.lsp"),
    "lsp": ("flowdrop_lsp.cli", "flowdrop_lsp.entry"),
}


def _offenders(layer: str) -> set[str]:
    folder = PACKAGE / layer
    return {
        f"{path.relative_to(PACKAGE)}: {module}"
        for path in folder.rglob("*.py")
        for module in imported_modules(path)
        if any(module == name or module.startswith(name + ".") for name in LAYER_FORBIDDEN[layer])
    }


def test_cli_and_lsp_never_import_each_other() -> None:
    assert _offenders("cli") == set()
    assert _offenders("lsp") == set()


def test_the_entry_module_dispatches_both_commands() -> None:
    modules = imported_modules(PACKAGE / "entry.py")
    assert "flowdrop_lsp.cli.main" in modules and "flowdrop_lsp.lsp.app" in modules


# One reader seam (core/syntax/reader.py): only it, and the format modules themselves, read or write a
# format; the engine, model, graph, rules, schema, selection, CLI and server hold a reader.
SYNTAX = CORE / "syntax"
FORMAT_ONLY = (
    "flowdrop_lsp.core.syntax.yaml.reader",
    "flowdrop_lsp.core.syntax.yaml.writer",
    "yaml",
)
PARSERS = {"parse_json", "parse_element", "parse_value_at", "parse_array_region", "scan_workflow"}


def _imported_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return {
        alias.name
        for item in ast.walk(tree)
        if isinstance(item, ast.ImportFrom)
        and item.module == "flowdrop_lsp.core.syntax.json.parser"
        for alias in item.names
    }


def test_only_the_readers_know_a_format() -> None:
    offenders = set()
    for path in PACKAGE.rglob("*.py"):
        if SYNTAX in path.parents:
            continue
        if path.name == "node_types.py":  # Drupal node-type definitions: config, not workflows
            continue
        offenders |= {
            f"{path.relative_to(PACKAGE)}: {module}"
            for module in imported_modules(path)
            if any(module == name or module.startswith(name + ".") for name in FORMAT_ONLY)
        }
        offenders |= {
            f"{path.relative_to(PACKAGE)}: {name}" for name in _imported_names(path) & PARSERS
        }
    assert offenders == set()


def test_the_reader_scan_sees_a_parser_import() -> None:
    assert "scan_workflow" in _imported_names(CORE / "syntax" / "reader.py")
    assert "flowdrop_lsp.core.syntax.yaml.reader" in imported_modules(CORE / "syntax" / "reader.py")
