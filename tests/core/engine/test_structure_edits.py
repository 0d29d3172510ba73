"""Edits that change how the lines around them are read keep the incremental analysis equal to a
fresh read (issue 25): a space typed before an item's `-`, a `-` one column left of its
siblings', a NUL or a tab typed in a value, a line break libyaml knows and the reads by lines do
not (a lone CR, NEL, U+2028), a no-break space ending an item, a list under a quoted key, a
half-typed JSON element moved to another column by an edit on its line. Each case found is a
named test; a property test replays random edits of that family (tests/support/structure_edits.py)
on the real corpus's workflows, YAML and JSON, and checks that most steps stay incremental."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.builders import CORPUS_CONFIG, CORPUS_JSON, vendored
from tests.support.drupal import workflow
from tests.support.engine import comparable, graph_of
from tests.support.structure_edits import corpus_texts, structure_edit

Edit = tuple[int, int, str]


def edited(text: str, syntax: str, edits: list[Edit]) -> WorkflowDocument:
    """`text` read, then edited edit by edit, each state compared with a fresh read of it."""
    document = WorkflowDocument(text, syntax=syntax)
    document.findings()
    for start, end, new in edits:
        text = text[:start] + new + text[end:]
        document.apply_edit(start, end, new)
        fresh = WorkflowDocument(text, syntax=syntax)
        assert comparable(document) == comparable(fresh), (start, end, new)
    assert document.incremental_failures == []
    return document


def line_offset(text: str, number: int) -> int:
    """Where 1-based line `number` starts."""
    offset = 0
    for _ in range(number - 1):
        offset = text.index("\n", offset) + 1
    return offset


def codes(document: WorkflowDocument) -> list[str]:
    return sorted(f.code for f in document.findings())


def corpus_yaml(name: str) -> str:
    path = CORPUS_CONFIG / f"flowdrop_workflow.flowdrop_workflow.{name}.yml"
    return vendored(path).read_text(encoding="utf-8")


OPERATOR_LOOP = corpus_yaml("aincient_operator_agent_loop")
BRAND_STUDIO = corpus_yaml("brand_studio")
# Tools 'Web Search' and web-search collide (CMP-9) at the agent; 'Other 数据 🤖' is a third.
SMALL = workflow("'Web Search'", "web-search", "'Other 数据 🤖'")


# ----- a `-` off its siblings' column -----------------------------------------------------------


@pytest.mark.parametrize("number", [71, 110, 130, 148])
def test_a_space_typed_before_an_item_marker_of_the_real_operator_loop(number: int) -> None:
    # Each item alone reads, the sequence does not: the marker's line is reported, on its own
    # (a fresh read said 'did not find expected '-' indicator', the edited buffer nothing).
    at = line_offset(OPERATOR_LOOP, number)
    assert OPERATOR_LOOP[at : OPERATOR_LOOP.index("\n", at)] == "  -"
    document = edited(OPERATOR_LOOP, "yaml", [(at, at, " ")])
    assert not document.stats.full_reread
    (syntax,) = document.findings()
    assert syntax.code == "FD-SYNTAX" and (syntax.span.start, syntax.span.end) == (at + 3, at + 4)
    assert syntax.message.startswith("YAML: this item's '-' is at column 4, the other items' at")
    # Deleted again: the document reads as before, and a label keystroke is incremental again.
    label = OPERATOR_LOOP.index("label: 'Chat Input'") + len("label: 'Chat")
    document = edited(OPERATOR_LOOP, "yaml", [(at, at, " "), (at, at + 1, ""), (label, label, "x")])
    assert codes(document) == [] and not document.stats.full_reread


@pytest.mark.parametrize("typed", [" ", "   "], ids=["right of its siblings", "under the keys"])
def test_a_marker_pushed_right_and_back(typed: str) -> None:
    at = SMALL.index("  -\n    id: http_request.2")
    document = edited(SMALL, "yaml", [(at, at, typed), (at, at + len(typed), "")])
    assert codes(document) == ["CMP-9", "CMP-9"]


def test_a_marker_one_column_left_of_its_siblings_and_back() -> None:
    # ` -` among items at 2: an item of its own (the xfails of test_yaml_tolerance), and the
    # collision of the items around it stays.
    at = SMALL.index("  -\n    id: http_request.3")
    document = edited(SMALL, "yaml", [(at, at + 1, "")])
    assert codes(document) == ["CMP-9", "CMP-9", "FD-SYNTAX"]
    label = SMALL.index("'Web Search'") + 1
    document = edited(SMALL, "yaml", [(at, at + 1, ""), (at, at, " "), (label, label, "x")])
    assert codes(document) == [] and not document.stats.full_reread


@pytest.mark.parametrize("marker", [" -", "   -"], ids=["left", "right"])
def test_a_marker_off_its_column_is_reported_once_the_other_broken_item_is_mended(
    marker: str,
) -> None:
    # While another item is broken, a whole read says nothing across the items; mending that
    # item must bring the finding back, however far from the marker it is.
    text = SMALL.replace("  -\n    id: http_request.3", f"{marker}\n    id: http_request.3")
    quote = text.index("'Web Search'") + len("'Web Search")
    text = text[:quote] + text[quote + 1 :]
    document = edited(text, "yaml", [(quote, quote, "'")])
    assert codes(document) == ["CMP-9", "CMP-9", "FD-SYNTAX"]


# ----- characters libyaml refuses ---------------------------------------------------------------


@pytest.mark.parametrize(
    "edits",
    [[(0, 0, "\x00"), (1, 1, "\t")], [(0, 0, "\x00\t")], [(0, 0, "\t"), (0, 0, "\x00")]],
    ids=["NUL then tab", "both at once", "tab then NUL before it"],
)
def test_a_nul_and_a_tab_typed_in_brand_studio(edits: list[Edit]) -> None:
    # Line 159 (1-based) is `      x: -2280`; column 9 (0-based) its value's `-`.
    at = line_offset(BRAND_STUDIO, 159) + 9
    assert BRAND_STUDIO[at - 9 : at + 5] == "      x: -2280"
    document = edited(BRAND_STUDIO, "yaml", [(at + s, at + e, new) for s, e, new in edits])
    (syntax,) = document.findings()
    # Reported at the character, as the JSON reader reports one: not at 1:1 for the document.
    nul = document.text.index("\x00")
    assert (syntax.span.start, syntax.span.end) == (nul, nul + 1)
    assert "unacceptable character #x0000" in syntax.message
    assert not document.stats.full_reread


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x1b", "\x7f", "\x0b", "\ud800", "\udfff"])
def test_a_character_yaml_refuses_typed_in_a_label(char: str) -> None:
    at = SMALL.index("'Other 数据 🤖'") + 3
    document = edited(SMALL, "yaml", [(at, at, char), (at, at + 1, "")])
    assert codes(document) == ["CMP-9", "CMP-9"]
    document = edited(SMALL, "yaml", [(at, at, char)])
    assert codes(document) == ["CMP-9", "CMP-9", "FD-SYNTAX"]


@pytest.mark.parametrize("char", ["\x0b", "\x1f", "\xa0", "\u3000"])
def test_a_character_ending_an_item_stays_in_it(char: str) -> None:
    # Python's str.strip takes them, YAML does not: the toolbox item's span must hold it, or
    # its re-read misses what a whole read reads (a type named `…toolbox\xa0`, a refused \x1f).
    end = SMALL.index("flowdrop_node_processor_toolbox\n") + len("flowdrop_node_processor_toolbox")
    label = SMALL.index("'Web Tools'") + 2
    edited(SMALL, "yaml", [(end, end, char), (label, label, "x"), (label, label + 1, "")])


# ----- line breaks the reads by lines do not see ------------------------------------------------


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85", "\r"])
def test_a_line_break_libyaml_knows_typed_in_an_indentation(char: str) -> None:
    # `    <LS>data:` is a top-level `data:` to libyaml: only a whole read can tell.
    at = SMALL.rindex("    data:\n", 0, SMALL.index("edges:")) + 4
    label = SMALL.index("'Web Search'") + 1
    document = edited(SMALL, "yaml", [(at, at, char), (label, label, "x")])
    assert not document.incremental
    document = edited(SMALL, "yaml", [(at, at, char), (at, at + 1, ""), (label, label, "x")])
    assert codes(document) == [] and not document.stats.full_reread


def test_a_crlf_document_stays_incremental_and_a_lone_cr_does_not() -> None:
    crlf = SMALL.replace("\n", "\r\n")
    label = crlf.index("'Web Search'") + 1
    document = edited(crlf, "yaml", [(label, label, "x")])
    assert not document.stats.full_reread
    # The LF of a CRLF deleted: a lone CR.
    lf = crlf.index("\r\n    id: http_request.2") + 1
    document = edited(crlf, "yaml", [(lf, lf + 1, ""), (label, label, "x")])
    assert not document.incremental


# ----- a list under another spelling of its key -------------------------------------------------


@pytest.mark.parametrize("key", ["'nodes':", '"nodes":', "? nodes\n:"])
def test_a_list_under_a_quoted_key_is_read_whole_when_an_item_breaks(key: str) -> None:
    # A broken document is read item by item under `nodes:` only: under `'nodes':` the list is
    # read with the rest, and an item broken there breaks the rest (a whole read's answer).
    text = SMALL.replace("\nnodes:\n", f"\n{key}\n")
    quote = text.index("'Other 数据 🤖'")
    edge = text.index("    sourceHandle:", text.index("edges:"))
    edited(text, "yaml", [(quote, quote + 1, "")])
    edited(text, "yaml", [(edge, edge + 3, ""), (quote, quote + 1, "")])


# ----- JSON: a half-typed element on the edited line --------------------------------------------


def test_a_broken_json_element_moved_to_another_column() -> None:
    # A form feed breaks the first node; deleting the line break after `"nodes": [` moves it
    # to another column, which decides where a whole read ends it (a '{' first on a line no
    # deeper than the element may be the next one).
    text = vendored(CORPUS_JSON / "workshop_one_ai_call.flowdrop.json").read_text("utf-8")
    feed = text.index('"nodeType": "default"')
    text = text[:feed] + "\x0c" + text[feed:]
    after = text.index('"nodes": [') + len('"nodes": [')
    assert text[after : after + 6] == "\n    {"
    edited(text, "json", [(after, after + 1, "")])
    edited(text, "json", [(after, after, "  ")])


def test_a_broken_json_element_after_another_on_one_line() -> None:
    compact = (
        '{"nodes": [{"id": "a", "type": "agent"}, {"id": "b", "data": {"x":\n'
        '{"label": "B"}}, {"id": "c", "type": "toolbox"}], "edges": []}'
    )
    typed = compact.index('"agent"') + 2
    document = edited(compact, "json", [(typed, typed, "xyz"), (typed, typed + 3, "")])
    assert document.incremental_failures == []


# ----- the family, at random --------------------------------------------------------------------

SEEDS = corpus_texts(
    [
        "reason",
        "workshop_one_ai_call",
        "aincient_onboarding",
        "aincient_policy_links",
        "aincient_brand_specialist_typography",
    ]
)


@pytest.mark.hypothesis
def test_structure_edits_on_the_corpus_equal_a_fresh_read(request: pytest.FixtureRequest) -> None:
    steps: Counter[str] = Counter()

    @settings(max_examples=800 if request.config.getoption("--slow") else 80)
    @given(st.sampled_from(SEEDS), st.integers(0, 2**32), st.integers(1, 8))
    def replay(seed: tuple[str, str], edits_seed: int, count: int) -> None:
        # A seeded generator, not hypothesis's own random: its shrunk draws (the first line,
        # the first character typed) would all land outside the lists.
        rng = random.Random(edits_seed)
        syntax, text = seed
        document = WorkflowDocument(text, syntax=syntax)
        document.findings()
        undo: Edit | None = None
        for _ in range(count):
            if undo is not None and rng.random() < 0.3:
                start, end, new = undo  # typed, then taken back (as the editor's undo does)
            else:
                start, end, new = structure_edit(rng, text)
            undo = (start, start + len(new), text[start:end])
            text = text[:start] + new + text[end:]
            document.apply_edit(start, end, new)
            fresh = WorkflowDocument(text, syntax=syntax)
            assert comparable(document) == comparable(fresh)
            if fresh.incremental:
                assert graph_of(document) == graph_of(fresh)
            steps[syntax] += 1
            steps[f"{syntax} incremental"] += not document.stats.full_reread
        assert document.incremental_failures == []

    replay()
    # Proof only if many steps took the incremental path. These edits are meant to break the
    # structure: a YAML document broken outside its items (a skeleton that no longer reads),
    # or holding a lone CR or a NEL, is read whole until it is repaired, where the JSON
    # parser recovers around most of them. Runs showed 37-41 % of YAML steps incremental and
    # 85-87 % of JSON ones: the bars are well below, to fail when locality is lost.
    assert steps["yaml incremental"] > steps["yaml"] * 0.25, steps
    assert steps["json incremental"] > steps["json"] * 0.6, steps
