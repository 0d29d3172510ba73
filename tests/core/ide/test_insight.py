"""core/ide/insight.py: what a consumer is offered, where a tool goes, what a toolbox forwards, which
tool a branch selects, and what is under a cursor — on JSON and Drupal YAML, after edits."""

from __future__ import annotations

from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.ide import insight
from tests.support.builders import REPO, node, token_span, tool_edge, workflow
from tests.support.samples import SITE_YAML, agent_loop

EXAMPLE = REPO / "examples" / "research-agent.flowdrop.json"


def example() -> tuple[str, WorkflowDocument]:
    text = EXAMPLE.read_text(encoding="utf-8")
    return text, WorkflowDocument(text)


def test_a_consumer_sees_every_tool_with_its_route_and_collisions() -> None:
    _, document = example()
    seen = insight.consumer_tools(document.context, "reason.1")
    assert [(t.tool_name, t.node, t.route, t.colliding_with) for t in seen.tools] == [
        ("calculator", "calculator.1", ("toolbox.1",), ()),
        ("web_search", "http_request.1", ("toolbox.2", "toolbox.1"), ("http_request.2",)),
        ("web_search", "http_request.2", ("toolbox.1",), ("http_request.1",)),
    ]
    assert seen.collisions == 1
    assert insight.tool_count(document.context, "reason.1") == insight.ToolCount(3, 1)


def test_a_tool_reaches_its_consumers_through_its_toolboxes() -> None:
    _, document = example()
    reach = insight.tool_reach(document.context, "http_request.1")
    assert reach.tool_name == "web_search"
    assert reach.reaches == (
        insight.Reach("reason.1", ("toolbox.2", "toolbox.1"), ("http_request.2",)),
    )
    calculator = insight.tool_reach(document.context, "calculator.1")
    assert calculator.reaches == (insight.Reach("reason.1", ("toolbox.1",), ()),)


def test_a_toolbox_forwards_what_reaches_it_to_its_consumers() -> None:
    _, document = example()
    inner = insight.toolbox_forwarding(document.context, "toolbox.2")
    assert [(t.node, t.route) for t in inner.tools] == [("http_request.1", ())]
    assert inner.consumers == ("reason.1",)
    outer = insight.toolbox_forwarding(document.context, "toolbox.1")
    assert [(t.tool_name, t.node, t.route) for t in outer.tools] == [
        ("calculator", "calculator.1", ()),
        ("web_search", "http_request.1", ("toolbox.2",)),
        ("web_search", "http_request.2", ()),
    ]


def test_one_tool_at_two_consumers_collides_only_where_a_twin_is() -> None:
    text = workflow(
        [
            node("a", label="Search"),
            node("b", label="search"),
            node("agent_1", "agent", "One"),
            node("agent_2", "agent", "Two"),
        ],
        [tool_edge("a", "agent_1"), tool_edge("a", "agent_2"), tool_edge("b", "agent_2")],
    )
    reach = insight.tool_reach(WorkflowDocument(text).context, "a")
    assert reach.reaches == (
        insight.Reach("agent_1", (), ()),
        insight.Reach("agent_2", (), ("b",)),
    )


def test_roles() -> None:
    _, document = example()
    ctx = document.context
    assert insight.is_tool(ctx, "http_request.1")
    assert not insight.is_tool(ctx, "toolbox.1")  # a toolbox forwards, it is not a tool
    assert insight.is_toolbox(ctx, "toolbox.1") and insight.is_consumer(ctx, "reason.1")
    assert not any(
        check(ctx, "chat_input.1")
        for check in (insight.is_tool, insight.is_consumer, insight.is_toolbox)
    )


def test_what_is_under_the_cursor() -> None:
    text, document = example()
    label = token_span(text, '"Web Search"')
    for offset in (label.start, label.start + 4, label.end):
        target = insight.target_at(document, offset)
        assert isinstance(target, insight.NodeTarget)
        assert target.node.id == "http_request.1" and target.span == label
    ident = token_span(text, '"toolbox.2"')  # its id, in the node (not in an edge)
    target = insight.target_at(document, ident.start + 1)
    assert isinstance(target, insight.NodeTarget) and target.node.id == "toolbox.2"
    assert insight.target_at(document, text.index('"position"')) is None  # in a node, not a name
    assert insight.target_at(document, text.index('"edges"')) is None
    assert insight.target_at(document, 0) is None


def test_nodes_in_a_range_are_only_those_overlapping_it() -> None:
    text, document = example()
    start = token_span(text, '"toolbox.2"').start
    end = token_span(text, '"Web Search"').start
    assert [n.id for n in insight.nodes_in(document, start, end)] == [
        "toolbox.2",
        "http_request.1",
    ]
    assert [n.id for n in insight.nodes_in(document, len(text) - 5, len(text))] == []


def test_the_cursor_follows_edits_before_the_node() -> None:
    text, document = example()
    insert_at = text.index('"nodes"')
    document.apply_edit(insert_at, insert_at, '"note": "数据 😀",\n  ')
    text = document.text
    label = token_span(text, '"web-search"')
    target = insight.target_at(document, label.start + 2)
    assert isinstance(target, insight.NodeTarget)
    assert target.node.id == "http_request.2" and target.span == label
    # Relabel it: the tool reached is named anew, without re-reading the document.
    document.apply_edit(label.start + 1, label.end - 1, "Calculator")
    assert not document.stats.full_reread
    seen = insight.consumer_tools(document.context, "reason.1")
    assert [t.tool_name for t in seen.tools if t.collides] == ["calculator", "calculator"]


def test_a_duplicate_definition_plays_no_part() -> None:
    text = workflow(
        [node("a", label="First"), node("a", label="Second"), node("agent", "agent", "Agent")],
        [tool_edge("a", "agent")],
    )
    document = WorkflowDocument(text)
    assert insight.target_at(document, token_span(text, '"Second"').start + 1) is None
    first = insight.target_at(document, token_span(text, '"First"').start + 1)
    assert isinstance(first, insight.NodeTarget)


def test_a_branch_value_selects_the_tool_of_that_name() -> None:
    text = agent_loop(["web_search", "maps_lookup"], tools=("Web Search", "Calculator"))
    document = WorkflowDocument(text)
    live = insight.target_at(document, token_span(text, '"web_search"').start + 1)
    dead = insight.target_at(document, token_span(text, '"maps_lookup"').start + 1)
    default = insight.target_at(document, token_span(text, '"default"', 1).start + 1)
    assert isinstance(live, insight.BranchTarget) and isinstance(dead, insight.BranchTarget)
    assert isinstance(default, insight.BranchTarget)
    ctx = document.context
    chosen = insight.branch_selection(ctx, live.gateway, live.index)
    assert chosen is not None and chosen.selected == (("reason.1", "t0"),)
    assert chosen.consumers == ("reason.1",) and not chosen.is_default
    none = insight.branch_selection(ctx, dead.gateway, dead.index)
    assert none is not None and none.selected == () and none.value == "maps_lookup"
    fallback = insight.branch_selection(ctx, default.gateway, default.index)
    assert fallback is not None and fallback.is_default


def test_yaml_documents_answer_the_same() -> None:
    text = SITE_YAML.read_text(encoding="utf-8")
    document = WorkflowDocument(text, syntax="yaml")
    label = token_span(text, "'Web Search'")
    target = insight.target_at(document, label.start + 3)
    assert isinstance(target, insight.NodeTarget) and target.span == label
    assert target.node.id == "http_request.1"
    plain = token_span(text, "label: web-search")  # a plain scalar
    target = insight.target_at(document, plain.end)
    assert isinstance(target, insight.NodeTarget) and target.node.id == "http_request.2"
    ctx = document.context
    seen = insight.consumer_tools(ctx, "aincient_reason.1")
    assert seen.collisions == 1 and len(seen.tools) == 3
    dead = insight.target_at(document, token_span(text, "value: maps_lookup").end - 1)
    assert isinstance(dead, insight.BranchTarget)
    selection = insight.branch_selection(ctx, dead.gateway, dead.index)
    assert selection is not None and selection.selected == ()
    assert selection.consumers == ("aincient_reason.1",)


def test_names_in_answers_are_cut_and_routes_elided() -> None:
    text = workflow([node("t", label="x" * 500), node("agent", "agent", "A")], [])
    ctx = WorkflowDocument(text).context
    label = insight.node_label(ctx, "t")
    assert label is not None and len(label) == insight.NAME_LIMIT and label.endswith("…")
    assert insight.node_label(ctx, "nowhere") is None
    chain = tuple(f"box{i}" for i in range(10))
    assert insight.route_labels(ctx, chain) == ["box0", "box1", "… 7 more …", "box9"]


def test_an_id_no_node_defines_is_no_tool_offered() -> None:
    text = workflow(
        [node("a", label="Search"), node("agent", "agent", "Agent")],
        [tool_edge("a", "agent"), tool_edge("ghost", "agent")],
    )
    ctx = WorkflowDocument(text).context
    assert [tool.node for tool in insight.consumer_tools(ctx, "agent").tools] == ["a"]
    assert insight.tool_count(ctx, "agent") == insight.ToolCount(1, 0)
