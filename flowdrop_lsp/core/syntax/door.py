"""STORE-1's door: the bounds FlowDrop puts on a workflow before reading any meaning out of it,
kept by every whole read (the readers' `read`, core/syntax/reader.py) before any parse.

FlowDrop refuses a body over 8 MiB of octets, or nested 64 levels or deeper (the spec's STORE-1:
63 must be accepted); its Doctor's HTTP front refuses such a body before reading it
(doctor/body.py). A workflow file or buffer past either bound gets one finding (STORE-1,
core/rules/store_door.py) and no parse: a 53 MB export is told so at once instead of after
the whole analysis of something FlowDrop will never store.

The size is the text's UTF-8 bytes, as FlowDrop counts a body, for Drupal config YAML too: the
site index and the node-type reader already refuse to read a site file over the same 8 MiB
(core/config/site_files.py), and a workflow that large could not be saved through FlowDrop's
editor anyway (its save is a JSON body of about the YAML's size). The depth is measured on the
text by a linear scan that builds nothing (core/syntax/json/depth.py, exact for valid JSON;
core/syntax/yaml/depth.py, a count that never exceeds the true depth: a legal file is never
called too deep)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

MiB = 1024 * 1024
# STORE-1: a body over this many octets is refused.
MAX_WORKFLOW_BYTES = 8 * MiB
# STORE-1: a body nested this deep or deeper is refused (`{}` is 1; 63 must be accepted).
REFUSED_DEPTH = 64


@dataclass(frozen=True)
class Refusal:
    """Why the door refused a text: its size in UTF-8 bytes, and (when the size passed) the
    depth measured, `at_least` when the measure is a lower bound (YAML)."""

    size: int
    depth: int = 0
    at_least: bool = False

    @property
    def too_large(self) -> bool:
        return self.size > MAX_WORKFLOW_BYTES


def utf8_size(text: str) -> int:
    """The text's size in UTF-8 bytes (a lone surrogate counted as its three bytes)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def may_be_too_large(code_points: int) -> bool:
    """Whether a text of `code_points` may be over the size bound (4 bytes a code point at
    most): below that, counting its bytes is not needed."""
    return code_points * 4 > MAX_WORKFLOW_BYTES


def refusal(text: str, depth: Callable[[str], int], at_least: bool = False) -> Refusal | None:
    """The door's verdict on a whole text: None when FlowDrop would read it; `depth` measures
    the format's nesting (asked only when the size passed)."""
    size = utf8_size(text)  # (isascii, then one encode: ≈ 40 ms for 53 MB)
    if size > MAX_WORKFLOW_BYTES:
        return Refusal(size)
    nested = depth(text)
    if nested >= REFUSED_DEPTH:
        return Refusal(size, nested, at_least)
    return None
