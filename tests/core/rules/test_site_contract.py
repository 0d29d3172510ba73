"""FD-CONTRACT on copies of the real site: a renamed input port, a broken `input_ports` entry,
a port its node does not have, an edge into a port the callee does not declare; none on the
real site."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowdrop_lsp.core.fixes import apply_edits
from tests.support.site import (
    BRAND_STUDIO,
    COLOUR,
    COLOUR_CALL_TYPE,
    copy_site,
    loaded,
    places,
    plant,
    position,
    site_findings,
    where_is,
)

INPUT_PORTS = "\ninput_ports:\n"


def test_the_real_site_has_no_contract_findings(tmp_path: Path) -> None:
    assert places(loaded(copy_site(tmp_path)), "FD-CONTRACT") == []


def test_a_renamed_input_port_is_paired_with_the_call_type_s_old_name(tmp_path: Path) -> None:
    # Issue 29: `ask` renamed `question` in the callee. The call type's one extra name and the
    # callee's one missing name are a rename: one finding in the call type (on `ask`, no
    # "lack" finding besides), one in the callee (on `question`), each with an unsafe fix.
    folder = copy_site(tmp_path)
    colour = plant(folder, COLOUR, "    name: ask\n", "    name: question\n")
    call_type = (folder / COLOUR_CALL_TYPE).read_text(encoding="utf-8")
    studio = (folder / BRAND_STUDIO).read_text(encoding="utf-8")
    label = "'Run workflow: Brand colour & contrast specialist'"
    index = loaded(folder)
    found = site_findings(index, "FD-CONTRACT")
    assert [item[:3] for item in found] == sorted(
        [
            # The caller, on its call node: its author may never open the call type.
            (BRAND_STUDIO, *where_is(studio, label)),
            (COLOUR_CALL_TYPE, *where_is(call_type, "ask:", after="parameters:")),
            (COLOUR, *where_is(colour, "question", after="input_ports:")),
            (COLOUR, *where_is(colour, "ask", after="  required:\n")),
        ]
    )
    by_place = {(item[0], item[1]): item[3] for item in found}
    in_type = next(f for (name, _), f in by_place.items() if name == COLOUR_CALL_TYPE)
    assert in_type.message == (
        "this call type passes 'ask', which workflow 'aincient_brand_specialist_colour' does "
        "not take (renamed 'question'? its inputs: 'question', 'current_state')"
    )
    assert in_type.message.count("aincient_brand_specialist_colour") == 1
    (fix,) = in_type.fixes
    assert not fix.is_safe and not fix.preferred
    assert apply_edits(call_type, fix.edits) == call_type.replace(
        "\n  ask:\n", "\n  question:\n", 1
    )
    in_callee = by_place[(COLOUR, where_is(colour, "question", after="input_ports:")[0])]
    assert "passes 'ask', not 'question'" in in_callee.message
    (back,) = in_callee.fixes
    assert not back.is_safe
    assert apply_edits(colour, back.edits) == colour.replace(
        "    name: question\n", "    name: ask\n", 1
    )
    required = by_place[(COLOUR, where_is(colour, "ask", after="  required:\n")[0])]
    assert required.message == (
        "parameter_schema.required names 'ask', which is not an input port of this workflow "
        "(its input_ports: 'question', 'current_state')"
    )
    assert {r.path for r in in_type.related} == {str(folder / COLOUR)}
    in_caller = next(f for (name, _), f in by_place.items() if name == BRAND_STUDIO)
    assert in_caller.message == (
        'the type of "Run workflow: Brand colour & contrast specialist" '
        "(flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_colour.1) "
        "passes 'ask', which the called workflow 'aincient_brand_specialist_colour' does not "
        "take (renamed 'question'?)"
    )
    assert in_caller.fixes == ()
    assert {r.path for r in in_caller.related} == {
        str(folder / COLOUR_CALL_TYPE),
        str(folder / COLOUR),
    }


def test_an_edge_feeding_the_old_name_is_told_the_new_one(
    tmp_path: Path,
) -> None:
    # The caller (brand studio) has an edge into the call node's `ask`: the node type still
    # declares `ask`, so no port rule fires; FD-CONTRACT says what the callee takes now.
    folder = copy_site(tmp_path)
    plant(folder, COLOUR, "    name: ask\n", "    name: question\n")
    handle = "flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_colour.1"
    studio = plant(
        folder,
        BRAND_STUDIO,
        f"targetHandle: {handle}-input-current_state",
        f"targetHandle: {handle}-input-ask",
    )
    found = [
        item for item in site_findings(loaded(folder), "FD-CONTRACT") if item[0] == BRAND_STUDIO
    ]
    assert [item[:3] for item in found] == [
        (BRAND_STUDIO, *where_is(studio, f"{handle}-input-ask", after="targetHandle: "))
    ]
    finding = found[0][3]
    assert finding.message == (
        "the called workflow 'aincient_brand_specialist_colour' takes no input 'ask' "
        "(did you mean 'question'?)"
    )
    # The type still declares `ask`: the edge is right if the callee is renamed back, and
    # `question` is no port of the node yet. (`--unsafe-fixes` applies a lone fix: retargeting
    # it and renaming the callee back would leave the edge wrong both ways.)
    assert finding.fixes == ()


def test_a_misspelt_handle_into_a_call_node_is_retargeted_unsafely(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    handle = "flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_colour.1"
    studio = plant(
        folder,
        BRAND_STUDIO,
        f"targetHandle: {handle}-input-current_state",
        f"targetHandle: {handle}-input-curent_state",
    )
    found = [i for i in site_findings(loaded(folder), "FD-CONTRACT") if i[0] == BRAND_STUDIO]
    assert found[0][3].message == (
        "the called workflow 'aincient_brand_specialist_colour' takes no input 'curent_state' "
        "(did you mean 'current_state'?)"
    )
    (fix,) = found[0][3].fixes
    assert not fix.is_safe and not fix.preferred
    assert apply_edits(studio, fix.edits) == studio.replace(
        f"{handle}-input-curent_state", f"{handle}-input-current_state", 1
    )


def test_a_quoted_key_is_renamed_inside_its_quotes(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    plant(folder, COLOUR, "    name: ask\n", "    name: question\n")
    call_type = plant(folder, COLOUR_CALL_TYPE, "\n  ask:\n", "\n  'ask':\n")
    found = [i[3] for i in site_findings(loaded(folder), "FD-CONTRACT") if i[0] == COLOUR_CALL_TYPE]
    (fix,) = found[0].fixes
    assert apply_edits(call_type, fix.edits) == call_type.replace("'ask':", "'question':", 1)


def test_two_names_changed_are_no_rename_and_get_no_fix(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    plant(folder, COLOUR, "    name: ask\n", "    name: question\n")
    plant(folder, COLOUR, "    name: current_state\n", "    name: state\n")
    call_type = (folder / COLOUR_CALL_TYPE).read_text(encoding="utf-8")
    found = site_findings(loaded(folder), "FD-CONTRACT")
    in_type = [item for item in found if item[0] == COLOUR_CALL_TYPE]
    assert [item[:3] for item in in_type] == sorted(
        [
            (COLOUR_CALL_TYPE, *where_is(call_type, "parameters:")),
            (COLOUR_CALL_TYPE, *where_is(call_type, "ask:", after="parameters:")),
            (COLOUR_CALL_TYPE, *where_is(call_type, "current_state:", after="parameters:")),
        ]
    )
    assert all(not item[3].fixes for item in found)
    lacking = in_type[0][3].message
    assert lacking == (
        "this call type does not pass 'question', 'state', which workflow "
        "'aincient_brand_specialist_colour' takes as its inputs"
    )


INPUTS_AS_WRITTEN = (
    "input_ports:\n  -\n    name: ask\n    node_id: chat_input.1\n    port: message\n"
    "  -\n    name: current_state\n    node_id: prompt_template.1\n    port: variables\n"
)
OUTPUTS_AS_WRITTEN = (
    "output_ports:\n  -\n    name: slice\n    node_id: chat_output.1\n    port: message\n"
)


def test_an_input_ports_entry_without_a_name_is_reported_on_the_entry(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    colour = plant(folder, COLOUR, "    name: current_state\n", "    nam: current_state\n")
    found = [item for item in site_findings(loaded(folder), "FD-CONTRACT") if item[0] == COLOUR]
    # (a block mapping starts at its first key)
    entry = colour.index("  -\n    nam: current_state") + len("  -\n    ")
    assert [item[:3] for item in found] == [(COLOUR, *position(colour, entry))]
    assert found[0][3].message == (
        "this input_ports entry has no name (a non-empty string): it binds nothing"
    )


def test_an_input_ports_string_is_reported_and_declares_no_side(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    colour = plant(folder, COLOUR, INPUTS_AS_WRITTEN, "input_ports: 'ask, current_state'\n")
    found = site_findings(loaded(folder), "FD-CONTRACT")
    # The side is reported, not compared with the call type (nor `required` with it).
    assert [item[:3] for item in found] == [(COLOUR, *where_is(colour, "'ask, current_state'"))]
    assert found[0][3].message == (
        "input_ports is a string, not a list of entries (each with a name, a node_id and a "
        "port): the workflow declares no contract on this side"
    )


def test_an_input_ports_entry_that_is_no_mapping(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    colour = plant(folder, COLOUR, INPUTS_AS_WRITTEN, "input_ports:\n  - ask\n")
    found = [item for item in site_findings(loaded(folder), "FD-CONTRACT") if item[0] == COLOUR]
    # The list binds nothing: `required` names no input port either.
    assert [item[:3] for item in found] == [
        (COLOUR, *where_is(colour, "ask", after="input_ports:")),
        (COLOUR, *where_is(colour, "ask", after="  required:\n")),
    ]
    assert found[0][3].message == (
        "this input_ports entry is a string, not a mapping with a name, a node_id and a port: "
        "it is dropped"
    )


@pytest.mark.parametrize("empty", ["{  }", "null", "[]", ""])
def test_drupal_s_empty_list_and_null_are_no_malformed_contract(tmp_path: Path, empty: str) -> None:
    folder = copy_site(tmp_path)
    plant(folder, COLOUR, OUTPUTS_AS_WRITTEN, f"output_ports: {empty}\n")
    found = site_findings(loaded(folder), "FD-CONTRACT")
    assert not [item for item in found if "output_ports is" in item[3].message]


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
    assert found[0][3].message == (
        "the called workflow 'aincient_brand_specialist_colour' takes no input 'current_mood' "
        "(its inputs: 'ask', 'current_state')"
    )
    assert found[0][3].related[0].path == str(folder / COLOUR)


def test_an_output_renamed_in_the_callee(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    colour = plant(folder, COLOUR, "    name: slice\n", "    name: palette\n")
    call_type = (folder / COLOUR_CALL_TYPE).read_text(encoding="utf-8")
    found = site_findings(loaded(folder), "FD-CONTRACT")
    assert [item[:3] for item in found] == sorted(
        [
            (COLOUR_CALL_TYPE, *where_is(call_type, "slice:", after="outputs:")),
            (COLOUR, *where_is(colour, "palette", after="output_ports:")),
        ]
    )
    assert {item[3].message for item in found} == {
        "this call type returns 'slice', which workflow 'aincient_brand_specialist_colour' "
        "does not give (renamed 'palette'? its outputs: 'palette')",
        "call type 'flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_"
        "colour' returns 'slice', not 'palette' (one of its outputs renamed?)",
    }


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
    assert "takes no input 'current_mood-input-current_state'" in found[0][3].message


def test_a_port_the_node_records_itself_may_be_bound(tmp_path: Path) -> None:
    """One verdict per port (`port_verdict`): a port named only in the node's `config.ports`,
    or only in its stored metadata, is a port the node has — on a 1.0-alpha site a type's
    `outputs:` is not its whole port list — so FD-UNKNOWN-PORT accepts an edge on it and
    FD-CONTRACT an exposure entry; where the node's own entry hides it, the entry is R10's."""
    folder = copy_site(tmp_path)
    text = (folder / COLOUR).read_text(encoding="utf-8")
    at = text.index(INPUT_PORTS)
    text = text[:at] + text[at:].replace("port: message", "port: invented", 1)
    (folder / COLOUR).write_text(text, encoding="utf-8")
    invented_at = where_is(text, "invented", after="input_ports:")
    found = site_findings(loaded(folder), "FD-CONTRACT")
    assert [item[:3] for item in found] == [(COLOUR, *invented_at)]
    assert "which has no such port" in found[0][3].message
    node_start = text.index("    id: chat_input.1\n")
    inputs = text.index("          inputs:\n", node_start) + len("          inputs:\n")
    for exposed, hidden in (("true", False), ("false", True)):
        listed = (
            text[:inputs]
            + f"            -\n              id: invented\n              exposed: {exposed}\n"
            + text[inputs:]
        )
        (folder / COLOUR).write_text(listed, encoding="utf-8")
        index = loaded(folder)
        assert places(index, "FD-CONTRACT") == []
        assert [item[:3] for item in site_findings(index, "R10")] == (
            [(COLOUR, *where_is(listed, "invented", after="input_ports:"))] if hidden else []
        )
    # The stored metadata's ports (the editor's copy of the type it was served) alike.
    metadata = text.index("      metadata:\n", node_start) + len("      metadata:\n")
    stored = (
        text[:metadata]
        + "        inputs:\n          -\n            id: invented\n"
        + text[metadata:]
    )
    (folder / COLOUR).write_text(stored, encoding="utf-8")
    assert places(loaded(folder), "FD-CONTRACT") == []


WEATHER = "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml"
WEATHER_OUTPUT = (
    "output_ports:\n  -\n    name: message\n    node_id: chat_output.1\n    port: message\n"
)


def test_an_exposure_entry_naming_a_dynamic_port_or_a_branch(tmp_path: Path) -> None:
    """R4.d, DYN-6: an exposure entry must name a port the node's type declares; a dynamic
    port or a gateway's branch is the node's but not addressable, and is refused as such."""
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
    studio = (folder / BRAND_STUDIO).read_text(encoding="utf-8")
    assert [item[:3] for item in found] == [
        (COLOUR_CALL_TYPE, *where_is(call_type, "bogus:", after="parameters:")),
        # brand_studio's call node, whose type passes `bogus` (and nothing else is told).
        (BRAND_STUDIO, *where_is(studio, "'Run workflow: Brand colour & contrast specialist'")),
    ]
    assert "passes 'bogus'" in found[1][3].message
    assert found[0][3].message.startswith("this call type passes 'bogus', which workflow")
