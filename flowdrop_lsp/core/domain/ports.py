"""The ports an edge names, and what a node has: the reading the launch checks on edges share.

An edge names its ports in its handles, `{nodeId}-output-{port}` and `{nodeId}-input-{port}`
(spec EDGE-1). Which ports a node has is not only what its node type declares (`parameters` are
its inputs, `outputs` its outputs): the runtime also wires

- the reserved ports: inputs `trigger` (EDGE-3), `loop_back` (EDGE-4) and `tool`; outputs
  `trigger`, `tool` and `error` (EDGE-6) — on every node, whatever the type says of tools (the
  real site wires `tool` on types with `tool_exposed: false`);
- a gateway's branches, one output per `config.branches[].name`, on a type that declares a
  `branches` parameter (the type's default branches when the node has none of its own);
- the dynamic ports a node declares itself, `config.dynamicInputs[].name` and
  `config.dynamicOutputs[].name`, on a type that opts in by declaring those parameters (DYN-1;
  the type's default when the node has none, DYN-7).

`config.ports` holds exposure overrides (R7.c, EXPO-2), which `exposure` reads; its ids, like
the ports a node's stored metadata lists, are the node's own records of its ports (see
`classify_port`): ports it has, though our copy of its type may not declare them.

Whether a port exists, how, and what may use it is decided once, by `port_verdict`: every rule
judging a port (FD-UNKNOWN-PORT and R7 on an edge's ends, FD-CONTRACT's R4.d and R10 on a
workflow's exposure entries) asks it, so no two of them disagree about a port (a property test,
tests/core/domain/test_ports_agreement.py, holds them to it). Everything here is plain reading of plain values: what a node's
`config` says of its ports (`OwnPorts`, read by `own_ports` from the plain value) and its type's
definition. It is the only module that knows handles, a node's ports and their exposure: the
launch checks on one document ask it with the engine's `Node`, the cross-file rules with the
`OwnPorts` the site facts keep (core/domain/site_facts.py), and both get the same answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.domain.node_types import NodeTypeCatalog, NodeTypeDefinition


class Direction(str, Enum):
    """Which side of a node a port is on; its value is the handle's marker word."""

    INPUT = "input"
    OUTPUT = "output"

    @property
    def marker(self) -> str:
        return f"-{self.value}-"

    @property
    def plural(self) -> str:
        return f"{self.value}s"


class PortKind(str, Enum):
    """Why a node has a port (or that it has none of that name)."""

    DECLARED = "declared"  # in the node type's `parameters` (inputs) or `outputs`
    RESERVED = "reserved"  # trigger, loop_back, tool, error
    BRANCH = "branch"  # a gateway's branch output
    DYNAMIC = "dynamic"  # one of the node's own dynamic ports
    # Named by the node's own records alone, not by its type: its stored metadata
    # (`data.metadata.inputs`/`outputs`) or an id of its `config.ports`. See `classify_port`.
    STORED = "stored"
    OVERRIDDEN = "overridden"
    # A port of a node whose type is in the pre-1.0 format: its processor declares its ports
    # in code, which no file says; nothing judges it (`NodeTypeDefinition.legacy_format`).
    IN_CODE = "in code"
    UNKNOWN = "unknown"  # none of these: the handle names a port the node does not have


RESERVED_PORTS = {
    Direction.INPUT: ("trigger", "loop_back", "tool"),
    Direction.OUTPUT: ("trigger", "tool", "error"),
}
BRANCHES_PARAMETER = "branches"
DYNAMIC_PARAMETERS = {Direction.INPUT: "dynamicInputs", Direction.OUTPUT: "dynamicOutputs"}
OVERRIDES_KEY = "ports"  # data.config.ports: {inputs: [{id, exposed}], outputs: [...]}


# Each direction's marker word (`Direction.marker`), looked up without the enum's machinery:
# `handle_port` runs for every edge end of a large document.
_MARKERS = {Direction.INPUT: "-input-", Direction.OUTPUT: "-output-"}


def handle_port(handle: str | None, node_id: str | None, direction: Direction) -> str | None:
    """The port a handle names (EDGE-1), or None when it names none.

    The port is everything after the first `-input-` or `-output-` marker, so a port name may
    itself hold a marker; when the handle starts with the node's own `{node}-{direction}-`,
    that prefix is stripped instead (a node id may hold a marker too). A handle whose first
    marker is of the other direction (a source handle naming an input) or that names an
    empty port cannot be parsed."""
    if not handle:
        return None
    marker = _MARKERS[direction]
    if node_id and handle.startswith(node_id + marker):
        return handle[len(node_id) + len(marker) :] or None
    # Where each direction's marker first occurs; the earlier of the two decides.
    at_input, at_output = handle.find("-input-"), handle.find("-output-")
    if at_input < 0 and at_output < 0:
        return None
    first = Direction.INPUT if at_output < 0 or 0 <= at_input < at_output else Direction.OUTPUT
    if first is not direction:
        return None
    at = at_input if first is Direction.INPUT else at_output
    return handle[at + len(marker) :] or None


def may_name(handle: str | None, ports: tuple[str, ...]) -> bool:
    """Whether `handle` may name one of `ports` (`handle_port` answers the end of the handle,
    or None): what rules nearly every edge out at once, for a rule about a few ports."""
    return handle is not None and handle.endswith(ports)


@dataclass(frozen=True)
class EdgeEnd:
    """One end of an edge: its node's id, the side of that node it is on, its handle and the
    port the handle names (None: no handle, or one EDGE-1 cannot parse)."""

    edge: Edge
    direction: Direction
    node_id: str | None
    handle: str | None
    port: str | None


def edge_ends(edge: Edge) -> tuple[EdgeEnd, EdgeEnd]:
    """An edge's source end (an output of its source) and target end (an input of its target)."""
    return (
        EdgeEnd(
            edge,
            Direction.OUTPUT,
            edge.source,
            edge.source_handle,
            handle_port(edge.source_handle, edge.source, Direction.OUTPUT),
        ),
        EdgeEnd(
            edge,
            Direction.INPUT,
            edge.target,
            edge.target_handle,
            handle_port(edge.target_handle, edge.target, Direction.INPUT),
        ),
    )


# ----- what ports a node has ----------------------------------------------------------------


def resolved_ends(
    edge: Edge, node_of: Callable[[str], Node | None], catalog: NodeTypeCatalog
) -> Iterator[tuple[EdgeEnd, Node, NodeTypeDefinition]]:
    """Each end of `edge` that a port check can judge (R7.e/f: each on its own): its handle
    names a port, its node exists and the site defines the node's type."""
    for end in edge_ends(edge):
        if end.port is None or end.node_id is None:
            continue
        node = node_of(end.node_id)
        definition = catalog.get(node.type_id) if node is not None else None
        if node is not None and definition is not None:
            yield end, node, definition


def _names(items: Any) -> tuple[str, ...]:
    """The string `name`s of a list of definitions (a gateway's branches, dynamic ports)."""
    if not isinstance(items, list):
        return ()
    found = (item.get("name") for item in items if isinstance(item, dict))
    return tuple(dict.fromkeys(name for name in found if isinstance(name, str) and name))


@dataclass(frozen=True, slots=True)
class OwnPorts:
    """What a node's own `config` says about its ports: the names of its branches and of its
    dynamic ports (None: the node does not set that parameter, its type's default applies), and
    its exposure overrides — for each (direction, port) the first `config.ports` entry carrying
    an `exposed` key: its index and whether it shows the port (anything but an exact false)."""

    branches: tuple[str, ...] | None = None
    dynamic_inputs: tuple[str, ...] | None = None
    dynamic_outputs: tuple[str, ...] | None = None
    overrides: tuple[tuple[str, str, int, bool], ...] = ()
    # (side, port) of every `config.ports` entry with a string id, `exposed` said or not.
    listed: tuple[tuple[str, str], ...] = ()
    # (side, port) of the node's stored metadata (`data.metadata.inputs`/`outputs`).
    stored: tuple[tuple[str, str], ...] = ()

    def override(self, direction: Direction, port: str) -> tuple[int, bool] | None:
        for side, name, index, shown in self.overrides:
            if side == direction.value and name == port:
                return index, shown
        return None


NO_OWN_PORTS = OwnPorts()


def own_ports(config: Any, stored: tuple[tuple[str, str], ...] = ()) -> OwnPorts:
    """What a plain `data.config` value says about the node's ports (see `OwnPorts`), with the
    ports its stored metadata lists (`Node.stored_ports`)."""
    if not isinstance(config, dict):
        return OwnPorts(stored=stored) if stored else NO_OWN_PORTS
    inputs = DYNAMIC_PARAMETERS[Direction.INPUT]
    outputs = DYNAMIC_PARAMETERS[Direction.OUTPUT]
    overrides: dict[tuple[str, str], tuple[int, bool]] = {}
    listed: dict[tuple[str, str], None] = {}
    entries_by_side = config.get(OVERRIDES_KEY)
    for direction in Direction:
        entries = (
            entries_by_side.get(direction.plural) if isinstance(entries_by_side, dict) else None
        )
        # An empty PHP array is dumped as `{  }`: a mapping here means no entries.
        for index, entry in enumerate(entries if isinstance(entries, list) else ()):
            port = entry.get("id") if isinstance(entry, dict) else None
            if isinstance(port, str) and port:
                listed[(direction.value, port)] = None
            if isinstance(port, str) and "exposed" in entry:
                # The first entry for a port decides (EXPO-3: scoped by direction).
                overrides.setdefault(
                    (direction.value, port), (index, entry["exposed"] is not False)
                )
    keys = (BRANCHES_PARAMETER, inputs, outputs)
    if not listed and not stored and not any(key in config for key in keys):
        return NO_OWN_PORTS
    return OwnPorts(
        _names(config.get(BRANCHES_PARAMETER)) if BRANCHES_PARAMETER in config else None,
        _names(config.get(inputs)) if inputs in config else None,
        _names(config.get(outputs)) if outputs in config else None,
        tuple((side, port, index, shown) for (side, port), (index, shown) in overrides.items()),
        tuple(listed),
        stored,
    )


Holder = Node | OwnPorts  # a node of a document, or what the site facts keep of one


def _own(node: Holder) -> OwnPorts:
    if isinstance(node, OwnPorts):
        return node
    memo = node.ports_memo
    if not memo:
        memo.append(own_ports(node.config, node.stored_ports))
    return memo[0]


def _own_or_default(
    own: tuple[str, ...] | None, definition: NodeTypeDefinition, parameter: str
) -> tuple[str, ...]:
    """The node's own names for a parameter its type declares, else the type's default (a node
    that never set it has the default: DYN-7 for dynamic ports, the editor for branches)."""
    if own is not None:
        return own
    spec = definition.parameter(parameter)
    return _names(spec.default) if spec is not None and spec.has_default else ()


def declared_ports(definition: NodeTypeDefinition, direction: Direction) -> tuple[str, ...]:
    """The ports the node type declares on one side: its parameters (inputs) or outputs."""
    specs = definition.parameters if direction is Direction.INPUT else definition.outputs
    return tuple(spec.name for spec in specs)


def wireable_declared_ports(
    definition: NodeTypeDefinition, direction: Direction
) -> tuple[str, ...]:
    """The declared ports data flows on: every output, and the parameters marked
    `connectable: true` (a gate flag unsaid is closed, CFG-1); the others are configuration."""
    if direction is Direction.OUTPUT:
        return tuple(spec.name for spec in definition.outputs)
    return tuple(spec.name for spec in definition.parameters if spec.connectable is True)


def branch_ports(node: Holder, definition: NodeTypeDefinition) -> tuple[str, ...]:
    """A gateway's branch outputs: on a type that declares a `branches` parameter only."""
    if definition.parameter(BRANCHES_PARAMETER) is None:
        return ()
    return _own_or_default(_own(node).branches, definition, BRANCHES_PARAMETER)


def is_branch(node: Holder, definition: NodeTypeDefinition, port: str) -> bool:
    """Whether `port` is one of the gateway's branches, matched without regard to case (BR-2:
    the runtime gates an edge on a branch port so matched)."""
    wanted = port.casefold()
    return any(branch.casefold() == wanted for branch in branch_ports(node, definition))


def dynamic_ports(
    node: Holder, definition: NodeTypeDefinition, direction: Direction
) -> tuple[str, ...]:
    """The node's own dynamic ports on one side, on a type that opts in to them (DYN-1)."""
    parameter = DYNAMIC_PARAMETERS[direction]
    if definition.parameter(parameter) is None:
        return ()
    own = _own(node)
    names = own.dynamic_inputs if direction is Direction.INPUT else own.dynamic_outputs
    return _own_or_default(names, definition, parameter)


def classify_port(
    node: Holder, definition: NodeTypeDefinition, direction: Direction, port: str
) -> PortKind:
    """Why `node` has `port` on that side, or UNKNOWN. A declared port wins over a dynamic
    one of the same name (DYN-5). Names are compared exactly, case included (EDGE-1), but for a
    gateway's branches, which match without regard to case (BR-2)."""
    if port in declared_ports(definition, direction):
        return PortKind.DECLARED
    if port in RESERVED_PORTS[direction]:
        return PortKind.RESERVED
    if direction is Direction.OUTPUT and is_branch(node, definition, port):
        return PortKind.BRANCH
    if port in dynamic_ports(node, definition, direction):
        return PortKind.DYNAMIC
    # The node's own records of its ports: what the editor wrote from the node type it was
    # served (the stored metadata, `data.metadata.inputs`/`outputs`, is that type's metadata as
    # the editor received it) and the ports it listed for their exposure (config.ports). On a
    # 1.0-alpha site a type's `outputs:` is not its whole port list — its processor declares
    # ports in code (a `text_output` with `outputs: {  }` and a config.ports entry) — so a port
    # the node records is a port it has, which our copy of its type may not show: every rule
    # takes it as existing (`port_verdict`), none reports it as missing.
    if definition.legacy_format:
        # (Before the node's own records: a pre-1.0 type's ports are its processor's, which
        # those records only echo; nothing may judge them, R4.d included.)
        return PortKind.IN_CODE
    own = _own(node)
    if (direction.value, port) in own.stored:
        return PortKind.STORED
    if (direction.value, port) in own.listed:
        return PortKind.OVERRIDDEN
    return PortKind.UNKNOWN


def ports_of(node: Holder, definition: NodeTypeDefinition, direction: Direction) -> set[str]:
    """Every port `node` has on one side: declared, reserved, branches (outputs), dynamic."""
    found = set(declared_ports(definition, direction)) | set(RESERVED_PORTS[direction])
    if direction is Direction.OUTPUT:
        found |= set(branch_ports(node, definition))
    return found | set(dynamic_ports(node, definition, direction))


def data_ports(
    node: Holder, definition: NodeTypeDefinition, direction: Direction
) -> tuple[str, ...]:
    """The ports data flows on, on one side, in the order a reader meets them: the wireable
    declared ones, then the branches, then the dynamic ones (the reserved ones left out)."""
    branches = branch_ports(node, definition) if direction is Direction.OUTPUT else ()
    return tuple(
        dict.fromkeys(
            (
                *wireable_declared_ports(definition, direction),
                *branches,
                *dynamic_ports(node, definition, direction),
            )
        )
    )


# ----- exposure (R7.c, EXPO-2, EXPO-3, CFG-2) -------------------------------------------------


class ExposureSource(str, Enum):
    """What decided a port's exposure on a node."""

    OVERRIDE = "the node's config.ports"  # the instance's own `exposed` (EXPO-2)
    STRIPPED = "its node type's exposed: false"  # an output the type hides outright (EXPO-13)
    TYPE = "its node type"  # the type's stated default
    RESERVED = "the reserved ports' default"  # SCH-16's default for a reserved port
    UNSAID = "the exposed default"  # nothing said: exposed (CFG-2)


# The reserved ports whose exposure is judged, with the key the type's `reserved_port_exposure`
# states it under and SCH-16's default (SCH-14: `error` ships hidden; SCH-32: `loop_back` too;
# SCH-11/12: `trigger` exposed). Not judged: the `tool` ports. SCH-13/16 would hide the tool
# output by default, but the real site (accepted by a real Drupal) wires `tool` outputs with no
# override on types with `tool_exposed` true and false alike, and the spec declares no tool
# input at all; the tool ports are FD-TOOL-ROUTE's. The unified `input`/`output` ports are no
# ports we know of (the site's types say `unified_input_exposed`, and no edge names them).
RESERVED_EXPOSURE = {
    (Direction.INPUT, "trigger"): ("trigger_input", True),
    (Direction.OUTPUT, "trigger"): ("trigger_output", True),
    (Direction.INPUT, "loop_back"): ("loop_back", False),
    (Direction.OUTPUT, "error"): ("error", False),
}


@dataclass(frozen=True)
class Exposure:
    """A port's effective exposure on a node, what decided it and, for an override, where it
    is: `override_path`, the path of its `exposed` value below the node element."""

    exposed: bool
    source: ExposureSource
    override_path: tuple[str | int, ...] | None = None
    # For a port its type hides outright (STRIPPED): whether the node's own config.ports shows
    # it, a wish EXPO-13 overrules (`override_path` then points at that `exposed`).
    overruled: bool = False


def _type_default(definition: NodeTypeDefinition, direction: Direction, port: str) -> bool | None:
    """What the node type says of a declared port's default exposure, None when it says
    nothing. An output's `exposed_by_default` wins over its older `exposed` flag."""
    if direction is Direction.INPUT:
        parameter = definition.parameter(port)
        return parameter.exposed_by_default if parameter is not None else None
    output = definition.output(port)
    if output is None:
        return None
    return output.exposed_by_default if output.exposed_by_default is not None else output.exposed


def _reserved_default(
    definition: NodeTypeDefinition, direction: Direction, port: str
) -> Exposure | None:
    """A judged reserved port's default (SCH-16): what the type's `reserved_port_exposure`
    says under the port's key, else the spec's default. None for a port not judged."""
    judged = RESERVED_EXPOSURE.get((direction, port))
    if judged is None:
        return None
    key, default = judged
    stated = dict(definition.reserved_port_exposure).get(key)
    if stated is not None:
        return Exposure(stated, ExposureSource.TYPE)
    return Exposure(default, ExposureSource.RESERVED)


def exposure(
    node: Holder, definition: NodeTypeDefinition, direction: Direction, port: str
) -> Exposure:
    """A port's effective exposure on `node` (R7.c, EXPO-2, EXPO-13): an output its type marks
    `exposed: false` is hidden whatever the node says; else the instance's override where it
    sets one, else the type's default (for a judged reserved port, its
    `reserved_port_exposure`, else SCH-16's), else exposed (CFG-2). Only an exact `false`
    hides: any other override value leaves the port exposed (the fail-open polarity of CFG-2
    and EXPO-5)."""
    declared = port in declared_ports(definition, direction)
    override = _own(node).override(direction, port)
    path = (
        ("data", "config", OVERRIDES_KEY, direction.plural, override[0], "exposed")
        if override is not None
        else None
    )
    if declared and direction is Direction.OUTPUT:
        output = definition.output(port)
        if output is not None and output.exposed is False:
            shown = override is not None and override[1]
            return Exposure(False, ExposureSource.STRIPPED, path if shown else None, shown)
    if override is not None:
        return Exposure(override[1], ExposureSource.OVERRIDE, path)
    if not declared:
        reserved = _reserved_default(definition, direction, port)
        if reserved is not None:
            return reserved
    stated = _type_default(definition, direction, port)
    if stated is not None:
        return Exposure(stated, ExposureSource.TYPE)
    return Exposure(True, ExposureSource.UNSAID)


@dataclass(frozen=True)
class PortVerdict:
    """One verdict on a port named on one side of a node: whether the node has it and why
    (`kind`), and what may use it. Every rule judging a port asks `port_verdict` for it."""

    kind: PortKind
    # Whether R7 (an edge's end) and R10 (an exposure entry) judge its exposure.
    exposure_judged: bool

    @property
    def exists(self) -> bool:
        """The node has the port: an edge on it is no wire to nowhere (FD-UNKNOWN-PORT)."""
        return self.kind is not PortKind.UNKNOWN

    @property
    def bindable(self) -> bool:
        """A workflow's exposure entry may name it (R4.d): any port the node has but a dynamic
        one (DYN-6: not addressable) or a gateway's branch (a route, not a value)."""
        return self.exists and self.kind not in (PortKind.DYNAMIC, PortKind.BRANCH)


# The kinds of port whose exposure R7/R10 judge beside the declared ones (a reserved port only
# where SCH-16 gives it a default, `RESERVED_EXPOSURE`). The node's own records name ports it
# has whose exposure the type says nothing of: only the node's own `config.ports` can hide
# them (EXPO-2), and FlowDrop then refuses an edge or an exposure entry on one (R7, R10).
# Branch, dynamic (DYN-6) and unknown ports have no exposure (R7.d); a pre-1.0 type's ports are
# its processor's, nothing judges them.
_NODE_RECORDED = (PortKind.STORED, PortKind.OVERRIDDEN)


def port_verdict(
    node: Holder, definition: NodeTypeDefinition, direction: Direction, port: str
) -> PortVerdict:
    """The verdict on `port` on one side of `node` (see `PortVerdict`)."""
    kind = classify_port(node, definition, direction, port)
    judged = (
        kind is PortKind.DECLARED
        or kind in _NODE_RECORDED
        or (kind is PortKind.RESERVED and (direction, port) in RESERVED_EXPOSURE)
    )
    return PortVerdict(kind, judged)
