"""The shipped Vim + ALE recipe (editors/vim) in real Vim 9 with ALE 3.3 (Debian `vim`,
`vim-ale`), driven headless (`vim -es`): the CMP-9 errors of a JSON and of a Drupal YAML
workflow arrive in ALE with their messages, lines and columns; a JSON file that is not a workflow
gets nothing; a missing server is reported once in `:messages`.

Without the editor the tests are skipped with a reason naming the Debian packages; `make
editors-deps` (run by `.ci/run`) installs them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.editors import (
    EMOJI_CJK_PREFIX,
    EMOJI_CJK_WORKFLOW,
    EXAMPLE,
    NON_WORKFLOWS,
    REPO,
    assert_no_server_on_system_path,
    assert_one_missing_server_warning,
    copy_export,
    copy_workflows,
    line_of,
    run_driven,
    venv_bin,
    write_non_workflows,
)

SHIPPED = REPO / "editors" / "vim"
# Where Debian's vim-ale puts ALE (an optional package: `packadd ale`).
ALE_PACKAGE = Path("/usr/share/vim/vimfiles/pack/dist-bundle/opt/ale")
TIMEOUT_S = 60  # hard limit per Vim run; a passing run takes 2-3 seconds
MESSAGE = (
    'tool name "web_search" also used by "{other}" ({node}) at "{consumer}"; '
    "the runtime would call only one of them"
)

VIM = shutil.which("vim")
pytestmark = pytest.mark.skipif(
    VIM is None or not ALE_PACKAGE.is_dir(),
    reason="needs Vim 9 and ALE: apt-get install vim vim-ale (or `make editors-deps`)",
)

# Opens each file of the params in turn, waits for the expected number of ALE items from the
# flowdrop linter (or 1.5 s when none is expected), and writes them with `:messages` as JSON.
DRIVER = r"""
set nocompatible
filetype plugin on
let s:params = json_decode(join(readfile($FLOWDROP_VIM_PARAMS), "\n"))
let &runtimepath = s:params.rtp . ',' . &runtimepath
packadd ale
if has_key(s:params, 'executable')
  let g:flowdrop_lsp_executable = s:params.executable
endif

function! s:Items(buffer) abort
  let l:info = get(get(g:, 'ale_buffer_info', {}), a:buffer, {'loclist': []})
  return filter(copy(l:info.loclist), {_, v -> get(v, 'linter_name', '') is# 'flowdrop'})
endfunction

function! s:Run() abort
  let l:results = []
  for l:file in s:params.files
    execute 'edit' fnameescape(l:file.path)
    let l:buffer = bufnr('')
    let l:start = reltime()
    let l:limit = l:file.expect ? s:params.timeout_s : 1.5
    while reltimefloat(reltime(l:start)) < l:limit
    \ && (l:file.expect == 0 || len(s:Items(l:buffer)) < l:file.expect)
      sleep 50m
    endwhile
    " Whether an LSP server (any: only flowdrop is configured) was sent this buffer.
    let l:served = filter(values(ale#lsp#GetConnections()),
    \ {_, c -> has_key(c.open_documents, l:buffer)})
    call add(l:results, {'path': l:file.path, 'filetype': &filetype,
    \ 'items': s:Items(l:buffer), 'served': len(l:served)})
  endfor
  call writefile([json_encode({'files': l:results, 'messages': execute('messages')})],
  \ s:params.out)
  qall!
endfunction

" ++nested: the :edit inside must fire BufRead and FileType (filetype detection, ALE).
autocmd VimEnter * ++nested call s:Run()
"""


def _run_vim(tmp_path: Path, files: list[dict[str, object]], **params: object) -> dict:
    assert VIM is not None
    return run_driven(
        tmp_path,
        [VIM, "-N", "-es", "-i", "NONE", "-n", "-u"],  # -i NONE: no viminfo of the user
        DRIVER,
        "driver.vim",
        "FLOWDROP_VIM_PARAMS",
        {"rtp": str(SHIPPED), "timeout_s": 20, "files": files, **params},
        TIMEOUT_S,
    )


def _summary(items: list[dict]) -> list[tuple[int, int, str, str, str]]:
    return sorted((i["lnum"], i["col"], i["type"], i["code"], i["text"]) for i in items)


def test_vim_ale_shows_cmp9_in_json_and_yaml_workflows(tmp_path: Path) -> None:
    project = tmp_path / "project"
    workflow, drupal = copy_workflows(project)
    (project / ".git").mkdir()  # the project root marker
    package = project / "package.json"  # plain JSON: nothing
    package.write_text(NON_WORKFLOWS["package.json"], encoding="utf-8")

    result = _run_vim(
        tmp_path,
        [
            {"path": str(workflow), "expect": 2},
            {"path": str(drupal), "expect": 2},
            {"path": str(package), "expect": 0},
        ],
        executable=venv_bin("flowdrop-lsp"),
    )
    json_file, yaml_file, package_file = result["files"]

    text = workflow.read_text(encoding="utf-8")
    assert json_file["filetype"] == "json"
    # ALE's columns are 1-based; these lines are ASCII, so every encoding agrees.
    assert _summary(json_file["items"]) == [
        (
            line_of(text, '"label": "Web Search"')[0],
            26,
            "E",
            "CMP-9",
            MESSAGE.format(other="web-search", node="http_request.2", consumer="Research Agent"),
        ),
        (
            line_of(text, '"label": "web-search"')[0],
            26,
            "E",
            "CMP-9",
            MESSAGE.format(other="Web Search", node="http_request.1", consumer="Research Agent"),
        ),
    ]

    text = drupal.read_text(encoding="utf-8")
    consumer = "Reason (agent step)"
    assert yaml_file["filetype"] == "yaml"
    assert _summary(yaml_file["items"]) == [
        (
            line_of(text, "label: 'Web Search 🔎'")[0],
            14,
            "E",
            "CMP-9",
            MESSAGE.format(other="web-search", node="http_request.2", consumer=consumer),
        ),
        (
            line_of(text, "label: web-search")[0],
            14,
            "E",
            "CMP-9",
            MESSAGE.format(other="Web Search 🔎", node="http_request.1", consumer=consumer),
        ),
    ]
    assert package_file["filetype"] == "json" and package_file["items"] == []
    assert "flowdrop-lsp" not in result["messages"]


def test_vim_ale_lints_an_exported_workflow_like_the_cli(tmp_path: Path) -> None:
    """`exported.json` (the example under a name no glob selects) is a workflow to `flowdrop-lsp
    check` by content, so ALE runs the flowdrop linter on it: the two CMP-9 errors. package.json,
    tsconfig.json and docker-compose.yml are never sent to a server. A graph JSON that mentions
    nodes and edges but is no FlowDrop workflow is sent to it, and gets nothing."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    exported = copy_export(project)
    others = write_non_workflows(project)
    graph = project / "graph.json"  # cytoscape's shape: the server judges it, and stays silent
    graph.write_text(
        '{"elements": {"nodes": [{"data": {"id": "a"}}], "edges": []}}\n', encoding="utf-8"
    )
    files = [
        {"path": str(exported), "expect": 2},
        *({"path": str(path), "expect": 0} for path in others),
        {"path": str(graph), "expect": 0},
    ]
    result = _run_vim(tmp_path, files, executable=venv_bin("flowdrop-lsp"))
    exported_file, *other_files, graph_file = result["files"]

    assert exported_file["served"] == 1
    assert [(i["code"], i["type"]) for i in exported_file["items"]] == [("CMP-9", "E")] * 2
    for other in other_files:
        # A filetype the linter is for (Vim 9 gives tsconfig.json `jsonc`).
        assert other["filetype"] in ("json", "jsonc", "yaml"), other
        assert other["items"] == [] and other["served"] == 0, other
    assert graph_file["served"] == 1 and graph_file["items"] == []
    assert "flowdrop-lsp" not in result["messages"]


def test_vim_ale_columns_are_utf16_code_units(tmp_path: Path) -> None:
    """ALE 3.3 announces no position encoding, so the server answers in UTF-16 code units, and
    ALE adds 1 and uses the result as a byte column: after non-ASCII text on the same line the
    mark sits left of the label (lines are always right). This pins that behaviour."""
    (tmp_path / ".git").mkdir()
    workflow = tmp_path / "emoji.flowdrop.json"
    workflow.write_text(EMOJI_CJK_WORKFLOW, encoding="utf-8")
    result = _run_vim(
        tmp_path,
        [{"path": str(workflow), "expect": 2}],
        executable=venv_bin("flowdrop-lsp"),
    )
    items = sorted(result["files"][0]["items"], key=lambda i: i["lnum"])
    assert [i["lnum"] for i in items] == [4, 5]
    utf16_units = len(EMOJI_CJK_PREFIX.encode("utf-16-le")) // 2
    assert utf16_units < len(EMOJI_CJK_PREFIX.encode("utf-8"))
    assert items[0]["col"] == utf16_units + 1
    assert items[0]["text"] == MESSAGE.format(other="Web Search", node="t2", consumer="Agent")


def test_vim_ale_missing_server_is_reported_once(tmp_path: Path) -> None:
    assert_no_server_on_system_path()
    (tmp_path / ".git").mkdir()
    first, second = tmp_path / "a.flowdrop.json", tmp_path / "b.flowdrop.json"
    shutil.copyfile(EXAMPLE, first)
    shutil.copyfile(EXAMPLE, second)
    result = _run_vim(
        tmp_path, [{"path": str(first), "expect": 0}, {"path": str(second), "expect": 0}]
    )
    assert all(f["items"] == [] for f in result["files"])
    assert_one_missing_server_warning(result["messages"], tmp_path)
