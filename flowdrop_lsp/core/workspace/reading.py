"""Reading a file of a site from disk: the one way the house does it, the CLI's files included.

A file is read as bytes, at most MAX_SITE_FILE_BYTES of them (STORE-1's 8 MiB, the bound every
reader keeps: a larger file is never loaded, its size is asked of the file system), and decoded
as UTF-8 whole (`\\r\\n` kept: spans count it, and a fix writes the file back byte for byte).
The answer is one record, `SiteFile`: its bytes and text, or why it has none — too large, not
UTF-8 (with the one FD-SYNTAX finding said of such a file, at its first bad byte), unreadable
(the system's reason). A caller asks the record; nothing is raised, nothing caught twice.

`ReadOnce` is one run's reads (a `check`): each file read from disk once however many parts of
the run ask for it — the settings' node-type registry, the check itself, the site index filled
after it — and kept for the run, which holds those texts anyway. What a run's fixes write is
given to the host as text (an overlay, an update), never read back, so a kept read is never
stale. The server never keeps a read: its files change under it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import MAX_SITE_FILE_BYTES, is_node_type_file
from flowdrop_lsp.core.engine.document import refused_by_size
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.document import undecodable_finding

# Enough of a file too large to read to place its one finding (STORE-1's, on its first
# character) as it would be placed in the whole text.
_SHOWN_OF_TOO_LARGE = 4096
_CHUNK = 1024 * 1024


@dataclass(frozen=True, slots=True)
class SiteFile:
    """One file as read: `text` when it is UTF-8 and within the size limit, else None and why.

    - `data`: its bytes (none when too large or unreadable).
    - `undecodable`: not UTF-8: its one FD-SYNTAX finding (spans into `shown`).
    - `shown`: the text a report places findings in: `text`; not UTF-8, the bytes decoded with
      U+FFFD for the bad ones; too large, its first few kilobytes.
    - `size`: its size in bytes, exact even when too large (the file system's, or counted).
    - `error`: why there is no text, in the system's or the decoder's words."""

    path: Path
    data: bytes = b""
    text: str | None = None
    undecodable: Finding | None = None
    shown: str = ""
    size: int = 0
    too_large: bool = False
    error: str = ""

    @property
    def unreadable(self) -> bool:
        """The system refused it (missing, a folder, no permission): nothing was read."""
        return self.text is None and not self.too_large and self.undecodable is None

    def findings(self, settings: Settings) -> tuple[Finding, ...]:
        """What a check says of it when it has no text, under `settings`: not UTF-8, its one
        finding unless ignored (its severity stays, as the host keeps it); a workflow too
        large, STORE-1's finding told from its size (core/engine/document.py
        `refused_by_size`, as the batch tells a job's: settings applied); a node-type
        definition too large, none (its registry says it skipped it). Unreadable: none, the
        caller reports it."""
        if self.undecodable is not None:
            return (self.undecodable,) if self.undecodable.code not in settings.ignore else ()
        if self.too_large and not is_node_type_file(self.path):
            return refused_by_size(self.size, len(self.shown), settings)
        return ()


ReadSiteFile = Callable[[Path], SiteFile]


def site_file_of(path: Path, data: bytes) -> SiteFile:
    """The record of `data`, the whole content of `path` (read by the caller: standard input,
    the walk's content check): over the limit, too large; else decoded."""
    if len(data) > MAX_SITE_FILE_BYTES:
        return _too_large(path, data, len(data))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        shown = data.decode("utf-8", "replace")
        offset = len(data[: error.start].decode("utf-8", "replace"))
        finding = undecodable_finding(shown, offset, data[error.start])
        return SiteFile(path, data, None, finding, shown, len(data), error=str(error))
    return SiteFile(path, data, text, None, text, len(data))


def read_site_file(path: Path) -> SiteFile:
    """`path` read from disk (see the module docstring): never more than the limit and a byte."""
    try:
        with open(path, "rb") as handle:
            return _read_handle(path, handle)
    except OSError as error:
        return SiteFile(path, error=str(error))


def read_stream(path: Path, stream: TextIO) -> SiteFile:
    """Standard input read to its end as `path` (`-`, or the file it stands for): its bytes,
    so that `\\r\\n` survives as it does for a file; what is over the limit is counted, not
    kept. A stream of text alone (no bytes under it) is encoded back."""
    try:
        binary: BinaryIO | None = getattr(stream, "buffer", None)
        if binary is None:
            return site_file_of(path, stream.read().encode("utf-8", "surrogatepass"))
        return _read_handle(path, binary)
    except OSError as error:
        return SiteFile(path, error=str(error))


def _read_handle(path: Path, handle: BinaryIO) -> SiteFile:
    data = handle.read(MAX_SITE_FILE_BYTES + 1)
    if len(data) <= MAX_SITE_FILE_BYTES:
        return site_file_of(path, data)
    return _too_large(path, data, _size(handle, len(data)))


def _size(handle: BinaryIO, read: int) -> int:
    """The size of what `handle` holds, `read` bytes of it read: a regular file's from the file
    system; a pipe's counted to its end, a chunk at a time (nothing kept)."""
    try:
        status = os.fstat(handle.fileno())
    except (OSError, ValueError, AttributeError):  # (an in-memory stream has no descriptor)
        status = None
    if status is not None and stat.S_ISREG(status.st_mode) and status.st_size >= read:
        return status.st_size
    while chunk := handle.read(_CHUNK):
        read += len(chunk)
    return read


def _too_large(path: Path, data: bytes, size: int) -> SiteFile:
    shown = data[:_SHOWN_OF_TOO_LARGE].decode("utf-8", "replace")
    return SiteFile(
        path,
        shown=shown,
        size=size,
        too_large=True,
        error=f"larger than {MAX_SITE_FILE_BYTES} bytes",
    )


class ReadOnce:
    """One run's reads: each file read once (`read`, the reader every read goes through) and
    kept, known by its real folder and its name however its path is spelled. `reads` counts
    what was read from disk."""

    def __init__(self, read: ReadSiteFile = read_site_file) -> None:
        self._read = read
        self._files: dict[tuple[str, str], SiteFile] = {}
        self._real_folders: dict[str, str] = {}  # a folder as spelled → its real path
        self.reads = 0

    def __call__(self, path: Path, data: bytes | None = None) -> SiteFile:
        """`path`'s one read; `data`: its bytes when the caller read them already (the walk's
        content check), kept as its read."""
        folder, name = os.path.split(os.path.abspath(path))
        real = self._real_folders.get(folder)
        if real is None:
            real = self._real_folders[folder] = os.path.realpath(folder)
        key = (real, name)
        kept = self._files.get(key)
        if kept is None:
            if data is not None:
                kept = site_file_of(path, data)
            else:
                kept = self._read(path)
                self.reads += 1
            self._files[key] = kept
        return kept

    @staticmethod
    def stream(path: Path, stream: TextIO) -> SiteFile:
        """The run's standard input (`read_stream`), as `path`: read once by nature, and not
        kept (with `--stdin-filename` it stands for a file whose own read differs)."""
        return read_stream(path, stream)
