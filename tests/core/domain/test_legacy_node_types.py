"""Node types in the pre-1.0 format (`version` and a `config:` block of defaults, no
`parameters`), as the FlowDrop 0.6 / 1.0-alpha sites keep them (issue 26): read as such — the
config keys are configurable parameters with their defaults, the ports are the processor's, in
code — never as a type that declares nothing, which made every port and key of such a node
look unknown."""

from __future__ import annotations

from pathlib import Path

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.node_types import NodeTypeRegistry, read_definition
from tests.support.builders import node, workflow

LEGACY = """\
id: text_input
label: 'Text Input'
version: 1.0.0
category: inputs
config:
  defaultValue: ''
  placeholder: 'Type here'
"""
CHAT = "id: chat\nlabel: Chat\nversion: 1.0.0\n"
MODERN = """\
id: logger
parameters:
  message:
    configurable: false
    connectable: true
outputs:
  done:
    exposed: true
"""


def _settings() -> Settings:
    texts = [
        (Path(f"flowdrop_node_type.flowdrop_node_type.{name}.yml"), text)
        for name, text in (("text_input", LEGACY), ("chat", CHAT), ("logger", MODERN))
    ]
    return Settings().with_registry(NodeTypeRegistry.from_texts(texts))


def test_a_legacy_definition_reads_its_config_block_as_parameters() -> None:
    definition = read_definition(LEGACY, Path("text_input.yml"))
    assert not isinstance(definition, str)
    assert definition.legacy_format
    assert [(p.name, p.configurable, p.default) for p in definition.parameters] == [
        ("defaultValue", True, ""),
        ("placeholder", True, "Type here"),
    ]
    modern = read_definition(MODERN, Path("logger.yml"))
    assert not isinstance(modern, str) and not modern.legacy_format
    bare = read_definition(CHAT, Path("chat.yml"))
    assert not isinstance(bare, str) and bare.legacy_format and bare.parameters == ()


def test_a_legacy_node_s_ports_and_config_keys_are_not_unknown() -> None:
    text = workflow(
        [
            node("t", "text_input", "Ask", data={"config": {"placeholder": "x"}}),
            node("c", "chat", "Chat", data={"config": {}}),
            node("l", "logger", "Log"),
        ],
        [
            {
                "source": "t",
                "target": "c",
                "sourceHandle": "t-output-text",
                "targetHandle": "c-input-message",
            },
            {
                "source": "c",
                "target": "l",
                "sourceHandle": "c-output-reply",
                "targetHandle": "l-input-messag",
            },
        ],
    )
    found = [(f.code, f.message) for f in analyze(text, _settings()).findings]
    # Only the modern type's misspelt port is reported: the legacy ones' are in code.
    assert [code for code, _ in found] == ["FD-UNKNOWN-PORT"], found
    assert "'messag'" in found[0][1]
    # Nor are its config keys judged (R6.c): a pre-1.0 `config:` block holds some defaults
    # only, the processor's schema is in code (the author's demo site: an If/Else node's
    # `matchText`, which drives its loop, is in no block).
    typo = text.replace('"placeholder": "x"', '"matchText": "x"')
    assert "R6.c" not in [f.code for f in analyze(typo, _settings()).findings]


def test_a_workflow_may_expose_a_legacy_node_s_port(tmp_path: Path) -> None:
    """The author's demo site exposes output port `text` of a `text_output` node whose type is
    pre-1.0 (no `outputs:`); the port is the processor's, so R4.d cannot be decided and
    FD-CONTRACT says nothing — even though the node's `config.ports` lists `text`."""
    from flowdrop_lsp.core.workspace.site import SiteIndex
    from tests.support.site import places

    (tmp_path / "flowdrop_node_type.flowdrop_node_type.text_output.yml").write_text(
        "id: text_output\nlabel: 'Text Output'\nversion: 1.0.0\nconfig:\n  format: plain\n",
        encoding="utf-8",
    )
    (tmp_path / "flowdrop_workflow.flowdrop_workflow.show.yml").write_text(
        "id: show\nlabel: Show\nnodes:\n  -\n    id: text_output.1\n    data:\n      label: Out\n"
        "      config:\n        ports:\n          outputs:\n            -\n              id: text\n"
        "              exposed: true\n      metadata:\n        node_type_id: text_output\n"
        "edges: {  }\noutput_ports:\n  -\n    name: text\n    node_id: text_output.1\n"
        "    port: text\n",
        encoding="utf-8",
    )
    index = SiteIndex(tmp_path)
    index.load()
    assert places(index, "FD-CONTRACT") == []
    assert places(index, "R10") == []
