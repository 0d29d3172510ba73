"""R8's repair reads the node a handle names as core/domain/ports.py reads it. (Its fixes as
operations — an end pointed back at the node its own handle names, or the edge removed, both
unsafe — in the real workshop workflow and a small one: tests/cases/R8.)"""

from __future__ import annotations

from flowdrop_lsp.core.domain.ports import Direction
from flowdrop_lsp.core.rules.dangling_endpoint import handle_node


def test_the_node_a_handle_names_is_read_as_ports_reads_it() -> None:
    nodes = {"chat_output.1", "a-input-b", "x"}
    exists = nodes.__contains__
    assert handle_node("chat_output.1-input-message", Direction.INPUT, exists) == "chat_output.1"
    # A node id holding a marker: the handle still names it.
    assert handle_node("a-input-b-input-port", Direction.INPUT, exists) == "a-input-b"
    # The other side's marker, an empty port, no handle: no node.
    assert handle_node("x-output-port", Direction.INPUT, exists) is None
    assert handle_node("x-input-", Direction.INPUT, exists) is None
    assert handle_node(None, Direction.OUTPUT, exists) is None
    assert handle_node("missing-output-port", Direction.OUTPUT, exists) is None
