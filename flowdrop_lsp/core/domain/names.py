"""How FlowDrop derives a tool's name from a node (docs/domain.md §1), byte for byte.

The reference runtime runs PHP `strtolower` (ASCII only) and a byte-wise regex over the UTF-8
bytes, so every non-ASCII character becomes part of a separator run: `Café` → `caf`.
"""

from __future__ import annotations

import re

UNNAMED_TOOL = "unnamed_tool"
_SEPARATOR_RUN = re.compile(rb"[^a-z0-9]+")
# What LLM function-calling APIs accept (the strictest common form: a leading letter or `_`).
_LLM_FUNCTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")
_ASCII_UPPER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")


def sanitize_tool_name(source: str) -> str:
    """The runtime's tool name for a label (or type id): `Web Search` → `web_search`."""
    raw = source.encode("utf-8", "surrogatepass").translate(_ASCII_UPPER)
    name = _SEPARATOR_RUN.sub(b"_", raw).strip(b"_")
    return name.decode("ascii") if name else UNNAMED_TOOL


def llm_name_problem(name: str) -> str | None:
    """Why LLM function-calling APIs would reject `name`, or None when they accept it."""
    if len(name) > 64:
        return f"is {len(name)} characters long; function-calling APIs accept at most 64"
    if not _LLM_FUNCTION_NAME.fullmatch(name):
        return "does not start with a letter or '_', which some function-calling APIs require"
    return None
