"""`check -` as editors and linters that pipe a buffer use it (ALE, none-ls, efm): with
`--stdin-filename PATH` the text is judged exactly as the file at PATH would be — its folder's
settings and node types, its site's cross-file checks, its format by its name — for every file
of the real site; without a name, a YAML text is read as YAML."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from flowdrop_lsp.core.config.project import CACHE_DIR_ENV
from flowdrop_lsp.entry import main
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


def _copy_site(workdir: Path) -> Path:
    """The real site in `config/sync` of `workdir` and its JSON exports in `json`."""
    copy_site(workdir, "config/sync")
    for source in (CORPUS / "json").iterdir():
        (workdir / "json").mkdir(exist_ok=True)
        (workdir / "json" / source.name).write_bytes(source.read_bytes())
    return workdir


@pytest.fixture
def site(workdir: Path) -> Path:
    """The working directory holding the real site in `config/sync` and its JSON exports in
    `json`."""
    return _copy_site(workdir)


def _findings(out: str) -> list[dict[str, object]]:
    return [
        {key: finding[key] for key in ("path", "code", "message", "range", "severity", "fixes")}
        for finding in json.loads(out)
    ]


SITE_FILES = [source.relative_to(CORPUS).as_posix() for source in _site_files()]


@dataclass(frozen=True)
class CheckedSite:
    """The copied site, and what one `check` of all of it (both folders) says of each file."""

    root: Path
    findings: dict[str, list[dict[str, object]]]


@pytest.fixture(scope="module")
def checked_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CheckedSite]:
    """The site judged once, as a whole: `check config/sync json`. A file is judged in its site
    whether it is checked alone or with all of it (tests/cli/test_site_check.py), so each file's
    share of this run is what `check FILE` says of it, which the piped text must be judged to
    be: one run per file (the piped one) instead of two."""
    root = _copy_site(tmp_path_factory.mktemp("stdin-site"))
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        patch.delenv(CACHE_DIR_ENV, raising=False)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["check", "--no-cache", "--format", "json", "config/sync", "json"])
    assert code in (0, 1), out.getvalue()
    by_file: dict[str, list[dict[str, object]]] = {name: [] for name in SITE_FILES}
    for finding in _findings(out.getvalue()):
        by_file[str(finding["path"])].append(finding)
    yield CheckedSite(root, by_file)


def test_the_whole_site_check_covers_every_file_and_the_node_type_dependent_findings(
    checked_site: CheckedSite,
) -> None:
    assert len(SITE_FILES) > 100
    # The real site's node-type-dependent findings (FD-UNKNOWN-PORT, FD-TOOL-ROUTE) are among
    # the files' findings that the piped runs below must find.
    assert sum(bool(found) for found in checked_site.findings.values()) >= 9
    codes = {finding["code"] for found in checked_site.findings.values() for finding in found}
    assert {"FD-UNKNOWN-PORT", "FD-TOOL-ROUTE"} <= codes, codes


@pytest.mark.parametrize("relative", SITE_FILES)
def test_every_site_file_piped_with_its_name_is_judged_as_the_file(
    relative: str,
    checked_site: CheckedSite,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(checked_site.root)
    monkeypatch.delenv(CACHE_DIR_ENV, raising=False)
    expected = checked_site.findings[relative]
    set_stdin(monkeypatch, (checked_site.root / relative).read_bytes())
    code, out, _ = run(capsys, "--no-cache", "--format", "json", "--stdin-filename", relative, "-")
    assert _findings(out) == expected, relative
    # The exit code `check FILE` gives: 1 when the file has an error-severity finding.
    assert code == (1 if any(finding["severity"] == "error" for finding in expected) else 0)


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
