"""R10 on copies of the real site: the `reason` workflow exposes its agent node's ports; a port
its type hides by default, or the node hides itself, is refused there (at
`schema.{side}.{index}`); the node showing it again, or a port the type does not declare, is
fine; none on the real site."""

from __future__ import annotations

from pathlib import Path

from tests.support.site import copy_site, loaded, places, plant, site_findings, where_is

REASON = "flowdrop_workflow.flowdrop_workflow.reason.yml"
AGENT_TYPE = "flowdrop_node_type.flowdrop_node_type.aincient_reason.yml"
OWN_PORTS = (
    "        maxRetries: 0\n"
    "        ports:\n"
    "          outputs:\n"
    "            -\n"
    "              id: text\n"
    "              exposed: {}\n"
)


def _found(folder: Path) -> list[tuple[int, int, str, str | None, str | None]]:
    return [
        (line, column, finding.message, finding.locator_code, finding.locator)
        for _name, line, column, finding in site_findings(loaded(folder), "R10")
    ]


def test_the_real_site_exposes_no_hidden_port(tmp_path: Path) -> None:
    assert places(loaded(copy_site(tmp_path)), "R10") == []


def test_a_port_the_type_hides_by_default(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    plant(
        folder,
        AGENT_TYPE,
        "  messages:\n    configurable: false\n",
        "  messages:\n    exposed_by_default: false\n    configurable: false\n",
    )
    text = (folder / REASON).read_text(encoding="utf-8")
    assert _found(folder) == [
        (
            where_is(text, "    port: messages")[0],
            10,
            "input_ports exposes input port 'messages' of \"Reason (agent step)\" "
            "(aincient_reason.1), which is hidden on that node: node type 'aincient_reason' "
            "hides it by default (exposed_by_default: false) and the node's config.ports does "
            "not show it, so the type's default decides (EXPO-2)",
            "R10_EXPOSURE_HIDDEN_PORT",
            "schema.input.2",
        )
    ]


def test_a_port_the_node_hides_and_shows_again(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    text = plant(folder, REASON, "        maxRetries: 0\n", OWN_PORTS.format("false"))
    assert _found(folder) == [
        (
            where_is(text, "    port: text")[0],
            10,
            "output_ports exposes output port 'text' of \"Reason (agent step)\" "
            "(aincient_reason.1), which is hidden on that node: the node's config.ports sets "
            "exposed: false, and the node's own setting decides over its type's default (EXPO-2)",
            "R10_EXPOSURE_HIDDEN_PORT",
            "schema.output.1",
        )
    ]
    plant(folder, REASON, OWN_PORTS.format("false"), OWN_PORTS.format("true"))
    assert _found(folder) == []


def test_a_reserved_port_the_node_hides(tmp_path: Path) -> None:
    """SCH-32, SCH-16: a reserved port is declared, so R10 judges its exposure: `trigger`
    hidden by the node's config.ports is refused."""
    folder = copy_site(tmp_path)
    plant(folder, REASON, "    port: loop_back\n", "    port: trigger\n")
    assert _found(folder) == []  # trigger is exposed by default (SCH-16)
    text = plant(
        folder,
        REASON,
        "        maxRetries: 0\n",
        "        maxRetries: 0\n        ports:\n          inputs:\n            -\n"
        "              id: trigger\n              exposed: false\n",
    )
    assert _found(folder) == [
        (
            where_is(text, "    port: trigger")[0],
            10,
            "input_ports exposes input port 'trigger' of \"Reason (agent step)\" "
            "(aincient_reason.1), which is hidden on that node: the node's config.ports sets "
            "exposed: false, and the node's own setting decides over its type's default (EXPO-2)",
            "R10_EXPOSURE_HIDDEN_PORT",
            "schema.input.4",
        )
    ]


def test_the_reserved_error_output_follows_the_types_reserved_port_exposure(
    tmp_path: Path,
) -> None:
    """SCH-14, SCH-16: `error` ships hidden unless the type's reserved_port_exposure shows it
    (aincient_reason says `error: true`, so the real site may expose it)."""
    folder = copy_site(tmp_path)
    text = plant(
        folder,
        REASON,
        "output_ports:\n",
        "output_ports:\n  -\n    name: failed\n    node_id: aincient_reason.1\n    port: error\n",
    )
    assert _found(folder) == []
    plant(folder, AGENT_TYPE, "  error: true\n", "  error: false\n")
    assert _found(folder) == [
        (
            where_is(text, "    port: error")[0],
            10,
            "output_ports exposes output port 'error' of \"Reason (agent step)\" "
            "(aincient_reason.1), which is hidden on that node: node type 'aincient_reason' "
            "hides it by default (reserved_port_exposure: error: false) and the node's "
            "config.ports does not show it, so the type's default decides (EXPO-2)",
            "R10_EXPOSURE_HIDDEN_PORT",
            "schema.output.0",
        )
    ]
    plant(folder, AGENT_TYPE, "reserved_port_exposure:\n  error: false\n", "")
    assert [
        found[2].endswith(
            "a reserved port, hidden by default (SCH-16), and neither node type "
            "'aincient_reason' nor the node's config.ports shows it"
        )
        for found in _found(folder)
    ] == [True]


def test_an_output_its_type_hides_outright_whatever_the_node_says(tmp_path: Path) -> None:
    """EXPO-13: an output the type marks `exposed: false` is stripped and no instance override
    restores it. The node's config.ports saying `exposed: true` beside it, the message says
    which side decides and why; without that override it says only the type's part."""
    folder = copy_site(tmp_path)
    plant(folder, AGENT_TYPE, "  text:\n    exposed: true\n", "  text:\n    exposed: false\n")
    text = (folder / REASON).read_text(encoding="utf-8")
    line = where_is(text, "    port: text")[0]
    head = (
        "output_ports exposes output port 'text' of \"Reason (agent step)\" "
        "(aincient_reason.1), which is hidden on that node: "
    )
    assert [found[:3] for found in _found(folder)] == [
        (
            line,
            10,
            head + "node type 'aincient_reason' hides it outright (exposed: false), which no "
            "node can override (EXPO-13)",
        )
    ]
    text = plant(folder, REASON, "        maxRetries: 0\n", OWN_PORTS.format("true"))
    assert [found[:3] for found in _found(folder)] == [
        (
            where_is(text, "    port: text")[0],
            10,
            head + "the node's config.ports shows it (exposed: true), but node type "
            "'aincient_reason' hides it outright (exposed: false), and the type's setting "
            "decides: no node can restore such an output (EXPO-13)",
        )
    ]


def test_the_first_override_of_a_port_decides(tmp_path: Path) -> None:
    # core/domain/ports.py reads a node's overrides for every rule: the first `config.ports`
    # entry for a port decides (R7 did so; R10 took the last one).
    folder = copy_site(tmp_path)
    twice = (
        OWN_PORTS.format("false")
        + "            -\n              id: text\n              exposed: true\n"
    )
    text = plant(folder, REASON, "        maxRetries: 0\n", twice)
    assert [found[:2] for found in _found(folder)] == [(where_is(text, "    port: text")[0], 10)]
