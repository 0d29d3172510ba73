"""core/domain/ports.py: handles parsed as EDGE-1 says, the ports a node has, and the exposure
chain of R7.c — measured on the real site's 448 handle ends."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition, read_definition
from flowdrop_lsp.core.domain.ports import (
    Direction,
    ExposureSource,
    PortKind,
    classify_port,
    data_ports,
    edge_ends,
    exposure,
    handle_port,
)
from flowdrop_lsp.core.workspace.node_types import NodeTypeLocator
from tests.support.builders import CORPUS_CONFIG, node, workflow

IN, OUT = Direction.INPUT, Direction.OUTPUT


# ----- EDGE-1: a handle's port ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("handle", "node_id", "direction", "port"),
    [
        ("data_mapper.1-output-url", "data_mapper.1", OUT, "url"),
        ("data_mapper.2-input-gf", "data_mapper.2", IN, "gf"),
        # The port is everything after the first marker: it may hold a marker itself.
        ("a-input-x-output-y", "a", IN, "x-output-y"),
        ("a-output-x-input-y", "a", OUT, "x-input-y"),
        # A node id holding a marker: its own prefix is stripped, not the first marker.
        ("my-input-node-input-message", "my-input-node", IN, "message"),
        # The handle names another node: the port is still what follows the marker.
        ("other-output-json", "a", OUT, "json"),
        # Unparseable: no handle, no marker, an empty port, the other direction's marker first.
        (None, "a", IN, None),
        ("", "a", IN, None),
        ("a-message", "a", IN, None),
        ("a-input-", "a", IN, None),
        ("a-input-x", "a", OUT, None),
        ("a-input-x-output-y", "a", OUT, None),
    ],
)
def test_a_handle_names_the_port_after_its_first_marker(
    handle: str | None, node_id: str, direction: Direction, port: str | None
) -> None:
    assert handle_port(handle, node_id, direction) == port


def test_an_edge_has_a_source_end_on_an_output_and_a_target_end_on_an_input() -> None:
    text = workflow(
        [node("a"), node("b")],
        [
            {
                "source": "a",
                "target": "b",
                "sourceHandle": "a-output-json",
                "targetHandle": "b-input-url",
            }
        ],
    )
    (edge,) = analyze(text).workflow.edges
    source, target = edge_ends(edge)
    assert (source.direction, source.node_id, source.port) == (OUT, "a", "json")
    assert (target.direction, target.node_id, target.port) == (IN, "b", "url")


# ----- what ports a node has ------------------------------------------------------------------

GATEWAY = """\
id: switch_gateway
parameters:
  branches:
    configurable: true
    connectable: false
    default:
      - {name: Default, value: default}
  expression:
    connectable: true
outputs: {  }
"""
MAPPER = """\
id: data_mapper
parameters:
  dynamicInputs: {connectable: false, default: {  }}
  dynamicOutputs: {connectable: false, default: {  }}
  engine: {connectable: false}
outputs: {  }
"""
PLAIN = """\
id: http_request
parameters:
  url: {connectable: true}
  headers: {connectable: false, exposed_by_default: false}
  body: {connectable: true, exposed_by_default: true}
outputs:
  json: {exposed: true}
  status: {exposed: false}
  raw: {exposed: true, exposed_by_default: false}
"""


def definition(text: str) -> NodeTypeDefinition:
    read = read_definition(text, Path("flowdrop_node_type.flowdrop_node_type.x.yml"))
    assert isinstance(read, NodeTypeDefinition), read
    return read


def a_node(type_id: str, config: Any = None) -> Node:
    data = {"config": config} if config is not None else {}
    found = analyze(workflow([node("n", type_id, data=data)], [])).graph.nodes_by_id["n"]
    return found


def test_declared_ports_win_then_reserved_then_branches_then_dynamic() -> None:
    plain, gateway, mapper = definition(PLAIN), definition(GATEWAY), definition(MAPPER)
    assert classify_port(a_node("http_request"), plain, IN, "url") is PortKind.DECLARED
    assert classify_port(a_node("http_request"), plain, OUT, "json") is PortKind.DECLARED
    for port in ("trigger", "loop_back", "tool"):
        assert classify_port(a_node("http_request"), plain, IN, port) is PortKind.RESERVED
    for port in ("trigger", "tool", "error"):
        assert classify_port(a_node("http_request"), plain, OUT, port) is PortKind.RESERVED
    # Reserved on one side only: no `error` input, no `loop_back` output.
    assert classify_port(a_node("http_request"), plain, IN, "error") is PortKind.UNKNOWN
    assert classify_port(a_node("http_request"), plain, OUT, "loop_back") is PortKind.UNKNOWN
    # An exact match: `loopback` is no reserved name (EDGE-4), nor `Trigger`.
    assert classify_port(a_node("http_request"), plain, IN, "loopback") is PortKind.UNKNOWN
    assert classify_port(a_node("http_request"), plain, IN, "Trigger") is PortKind.UNKNOWN
    # A declared parameter wins over a dynamic port of the same name (DYN-5).
    own = a_node("data_mapper", {"dynamicInputs": [{"name": "engine"}, {"name": "q"}]})
    assert classify_port(own, mapper, IN, "engine") is PortKind.DECLARED
    assert classify_port(own, mapper, IN, "q") is PortKind.DYNAMIC
    # The gateway's own branches, else the type's default ones.
    branched = a_node("switch_gateway", {"branches": [{"name": "Pick brand", "value": "x"}]})
    assert classify_port(branched, gateway, OUT, "Pick brand") is PortKind.BRANCH
    assert classify_port(branched, gateway, OUT, "Default") is PortKind.UNKNOWN
    assert classify_port(a_node("switch_gateway"), gateway, OUT, "Default") is PortKind.BRANCH
    # A branch is an output, never an input.
    assert classify_port(branched, gateway, IN, "Pick brand") is PortKind.UNKNOWN


def test_only_a_type_that_opts_in_has_branches_or_dynamic_ports() -> None:
    plain = definition(PLAIN)
    config = {
        "branches": [{"name": "True", "value": True}],
        "dynamicInputs": [{"name": "q"}],
        "dynamicOutputs": [{"name": "out"}],
    }
    anything = a_node("http_request", config)
    assert classify_port(anything, plain, OUT, "True") is PortKind.UNKNOWN
    assert classify_port(anything, plain, IN, "q") is PortKind.UNKNOWN
    assert classify_port(anything, plain, OUT, "out") is PortKind.UNKNOWN


def test_config_ports_declares_no_port_but_is_the_nodes_record() -> None:
    # An id only in config.ports is no declared port (R7.d, R4.d), but no unknown one either:
    # the node's editor listed it (FD-UNKNOWN-PORT stays quiet), on that side only.
    mapper = definition(MAPPER)
    overrides = a_node("data_mapper", {"ports": {"inputs": [{"id": "ghost", "exposed": True}]}})
    assert classify_port(overrides, mapper, IN, "ghost") is PortKind.OVERRIDDEN
    assert classify_port(overrides, mapper, OUT, "ghost") is PortKind.UNKNOWN


def test_malformed_definitions_give_no_ports() -> None:
    mapper, gateway = definition(MAPPER), definition(GATEWAY)
    odd = a_node("data_mapper", {"dynamicInputs": {"name": "q"}, "dynamicOutputs": ["x", {}]})
    assert data_ports(odd, mapper, IN) == () and data_ports(odd, mapper, OUT) == ()
    assert data_ports(a_node("switch_gateway", {"branches": "no"}), gateway, OUT) == ()
    assert data_ports(a_node("data_mapper", "not an object"), mapper, IN) == ()


def test_data_ports_are_the_wireable_declared_then_branches_then_dynamic_ones() -> None:
    plain, gateway = definition(PLAIN), definition(GATEWAY)
    # `headers` is configuration (connectable: false), not a port data flows on.
    assert data_ports(a_node("http_request"), plain, IN) == ("url", "body")
    assert data_ports(a_node("http_request"), plain, OUT) == ("json", "status", "raw")
    assert data_ports(a_node("switch_gateway"), gateway, OUT) == ("Default",)
    assert data_ports(a_node("switch_gateway"), gateway, IN) == ("expression",)


# ----- R7.c: exposure -------------------------------------------------------------------------


def test_exposure_is_the_override_else_the_types_default_else_exposed() -> None:
    plain = definition(PLAIN)
    bare = a_node("http_request")
    assert exposure(bare, plain, IN, "url").source is ExposureSource.UNSAID
    assert exposure(bare, plain, IN, "url").exposed
    assert not exposure(bare, plain, IN, "headers").exposed
    assert exposure(bare, plain, IN, "headers").source is ExposureSource.TYPE
    assert exposure(bare, plain, IN, "body").exposed
    # An output: its exposed_by_default, else its `exposed` flag.
    assert exposure(bare, plain, OUT, "json").exposed
    assert not exposure(bare, plain, OUT, "status").exposed
    assert not exposure(bare, plain, OUT, "raw").exposed
    overridden = a_node(
        "http_request",
        {
            "ports": {
                "inputs": [{"id": "url", "exposed": False}, {"id": "headers", "exposed": True}],
                "outputs": [{"id": "status"}, {"id": "raw", "exposed": "false"}],
            }
        },
    )
    hidden = exposure(overridden, plain, IN, "url")
    assert not hidden.exposed and hidden.source is ExposureSource.OVERRIDE
    assert hidden.override_path == ("data", "config", "ports", "inputs", 0, "exposed")
    assert exposure(overridden, plain, IN, "headers").exposed
    # An entry without `exposed` decides nothing; a value other than false exposes (EXPO-5).
    assert exposure(overridden, plain, OUT, "raw").exposed
    # EXPO-13: an output the type marks `exposed: false` stays hidden whatever the node says.
    assert exposure(overridden, plain, OUT, "status").source is ExposureSource.STRIPPED
    shown = a_node("http_request", {"ports": {"outputs": [{"id": "status", "exposed": True}]}})
    assert not exposure(shown, plain, OUT, "status").exposed
    assert exposure(shown, plain, OUT, "status").source is ExposureSource.STRIPPED
    # The node's own `exposed: true` that EXPO-13 overrules is kept, for a message to say so.
    overruled = exposure(shown, plain, OUT, "status")
    assert overruled.overruled
    assert overruled.override_path == ("data", "config", "ports", "outputs", 0, "exposed")
    assert not exposure(overridden, plain, OUT, "status").overruled
    # `raw` is exposed: true with exposed_by_default: false: the node may show it.
    raw = a_node("http_request", {"ports": {"outputs": [{"id": "raw", "exposed": True}]}})
    assert exposure(raw, plain, OUT, "raw").exposed


def test_reserved_ports_exposure() -> None:
    """SCH-16, SCH-32, SCH-14: trigger shown by default, loop_back and error hidden; the
    type's reserved_port_exposure, then the node's config.ports, decide first."""
    plain = definition(PLAIN)
    bare = a_node("http_request")
    assert exposure(bare, plain, IN, "trigger").exposed
    assert exposure(bare, plain, OUT, "trigger").exposed
    for direction, port in ((IN, "loop_back"), (OUT, "error")):
        seen = exposure(bare, plain, direction, port)
        assert not seen.exposed and seen.source is ExposureSource.RESERVED
    shows = definition(
        PLAIN + "reserved_port_exposure:\n  error: true\n  loop_back: true\n"
        "  trigger_input: false\n"
    )
    assert exposure(bare, shows, OUT, "error").exposed
    assert exposure(bare, shows, IN, "loop_back").exposed
    assert not exposure(bare, shows, IN, "trigger").exposed
    assert exposure(bare, shows, OUT, "trigger").exposed  # trigger_output unsaid
    own = a_node("http_request", {"ports": {"inputs": [{"id": "loop_back", "exposed": True}]}})
    assert exposure(own, plain, IN, "loop_back").exposed


def test_overrides_are_scoped_by_direction() -> None:
    plain = definition(PLAIN)
    crossed = a_node("http_request", {"ports": {"outputs": [{"id": "url", "exposed": False}]}})
    assert exposure(crossed, plain, IN, "url").exposed
    # A PHP empty array is dumped as a mapping: no entries.
    empty = a_node("http_request", {"ports": {"inputs": {}, "outputs": {}}})
    assert exposure(empty, plain, IN, "url").source is ExposureSource.UNSAID


# ----- the real site --------------------------------------------------------------------------


def _corpus_ends() -> list[tuple[str, str | None, PortKind | str, bool | None]]:
    """(workflow, handle, class, exposed) of every handle end of the real site's workflows."""
    found: list[tuple[str, str | None, PortKind | str, bool | None]] = []
    for path in sorted(CORPUS_CONFIG.glob("flowdrop_workflow.flowdrop_workflow.*.yml")):
        registry = NodeTypeLocator().for_workflow(path, Settings())
        settings = Settings().with_registry(registry)
        catalog = settings.node_type_catalog
        assert catalog is not None
        analysis = analyze(path.read_text(encoding="utf-8"), settings, syntax="yaml")
        name = path.name.split(".")[-2]
        for edge in analysis.workflow.edges:
            for end in edge_ends(edge):
                node_ = analysis.graph.nodes_by_id.get(end.node_id or "")
                type_ = catalog.get(node_.type_id) if node_ is not None else None
                if end.port is None or node_ is None or type_ is None:
                    found.append((name, end.handle, "not judged", None))
                    continue
                kind = classify_port(node_, type_, end.direction, end.port)
                shown = (
                    exposure(node_, type_, end.direction, end.port).exposed
                    if kind is PortKind.DECLARED
                    else None
                )
                found.append((name, end.handle, kind, shown))
    return found


def test_the_real_sites_448_handle_ends_by_class() -> None:
    ends = _corpus_ends()
    assert len(ends) == 448
    assert Counter(kind for _, _, kind, _ in ends) == {
        PortKind.DECLARED: 319,
        PortKind.RESERVED: 58,
        PortKind.BRANCH: 46,
        PortKind.DYNAMIC: 22,
        PortKind.UNKNOWN: 3,
    }
    assert {(name, handle) for name, handle, kind, _ in ends if kind is PortKind.UNKNOWN} == {
        ("aincient_weather", "data_mapper.1-output-url"),
        ("aincient_weather", "data_mapper.2-input-gf"),
        ("aincient_weather", "data_mapper.2-input-gn"),
    }
    # Every declared port an edge ends on is exposed on its node.
    assert all(shown for _, _, kind, shown in ends if kind is PortKind.DECLARED)
