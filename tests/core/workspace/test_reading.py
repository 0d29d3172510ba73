"""The one reader of a file (core/workspace/reading.py): the size limit kept before anything is
loaded, the UTF-8 decode with its one finding, what is unreadable; a run's reads kept once
however a path is spelled."""

from __future__ import annotations

import builtins
import io
import os
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import MAX_SITE_FILE_BYTES
from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.core.rules.document import undecodable_finding
from flowdrop_lsp.core.workspace import reading
from flowdrop_lsp.core.workspace.reading import (
    ReadOnce,
    read_site_file,
    read_stream,
    site_file_of,
)

NODE_TYPE = "flowdrop_node_type.flowdrop_node_type.big.yml"


class _Counted:
    """A binary file whose reads are summed in `total`."""

    def __init__(self, handle: Any, total: list[int]) -> None:
        self._handle = handle
        self._total = total

    def read(self, size: int = -1) -> bytes:
        data: bytes = self._handle.read(size)
        self._total[0] += len(data)
        return data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)

    def __enter__(self) -> _Counted:
        return self

    def __exit__(self, *_: object) -> None:
        self._handle.close()


@pytest.fixture
def bytes_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many bytes the reader took from the files it opened."""
    total = [0]

    def counted_open(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> _Counted:
        return _Counted(builtins.open(path, mode, *args, **kwargs), total)

    monkeypatch.setattr(reading, "open", counted_open, raising=False)
    return total


def _sparse(path: Path, size: int) -> Path:
    """A file of `size` bytes that costs no disk (a hole): what a file too large is like."""
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


def test_a_text_is_read_with_its_bytes_and_its_line_ends(tmp_path: Path) -> None:
    path = tmp_path / "a.yml"
    path.write_bytes("id: café\r\nlabel: x\n".encode())
    file = read_site_file(path)
    assert file.text == "id: café\r\nlabel: x\n" and file.shown is file.text
    assert file.data == path.read_bytes() and file.size == len(file.data)
    assert (file.undecodable, file.too_large, file.error, file.unreadable) == (
        None,
        False,
        "",
        False,
    )


def test_a_file_not_utf8_has_its_one_finding_at_the_first_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yml"
    path.write_bytes("label: 'Été'\nid: x\n".encode("latin-1"))
    file = read_site_file(path)
    assert file.text is None and not file.unreadable and not file.too_large
    assert file.shown == "label: '\ufffdt\ufffd'\nid: x\n"
    assert file.undecodable == undecodable_finding(file.shown, 8, 0xC9)
    assert file.undecodable.message.startswith("not UTF-8: byte 0xC9 cannot be decoded")
    assert "can't decode byte 0xc9 in position 8" in file.error
    assert file.findings(Settings()) == (file.undecodable,)
    assert file.findings(Settings(ignore=frozenset({"FD-SYNTAX"}))) == ()


def test_a_file_too_large_is_never_loaded_and_its_size_is_exact(
    tmp_path: Path, bytes_read: list[int]
) -> None:
    size = MAX_SITE_FILE_BYTES * 4 + 3
    file = read_site_file(_sparse(tmp_path / "big.flowdrop.json", size))
    assert file.too_large and file.size == size and file.text is None and file.data == b""
    assert bytes_read[0] == MAX_SITE_FILE_BYTES + 1  # the limit and a byte, no more
    [finding] = file.findings(Settings())
    assert finding.code == "STORE-1" and finding.severity == Severity.ERROR
    assert f"({size:,} bytes); FlowDrop refuses a workflow over 8 MiB" in finding.message
    assert (finding.span.start, finding.span.end) == (0, 1)
    # Settings apply as to any analysis of a workflow: its severity too.
    quieter = Settings(severity={"STORE-1": Severity.WARNING})
    assert [f.severity for f in file.findings(quieter)] == [Severity.WARNING]
    # A node-type definition too large is skipped by its registry, not judged.
    definition = read_site_file(_sparse(tmp_path / NODE_TYPE, MAX_SITE_FILE_BYTES + 1))
    assert definition.too_large and definition.findings(Settings()) == ()


def test_a_file_at_the_limit_is_read(tmp_path: Path) -> None:
    file = read_site_file(_sparse(tmp_path / "edge.flowdrop.json", MAX_SITE_FILE_BYTES))
    assert not file.too_large and file.text is not None and len(file.text) == MAX_SITE_FILE_BYTES


def test_what_cannot_be_read_says_why(tmp_path: Path) -> None:
    missing = read_site_file(tmp_path / "gone.yml")
    assert missing.unreadable and missing.text is None and "No such file" in missing.error
    assert missing.findings(Settings()) == ()
    folder = read_site_file(tmp_path)
    assert folder.unreadable and folder.error


def test_standard_input_over_the_limit_is_counted_not_kept() -> None:
    size = MAX_SITE_FILE_BYTES + 5 * 1024 * 1024 + 7
    stream = io.TextIOWrapper(io.BytesIO(b"{" + b" " * (size - 1)), encoding="utf-8")
    file = read_stream(Path("-"), stream)
    assert file.too_large and file.size == size and file.shown.startswith("{")
    small = io.TextIOWrapper(io.BytesIO(b'{"nodes": []}\r\n'), encoding="utf-8")
    assert read_stream(Path("-"), small).text == '{"nodes": []}\r\n'
    # A stream of text alone (no bytes under it): its text, encoded back.
    assert read_stream(Path("-"), io.StringIO("id: x\n")).data == b"id: x\n"


def test_a_runs_reads_keep_each_file_once_however_it_is_spelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "sync"
    folder.mkdir()
    (folder / "a.yml").write_text("id: a\n")
    (tmp_path / "linked").symlink_to(folder)
    monkeypatch.chdir(tmp_path)
    reads = ReadOnce()
    first = reads(Path("sync/a.yml"))
    assert reads(folder / "a.yml") is first
    assert reads(tmp_path / "linked" / "a.yml") is first
    assert reads(Path("sync/../sync/a.yml")) is first
    assert reads.reads == 1 and first.text == "id: a\n"
    # Bytes the caller read already (the walk's content check) are the file's read.
    given = reads(folder / "b.json", b'{"nodes": []}')
    assert reads(Path("sync/b.json")) is given and given.text == '{"nodes": []}'
    assert reads.reads == 1


def test_site_file_of_keeps_the_limit_on_bytes_given() -> None:
    assert site_file_of(Path("x.json"), b"x" * (MAX_SITE_FILE_BYTES + 1)).too_large
    assert site_file_of(Path("x.json"), b"").text == ""
    assert os.fspath(site_file_of(Path("x.json"), b"{}").path) == "x.json"
