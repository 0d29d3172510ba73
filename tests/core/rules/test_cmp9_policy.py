"""CMP-9's findings and fix policy: one finding per colliding label, the fewest tools renamed,
references to a renamed name pointed out, no fix that destroys data, valid new names."""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.domain.names import llm_name_problem, sanitize_tool_name
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from flowdrop_lsp.entry import main
from tests.support.builders import at, cmp9_by_node, findings, node, token_span, tool_edge, workflow


def fix_all(text: str) -> str:
    return apply_edits(text, preferred_edits(analyze(text).findings))


def labels(text: str) -> dict[str, Any]:
    nodes = json.loads(text)["nodes"]
    return {
        n["id"]: n["data"].get("label") if isinstance(n.get("data"), dict) else None for n in nodes
    }


def one(text: str, leaf: str) -> Finding:
    found = cmp9_by_node(text)[leaf]
    assert len(found) == 1
    return found[0]


THREE_WAY = workflow(
    [
        node("a", label="Web Search"),
        node("b", label="web-search"),
        node("c", label="WEB SEARCH"),
        node("box", "toolbox", "Kit"),
        node("agent", "agent", "Research Agent"),
    ],
    [
        tool_edge("a", "agent"),
        tool_edge("b", "box"),
        tool_edge("c", "box"),
        tool_edge("box", "agent"),
    ],
)


def test_three_way_collision_keeps_the_first_and_renames_the_others() -> None:
    a, b, c = (one(THREE_WAY, leaf) for leaf in "abc")
    assert a.message == (
        'tool name "web_search" also used by "web-search" (b) and "WEB SEARCH" (c) at '
        '"Research Agent"; the runtime would call only one of them'
    )
    assert a.preferred_fix is not None
    assert a.preferred_fix.title == (
        'Keep "Web Search"; rename "web-search" (b) to "web-search 2" and "WEB SEARCH" (c) to '
        '"WEB SEARCH 3"'
    )
    # The alternative: rename the kept one instead, from the first free number (instead of the
    # planned renames: "web-search" and "WEB SEARCH" keep their names then).
    assert [f.title for f in a.fixes if not f.preferred] == [
        'Rename "Web Search" instead, to "Web Search 2"'
    ]
    assert b.preferred_fix is not None and c.preferred_fix is not None
    assert b.preferred_fix.title == 'Rename "web-search" to "web-search 2"'
    assert c.preferred_fix.title == 'Rename "WEB SEARCH" to "WEB SEARCH 3"'
    # The kept label's fix is the renamed labels' fixes together: fix-all applies each once.
    assert set(a.preferred_fix.edits) == {*b.preferred_fix.edits, *c.preferred_fix.edits}
    fixed = fix_all(THREE_WAY)
    assert labels(fixed) == {
        "a": "Web Search",
        "b": "web-search 2",
        "c": "WEB SEARCH 3",
        "box": "Kit",
        "agent": "Research Agent",
    }
    assert findings(fixed, "CMP-9") == []
    # The kept label's preferred fix alone clears the whole group.
    assert findings(apply_edits(THREE_WAY, a.preferred_fix.edits), "CMP-9") == []
    for finding in (b, c):
        alone = apply_edits(THREE_WAY, finding.preferred_fix.edits)  # type: ignore[union-attr]
        assert finding.node not in {f.node for f in findings(alone, "CMP-9")}


def test_related_information_tells_routes_other_tools_and_consumers() -> None:
    b = one(THREE_WAY, "b")
    related = [(at(THREE_WAY, r.span), r.message) for r in b.related]
    assert related == [
        ('"Research Agent"', 'consumer "Research Agent" (agent): reached through toolbox "Kit"'),
        ('"Web Search"', 'also "web_search": "Web Search" (a), wired directly to "Research Agent"'),
        (
            '"WEB SEARCH"',
            'also "web_search": "WEB SEARCH" (c), through toolbox "Kit" to "Research Agent"',
        ),
    ]
    assert dict(b.extra) == {
        "tool_name": "web_search",
        "consumers": ({"consumer": "agent", "colliding_with": ("a", "c"), "route": ("box",)},),
    }


SHARED = workflow(
    [
        node("a", label="Fetch"),
        node("b", label="fetch"),
        node("box", "toolbox", "Shared Tools"),
        node("reason", "agent", "Reason"),
        node("invoke", "agent", "Invoke"),
        node("third", "agent", "Third"),
    ],
    [
        tool_edge("a", "box"),
        tool_edge("b", "box"),
        tool_edge("box", "reason"),
        tool_edge("box", "invoke"),
        tool_edge("box", "third"),
    ],
)


def test_a_shared_toolbox_gives_one_finding_per_label_naming_every_consumer() -> None:
    cmp9 = findings(SHARED, "CMP-9")
    assert [f.node for f in cmp9] == ["a", "b"]
    assert cmp9[0].message == (
        'tool name "fetch" also used by "fetch" (b) at "Reason", "Invoke" and 1 more '
        "(3 consumers); the runtime would call only one of them"
    )
    consumers = dict(cmp9[0].extra)["consumers"]
    assert [c["consumer"] for c in consumers] == ["reason", "invoke", "third"]
    assert all(c["colliding_with"] == ("b",) and c["route"] == ("box",) for c in consumers)
    # A finding is hashable, like any frozen value (its consumers are read-only dicts).
    assert hash(cmp9[0]) == hash(cmp9[0])
    with pytest.raises(TypeError):
        consumers[0]["consumer"] = "x"


def test_typical_messages_are_short() -> None:
    text = (Path(__file__).parents[3] / "examples" / "research-agent.flowdrop.json").read_text(
        encoding="utf-8"
    )
    for sample in (THREE_WAY, SHARED, text):
        assert all(len(f.message) < 200 for f in findings(sample, "CMP-9"))


# ----- the fewest renames, planned jointly ---------------------------------------------------


def test_several_groups_and_consumers_are_planned_jointly() -> None:
    # x1/x2 collide at agent1, x2/x3 at agent2 (x2 reaches both): x1 keeps "x", so x2 is
    # renamed, and then x3 keeps "x" at agent2.
    text = workflow(
        [
            node("x1", label="X"),
            node("x2", label="x"),
            node("x3", label="X!"),
            node("agent1", "agent"),
            node("agent2", "agent"),
        ],
        [
            tool_edge("x1", "agent1"),
            tool_edge("x2", "agent1"),
            tool_edge("x2", "agent2"),
            tool_edge("x3", "agent2"),
        ],
    )
    fixed = fix_all(text)
    assert [labels(fixed)[n] for n in ("x1", "x2", "x3")] == ["X", "x 2", "X!"]
    assert findings(fixed, "CMP-9") == []
    x3 = one(text, "x3")
    assert x3.preferred_fix is not None
    assert x3.preferred_fix.title == 'Keep "X!"; rename "x" (x2) to "x 2"'


def test_500_same_named_tools_plan_in_linear_time() -> None:
    nodes = [node(f"t{i}", label="Search") for i in range(500)] + [node("agent", "agent")]
    text = workflow(nodes, [tool_edge(f"t{i}", "agent") for i in range(500)], indent=None)
    started = time.perf_counter()
    fixed = fix_all(text)
    assert time.perf_counter() - started < 5
    new = labels(fixed)
    assert new["t0"] == "Search" and new["t1"] == "Search 2" and new["t499"] == "Search 500"
    assert findings(fixed, "CMP-9") == []


# ----- references to a renamed name ----------------------------------------------------------

ROUTED = workflow(
    [
        node("search.1", label="Web Search"),
        node("search.2", label="web-search"),
        node("agent", "agent", "Research Agent"),
        node(
            "gateway",
            "switch_gateway",
            "Route",
            data={"config": {"branches": [{"value": "web_search"}, {"value": "other"}]}},
        ),
        node("note", "text", "Note", data={"config": {"prompt": "web-search", "n": "web"}}),
    ],
    [tool_edge("search.1", "agent"), tool_edge("search.2", "agent")],
)


def test_a_reference_to_the_tool_name_is_pointed_out_and_counted_in_the_titles() -> None:
    kept, renamed = one(ROUTED, "search.1"), one(ROUTED, "search.2")
    branch = token_span(ROUTED, '"web_search"')
    prompt = token_span(ROUTED, '"web-search"', occurrence=1)  # not the label itself
    message = '"web_search" is referenced here; renaming the tool breaks this reference'
    assert [(r.span, r.message) for r in kept.related if r.span == branch] == [(branch, message)]
    # The renamed label's own label is also referenced (the note's prompt).
    assert [r.span for r in renamed.related if "referenced" in r.message] == [branch, prompt]
    assert renamed.preferred_fix is not None and kept.preferred_fix is not None
    assert renamed.preferred_fix.title == (
        'Rename "web-search" to "web-search 2" (its name is referenced 2 times in this workflow)'
    )
    assert kept.preferred_fix.title == (
        'Keep "Web Search"; rename "web-search" (search.2) to "web-search 2" (its name is '
        "referenced 2 times in this workflow)"
    )
    assert [f.title for f in kept.fixes if not f.preferred] == [
        'Rename "Web Search" instead, to "Web Search 2" (its name is referenced 1 time in this '
        "workflow)"
    ]
    # After fix-all the route still reaches a tool: the kept one has the name.
    fixed = fix_all(ROUTED)
    assert labels(fixed)["search.1"] == "Web Search"
    assert json.loads(fixed)["nodes"][3]["data"]["config"]["branches"][0]["value"] == "web_search"
    assert findings(fixed, "CMP-9") == []


def test_references_are_exact_in_the_incremental_engine_after_edits() -> None:
    document = WorkflowDocument(ROUTED)
    text = ROUTED
    # Grow the text before the gateway (its element moves) and edit the gateway itself.
    for old, new in (('"Research Agent"', '"Research Agent 🤖 数据"'), ('"other"', '"web_search"')):
        start = text.index(old)
        document.apply_edit(start, start + len(old), new)
        text = text[:start] + new + text[start + len(old) :]
        assert not document.stats.full_reread
        incremental = [(f.node, f.message, f.related, f.fixes) for f in document.findings()]
        scratch = [(f.node, f.message, f.related, f.fixes) for f in analyze(text).findings]
        assert incremental == scratch
    kept = next(f for f in document.findings() if f.node == "search.1")
    spans = [r.span for r in kept.related if "referenced" in r.message]
    assert [at(text, span) for span in spans] == ['"web_search"', '"web_search"', '"web-search"']
    assert spans[1] == token_span(text, '"web_search"', occurrence=1)
    assert spans[2] == token_span(text, '"web-search"', occurrence=1)


def test_labels_and_type_metadata_are_not_references() -> None:
    text = workflow(
        [
            node("a", None, data={"metadata": {"node_type_id": "http_request"}}),
            node("b", None, data={"metadata": {"node_type_id": "http_request"}}),
            node("c", "agent", "http_request"),
            node("agent", "agent"),
        ],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
    )
    for finding in findings(text, "CMP-9"):
        assert not [r for r in finding.related if "referenced" in r.message]
        assert all("referenced" not in fix.title for fix in finding.fixes)


# ----- never destroy data --------------------------------------------------------------------


def test_a_node_whose_data_is_not_an_object_keeps_its_name_and_another_is_renamed() -> None:
    text = workflow(
        [
            node("labelled", label="HTTP Request"),
            node("odd", data={"x": 1}),
            node("agent", "agent"),
        ],
        [tool_edge("labelled", "agent"), tool_edge("odd", "agent")],
        indent=None,
    ).replace('{"x": 1}', '"Web Search"')
    odd, labelled = one(text, "odd"), one(text, "labelled")
    assert odd.message.endswith('; no automatic rename of this tool: its "data" is not an object')
    # Its only fix renames the other tool; it is never renamed itself.
    assert [f.title for f in odd.fixes] == [
        'Keep "http_request"; rename "HTTP Request" (labelled) to "HTTP Request 2"'
    ]
    assert labelled.preferred_fix is not None
    assert labelled.preferred_fix.title == 'Rename "HTTP Request" to "HTTP Request 2"'
    fixed = fix_all(text)
    assert json.loads(fixed)["nodes"][1]["data"] == "Web Search"
    assert labels(fixed)["labelled"] == "HTTP Request 2"
    assert findings(fixed, "CMP-9") == []


# ----- valid new names -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("123 search", "tool 123 search 2"),
        ("_private", "_private 2"),  # its name is `private_2`: `_` is trimmed
        ("数据", "数据 http_request 2"),
        ("🚀", "🚀 http_request 2"),
        ("📦 Über", "📦 Über 2"),
        ("Search 9", "Search 10"),
    ],
)
def test_new_labels_make_valid_llm_names(label: str, expected: str) -> None:
    text = workflow(
        [node("a", label=label), node("b", label=label), node("agent", "agent")],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
    )
    fixed = fix_all(text)
    assert labels(fixed)["b"] == expected
    assert llm_name_problem(sanitize_tool_name(expected)) is None
    assert findings(fixed, "CMP-9") == []


def test_the_alternative_takes_the_first_free_number() -> None:
    pair = [node("a", label="Web Search"), node("b", label="Web Search"), node("x", "agent")]
    text = workflow(pair, [tool_edge("a", "x"), tool_edge("b", "x")])
    kept = one(text, "a")
    assert [f.title for f in kept.fixes if not f.preferred] == [
        'Rename "Web Search" instead, to "Web Search 2"'
    ]
    # A number another tool there really has is skipped, by the plan and the alternative alike.
    taken = workflow(
        [*pair, node("c", label="Web Search 2")],
        [tool_edge("a", "x"), tool_edge("b", "x"), tool_edge("c", "x")],
    )
    kept = one(taken, "a")
    assert kept.preferred_fix is not None
    assert kept.preferred_fix.title.endswith('to "Web Search 3"')
    assert [f.title for f in kept.fixes if not f.preferred] == [
        'Rename "Web Search" instead, to "Web Search 3"'
    ]
    renamed = apply_edits(taken, next(f for f in kept.fixes if not f.preferred).edits)
    assert findings(renamed, "CMP-9") == []


def test_a_long_label_is_cut_before_the_number_so_the_name_fits_64_characters() -> None:
    long_label = "Fetch the page " + "x" * 85  # 100 characters
    text = workflow(
        [node("a", label=long_label), node("b", label=long_label), node("agent", "agent")],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
    )
    new = labels(fix_all(text))["b"]
    assert new.startswith("Fetch the page xxx") and new.endswith(" 2")
    assert len(sanitize_tool_name(new)) <= 64
    assert llm_name_problem(sanitize_tool_name(new)) is None


# ----- the CLI's JSON ------------------------------------------------------------------------


def test_json_output_has_one_object_per_consumer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "shared.flowdrop.json"
    path.write_text(SHARED, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["check", "--format", "json", str(path)]) == 1
    items = [i for i in json.loads(capsys.readouterr().out) if i["code"] == "CMP-9"]
    assert [i["node"] for i in items] == ["a", "b"]
    assert items[0]["tool_name"] == "fetch"
    assert items[0]["consumers"] == [
        {"consumer": "reason", "colliding_with": ["b"], "route": ["box"]},
        {"consumer": "invoke", "colliding_with": ["b"], "route": ["box"]},
        {"consumer": "third", "colliding_with": ["b"], "route": ["box"]},
    ]
    assert not {"consumer", "colliding_with", "route"} & items[0].keys()
