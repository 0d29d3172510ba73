"""The house's shape, enforced: the layers of docs/architecture.md point one way, no module imports
itself back through others (function-local imports count: hiding an import inside a function
does not remove the dependency), the core imports no protocol library, the three front ends (the
CLI, the server, the Doctor's HTTP front) never import each other, each front asks the core
through its facades alone and takes from them only the names their `__all__` lists (the CLI and
the server: core/facade.py, the server a buffer's core/ide/service.py too; the Doctor
core/doctor/), and only the syntax layer knows a format.

Each checker is a plain function over an import graph, and each is tested on a planted graph
too, so that a checker that silently finds nothing fails here."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterable, Mapping
from pathlib import Path

import flowdrop_lsp
from tests.support.imports import type_checking_only as _type_checking_only

PACKAGE = Path(flowdrop_lsp.__file__).resolve().parent
CORE = PACKAGE / "core"
NAME = "flowdrop_lsp"

# The layers, lowest first: a module imports only from its own layer or lower ones. A module
# belongs to the layer of the longest prefix that names it (docs/architecture.md explains each).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("flowdrop_lsp",),  # the package's own __init__: the version
    ("flowdrop_lsp.core", "flowdrop_lsp.core.text", "flowdrop_lsp.core.expressions"),
    ("flowdrop_lsp.core.findings", "flowdrop_lsp.core.fixes"),
    ("flowdrop_lsp.core.syntax",),
    ("flowdrop_lsp.core.config",),
    ("flowdrop_lsp.core.domain",),
    ("flowdrop_lsp.core.rules",),
    ("flowdrop_lsp.core.engine",),
    ("flowdrop_lsp.core.workspace",),
    (
        "flowdrop_lsp.core.ide",
        "flowdrop_lsp.core.analysis",
        "flowdrop_lsp.core.doctor",
        "flowdrop_lsp.core.facade",
    ),
    ("flowdrop_lsp.cli", "flowdrop_lsp.lsp", "flowdrop_lsp.doctor"),
    ("flowdrop_lsp.entry", "flowdrop_lsp.__main__"),
)
# Same layer, but strangers: the three front ends, and the two core facades.
STRANGERS = (
    ("flowdrop_lsp.cli", "flowdrop_lsp.lsp"),
    ("flowdrop_lsp.cli", "flowdrop_lsp.doctor"),
    ("flowdrop_lsp.lsp", "flowdrop_lsp.doctor"),
    ("flowdrop_lsp.core.ide", "flowdrop_lsp.core.analysis"),
)
PROTOCOL = ("pygls", "lsprotocol", "aiohttp")  # the server's, and the Doctor's HTTP
# The fronts' facade (the host, and the vocabulary the CLI and the server share with it).
FACADE = "flowdrop_lsp.core.facade"
# What the LSP layer may import from the core: the facade, and a buffer's editor features.
LSP_MAY_IMPORT = frozenset({FACADE, "flowdrop_lsp.core.ide.service"})


# --- the scan ------------------------------------------------------------------------------


def module_name(path: Path, root: Path, package: str = NAME) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((package, *parts))


def imports_of(source: str, name: str, is_package: bool) -> set[str]:
    """Every module `source` imports at run time, wherever the import statement is (module
    level or inside a function), as absolute dotted names; `from x import y` names `x.y` too,
    since y may be a module (the graph keeps only the names that are modules)."""
    tree = ast.parse(source)
    hidden = _type_checking_only(tree)
    found: set[str] = set()
    here = name if is_package else name.rpartition(".")[0]
    for item in ast.walk(tree):
        if id(item) in hidden:
            continue
        if isinstance(item, ast.Import):
            found.update(alias.name for alias in item.names)
        elif isinstance(item, ast.ImportFrom):
            if item.level:
                base = here.split(".")[: len(here.split(".")) - item.level + 1]
                module = ".".join(base + ([item.module] if item.module else []))
            else:
                module = item.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in item.names)
        elif isinstance(item, ast.Call) and getattr(
            item.func, "id", getattr(item.func, "attr", None)
        ) in {"__import__", "import_module"}:
            found.update(
                arg.value
                for arg in item.args
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            )
    return found


def import_graph(root: Path = PACKAGE, package: str = NAME) -> dict[str, set[str]]:
    """Module → the package's modules it imports (external libraries kept as their names)."""
    sources = {module_name(p, root, package): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in sources.items():
        imported = imports_of(path.read_text(encoding="utf-8"), name, path.name == "__init__.py")
        graph[name] = {
            module
            for module in imported
            if module != name and (module in sources or not module.startswith(package))
        }
    return graph


def _is_under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


# --- the checkers --------------------------------------------------------------------------


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph.get(start, ())))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            advanced = False
            for target in targets:
                if target not in graph:
                    continue
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph.get(target, ()))))
                    advanced = True
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def layer_of(module: str) -> tuple[int, str] | None:
    best: tuple[int, str] | None = None
    for level, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if _is_under(module, prefix) and (best is None or len(prefix) > len(best[1])):
                best = (level, prefix)
    return best


def layer_violations(graph: Mapping[str, Iterable[str]]) -> set[str]:
    """Imports that point up the layers, or between strangers of one layer."""
    problems = set()
    for module, imported in graph.items():
        mine = layer_of(module)
        for target in imported:
            theirs = layer_of(target)
            if mine is None or theirs is None:
                continue
            if theirs[0] > mine[0]:
                problems.add(f"{module} imports {target}, a higher layer")
            for a, b in STRANGERS:
                if (_is_under(module, a) and _is_under(target, b)) or (
                    _is_under(module, b) and _is_under(target, a)
                ):
                    problems.add(f"{module} imports {target}: {a} and {b} never meet")
    return problems


def reaches_past(
    graph: Mapping[str, Iterable[str]], front: str, allowed: frozenset[str]
) -> set[str]:
    """The imports of the core by the front end `front` that are not in `allowed`."""
    return {
        f"{module} imports {target}"
        for module, imported in graph.items()
        if _is_under(module, front)
        for target in imported
        if _is_under(target, "flowdrop_lsp.core")
        and target not in allowed
        # `from flowdrop_lsp.core.findings import Finding` also names `...findings.Finding`
        and not any(target.startswith(name + ".") for name in allowed)
    }


def lsp_reaches_past_the_facade(graph: Mapping[str, Iterable[str]]) -> set[str]:
    return reaches_past(graph, "flowdrop_lsp.lsp", LSP_MAY_IMPORT)


def core_modules_used(graph: Mapping[str, Iterable[str]], front: str) -> set[str]:
    """The core modules a front end imports (a name inside a module counts as the module)."""
    modules = {name for name in graph if _is_under(name, "flowdrop_lsp.core")}
    used = set()
    for module, imported in graph.items():
        if not _is_under(module, front):
            continue
        for target in imported:
            if target in modules:
                used.add(target)
    return used


def protocol_in_core(graph: Mapping[str, Iterable[str]]) -> set[str]:
    return {
        f"{module} imports {target}"
        for module, imported in graph.items()
        if _is_under(module, "flowdrop_lsp.core")
        for target in imported
        if any(_is_under(target, name) for name in PROTOCOL)
    }


# --- the package as it is ------------------------------------------------------------------

GRAPH = import_graph()


def test_the_scan_sees_the_package() -> None:
    assert len([m for m in GRAPH if _is_under(m, "flowdrop_lsp.core")]) >= 30
    assert "flowdrop_lsp.core.findings" in GRAPH["flowdrop_lsp.core.analysis"]
    assert "lsprotocol" in {m.split(".")[0] for m in GRAPH["flowdrop_lsp.lsp.convert"]}
    unplaced = sorted(m for m in GRAPH if layer_of(m) is None)
    assert unplaced == [], "every module belongs to a layer"


def test_no_import_cycle_not_even_a_hidden_one() -> None:
    assert cycles(GRAPH) == []


def test_layers_point_one_way() -> None:
    assert layer_violations(GRAPH) == set()


def test_core_imports_no_protocol_library() -> None:
    assert protocol_in_core(GRAPH) == set()


def test_the_lsp_layer_asks_the_core_through_its_two_facades() -> None:
    assert lsp_reaches_past_the_facade(GRAPH) == set()
    assert core_modules_used(GRAPH, "flowdrop_lsp.lsp") == LSP_MAY_IMPORT


# The replay of an unchanged run must find the run's cache folder without importing the
# checker (the host, which the facade imports): core/config/project.py is standard library only.
PROJECT = "flowdrop_lsp.core.config.project"
REPLAY_TAKES = frozenset({"CACHE_DIR_ENV", "check_cache_folder"})
# What the CLI may import from the core: the facade (its way in, as the server's), and the
# replay's light one.
CLI_MAY_IMPORT = frozenset({FACADE, PROJECT})


def test_the_cli_asks_the_core_through_as_few_modules_as_the_server() -> None:
    assert reaches_past(GRAPH, "flowdrop_lsp.cli", CLI_MAY_IMPORT) == set()
    cli = core_modules_used(GRAPH, "flowdrop_lsp.cli")
    assert cli and len(cli) <= len(core_modules_used(GRAPH, "flowdrop_lsp.lsp"))


def _names_used(module: str) -> set[str]:
    """Every name a module of the package mentions (imported, called, read)."""
    path = PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")
    if not path.exists():
        path = path.with_suffix("") / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    found |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    found |= {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    return found


# One node-type reader: core/domain/node_types.py reads a definition from its syntax tree, and
# core/workspace/node_types.py (its files, read once each, for the registry and the site alike)
# is the only module that asks it to.
NODE_TYPE_READING = frozenset({"read_definition", "definition_from_tree"})
NODE_TYPE_READERS = frozenset(
    {"flowdrop_lsp.core.domain.node_types", "flowdrop_lsp.core.workspace.node_types"}
)


def test_node_types_are_read_by_one_reader() -> None:
    offenders = {
        module
        for module in GRAPH
        if module not in NODE_TYPE_READERS and _names_used(module) & NODE_TYPE_READING
    }
    assert offenders == set()
    # …and nothing else parses YAML by itself: every reader of a format is the syntax layer's.
    assert not any(
        "yaml" in imported for module, imported in GRAPH.items() if module in NODE_TYPE_READERS
    )


# One host merges a file's findings: its own and its site's, settings applied, carried through
# a buffer's edits. The engine applies the settings to its own findings, the one-shot analysis
# re-exports that; nothing else merges, filters or carries findings.
MERGING = frozenset({"apply_settings", "through_edits", "cross_file_findings"})
MERGERS = frozenset(
    {
        "flowdrop_lsp.core.findings",
        "flowdrop_lsp.core.engine.document",
        "flowdrop_lsp.core.analysis",
        "flowdrop_lsp.core.workspace.host",
    }
)


def test_only_the_host_merges_findings() -> None:
    offenders = {
        module for module in GRAPH if module not in MERGERS and _names_used(module) & MERGING
    }
    assert offenders == set()
    # A site index's findings are asked by the host alone (and the index itself).
    asking = {
        module
        for module in GRAPH
        if _is_under(module, "flowdrop_lsp")
        and "SITE_RULES" in _names_used(module)
        and module not in ("flowdrop_lsp.core.workspace.site", "flowdrop_lsp.core.rules.registry")
    }
    assert asking == set()


def test_cli_cannot_know_the_protocol() -> None:
    offenders = {
        f"{module} imports {target}"
        for module, imported in GRAPH.items()
        if _is_under(module, "flowdrop_lsp.cli")
        for target in imported
        if any(_is_under(target, name) for name in PROTOCOL)
    }
    assert offenders == set()


def test_the_entry_module_dispatches_every_command() -> None:
    imported = GRAPH["flowdrop_lsp.entry"]
    assert "flowdrop_lsp.cli.main" in imported and "flowdrop_lsp.lsp.app" in imported
    assert "flowdrop_lsp.doctor.serve" in imported


# What the Doctor's HTTP front may import from the core: the Doctor's facade, as a package
# (`from flowdrop_lsp.core.doctor import DoctorService`), never a module inside it.
DOCTOR_MAY_IMPORT = frozenset({"flowdrop_lsp.core.doctor"})


def doctor_reaches_past_the_facade(graph: Mapping[str, Iterable[str]]) -> set[str]:
    """The Doctor front's imports of the core other than the facade package itself: its
    modules (`flowdrop_lsp.core.doctor.service`) count as reaching past it."""
    return {
        f"{module} imports {target}"
        for module, imported in graph.items()
        if _is_under(module, "flowdrop_lsp.doctor")
        for target in imported
        if _is_under(target, "flowdrop_lsp.core") and target not in DOCTOR_MAY_IMPORT
    }


def test_the_doctor_asks_the_core_through_its_facade_alone() -> None:
    assert doctor_reaches_past_the_facade(GRAPH) == set()
    assert core_modules_used(GRAPH, "flowdrop_lsp.doctor") == {"flowdrop_lsp.core.doctor"}


# --- the fronts take the core's names from its facades, by name ----------------------------

# The front ends and the facades each may take names from: a name a front imports from the core
# must be in its facade's `__all__` (the replay's two names of PROJECT, REPLAY_TAKES).
FRONTS = {
    "flowdrop_lsp.cli": (FACADE, PROJECT),
    "flowdrop_lsp.lsp": (FACADE, "flowdrop_lsp.core.ide.service"),
    "flowdrop_lsp.doctor": ("flowdrop_lsp.core.doctor",),
}


def core_names_taken(root: Path = PACKAGE, package: str = NAME) -> set[tuple[str, str, str]]:
    """(module, core module, name) for each name a module outside the core takes from it:
    `from flowdrop_lsp.core.x import a` wherever it is (in a function, under TYPE_CHECKING);
    a core module imported whole (`import flowdrop_lsp.core.x`) takes the name `*`."""
    core = f"{package}.core"
    taken: set[tuple[str, str, str]] = set()
    for path in sorted(root.rglob("*.py")):
        name = module_name(path, root, package)
        if _is_under(name, core):
            continue
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for item in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(item, ast.ImportFrom):
                source = item.module or ""
                if item.level:
                    parts = here.split(".")[: len(here.split(".")) - item.level + 1]
                    source = ".".join(parts + ([item.module] if item.module else []))
                if _is_under(source, core):
                    taken.update((name, source, alias.name) for alias in item.names)
            elif isinstance(item, ast.Import):
                taken.update(
                    (name, alias.name, "*") for alias in item.names if _is_under(alias.name, core)
                )
    return taken


def names_past_the_facades(
    taken: Iterable[tuple[str, str, str]], allowed: Mapping[str, frozenset[str]]
) -> set[str]:
    """The names a front takes from the core that its facades do not list (and any name a
    module that is no front takes from it): `allowed` maps each facade a front may take from
    to the names it may take."""
    problems = set()
    for module, source, name in taken:
        front = next((front for front in FRONTS if _is_under(module, front)), None)
        may = front is not None and source in FRONTS[front] and name in allowed.get(source, ())
        if not may:
            problems.add(f"{module} takes {name} from {source}")
    return problems


def unused_names(
    taken: Iterable[tuple[str, str, str]], facade: str, names: Iterable[str]
) -> set[str]:
    """The names of `facade` that no front takes from it."""
    return set(names) - {name for _, source, name in taken if source == facade}


def _all_of(module: str) -> frozenset[str]:
    """A facade's `__all__`, each name of which it defines."""
    imported = importlib.import_module(module)
    assert all(hasattr(imported, name) for name in imported.__all__)
    return frozenset(imported.__all__)


def test_the_fronts_take_only_what_their_facades_list() -> None:
    taken = core_names_taken()
    allowed = {
        source: _all_of(source)
        for sources in FRONTS.values()
        for source in sources
        if source != PROJECT
    }
    allowed[PROJECT] = REPLAY_TAKES
    assert names_past_the_facades(taken, allowed) == set()
    assert {module for module, source, _ in taken if source == PROJECT} == {
        "flowdrop_lsp.cli.replay"
    }
    # …and the facade lists nothing they do not use (the Doctor's lists nothing else either).
    assert unused_names(taken, FACADE, allowed[FACADE]) == set()
    doctor = "flowdrop_lsp.core.doctor"
    assert unused_names(taken, doctor, allowed[doctor]) == set()
    # The facade is the fronts' door: no core module goes through it.
    assert {m for m, imported in GRAPH.items() if FACADE in imported} <= {
        m for m in GRAPH if any(_is_under(m, front) for front in FRONTS)
    }


# --- the checkers catch what they are for: planted packages --------------------------------


def _plant(root: Path, files: Mapping[str, str]) -> dict[str, set[str]]:
    for relative, source in files.items():
        path = root / "flowdrop_lsp" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    for folder in (root / "flowdrop_lsp").rglob("*"):
        if folder.is_dir() and not (folder / "__init__.py").exists():
            (folder / "__init__.py").write_text("", encoding="utf-8")
    return import_graph(root / "flowdrop_lsp")


def test_a_planted_hidden_cycle_is_found(tmp_path: Path) -> None:
    graph = _plant(
        tmp_path,
        {
            "core/config/settings.py": (
                "def codes():\n    from flowdrop_lsp.core.rules import registry\n"
                "    return registry\n"
            ),
            "core/rules/registry.py": "from flowdrop_lsp.core.rules.base import Rule\n",
            "core/rules/base.py": "from flowdrop_lsp.core.config.settings import codes\n",
        },
    )
    assert cycles(graph) == [
        [
            "flowdrop_lsp.core.config.settings",
            "flowdrop_lsp.core.rules.base",
            "flowdrop_lsp.core.rules.registry",
        ]
    ]
    assert (
        "flowdrop_lsp.core.config.settings imports flowdrop_lsp.core.rules.registry, a higher layer"
        in layer_violations(graph)
    )


def test_a_type_checking_import_is_no_cycle(tmp_path: Path) -> None:
    graph = _plant(
        tmp_path,
        {
            "lsp/server.py": "from flowdrop_lsp.lsp import hover\n",
            "lsp/hover.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                "    from flowdrop_lsp.lsp.server import Server\n"
            ),
        },
    )
    assert cycles(graph) == []
    planted = _plant(
        tmp_path, {"lsp/hover.py": "def f():\n    from flowdrop_lsp.lsp.server import Server\n"}
    )
    assert cycles(planted) == [["flowdrop_lsp.lsp.hover", "flowdrop_lsp.lsp.server"]]


def test_a_planted_upward_import_is_found(tmp_path: Path) -> None:
    graph = _plant(
        tmp_path,
        {
            "core/domain/model.py": "from flowdrop_lsp.core.engine.document import WorkflowDocument\n",
            "core/engine/document.py": "X = 1\n",
            "cli/main.py": "import flowdrop_lsp.lsp.server\n",
            "lsp/server.py": "X = 1\n",
        },
    )
    assert layer_violations(graph) == {
        "flowdrop_lsp.core.domain.model imports flowdrop_lsp.core.engine.document, a higher layer",
        "flowdrop_lsp.cli.main imports flowdrop_lsp.lsp.server: "
        "flowdrop_lsp.cli and flowdrop_lsp.lsp never meet",
    }


def test_an_lsp_import_of_an_engine_internal_is_found(tmp_path: Path) -> None:
    graph = _plant(
        tmp_path,
        {
            "lsp/hover.py": (
                "from flowdrop_lsp.core.facade import Finding\n"
                "def answer():\n    from flowdrop_lsp.core.engine.document import WorkflowDocument\n"
            ),
            "core/facade.py": "Finding = 1\n",
            "core/engine/document.py": "X = 1\n",
        },
    )
    assert lsp_reaches_past_the_facade(graph) == {
        "flowdrop_lsp.lsp.hover imports flowdrop_lsp.core.engine.document",
    }


def test_a_planted_cli_reaching_into_the_batch_or_the_host_is_found(tmp_path: Path) -> None:
    graph = _plant(
        tmp_path,
        {
            "cli/main.py": (
                "from flowdrop_lsp.core.facade import Host\n"
                "from flowdrop_lsp.core.workspace.host import Changes\n"
                "from flowdrop_lsp.core.workspace.batch import Batch\n"
            ),
            "core/facade.py": "Host = 1\n",
            "core/workspace/host.py": "Host = Changes = 1\n",
            "core/workspace/batch.py": "Batch = 1\n",
        },
    )
    assert reaches_past(graph, "flowdrop_lsp.cli", CLI_MAY_IMPORT) == {
        "flowdrop_lsp.cli.main imports flowdrop_lsp.core.workspace.batch",
        "flowdrop_lsp.cli.main imports flowdrop_lsp.core.workspace.host",
    }
    assert core_modules_used(graph, "flowdrop_lsp.cli") == {
        FACADE,
        "flowdrop_lsp.core.workspace.host",
        "flowdrop_lsp.core.workspace.batch",
    }


def test_planted_names_past_the_facades_are_found_by_name(tmp_path: Path) -> None:
    _plant(
        tmp_path,
        {
            # A name the facade does not list, one taken from the host itself (under
            # TYPE_CHECKING: still taken), a facade imported whole, and a relative import.
            "cli/main.py": (
                "from typing import TYPE_CHECKING\n"
                "from flowdrop_lsp.core.facade import Host, Batch\n"
                "if TYPE_CHECKING:\n    from flowdrop_lsp.core.workspace.host import Changes\n"
            ),
            "cli/report.py": "from ..core.facade import Finding\n",
            "cli/replay.py": "from flowdrop_lsp.core.config.project import PROJECT_FILE\n",
            "lsp/server.py": (
                "import flowdrop_lsp.core.facade\n"
                "from flowdrop_lsp.core.ide.service import WorkflowService\n"
                "def later():\n    from flowdrop_lsp.core.facade import walk\n"
            ),
            "doctor/app.py": "from flowdrop_lsp.core.facade import Host\n",
            "core/facade.py": "from flowdrop_lsp.core.workspace.host import Host\n",
            "core/workspace/host.py": "Host = Changes = 1\n",
        },
    )
    taken = core_names_taken(tmp_path / "flowdrop_lsp")
    allowed = {
        FACADE: frozenset({"Host", "Finding", "walk", "Settings"}),
        "flowdrop_lsp.core.ide.service": frozenset({"WorkflowService"}),
        PROJECT: REPLAY_TAKES,
    }
    assert names_past_the_facades(taken, allowed) == {
        "flowdrop_lsp.cli.main takes Batch from flowdrop_lsp.core.facade",
        "flowdrop_lsp.cli.main takes Changes from flowdrop_lsp.core.workspace.host",
        "flowdrop_lsp.cli.replay takes PROJECT_FILE from flowdrop_lsp.core.config.project",
        "flowdrop_lsp.lsp.server takes * from flowdrop_lsp.core.facade",
        "flowdrop_lsp.doctor.app takes Host from flowdrop_lsp.core.facade",
    }
    assert unused_names(taken, FACADE, allowed[FACADE]) == {"Settings"}


def test_a_planted_doctor_reaching_past_its_facade_or_into_a_front_is_found(
    tmp_path: Path,
) -> None:
    graph = _plant(
        tmp_path,
        {
            "doctor/app.py": (
                "from flowdrop_lsp.core.doctor import DoctorService\n"
                "from flowdrop_lsp.core.doctor.service import ProblemGone\n"
                "def answer():\n    from flowdrop_lsp.core.workspace.host import Host\n"
            ),
            "doctor/serve.py": "from flowdrop_lsp.lsp.server import Server\n",
            "cli/main.py": "import flowdrop_lsp.doctor.app\n",
            "core/doctor/__init__.py": "from flowdrop_lsp.core.doctor.service import X\n",
            "core/doctor/service.py": "X = 1\n",
            "core/workspace/host.py": "Host = 1\n",
            "lsp/server.py": "Server = 1\n",
        },
    )
    assert doctor_reaches_past_the_facade(graph) == {
        "flowdrop_lsp.doctor.app imports flowdrop_lsp.core.doctor.service",
        "flowdrop_lsp.doctor.app imports flowdrop_lsp.core.workspace.host",
    }
    assert layer_violations(graph) == {
        "flowdrop_lsp.doctor.serve imports flowdrop_lsp.lsp.server: "
        "flowdrop_lsp.lsp and flowdrop_lsp.doctor never meet",
        "flowdrop_lsp.cli.main imports flowdrop_lsp.doctor.app: "
        "flowdrop_lsp.cli and flowdrop_lsp.doctor never meet",
    }


def test_a_planted_protocol_import_in_the_core_is_found(tmp_path: Path) -> None:
    graph = _plant(tmp_path, {"core/rules/x.py": "import lsprotocol.types as t\n"})
    assert protocol_in_core(graph) == {"flowdrop_lsp.core.rules.x imports lsprotocol.types"}


# --- one reader seam -----------------------------------------------------------------------

# Only the syntax layer reads or writes a format: the engine, model, graph, rules, selection, CLI
# and server hold a reader (core/syntax/reader.py) and ask it.
FORMAT_ONLY = ("flowdrop_lsp.core.syntax.yaml", "flowdrop_lsp.core.syntax.json", "yaml")


def test_only_the_syntax_layer_knows_a_format() -> None:
    offenders = {
        f"{module} imports {target}"
        for module, imported in GRAPH.items()
        if not _is_under(module, "flowdrop_lsp.core.syntax")
        for target in imported
        if any(_is_under(target, name) for name in FORMAT_ONLY)
    }
    assert offenders == set()


def test_the_reader_seam_knows_both_formats() -> None:
    imported = GRAPH["flowdrop_lsp.core.syntax.reader"]
    assert any(_is_under(m, "flowdrop_lsp.core.syntax.json") for m in imported)
    assert any(_is_under(m, "flowdrop_lsp.core.syntax.yaml") for m in imported)


# --- files cut along their seams ---------------------------------------------------------

MAX_MODULE_LINES = 600


def test_no_module_over_600_lines() -> None:
    """A module that outgrows this holds several things: cut it along its seams (a package)."""
    bench = PACKAGE.parent / "bench"
    sources = [*PACKAGE.rglob("*.py"), *bench.rglob("*.py")]
    assert len(sources) > 60
    oversized = {
        str(path.relative_to(PACKAGE.parent)): count
        for path in sources
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert oversized == {}
