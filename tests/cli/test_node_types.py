"""`flowdrop-lsp check` with a site's node-type definitions beside the workflows: the real
corpus, `--verbose`, a site-defined toolbox, invalid definitions and the `node-types` setting."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from flowdrop_lsp.entry import main
from tests.support.builders import CORPUS_JSON, REPO, node, tool_edge, workflow

SYNC = CORPUS_JSON.parent / "config" / "sync"
PREFIX = "flowdrop_node_type.flowdrop_node_type."


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def site(workdir: Path) -> Path:
    """The 15 JSON workflows beside the 90 node-type definitions, in the working directory."""
    folder = workdir / "sync"
    folder.mkdir()
    for path in [*SYNC.glob(PREFIX + "*.yml"), *CORPUS_JSON.glob("*.json")]:
        shutil.copy(path, folder)
    return folder


def test_the_corpus_beside_its_node_types_gives_only_its_known_warnings(
    capsys: pytest.CaptureFixture[str], site: Path
) -> None:
    code, out, err = run(capsys, "--format", "json", "sync")
    assert code == 0, out
    codes = [f["code"] for f in json.loads(out)]
    # 4 dead routes; with the site's node types, the weather workflow's 3 edges on ports its
    # data mappers no longer have; and the 4 calls of the Twig functions its own modules add,
    # which its settings do not declare (its module code is not in the corpus).
    assert sorted(codes) == ["FD-TOOL-ROUTE"] * 4 + ["FD-UNKNOWN-PORT"] * 3 + ["R11"] * 4
    assert "warning" not in err


def test_verbose_names_the_registry(capsys: pytest.CaptureFixture[str], site: Path) -> None:
    code, out, err = run(capsys, "-v", "sync")
    assert code == 0
    # The 15 workflows and the 90 node types beside them, each judged as what it is.
    assert out.endswith(
        "11 warnings in 5 of 105 files\n[~] 4 fixable with --fix --unsafe-fixes\n"
        "[?] 3 have fixes to choose from: in your editor, or list them with --show-fixes\n"
    )
    assert err.count("node types: 90 definitions from sync\n") == 1


def test_verbose_without_definitions(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    code, _, err = run(capsys, "-v", "tests/corpus/atelier-cms/json")
    assert code == 0
    line = "tests/corpus/atelier-cms/json: no node-type definitions found: built-in defaults\n"
    assert err.count(line) == 1


def test_a_site_toolbox_and_an_unknown_type(capsys: pytest.CaptureFixture[str], site: Path) -> None:
    (site / f"{PREFIX}my_site_toolbox.yml").write_text(
        "id: my_site_toolbox\nexecutor_plugin: 'my_module:toolbox'\n"
    )
    (site / "mine.flowdrop.json").write_text(
        workflow(
            [
                node("a", "http_request", "Web Search"),
                node("b", "http_request", "web-search"),
                node("box", "my_site_toolbox", "Box"),
                node("agent", "aincient_reason", "Agent"),
                node("odd", "http_reqest", "Odd"),
            ],
            [tool_edge("a", "agent"), tool_edge("b", "box"), tool_edge("box", "agent")],
        )
    )
    code, out, _ = run(capsys, "--format", "json", "sync/mine.flowdrop.json")
    assert code == 1
    codes = sorted(f["code"] for f in json.loads(out))
    assert codes == ["CMP-9", "CMP-9", "FD-UNKNOWN-NODE-TYPE"]
    unknown = next(f for f in json.loads(out) if f["code"] == "FD-UNKNOWN-NODE-TYPE")
    assert unknown["severity"] == "error" and unknown["node"] == "odd"
    assert (
        "'http_reqest'" in unknown["message"] and "91 definitions from sync" in unknown["message"]
    )


def test_an_invalid_definition_warns_and_the_rest_apply(
    capsys: pytest.CaptureFixture[str], site: Path
) -> None:
    (site / f"{PREFIX}broken.yml").write_text("id: [\n")
    code, out, err = run(capsys, "sync")
    assert err.count("warning: node types:") == 1 and "broken.yml: not valid YAML" in err
    # The definition itself is checked too: its syntax error is a finding (the run fails).
    assert code == 1, out
    assert f"sync/{PREFIX}broken.yml:2:1: error FD-SYNTAX" in out
    assert "1 error, 11 warnings in 6 of 106 files" in out


def test_the_node_types_setting(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "types").mkdir()
    (tmp_path / "types" / f"{PREFIX}agent.yml").write_text(
        "id: agent\nparameters:\n  tool:\n    connectable: true\n"
    )
    (tmp_path / "flows").mkdir()
    (tmp_path / "flows" / "w.flowdrop.json").write_text(
        workflow([node("a", "calculator", "Calc"), node("x", "agent")], [tool_edge("a", "x")])
    )
    (tmp_path / "flowdrop-lsp.toml").write_text('node-types = ["types"]\n')
    code, out, _ = run(capsys, "--format", "json", str(tmp_path / "flows"))
    assert code == 1  # an unknown node type is refused (R9): an error
    found = json.loads(out)
    assert [f["code"] for f in found] == ["FD-UNKNOWN-NODE-TYPE"]  # calculator: not defined


def test_each_definition_of_a_checked_site_is_parsed_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The settings' registry (launch checks, roles) and the site (cross-file rules) read the
    # same records: the real site's 90 definitions are parsed 90 times, not 180.
    site = tmp_path / "sync"
    shutil.copytree(SYNC, site)
    code = main(["check", "--no-cache", "--verbose", str(site)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "node types: 90 definition files parsed (each once" in err
