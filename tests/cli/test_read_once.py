"""Every file a `check` reads is read once (issue 39): the settings' node-type registry, the
check itself and the site index filled after it share the run's one read of each file
(core/workspace/reading.py `ReadOnce`), and a workflow the walk found by its content is not
read again to be checked. Opens are counted at the bottom, `open` itself, over a copy of the
real site: whichever module reads, it is seen."""

from __future__ import annotations

import builtins
import io
import json
import os
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.core.config.site_files import MAX_SITE_FILE_BYTES
from tests.support.cli import CLEAN, run

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "atelier-cms"


@pytest.fixture
def opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Each file under `tmp_path` opened, and how often (its real path)."""
    counts: Counter[str] = Counter()
    real_open = builtins.open
    root = os.path.realpath(tmp_path)

    def counting_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, os.PathLike)):
            path = os.path.realpath(file)
            if path.startswith(root + os.sep):
                counts[path] += 1
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(io, "open", counting_open)  # (pathlib's)
    yield counts


def _files(folder: Path) -> set[str]:
    return {os.path.realpath(path) for path in folder.rglob("*") if path.is_file()}


def test_a_check_of_the_site_reads_every_file_once(
    tmp_path: Path, opened: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "atelier-cms"
    shutil.copytree(CORPUS, site)
    opened.clear()  # (the copy's own writes)
    code, out, _ = run(capsys, "--no-cache", "--jobs", "1", "--format", "json", str(site))
    assert code == 0 and json.loads(out) != []
    files = _files(site)
    node_types = [f for f in files if "flowdrop_node_type." in f]
    assert len(node_types) > 80 and len(files) > 100  # the whole site, its node types above all
    assert opened == Counter(dict.fromkeys(files, 1))


def test_a_check_of_one_workflow_reads_its_site_once(
    tmp_path: Path, opened: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """One file named: its registry reads the folder's node types, the site the rest."""
    sync = tmp_path / "sync"
    shutil.copytree(CORPUS / "config" / "sync", sync)
    opened.clear()
    one = sync / "flowdrop_workflow.flowdrop_workflow.aincient_audit_agent.yml"
    code, _, _ = run(capsys, "--no-cache", "--jobs", "1", str(one))
    assert code in (0, 1)
    assert opened == Counter(dict.fromkeys(_files(sync), 1))


def test_a_workflow_found_by_its_content_is_read_once(
    tmp_path: Path, opened: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copyfile(CLEAN, tmp_path / "plain-name.json")  # no `*.flowdrop.json` name
    (tmp_path / "package.json").write_text('{"name": "x"}', encoding="utf-8")
    opened.clear()
    code, out, _ = run(capsys, "--no-cache", "--format", "json", str(tmp_path))
    assert code == 0 and out.strip() == "[]"
    assert opened == Counter(dict.fromkeys(_files(tmp_path), 1))


def test_a_file_too_large_is_told_from_its_size_without_loading_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over the limit, the CLI reads the limit and a byte (it read the whole file before), and
    says what it said: STORE-1 with the exact size, on the first character."""
    path = tmp_path / "big.flowdrop.json"
    size = 6 * MAX_SITE_FILE_BYTES + 1
    with open(path, "wb") as handle:
        handle.write(b"{")
        handle.truncate(size)  # the rest a hole: nothing on disk
    taken = [0]
    real_open = builtins.open

    class Counted(io.BufferedReader):
        def read(self, n: int | None = -1) -> bytes:
            data = super().read(n)
            taken[0] += len(data)
            return data

    def counting_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if os.fspath(file) == os.fspath(path) and mode == "rb":
            return Counted(io.FileIO(file, "r"))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    code, out, _ = run(capsys, "--no-cache", "--format", "json", str(path))
    assert code == 1 and taken[0] == MAX_SITE_FILE_BYTES + 1
    [finding] = json.loads(out)
    assert finding["code"] == "STORE-1"
    assert f"({size:,} bytes); FlowDrop refuses a workflow over 8 MiB" in finding["message"]
    assert finding["range"] == {
        "start": {"line": 0, "character": 0},
        "end": {"line": 0, "character": 1},
    }
