"""One verdict per port: every rule that judges an edge end or an exposure entry agrees with
core/domain/ports.py's `port_verdict`, and so with every other such rule.

Generated: a node type (parameters and outputs with exposure flags and gates — `exposed: false`
outputs included —, none at all, a gateway's `branches` and dynamic ports with defaults), a
node of it (its own branches, dynamic ports, `config.ports` entries naming declared ports and
others, repeated and contradicting, and the ports its stored metadata lists), handles of every
shape (markers in node ids and ports, the other direction's marker first, empty ports) and
exposure entries, each with an edge on the same port of the same side. Then:

- FD-UNKNOWN-PORT flags an end exactly when the verdict says the port does not exist;
- R7 flags an end exactly when the verdict judges the port's exposure and it hides the port;
- FD-CONTRACT (R4.d) flags an entry exactly when the verdict says no contract may bind it;
- R10 flags an entry exactly when the verdict judges the port's exposure and it hides the port;
- the rules agree with each other on every port named by both an edge and an entry:
  FD-UNKNOWN-PORT is silent exactly when FD-CONTRACT does not say the node has no such port,
  R7 flags the edge exactly when R10 flags the entry, and a port that does not exist is never
  called hidden (R4's other checks, exposure_names.py, read no port: R4.d is FD-CONTRACT's);
- the site facts keep what ports.py reads: a node's own ports, an edge's handle ports.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.node_types import NodeTypeRegistry
from flowdrop_lsp.core.domain.ports import (
    Direction,
    exposure,
    handle_port,
    own_ports,
    port_verdict,
)
from flowdrop_lsp.core.workspace.site import SiteIndex

SITE = Path("/site")
TYPE_FILE = SITE / "flowdrop_node_type.flowdrop_node_type.t.yml"
SOURCE_TYPE_FILE = SITE / "flowdrop_node_type.flowdrop_node_type.s.yml"
WORKFLOW_FILE = SITE / "flowdrop_workflow.flowdrop_workflow.w.yml"

# Few names, so that handles, declarations, overrides and entries meet often.
PORT_NAMES = [
    "a",
    "b",
    "A",
    "msg",
    "x-input-y",
    "x-output-y",
    "trigger",
    "tool",
    "error",
    "loop_back",
]
NODE_IDS = ["n", "n-input-m", "n-output-m"]
# A port no type declares: only the node's own records (config.ports, stored metadata) may
# name it, so it is often a port the node has that its type does not show.
RECORDED = "rec"
recorded_or_any = st.one_of(st.sampled_from(PORT_NAMES), st.just(RECORDED))
flags = st.sampled_from([None, True, False])
names = st.sampled_from(PORT_NAMES)


def _yaml(value: object) -> str:
    # JSON is YAML: every generated value is written as a flow mapping, read by the YAML reader.
    return json.dumps(value)


@st.composite
def node_types(draw: st.DrawFn) -> dict[str, object]:
    parameters: dict[str, object] = {}
    for name in draw(st.lists(names, max_size=4, unique=True)):
        entry: dict[str, object] = {}
        for key in ("connectable", "exposed_by_default", "configurable"):
            value = draw(flags)
            if value is not None:
                entry[key] = value
        parameters[name] = entry
    for parameter in ("branches", "dynamicInputs", "dynamicOutputs"):
        if draw(st.booleans()):
            default = [{"name": n} for n in draw(st.lists(names, max_size=2))]
            parameters[parameter] = {"default": default} if draw(st.booleans()) else {}
    outputs: dict[str, object] = {}
    for name in draw(st.lists(names, max_size=4, unique=True)):
        entry = {}
        for key in ("exposed", "exposed_by_default"):
            value = draw(flags)
            if value is not None:
                entry[key] = value
        outputs[name] = entry
    return {"id": "t", "label": "T", "parameters": parameters, "outputs": outputs}


@st.composite
def node_configs(draw: st.DrawFn) -> dict[str, object]:
    config: dict[str, object] = {}
    for parameter in ("branches", "dynamicInputs", "dynamicOutputs"):
        choice = draw(st.integers(0, 2))
        if choice == 1:
            config[parameter] = [{"name": n} for n in draw(st.lists(names, max_size=3))]
        elif choice == 2:
            config[parameter] = draw(st.sampled_from([None, "x", {}, [{"id": "a"}]]))
    if draw(st.booleans()):
        # Ids the type declares or not (a port only the node records), the same one repeated.
        config["ports"] = {
            side: [
                {
                    "id": draw(recorded_or_any),
                    "exposed": draw(st.sampled_from([True, False, None, 0])),
                }
                for _ in range(draw(st.integers(0, 3)))
            ]
            for side in ("inputs", "outputs")
        }
    return config


@st.composite
def stored_metadata(draw: st.DrawFn) -> dict[str, object]:
    """The node's metadata: its type, and sometimes the ports an editor stored (FD-UNKNOWN-PORT
    reads them; nothing else does)."""
    metadata: dict[str, object] = {"node_type_id": "t"}
    for side in ("inputs", "outputs"):
        if draw(st.booleans()):
            metadata[side] = [
                {"id": draw(recorded_or_any), "name": "shown"}
                for _ in range(draw(st.integers(0, 2)))
            ]
    return metadata


def handles(node_id: str, direction: str, declared: list[str]) -> st.SearchStrategy[str | None]:
    other = "output" if direction == "input" else "input"
    # Ports the type declares, often: R7 and R10 judge only those.
    likely = st.sampled_from(declared) if declared else names
    return st.one_of(
        st.none(),
        st.builds(lambda p: f"{node_id}-{direction}-{p}", names),
        st.builds(lambda p: f"{node_id}-{direction}-{p}", likely),
        st.builds(lambda p: f"{node_id}-{direction}-{p}", likely),
        st.builds(lambda p: f"elsewhere-{direction}-{p}", names),
        st.builds(lambda p: f"{node_id}-{other}-{p}", names),
        st.sampled_from(["", f"{node_id}-{direction}-", "no-marker", f"q-{other}-a-{direction}-b"]),
    )


@st.composite
def workflows(draw: st.DrawFn) -> tuple[dict[str, object], dict[str, object], str]:
    node_type = draw(node_types())
    inputs = list(node_type["parameters"])  # type: ignore[call-overload]
    outputs = list(node_type["outputs"])  # type: ignore[call-overload]
    node_id = draw(st.sampled_from(NODE_IDS))
    config, metadata = draw(node_configs()), draw(stored_metadata())
    recorded: dict[str, list[str]] = {}  # side → the ports the stored metadata lists
    for side in ("inputs", "outputs"):
        recorded[side] = [entry["id"] for entry in metadata.get(side, ())]  # type: ignore[attr-defined]
        if recorded[side] and draw(st.booleans()):
            # The node's own exposure of a port only its records name, first in its list.
            ports = config.setdefault("ports", {})
            if isinstance(ports, dict):
                ports[side] = [
                    {"id": port, "exposed": draw(st.sampled_from([True, False]))}
                    for port in recorded[side]
                ] + list(ports.get(side, []))
    nodes = [
        {
            "id": node_id,
            "data": {"label": "Judged", "config": config, "metadata": metadata},
        },
        {"id": "src", "data": {"label": "Other", "metadata": {"node_type_id": "s"}}},
    ]
    edges = []
    for index in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):  # into the judged node
            edges.append(
                {
                    "id": f"e{index}",
                    "source": "src",
                    "target": node_id,
                    "sourceHandle": "src-output-out",
                    "targetHandle": draw(handles(node_id, "input", inputs)),
                }
            )
        else:
            edges.append(
                {
                    "id": f"e{index}",
                    "source": node_id,
                    "target": "src",
                    "sourceHandle": draw(handles(node_id, "output", outputs)),
                    "targetHandle": "src-input-in",
                }
            )
    for edge in edges:
        for key in ("sourceHandle", "targetHandle"):
            if edge[key] is None:
                del edge[key]
    input_ports = [
        {
            "name": f"i{i}",
            "node_id": node_id,
            "port": draw(st.one_of(recorded_or_any, *_some(inputs))),
        }
        for i in range(draw(st.integers(0, 3)))
    ]
    output_ports = [
        {
            "name": f"o{i}",
            "node_id": node_id,
            "port": draw(st.one_of(recorded_or_any, *_some(outputs))),
        }
        for i in range(draw(st.integers(0, 3)))
    ]
    # Each entry's port wired too, so that the rules on edges and on entries meet on it.
    for entry in input_ports:
        edges.append(
            {
                "id": f"e{len(edges)}",
                "source": "src",
                "target": node_id,
                "sourceHandle": "src-output-out",
                "targetHandle": f"{node_id}-input-{entry['port']}",
            }
        )
    for entry in output_ports:
        edges.append(
            {
                "id": f"e{len(edges)}",
                "source": node_id,
                "target": "src",
                "sourceHandle": f"{node_id}-output-{entry['port']}",
                "targetHandle": "src-input-in",
            }
        )
    workflow: dict[str, object] = {
        "id": "w",
        "label": "W",
        "nodes": nodes,
        "edges": edges,
        "input_ports": input_ports,
        "output_ports": output_ports,
    }
    return node_type, workflow, node_id


def _some(declared: list[str]) -> list[st.SearchStrategy[str]]:
    return [st.sampled_from(declared)] if declared else []


SOURCE_TYPE = {
    "id": "s",
    "parameters": {"in": {"connectable": True}},
    "outputs": {"out": {"exposed": True}},
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=workflows())
def test_every_rule_judging_an_end_agrees_with_ports(
    drawn: tuple[dict[str, object], dict[str, object], str],
) -> None:
    node_type, workflow, node_id = drawn
    type_text, source_text = _yaml(node_type), _yaml(SOURCE_TYPE)
    text = _yaml(workflow)
    registry = NodeTypeRegistry.from_texts(
        [(TYPE_FILE, type_text), (SOURCE_TYPE_FILE, source_text)], sources=[SITE]
    )
    definition = registry.catalog.get("t")
    assert definition is not None
    analysis = analyze(text, Settings().with_registry(registry), syntax="yaml")
    judged = next(n for n in analysis.workflow.nodes if n.id == node_id)

    # One document: FD-UNKNOWN-PORT and R7 on each end of the judged node.
    expected: set[tuple[str, str, str, str]] = set()
    for edge in workflow["edges"]:  # type: ignore[attr-defined]
        for direction, key, end_node in (
            (Direction.OUTPUT, "sourceHandle", edge["source"]),
            (Direction.INPUT, "targetHandle", edge["target"]),
        ):
            if end_node != node_id:
                continue
            port = handle_port(edge.get(key), end_node, direction)
            if port is None:
                continue
            verdict = port_verdict(judged, definition, direction, port)
            if not verdict.exists:
                expected.add(("FD-UNKNOWN-PORT", edge["id"], direction.value, port))
            elif (
                verdict.exposure_judged
                and not exposure(judged, definition, direction, port).exposed
            ):
                expected.add(("R7", edge["id"], direction.value, port))
    edge_ids = {f"edge.{i}": e["id"] for i, e in enumerate(workflow["edges"])}  # type: ignore[arg-type]
    found = {
        (f.code, edge_ids[f.locator or ""], dict(f.extra)["direction"], dict(f.extra)["port"])
        for f in analysis.findings
        if f.code in ("FD-UNKNOWN-PORT", "R7")
    }
    assert found == expected

    # The site: FD-CONTRACT and R10 on each exposure entry; the facts keep ports.py's reading.
    index = SiteIndex(SITE)
    for path, content in (
        (TYPE_FILE, type_text),
        (SOURCE_TYPE_FILE, source_text),
        (WORKFLOW_FILE, text),
    ):
        index.update(path, content)
    facts = index.workflow_files()[str(WORKFLOW_FILE)]
    site_node = next(n for n in facts.nodes if n.id == node_id)
    assert site_node.ports == own_ports(judged.config, judged.stored_ports)
    for site_edge, edge in zip(facts.edges, workflow["edges"], strict=True):  # type: ignore[call-overload]
        assert site_edge.target_port == handle_port(
            edge.get("targetHandle"), edge["target"], Direction.INPUT
        )
        assert site_edge.source_port == handle_port(
            edge.get("sourceHandle"), edge["source"], Direction.OUTPUT
        )
    expected_site: set[tuple[str, str, int]] = set()
    for side, key in (("input", "input_ports"), ("output", "output_ports")):
        direction = Direction(side)
        for index_in_side, entry in enumerate(workflow[key]):  # type: ignore[arg-type]
            port = entry["port"]
            verdict = port_verdict(site_node.ports, definition, direction, port)
            if not verdict.bindable:
                expected_site.add(("FD-CONTRACT", side, index_in_side))
            if (
                verdict.exposure_judged
                and not exposure(site_node.ports, definition, direction, port).exposed
            ):
                expected_site.add(("R10", side, index_in_side))
    found_site: set[tuple[str, str, int]] = set()
    no_such_port: set[tuple[str, str]] = set()  # (side, port) FD-CONTRACT says the node lacks
    for finding in index.findings(WORKFLOW_FILE):
        if finding.code not in ("FD-CONTRACT", "R10"):
            continue
        side, at = _entry_at(workflow, text, finding.span.start)
        found_site.add((finding.code, side, at))
        if finding.code == "FD-CONTRACT" and "which has no such port" in finding.message:
            no_such_port.add((side, workflow[f"{side}_ports"][at]["port"]))  # type: ignore[index]
    assert found_site == expected_site

    # The rules with each other, on every port an edge and an entry both name.
    for side in ("input", "output"):
        for at, entry in enumerate(workflow[f"{side}_ports"]):  # type: ignore[arg-type]
            port = entry["port"]
            on_edges = {code for code, _, way, named in found if (way, named) == (side, port)}
            unknown = "FD-UNKNOWN-PORT" in on_edges
            assert unknown == ((side, port) in no_such_port), (side, port)
            assert ("R7" in on_edges) == (("R10", side, at) in found_site), (side, port)
            assert not (unknown and "R7" in on_edges)


def _entry_at(workflow: dict[str, object], text: str, offset: int) -> tuple[str, int]:
    """Which exposure entry a finding's offset falls in: the entries are written in order, each
    `{"name": "<side letter><index>", …}`, so the last entry name before the offset names it."""
    before = text[:offset]
    at = max(before.rfind('"name": "i'), before.rfind('"name": "o'))
    name = text[at + len('"name": "') : text.index('"', at + len('"name": "'))]
    return ("input" if name[0] == "i" else "output"), int(name[1:])
