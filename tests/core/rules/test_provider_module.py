"""R1.a where the site decides it, on a copy of the real site: a core.extension.yml that does
not enable a node type's providing module refuses every node of that type (on its type token,
`R1_PLUGIN_MISSING` at `node.{id}`); the whole site re-judged when that file changes; nothing
without a core.extension.yml, or with every module enabled."""

from __future__ import annotations

from pathlib import Path

from tests.support.site import COLOUR, copy_site, loaded, places, site_findings, where_is

CODE = "R1.a"


def _modules(folder: Path) -> set[str]:
    found: set[str] = set()
    for path in folder.glob("flowdrop_node_type.flowdrop_node_type.*.yml"):
        lines = path.read_text(encoding="utf-8").splitlines()
        if "  module:" in lines:
            at = lines.index("  module:") + 1
            while at < len(lines) and lines[at].startswith("    - "):
                found.add(lines[at][6:])
                at += 1
    return found


def _extension(folder: Path, modules: set[str]) -> Path:
    path = folder / "core.extension.yml"
    body = "".join(f"  {m}: 0\n" for m in sorted(modules))
    path.write_text(f"module:\n{body}theme:\n  olivero: 0\n", encoding="utf-8")
    return path


def test_nothing_without_a_core_extension_or_with_every_module_enabled(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    assert places(loaded(folder), CODE) == []
    _extension(folder, _modules(folder) | {"system", "user"})
    assert places(loaded(folder), CODE) == []


def test_a_module_not_enabled_refuses_the_nodes_of_its_types(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    modules = _modules(folder)
    assert "flowdrop_node_processor" in modules
    _extension(folder, modules - {"flowdrop_node_processor"})
    index = loaded(folder)
    found = site_findings(index, CODE)
    assert found, "the site's chat nodes are provided by flowdrop_node_processor"
    colour = (folder / COLOUR).read_text(encoding="utf-8")
    in_colour = [item for item in found if item[0] == COLOUR]
    first = in_colour[0]
    assert first[1:3] == where_is(colour, "chat_input", after="node_type_id: ")
    finding = first[3]
    assert finding.locator_code == "R1_PLUGIN_MISSING"
    assert finding.locator == "node.chat_input.1"
    assert "'flowdrop_node_processor'" in finding.message
    assert finding.severity.value == "error"


def test_the_site_is_re_judged_when_core_extension_changes(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    modules = _modules(folder)
    path = _extension(folder, modules)
    index = loaded(folder)
    assert places(index, CODE) == []
    _extension(folder, modules - {"flowdrop_node_processor"})
    changed = index.update(path)
    assert len(changed) > 1
    assert places(index, CODE) != []
    path.unlink()
    index.remove(path)
    assert places(index, CODE) == []
