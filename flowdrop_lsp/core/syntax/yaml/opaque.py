"""A block collection the dump reader read whole inside an element of `nodes`/`edges`
(core.syntax.yaml.dump_reader `ElementShapes`), re-read with its spans when they are asked for:
apart from the reader, which it calls, so that the reader never depends on it."""

from __future__ import annotations

from flowdrop_lsp.core.syntax.tree import JsonValue, OpaqueValue, move_spans
from flowdrop_lsp.core.syntax.yaml.reader import read_yaml


class YamlOpaque(OpaqueValue):
    """Its plain value, read whole; its inner spans re-read from its text when asked."""

    __slots__ = ()

    def expanded(self, text: str) -> JsonValue | None:
        start = self.start
        # A block collection starts at its first key or `-`, after its indentation; it ends
        # where its content does, before the line break that a `|` scalar at its end keeps.
        column = start - (text.rfind("\n", 0, start) + 1)
        value = read_yaml(text[start : self.end] + text[self.end : self.end + 1], column)[0].root
        move_spans(value, lambda at: at + start, set())
        return value
