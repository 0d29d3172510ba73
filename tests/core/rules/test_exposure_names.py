"""R4 (a, b, e) on copies of the real site: a name outside the alphabet, a repeated name, a
reserved one, a missing one — each at `schema.{side}.{index}`; none on the real site."""

from __future__ import annotations

from pathlib import Path

from tests.support.site import copy_site, loaded, places, plant, site_findings, where_is

REASON = "flowdrop_workflow.flowdrop_workflow.reason.yml"


def _found(folder: Path) -> list[tuple[int, int, str, str | None, str | None]]:
    return [
        (line, column, finding.message, finding.locator_code, finding.locator)
        for _name, line, column, finding in site_findings(loaded(folder), "R4")
    ]


def test_the_real_site_exposes_only_allowed_names(tmp_path: Path) -> None:
    assert places(loaded(copy_site(tmp_path)), "R4") == []


def test_a_name_outside_the_alphabet_and_a_repeat_on_the_output_side(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    text = plant(folder, REASON, "    name: text\n", "    name: 'Text 🤖 文本'\n")
    text = plant(folder, REASON, "    name: has_tool_calls\n", "    name: tool_calls\n")
    assert _found(folder) == [
        (
            *where_is(text, "'Text", after="output_ports:"),
            "output_ports name 'Text 🤖 文本' is not made of a-z, 0-9, '_' and '-' only",
            "R4_NAME_FORMAT",
            "schema.output.1",
        ),
        (
            *where_is(text, "tool_calls", after="output_ports:", nth=2),
            "output_ports name 'tool_calls' is already exposed by entry 1 of output_ports",
            "R4_NAME_DUPLICATE",
            "schema.output.2",
        ),
    ]


def test_a_reserved_name_and_a_missing_one_on_the_input_side(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    text = plant(folder, REASON, "    name: operation_type\n", "    name: __interrupt_id__\n")
    text = plant(folder, REASON, "    name: messages\n", "")
    missing = text.index("  -\n    node_id: aincient_reason.1\n    port: messages") + 4
    assert _found(folder) == [
        (
            *where_is(text, "__interrupt_id__"),
            "input_ports name '__interrupt_id__' is reserved: the runtime injects a parameter "
            "of that name",
            "R4_NAME_RESERVED",
            "schema.input.0",
        ),
        (
            *where_is(text, "node_id: aincient_reason.1", after=text[:missing][-40:]),
            "input_ports entry 3 has no name (or not a string)",
            "R4_NAME_FORMAT",
            "schema.input.2",
        ),
    ]


def test_one_name_may_be_an_input_and_an_output(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    plant(folder, REASON, "    name: operation_type\n", "    name: text\n")
    assert _found(folder) == []


def test_an_entry_without_its_node_id_or_port_binds_nothing(tmp_path: Path) -> None:
    """MAN-2: `name`, `node_id` and `port` are all required; an entry lacking one was skipped
    silently (FD-CONTRACT has nothing to look up), now it is R4's, at its locator."""
    folder = copy_site(tmp_path)
    text = plant(
        folder,
        REASON,
        "    node_id: aincient_reason.1\n    port: messages\n",
        "    port: messages\n",
    )
    text = plant(
        folder,
        REASON,
        "    name: operation_type\n    node_id: aincient_reason.1\n    port: operation_type\n",
        "    name: operation_type\n    node_id: ''\n",
    )
    assert _found(folder) == [
        (
            *where_is(text, "operation_type", after="input_ports:"),
            "input_ports entry 1 ('operation_type') has no 'node_id' and no 'port': it binds "
            "no port, and FlowDrop refuses the workflow",
            None,
            "schema.input.0",
        ),
        (
            *where_is(text, "messages", after="input_ports:"),
            "input_ports entry 3 ('messages') has no 'node_id': it binds no port, and FlowDrop "
            "refuses the workflow",
            None,
            "schema.input.2",
        ),
    ]
