"""Hover on what FlowDrop's launch checks judge, so that a warning there can be understood where
it is (issue 29):

- On a key of a node's `config` (known or not): the parameters its node type takes in config,
  each with whether it is required and its default, the hovered one marked; an editor key
  FlowDrop injects said so; a key that is none of them said to be ignored at execution, with
  the key it is close to (R6.c's own "did you mean").
- On an edge's `sourceHandle` / `targetHandle` value: the port it names and whether the node on
  that side has it, and that node's ports on that side (outputs for a source handle, inputs for
  a target handle), with the port it is close to when it has none of that name
  (FD-UNKNOWN-PORT's).

Answered from the document's current analysis and the site's node types (what the rules read:
`config_schema_keys`, `core/domain/ports.py`); nothing when the site does not define the node's
type. Written like the other hovers (core/ide/hover.py: lists, wrapped lines)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition, ParameterSpec
from flowdrop_lsp.core.domain.ports import (
    RESERVED_PORTS,
    Direction,
    EdgeEnd,
    PortKind,
    classify_port,
    data_ports,
    edge_ends,
)
from flowdrop_lsp.core.domain.wording import id_text, short_text
from flowdrop_lsp.core.ide import insight
from flowdrop_lsp.core.ide.hover import HoverText, MarkdownWriter, Writer, wrapped
from flowdrop_lsp.core.rules.config_required import required_in_config
from flowdrop_lsp.core.rules.config_unknown_key import close_config_keys, config_schema_keys
from flowdrop_lsp.core.rules.unknown_port import closest_ports
from flowdrop_lsp.core.text.positions import Span
from flowdrop_lsp.core.text.suggestions import did_you_mean

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.document import WorkflowDocument

CONFIG_PATH = ("data", "config")
MAX_LISTED = 40  # parameters or ports listed in one hover
HERE = "← here"


def launch_hover_at(document: WorkflowDocument, offset: int, markdown: bool) -> HoverText | None:
    """The hover on a config key or an edge handle at `offset`; None elsewhere, or when the
    site does not define the node's type."""
    w = MarkdownWriter() if markdown else Writer()
    found = _config_key_hover(document, offset, w) or _handle_hover(document, offset, w)
    if found is None:
        return None
    span, lines = found
    return HoverText(span, "\n".join(piece for line in lines for piece in wrapped(line)), markdown)


def _definition(document: WorkflowDocument, node: Node) -> NodeTypeDefinition | None:
    catalog = document.settings.node_type_catalog
    definition = catalog.get(node.type_id) if catalog is not None else None
    return None if definition is None or definition.legacy_format else definition


def _named(w: Writer, node: Node) -> str:
    ident = w.code(id_text(str(node.id)))
    return (
        f"{w.text(chr(34) + short_text(node.label) + chr(34))} ({ident})" if node.label else ident
    )


def _did_you_mean(w: Writer, names: tuple[str, ...]) -> str:
    return did_you_mean([w.code(short_text(name)) for name in names])


# ----- a config key --------------------------------------------------------------------------


def _config_key_at(node: Node, offset: int) -> tuple[str, Span] | None:
    """The key of the node's config whose token holds `offset`, and that token's span now."""
    config = node.config
    if not isinstance(config, dict) or not config:
        return None
    known = node.config_keys
    if known is None:  # read by the fast path: its spans are re-read, when the offset is inside
        located = node.editor.locate(CONFIG_PATH) if node.editor is not None else None
        if located is None or not located.value.resolve().contains(offset):
            return None
    for key in config:
        if known is not None:
            span = known.get(key)
        else:
            member = node.editor.locate((*CONFIG_PATH, key)) if node.editor is not None else None
            span = member.key if member is not None else None
        if span is not None and (resolved := span.resolve()).contains(offset):
            return key, resolved
    return None


def _config_key_hover(
    document: WorkflowDocument, offset: int, w: Writer
) -> tuple[Span, list[str]] | None:
    node = next(insight.nodes_in(document, offset, offset), None)
    if node is None:
        return None
    at = _config_key_at(node, offset)
    definition = _definition(document, node) if at is not None else None
    if at is None or definition is None:
        return None
    key, span = at
    return span, config_key_lines(document, node, definition, key, w)


def config_key_lines(
    document: WorkflowDocument, node: Node, definition: NodeTypeDefinition, key: str, w: Writer
) -> list[str]:
    """What is said of config key `key` of `node`: what it is, then the type's parameters."""
    schema = config_schema_keys(definition)
    type_text = w.code(id_text(definition.id))
    spec = definition.parameter(key)
    if key in schema and spec is not None:
        status = f"a parameter of node type {type_text}"
    elif key in schema:
        status = "a key FlowDrop's editor adds to a node's config schema"
    else:
        config = node.config if isinstance(node.config, dict) else {}
        close = close_config_keys(key, schema - config.keys())
        taken = "an input an edge feeds, it takes no config" if spec is not None else ""
        status = (
            f"⚠ not one of the parameters node type {type_text} takes in config"
            + (f" ({taken})" if taken else "")
            + ": its value is ignored at execution"
            + (f"; {_did_you_mean(w, close)}" if close else "")
        )
    lines = [f"{w.strong('Config key')} {w.code(short_text(key))} of {_named(w, node)} — {status}"]
    configurable = [p for p in definition.parameters if p.configurable is True]
    required = {p.name for p in required_in_config(definition)}
    lines += ["", f"Node type {type_text} takes in config:", ""]
    if not configurable:
        lines.append("- no parameter")
    for parameter in configurable[:MAX_LISTED]:
        lines.append(_parameter_item(document, w, parameter, parameter.name in required, key))
    if len(configurable) > MAX_LISTED:
        lines.append(f"… and {len(configurable) - MAX_LISTED} more parameters")
    editor = sorted(schema - {p.name for p in configurable})
    lines += ["", "and the editor's keys: " + ", ".join(_marked(w, name, key) for name in editor)]
    return lines


def _marked(w: Writer, name: str, hovered: str) -> str:
    return f"{w.strong(w.code(name))} {HERE}" if name == hovered else w.code(name)


def _parameter_item(
    document: WorkflowDocument, w: Writer, spec: ParameterSpec, required: bool, hovered: str
) -> str:
    facts = []
    if required:
        facts.append("required")
    elif spec.required is True:
        facts.append("required unless an edge feeds it")
    if spec.has_default:
        facts.append(f"default {w.code(document.reader.spell(spec.default))}")
    said = f" — {', '.join(facts)}" if facts else ""
    return f"- {_marked(w, spec.name, hovered)}{said}"


# ----- an edge's handle ----------------------------------------------------------------------


def _handle_at(document: WorkflowDocument, offset: int) -> tuple[Edge, EdgeEnd, Span] | None:
    edge = insight.edge_at(document, offset)
    if edge is None:
        return None
    spans = edge.spans
    for end, span in zip(
        edge_ends(edge), (spans.source_handle_span, spans.target_handle_span), strict=True
    ):
        if span is not None and (resolved := span.resolve()).contains(offset):
            return edge, end, resolved
    return None


def _handle_hover(
    document: WorkflowDocument, offset: int, w: Writer
) -> tuple[Span, list[str]] | None:
    at = _handle_at(document, offset)
    if at is None:
        return None
    _edge, end, span = at
    node = document.graph.nodes_by_id.get(end.node_id) if end.node_id is not None else None
    definition = _definition(document, node) if node is not None else None
    if node is None or definition is None or end.handle is None:
        return None
    return span, handle_lines(node, definition, end, w)


def handle_lines(node: Node, definition: NodeTypeDefinition, end: EdgeEnd, w: Writer) -> list[str]:
    """What is said of an edge's handle: the port it names and whether `node` has it on that
    side, then the node's ports on that side."""
    direction = end.direction
    which = "Source handle" if direction is Direction.OUTPUT else "Target handle"
    head = f"{w.strong(which)} {w.code(short_text(end.handle or ''))}"
    side = direction.value
    ports = data_ports(node, definition, direction)
    reserved = RESERVED_PORTS[direction]
    if end.port is None:
        status = (
            f"⚠ names no {side} port of {_named(w, node)}: a {which.lower()} is written "
            f"{w.code(f'<node id>{direction.marker}<port>')}"
        )
    elif (kind := classify_port(node, definition, direction, end.port)) is PortKind.UNKNOWN:
        close = closest_ports(end.port, (*ports, *reserved))
        status = (
            f"⚠ names {side} port {w.code(short_text(end.port))}, which {_named(w, node)} "
            f"does not have: no data flows on it"
            + (f"; {_did_you_mean(w, close)}" if close else "")
        )
    else:
        why = "" if kind is PortKind.DECLARED else f" ({kind.value})"
        status = f"{side} port {w.code(short_text(end.port))} of {_named(w, node)}{why}"
    lines = [f"{head} — {status}", "", f"Its {direction.plural}:", ""]
    listed = ports[:MAX_LISTED]
    lines += [f"- {_marked(w, port, end.port or '')}" for port in listed] or ["- none"]
    if len(ports) > MAX_LISTED:
        lines.append(f"… and {len(ports) - MAX_LISTED} more {direction.plural}")
    lines += ["", "and the reserved: " + ", ".join(_marked(w, p, end.port or "") for p in reserved)]
    return lines
