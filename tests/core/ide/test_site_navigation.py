"""Navigation across the files of a site (core/ide/site_navigation.py), on the real site
(tests/corpus/atelier-cms): brand_studio calls three brand specialists through node types whose
`executor_plugin` names them."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowdrop_lsp.core.ide.hover import HoverText
from flowdrop_lsp.core.ide.site_navigation import (
    SiteLocation,
    SiteNavigation,
    SymbolKind,
    TargetKind,
    combined_hover,
)
from flowdrop_lsp.core.text.positions import Span
from flowdrop_lsp.core.workspace.site import SiteIndex

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "atelier-cms" / "config" / "sync"
WORKFLOW = "flowdrop_workflow.flowdrop_workflow.{}.yml"
NODE_TYPE = "flowdrop_node_type.flowdrop_node_type.{}.yml"
COLOUR = "aincient_brand_specialist_colour"
COLOUR_TYPE = "flowdrop_workflow_executor_flowdrop_workflow_" + COLOUR
COLOUR_LABEL = "'Run workflow: Brand colour & contrast specialist'"


@pytest.fixture(scope="module")
def nav() -> SiteNavigation:
    index = SiteIndex(CORPUS)
    index.load()
    return SiteNavigation(index)


def path_of(name: str) -> str:
    return str(CORPUS / name)


def text_of(nav: SiteNavigation, path: str) -> str:
    text = nav.index.text(path)
    assert text is not None
    return text


def shown(nav: SiteNavigation, locations: list[SiteLocation]) -> list[tuple[str, str, int]]:
    """(file name, the text spanned, its 1-based line)."""
    found = []
    for location in locations:
        text = text_of(nav, location.path)
        line = text.count("\n", 0, location.span.start) + 1
        found.append(
            (Path(location.path).name, text[location.span.start : location.span.end], line)
        )
    return found


BRAND_STUDIO = path_of(WORKFLOW.format("brand_studio"))


def at(
    nav: SiteNavigation, path: str, needle: str, after: str | None = None, inside: int = 3
) -> int:
    text = text_of(nav, path)
    start = text.index(after) if after is not None else 0
    return text.index(needle, start) + inside


def test_definition_from_a_call_nodes_label_is_the_callees_id_line(nav: SiteNavigation) -> None:
    offset = at(nav, BRAND_STUDIO, COLOUR_LABEL)
    assert nav.target_at(BRAND_STUDIO, offset) is not None
    assert shown(nav, nav.definitions(BRAND_STUDIO, offset)) == [
        (WORKFLOW.format(COLOUR), COLOUR, 13)
    ]


def test_definition_from_a_node_type_id_is_the_types_id_line(nav: SiteNavigation) -> None:
    offset = at(nav, BRAND_STUDIO, "prompt_template", after="node_type_id: prompt_template")
    assert shown(nav, nav.definitions(BRAND_STUDIO, offset)) == [
        (NODE_TYPE.format("prompt_template"), "prompt_template", 9)
    ]
    # The call node's type token goes to the calling type (not the callee).
    offset = at(nav, BRAND_STUDIO, COLOUR_TYPE, after=f"node_type_id: {COLOUR_TYPE}")
    [(name, token, _line)] = shown(nav, nav.definitions(BRAND_STUDIO, offset))
    assert (name, token) == (NODE_TYPE.format(COLOUR_TYPE), COLOUR_TYPE)


def test_definition_from_an_executor_plugin_is_the_called_workflow(nav: SiteNavigation) -> None:
    calling = path_of(NODE_TYPE.format(COLOUR_TYPE))
    offset = at(nav, calling, "flowdrop_workflow_executor:flowdrop_workflow:", inside=10)
    target = nav.target_at(calling, offset)
    assert target is not None and target.kind is TargetKind.PLUGIN and target.name == COLOUR
    assert shown(nav, nav.definitions(calling, offset)) == [(WORKFLOW.format(COLOUR), COLOUR, 13)]


def test_nothing_off_the_sites_names(nav: SiteNavigation) -> None:
    text = text_of(nav, BRAND_STUDIO)
    for offset in (0, text.index("'Brand Studio'") + 2, text.index("'Chat Input'") + 2):
        assert nav.definitions(BRAND_STUDIO, offset) == []
    # A file the index did not read.
    assert nav.definitions(str(CORPUS / "elsewhere.yml"), 10) == []


def test_references_of_a_node_type_cover_every_workflow(nav: SiteNavigation) -> None:
    offset = at(nav, BRAND_STUDIO, "prompt_template", after="node_type_id: prompt_template")
    found = shown(nav, nav.references(BRAND_STUDIO, offset, include_declaration=False))
    users = sorted(
        p.name
        for p in CORPUS.glob(WORKFLOW.format("*"))
        if "node_type_id: prompt_template\n" in p.read_text(encoding="utf-8")
    )
    assert sorted({name for name, _, _ in found}) == users
    assert len(users) >= 8
    assert {token for _, token, _ in found} == {"prompt_template"}
    # From the type's own id, the declaration first when asked for.
    definition = path_of(NODE_TYPE.format("prompt_template"))
    offset = at(nav, definition, "id: prompt_template", inside=5)
    with_declaration = shown(nav, nav.references(definition, offset, include_declaration=True))
    assert with_declaration[0][:2] == (NODE_TYPE.format("prompt_template"), "prompt_template")
    assert with_declaration[1:] == found


def test_references_of_a_workflow_are_its_callers(nav: SiteNavigation) -> None:
    callee = path_of(WORKFLOW.format(COLOUR))
    offset = at(nav, callee, f"id: {COLOUR}", inside=6)
    assert shown(nav, nav.references(callee, offset, include_declaration=True)) == [
        (WORKFLOW.format(COLOUR), COLOUR, 13),
        (WORKFLOW.format("brand_studio"), COLOUR_LABEL, 470),
        (
            NODE_TYPE.format(COLOUR_TYPE),
            f"'flowdrop_workflow_executor:flowdrop_workflow:{COLOUR}'",
            27,
        ),
    ]
    # The same from the call node's label.
    from_call = nav.references(BRAND_STUDIO, at(nav, BRAND_STUDIO, COLOUR_LABEL), False)
    assert len(from_call) == 2


def test_hover_on_a_call_node_shows_the_callee(nav: SiteNavigation) -> None:
    offset = at(nav, BRAND_STUDIO, COLOUR_LABEL)
    hover = nav.hover(BRAND_STUDIO, offset, markdown=False)
    assert hover is not None and not hover.markdown
    text = text_of(nav, BRAND_STUDIO)
    assert text[hover.span.start : hover.span.end] == COLOUR_LABEL
    lines = hover.text.splitlines()
    assert lines[0] == f'Calls workflow "Brand specialist: Colour & contrast" ({COLOUR})'
    assert lines[2].startswith("Single-pass colour & contrast specialist.")
    assert "- Inputs: ask, current_state" in lines
    assert "- Outputs: slice" in lines
    assert "- Required parameters: ask" in lines
    assert lines[-1] == f"Defined in {WORKFLOW.format(COLOUR)}, line 13"
    markdown = nav.hover(BRAND_STUDIO, offset, markdown=True)
    assert markdown is not None and markdown.markdown
    assert markdown.text.startswith(
        f'**Calls workflow** "Brand specialist: Colour \\& contrast" (`{COLOUR}`)'
    )
    assert "- Inputs: `ask`, `current_state`" in markdown.text
    # The call node's type token too; a node that calls nothing has no site hover.
    on_type = at(nav, BRAND_STUDIO, COLOUR_TYPE, after=f"node_type_id: {COLOUR_TYPE}")
    typed = nav.hover(BRAND_STUDIO, on_type, markdown=False)
    assert typed is not None and typed.text == hover.text
    assert nav.hover(BRAND_STUDIO, at(nav, BRAND_STUDIO, "'Chat Input'"), False) is None


def test_combined_hover_keeps_the_documents_own_first() -> None:
    local = HoverText(Span(1, 5), "local", True)
    site = HoverText(Span(1, 5), "site", True)
    assert combined_hover(local, None) is local
    assert combined_hover(None, site) is site
    both = combined_hover(local, site)
    assert both is not None and both.text == "local\n\n---\n\nsite"


def test_symbols_cover_workflows_types_and_nodes(nav: SiteNavigation) -> None:
    found = nav.symbols("colour", 100)
    kinds = [symbol.kind for symbol in found]
    assert kinds == sorted(kinds, key=list(SymbolKind).index)  # workflows, types, nodes
    workflow = found[0]
    assert (workflow.name, workflow.detail) == ("Brand specialist: Colour & contrast", COLOUR)
    assert shown(nav, [SiteLocation(workflow.path, workflow.span)]) == [
        (WORKFLOW.format(COLOUR), COLOUR, 13)
    ]
    assert any(s.kind is SymbolKind.NODE_TYPE and s.detail == COLOUR_TYPE for s in found)
    assert any(s.kind is SymbolKind.NODE and s.path == BRAND_STUDIO for s in found)
    # Capped; the nodes of the files searched elsewhere (open buffers) left out.
    assert len(nav.symbols("", 7)) == 7
    skipped = nav.symbols("colour", 100, skip_nodes_of=frozenset({BRAND_STUDIO}))
    assert not any(s.kind is SymbolKind.NODE and s.path == BRAND_STUDIO for s in skipped)
    assert nav.symbols("zzzzqqq", 100) == []
