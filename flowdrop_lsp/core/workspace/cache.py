"""The CLI's result cache: one file's single-file analysis, kept between runs.

A folder like Ruff's `.ruff_cache`: a `CACHEDIR.TAG` (backup tools skip it), a `.gitignore`
holding `*`, and one entry per analysed file, named by the sha256 of everything the entry
depends on (`entry_key`): the file's bytes, its resolved settings (which carry the node-type
registry's roles), the registry's fingerprint, the tool's version, the syntax and this cache's
format. An entry holds what `core/workspace/batch.py` computed: the file's findings (spans
resolved, settings applied) and its site facts. The cross-file findings are never stored: they
are recomputed on every run from the (stored) facts of every file of the site, so an entry
never goes stale when another file changes.

It is the tool's own data, so entries are pickles; each is written to a temporary file and
renamed, so a reader never sees half an entry. An entry that cannot be read or unpickled
(truncated, another version's classes, a foreign file) is a miss, never an error; a folder
that cannot be written makes the run uncached, never failed.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import os
import pickle
import tempfile
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from flowdrop_lsp import __version__
from flowdrop_lsp.core.config.project import CACHE_DIR_ENV, CACHE_DIR_NAME  # (re-exported)
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.node_types import NodeTypeRegistry

# Raised whenever what an entry holds changes shape (findings, facts, how they are computed).
CACHE_FORMAT = 4  # 2: fixes' applicability, findings' locator code and locator; 3: operations;
# 4: findings' identity
CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by flowdrop-lsp.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n"
)


def stable_repr(value: Any) -> str:
    """A text for `value` that is the same in every process: sets and mappings sorted (a
    frozenset's own order follows string hashing, which differs from run to run)."""
    if isinstance(value, (frozenset, set)):
        return "{" + ",".join(sorted(stable_repr(item) for item in value)) + "}"
    if isinstance(value, Mapping):
        items = sorted((stable_repr(k), stable_repr(v)) for k, v in value.items())
        return "{" + ",".join(f"{k}:{v}" for k, v in items) + "}"
    if isinstance(value, (tuple, list)):
        return "(" + ",".join(stable_repr(item) for item in value) + ")"
    if is_dataclass(value) and not isinstance(value, type):
        inner = ",".join(f"{f.name}={stable_repr(getattr(value, f.name))}" for f in fields(value))
        return f"{type(value).__name__}({inner})"
    return repr(value)


def settings_fingerprint(settings: Settings) -> str:
    """The resolved settings of one file, as text stable across runs."""
    return hashlib.sha256(stable_repr(settings).encode("utf-8", "surrogatepass")).hexdigest()


def registry_fingerprint(registry: NodeTypeRegistry | None) -> str:
    """What a site's node-type registry says, as text stable across runs: each definition's
    roles (what a single file's analysis can see of a node type) and the problems met."""
    if registry is None:
        return "none"
    definitions = sorted(
        (d.id, str(d.path), d.toolbox, d.accepts_tools, d.tool_exposed)
        for d in registry.definitions
    )
    text = stable_repr((definitions, registry.problems, registry.sources))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@functools.cache
def _rules_digest() -> str:
    """What the findings were made by: the rule catalogue's codes and default severities, and
    each of the package's own files (path, size, modification time). A result cached by other
    rules is never reused — a rule renamed, made an error, or changed in what it reports in a
    working tree whose version did not change (issue 26: a stale cached R8 warning hid its new
    severity, an old STORE-2 message came back). A stat of ~160 files: ~1 ms, once a run."""
    from flowdrop_lsp.core.rules.registry import ALL_RULES  # (heavy: only when a key is made)

    package = Path(__file__).resolve().parents[2]
    files = []
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".tsv", ".json") and "__pycache__" not in path.parts:
            try:
                stat = path.stat()
            except OSError:
                continue
            files.append((str(path.relative_to(package)), stat.st_size, stat.st_mtime_ns))
    rules = [(rule.code, rule.default_severity.value) for rule in ALL_RULES]
    text = stable_repr((rules, files))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def entry_key(kind: str, data: bytes, *parts: str) -> str:
    """The name of an entry: a hash of its kind, the file's bytes and every other input."""
    digest = hashlib.sha256()
    for part in (str(CACHE_FORMAT), __version__, _rules_digest(), kind, *parts):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    digest.update(data)
    return digest.hexdigest()


class _Pickler(pickle.Pickler):
    """Pickles a read-only dict subclass (CMP-9's `ConsumerEntry`, which refuses item
    assignment, the way pickle restores a dict) as a call of its class on a plain dict."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, dict) and type(obj) is not dict:
            return type(obj), (dict(obj),)
        kind: Any = type(obj)
        names = _positional_fields(kind)
        if names:
            # A frozen dataclass (findings, spans, site facts: most of an entry) as a call of
            # its class: unpickled several times faster than through its __setstate__, which
            # looks its fields up again for every object.
            return kind, tuple([getattr(obj, name) for name in names])
        return NotImplemented


@functools.cache
def _positional_fields(cls: type) -> tuple[str, ...]:
    """The fields of a frozen dataclass, in the order its constructor takes them (empty for
    anything else, or a dataclass with a field its constructor does not take)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        return ()
    found = dataclasses.fields(cls)
    if not all(f.init for f in found):
        return ()
    return tuple(f.name for f in found)


def dumps(value: Any) -> bytes:
    """`value` pickled the way entries are (also what a worker process sends back)."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def loads(data: bytes) -> Any:
    return pickle.loads(data)  # unpickling: the tool's own cache, see the module docstring


class ResultCache:
    """The cache folder `root`; created on the first write."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._ready = False
        self._broken = False
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / key[2:]

    def get(self, key: str) -> Any | None:
        """The value stored under `key`, None when there is none or it cannot be read."""
        try:
            with open(self._path(key), "rb") as handle:
                data = handle.read()
        except OSError:
            self.misses += 1
            return None
        try:
            value = loads(data)
        except Exception:  # noqa: BLE001 - unpickling garbage can raise anything: a miss
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, data: bytes) -> None:
        """Store `data` (already pickled by `dumps`) under `key`; quietly nothing when the
        folder cannot be written."""
        if self._broken or not self._prepare():
            return
        target = self._path(key)
        try:
            target.parent.mkdir(exist_ok=True)
            fd, temporary = tempfile.mkstemp(prefix=".tmp", dir=target.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(temporary, target)
            except BaseException:
                if os.path.exists(temporary):
                    os.unlink(temporary)
                raise
        except OSError:
            self._broken = True

    def _prepare(self) -> bool:
        if self._ready:
            return True
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            tag = self.root / "CACHEDIR.TAG"
            if not tag.exists():
                tag.write_text(CACHEDIR_TAG, encoding="utf-8")
            ignore = self.root / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# Automatically created by flowdrop-lsp.\n*\n", encoding="utf-8")
        except OSError:
            self._broken = True
            return False
        self._ready = True
        return True


def editor_cache_folder(project: Path) -> Path:
    """Where the language server keeps the result cache of the sites of `project` (the folder
    of their settings file, else the workspace folder): $FLOWDROP_LSP_CACHE_DIR; else the
    CLI's `.flowdrop_lsp_cache` there when a check made it (editor and CLI then share their
    entries: a CI-like run warms the editor and back); else the user's cache folder
    ($XDG_CACHE_HOME, else ~/.cache)/flowdrop-lsp/projects/<digest of the project's path>,
    so that opening a project in an editor never makes a folder in it."""
    chosen = os.environ.get(CACHE_DIR_ENV)
    if chosen:
        return Path(chosen)
    beside = project / CACHE_DIR_NAME
    if beside.is_dir():
        return beside
    user = os.path.expanduser("~")
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        # (No home at all, as for some services: the system's temporary folder, never a
        # folder named `~` in the working directory.)
        user if user != "~" else tempfile.gettempdir(),
        ".cache",
    )
    digest = hashlib.sha256(str(project).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return Path(home) / "flowdrop-lsp" / "projects" / digest
