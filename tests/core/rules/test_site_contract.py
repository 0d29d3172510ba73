"""FD-CONTRACT on copies of the real site: a renamed input port, a broken `input_ports` entry,
a port its node does not have, an edge into a port the callee does not declare; none on the
real site."""

from __future__ import annotations

from pathlib import Path

from tests.support.site import (
    BRAND_STUDIO,
    COLOUR,
    COLOUR_CALL_TYPE,
    copy_site,
    loaded,
    places,
    plant,
    site_findings,
    where_is,
)

INPUT_PORTS = "\ninput_ports:\n"


def test_the_real_site_has_no_contract_findings(tmp_path: Path) -> None:
    assert places(loaded(copy_site(tmp_path)), "FD-CONTRACT") == []


def test_a_renamed_input_port_breaks_the_call_type_and_the_required_list(
    tmp_path: Path,
) -> None:
    folder = copy_site(tmp_path)
    colour = plant(folder, COLOUR, "    name: ask\n", "    name: question\n")
    call_type = (folder / COLOUR_CALL_TYPE).read_text(encoding="utf-8")
    index = loaded(folder)
    found = site_findings(index, "FD-CONTRACT")
    assert [item[:3] for item in found] == sorted(
        [
            (COLOUR_CALL_TYPE, *where_is(call_type, "parameters:")),
            (COLOUR_CALL_TYPE, *where_is(call_type, "ask:", after="parameters:")),
            (COLOUR, *where_is(colour, "ask", after="  required:\n")),
        ]
    )
    messages = sorted(item[3].message for item in found)
    assert messages == sorted(
        [
            "parameters 'ask' of this call type is not in the input_ports of workflow "
            "'aincient_brand_specialist_colour' ('question', 'current_state')",
            "parameters of this call type lack 'question', declared in the input_ports of "
            "workflow 'aincient_brand_specialist_colour'",
            "parameter_schema.required names 'ask', which is not an input port of this "
            "workflow (its input_ports: 'question', 'current_state')",
        ]
    )
    type_findings = [item[3] for item in found if item[0] == COLOUR_CALL_TYPE]
    assert {r.path for f in type_findings for r in f.related} == {str(folder / COLOUR)}


def test_an_input_ports_entry_naming_no_node_of_the_workflow(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    text = (folder / COLOUR).read_text(encoding="utf-8")
    at = text.index(INPUT_PORTS)
    text = text[:at] + text[at:].replace("node_id: chat_input.1", "node_id: chat_input.9", 1)
    (folder / COLOUR).write_text(text, encoding="utf-8")
    found = site_findings(loaded(folder), "FD-CONTRACT")
    assert [item[:3] for item in found] == [(COLOUR, *where_is(text, "chat_input.9"))]
    assert "input_ports 'ask' is bound to node 'chat_input.9', which this workflow does not " in (
        found[0][3].message
    )


def test_an_input_ports_entry_naming_a_port_its_node_does_not_have(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    text = (folder / COLOUR).read_text(encoding="utf-8")
    at = text.index(INPUT_PORTS)
    text = text[:at] + text[at:].replace("port: message", "port: mesage", 1)
    (folder / COLOUR).write_text(text, encoding="utf-8")
    found = site_findings(loaded(folder), "FD-CONTRACT")
    assert [item[:3] for item in found] == [(COLOUR, *where_is(text, "mesage"))]
    message = found[0][3].message
    assert "input port 'mesage' of \"Chat Input\" (chat_input.1), which has no such port" in message
    # The reserved ports are every node's: binding them is no finding.
    text = text.replace("port: mesage", "port: trigger")
    (folder / COLOUR).write_text(text, encoding="utf-8")
    assert places(loaded(folder), "FD-CONTRACT") == []


def test_an_edge_into_a_port_the_callee_does_not_declare(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    handle = "aincient_brand_specialist_colour.1-input-current_state"
    studio = plant(
        folder,
        BRAND_STUDIO,
        "targetHandle: flowdrop_workflow_executor_flowdrop_workflow_" + handle,
        "targetHandle: flowdrop_workflow_executor_flowdrop_workflow_"
        + handle.replace("current_state", "current_mood"),
    )
    found = site_findings(loaded(folder), "FD-CONTRACT")
    token = "flowdrop_workflow_executor_flowdrop_workflow_" + handle.replace(
        "current_state", "current_mood"
    )
    assert [item[:3] for item in found] == [
        (BRAND_STUDIO, *where_is(studio, token, after="targetHandle: " + token))
    ]
    assert "edge into input port 'current_mood' of" in found[0][3].message
    assert found[0][3].related[0].path == str(folder / COLOUR)


def test_an_output_name_the_call_type_lacks(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    plant(folder, COLOUR, "    name: slice\n", "    name: palette\n")
    call_type = (folder / COLOUR_CALL_TYPE).read_text(encoding="utf-8")
    assert places(loaded(folder), "FD-CONTRACT") == sorted(
        [
            (COLOUR_CALL_TYPE, *where_is(call_type, "outputs:")),
            (COLOUR_CALL_TYPE, *where_is(call_type, "slice:", after="outputs:")),
        ]
    )


# ----- one ports module: where the old site reading and ports.py disagreed, the spec decides ----


def test_a_handle_names_the_port_after_its_first_marker(tmp_path: Path) -> None:
    # EDGE-1: the first marker decides. A handle not starting with its node's own prefix, with a
    # second `-input-` in it, names `current_mood-input-current_state` (no such port of the
    # callee), not `current_state` (the site reading took the last marker).
    folder = copy_site(tmp_path)
    handle = "flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_colour.1"
    odd = "elsewhere-input-current_mood-input-current_state"
    plant(
        folder, BRAND_STUDIO, f"targetHandle: {handle}-input-current_state", f"targetHandle: {odd}"
    )
    found = site_findings(loaded(folder), "FD-CONTRACT")
    assert len(found) == 1
    assert "edge into input port 'current_mood-input-current_state' of" in found[0][3].message


def test_config_ports_is_no_source_of_ports(tmp_path: Path) -> None:
    # `config.ports` overrides the exposure of ports the node has (EXPO-2): an id listed there
    # alone is no port a contract may bind (FD-CONTRACT counted it as one).
    folder = copy_site(tmp_path)
    text = (folder / COLOUR).read_text(encoding="utf-8")
    at = text.index(INPUT_PORTS)
    text = text[:at] + text[at:].replace("port: message", "port: invented", 1)
    (folder / COLOUR).write_text(text, encoding="utf-8")
    node_start = text.index("    id: chat_input.1\n")
    config = text.index("      config:\n", node_start) + len("      config:\n")
    text = (
        text[:config]
        + "        ports:\n          inputs:\n            -\n              id: invented\n"
        + "              exposed: true\n"
        + text[config:]
    )
    (folder / COLOUR).write_text(text, encoding="utf-8")
    found = site_findings(loaded(folder), "FD-CONTRACT")
    assert [item[:3] for item in found] == [
        (COLOUR, *where_is(text, "invented", after="input_ports:"))
    ]


WEATHER = "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml"
WEATHER_OUTPUT = (
    "output_ports:\n  -\n    name: message\n    node_id: chat_output.1\n    port: message\n"
)


def test_an_exposure_entry_naming_a_dynamic_port_or_a_branch(tmp_path: Path) -> None:
    """R4.d, DYN-6: an exposure entry must name a port the node's type declares; a dynamic
    port or a gateway's branch is the node's, not its processor's, and is refused."""
    folder = copy_site(tmp_path)
    for node_id, written, port, why in (
        ("data_mapper.1", "url_full", "url_full", "a dynamic port of the node, which a workflow "),
        ("if_else.1", "'True'", "True", "a branch of the gateway, which a workflow cannot "),
    ):
        planted = WEATHER_OUTPUT.replace("chat_output.1", node_id).replace(
            "port: message", f"port: {written}"
        )
        text = plant(folder, WEATHER, WEATHER_OUTPUT, planted)
        found = site_findings(loaded(folder), "FD-CONTRACT")
        assert [item[:3] for item in found] == [
            (WEATHER, *where_is(text, written, after=f"node_id: {node_id}\n    port:"))
        ], port
        assert f"output port '{port}' of " in found[0][3].message
        assert why in found[0][3].message
        # Fixed back: nothing left.
        (folder / WEATHER).write_text(text.replace(planted, WEATHER_OUTPUT), encoding="utf-8")
        assert places(loaded(folder), "FD-CONTRACT") == []


def test_the_executor_s_own_options_and_reserved_ports_are_no_callee_inputs(
    tmp_path: Path,
) -> None:
    """Issue 26: on the FlowDrop author's demo site a call type carries the executor's
    `executionMode`, which was reported as a parameter the callee does not declare. The
    executor's options (both spellings, and the site's generic executor's parameters) and the
    reserved `tool` port are the call type's own; any other extra name is still reported."""
    folder = copy_site(tmp_path)
    call_type = plant(
        folder,
        COLOUR_CALL_TYPE,
        "parameters:\n",
        "parameters:\n  executionMode:\n    configurable: true\n    connectable: false\n"
        "  poll_interval_ms:\n    configurable: true\n  tool:\n    connectable: true\n"
        "  bogus:\n    configurable: true\n",
    )
    found = site_findings(loaded(folder), "FD-CONTRACT")
    assert [item[:3] for item in found] == [
        (COLOUR_CALL_TYPE, *where_is(call_type, "bogus:", after="parameters:"))
    ]
    assert found[0][3].message.startswith("parameters 'bogus' of this call type is not in")
