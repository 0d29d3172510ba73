"""Inside an expression string, over LSP, under every client profile: diagnostics at the exact
character (through JSON escapes and a YAML block scalar, after emoji and CJK text), the quick
fix of a misspelt filter, hover on a name and on a filter, completion of filters and names,
and go to definition from a name to its dynamic input."""

from __future__ import annotations

import json

import pytest
import yaml
from lsprotocol import types

from tests.support.lsp import Session, apply_edits, doc_position, span_of

# A template after emoji and CJK text, with an escaped quote before the mistake (JSON) or in
# a block scalar (YAML): a misspelt filter `frist`, and a read of the input `query`.
TEMPLATE = (
    '天気 🌦️ "{{ query|frist }}" and {{ query|upper }}\n{% if query is defined %}ok{% endif %}'
)


def _mapper_workflow() -> dict[str, object]:
    return {
        "nodes": [
            {
                "id": "mapper.1",
                "type": "data_mapper",
                "data": {
                    "label": "地図 🗺️",
                    "config": {
                        "engine": "twig",
                        "dynamicInputs": [
                            {"name": "query", "label": "Query", "dataType": "string"}
                        ],
                        "dynamicOutputs": [
                            {
                                "name": "out",
                                "label": "Out",
                                "dataType": "string",
                                "value": TEMPLATE,
                            }
                        ],
                    },
                },
            }
        ],
        "edges": [],
    }


class _Literal(str):
    pass


def _literal_block(dumper: yaml.SafeDumper, value: _Literal) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")


yaml.SafeDumper.add_representer(_Literal, _literal_block)


def _text(syntax: str) -> tuple[str, str, str]:
    data = _mapper_workflow()
    if syntax == "json":
        return "file:///work/expr.flowdrop.json", json.dumps(data, ensure_ascii=False), "json"
    node = data["nodes"][0]  # type: ignore[index]
    node["data"]["config"]["dynamicOutputs"][0]["value"] = _Literal(TEMPLATE)
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    return "file:///work/expr.flowdrop.yaml", text, "yaml"


async def _opened(session: Session, syntax: str) -> tuple[str, str, list[types.Diagnostic]]:
    uri, text, language = _text(syntax)
    session.open(uri, text, language_id=language)
    diagnostics = await session.publishes.wait_for(uri, 1)
    return uri, text, diagnostics


@pytest.mark.parametrize("syntax", ["json", "yaml"])
async def test_a_misspelt_filter_is_an_error_on_its_characters_and_fixed(
    session: Session, syntax: str
) -> None:
    uri, text, diagnostics = await _opened(session, syntax)
    (refused,) = [d for d in diagnostics if d.code == "R11"]
    start, end = span_of(text, refused.range, session.encoding)
    assert text[start:end] == "frist"
    assert refused.severity == types.DiagnosticSeverity.Error
    actions = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=refused.range,
            context=types.CodeActionContext(diagnostics=[refused]),
        )
    )
    assert actions
    (fix,) = [
        a
        for a in actions
        if isinstance(a, types.CodeAction) and a.title == "Write 'first'" and a.edit is not None
    ]
    assert fix.is_preferred
    assert fix.edit is not None and fix.edit.changes is not None or fix.edit.document_changes
    edits = (
        fix.edit.changes[uri]
        if fix.edit.changes
        else [e for change in fix.edit.document_changes for e in change.edits]  # type: ignore[union-attr]
    )
    repaired = apply_edits(text, list(edits), session.encoding)
    loaded = json.loads(repaired) if syntax == "json" else yaml.safe_load(repaired)
    value = loaded["nodes"][0]["data"]["config"]["dynamicOutputs"][0]["value"]
    assert value.rstrip("\n") == TEMPLATE.replace("frist", "first")


@pytest.mark.parametrize("syntax", ["json", "yaml"])
async def test_hover_on_a_name_and_on_a_filter(session: Session, syntax: str) -> None:
    uri, text, _ = await _opened(session, syntax)
    on_name = text.index("query|upper") + 2
    hover = await session.client.text_document_hover_async(
        types.HoverParams(**doc_position(uri, text, on_name, session.encoding))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "dynamic input 'Query' (string) of this data mapper" in hover.contents.value
    assert hover.range is not None
    start, end = span_of(text, hover.range, session.encoding)
    assert text[start:end] == "query"
    on_filter = text.index("query|upper") + len("query|u")
    hover = await session.client.text_document_hover_async(
        types.HoverParams(**doc_position(uri, text, on_filter, session.encoding))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "upper" in hover.contents.value
    assert hover.range is not None
    start, end = span_of(text, hover.range, session.encoding)
    assert text[start:end] == "upper"


@pytest.mark.parametrize("syntax", ["json", "yaml"])
async def test_completion_of_filters_and_names(session: Session, syntax: str) -> None:
    uri, text, _ = await _opened(session, syntax)
    after_bar = text.index("query|upper") + len("query|up")
    found = await session.client.text_document_completion_async(
        types.CompletionParams(**doc_position(uri, text, after_bar, session.encoding))
    )
    assert isinstance(found, types.CompletionList)
    labels = {item.label for item in found.items}
    assert {"upper", "url_encode", "default", "first"} <= labels
    (upper,) = [item for item in found.items if item.label == "upper"]
    assert isinstance(upper.text_edit, types.TextEdit)
    start, end = span_of(text, upper.text_edit.range, session.encoding)
    assert text[start:end] == "upper"
    in_name = text.index("{{ query|upper") + len("{{ qu")
    found = await session.client.text_document_completion_async(
        types.CompletionParams(**doc_position(uri, text, in_name, session.encoding))
    )
    assert isinstance(found, types.CompletionList)
    (query,) = [item for item in found.items if item.label == "query"]
    assert query.kind == types.CompletionItemKind.Variable


@pytest.mark.parametrize("syntax", ["json", "yaml"])
async def test_definition_from_a_name_to_its_dynamic_input(session: Session, syntax: str) -> None:
    uri, text, _ = await _opened(session, syntax)
    on_name = text.index("query|upper") + 1
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(**doc_position(uri, text, on_name, session.encoding))
    )
    assert isinstance(found, list) and len(found) == 1
    location = found[0]
    assert isinstance(location, types.Location)
    start, end = span_of(text, location.range, session.encoding)
    declared = text.index('"name": "query"') + len('"name": ') if syntax == "json" else None
    if declared is not None:
        assert (start, end) == (declared, declared + len('"query"'))
    else:
        assert text[start:end] == "query"
        assert text[:start].rstrip().endswith("name:")
