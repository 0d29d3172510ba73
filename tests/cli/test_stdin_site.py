"""`check -` as editors and linters that pipe a buffer use it (ALE, none-ls, efm): with
`--stdin-filename PATH` the text is judged exactly as the file at PATH would be — its folder's
settings and node types, its site's cross-file checks, its format by its name — for every file
of the real site; without a name, a YAML text is read as YAML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import run, set_stdin
from tests.support.site import copy_site

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "atelier-cms"


def _site_files() -> list[Path]:
    return sorted(
        path
        for folder in (CORPUS / "config" / "sync", CORPUS / "json")
        for path in folder.iterdir()
        if path.name.startswith(("flowdrop_workflow.", "flowdrop_node_type."))
        or path.suffix == ".json"
    )


@pytest.fixture
def site(workdir: Path) -> Path:
    """The working directory holding the real site in `config/sync` and its JSON exports in
    `json`."""
    copy_site(workdir, "config/sync")
    for source in (CORPUS / "json").iterdir():
        (workdir / "json").mkdir(exist_ok=True)
        (workdir / "json" / source.name).write_bytes(source.read_bytes())
    return workdir


def _findings(out: str) -> list[dict[str, object]]:
    return [
        {key: finding[key] for key in ("path", "code", "message", "range", "severity", "fixes")}
        for finding in json.loads(out)
    ]


def test_every_site_file_piped_with_its_name_is_judged_as_the_file(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    compared = with_findings = 0
    for source in _site_files():
        relative = source.relative_to(CORPUS).as_posix()
        as_file = run(capsys, "--no-cache", "--format", "json", relative)
        set_stdin(monkeypatch, (site / relative).read_bytes())
        piped = run(capsys, "--no-cache", "--format", "json", "--stdin-filename", relative, "-")
        assert piped[0] == as_file[0], relative
        assert _findings(piped[1]) == _findings(as_file[1]), relative
        compared += 1
        with_findings += bool(_findings(as_file[1]))
    # The real site's node-type-dependent findings (FD-UNKNOWN-PORT, FD-TOOL-ROUTE) are among them.
    assert compared > 100 and with_findings >= 9


def test_a_piped_change_is_judged_in_the_site(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The piped text stands for the file: a misspelt config key (R6.c needs the node type's
    parameters from the site) is found in it, though the file on disk has none."""
    relative = "config/sync/flowdrop_workflow.flowdrop_workflow.brand_studio.yml"
    text = (site / relative).read_text(encoding="utf-8")
    anchor = "        maxRetries: 0\n"
    assert anchor in text
    planted = text.replace(anchor, anchor + "        maxRetriez: 5\n", 1)
    set_stdin(monkeypatch, planted.encode("utf-8"))
    code, out, _ = run(capsys, "--no-cache", "--stdin-filename", relative, "-")
    assert "R6.c" in out and "maxRetriez" in out, out
    assert (site / relative).read_text(encoding="utf-8") == text  # nothing written


def test_yaml_piped_without_a_name_is_read_as_yaml(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    set_stdin(monkeypatch, b"nodes:\n  - id: a\n    type: x\n   bad: [\nedges: []\n")
    code, out, _ = run(capsys, "--no-cache", "-")
    assert code == 1
    assert "YAML" in out and "double quotes" not in out, out
