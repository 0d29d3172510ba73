"""ExpressionLanguage by hand: each construct, error spans (code points), reads and their
guards, calls, completion places. The oracle test compares against Symfony itself."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.expressions.base import (
    CompletionPlace,
    NameRead,
    Place,
    ProblemKind,
    SymbolKind,
    SymbolUse,
)
from flowdrop_lsp.core.expressions.expression_language import (
    EL_FUNCTIONS,
    EL_FUNCTIONS_6_4,
    SIGNATURES,
    expression_language_completion_place,
    parse_expression_language,
)

VALID = [
    "input.title ~ ' ' ~ input.body",
    "items[0].name",
    "a ? b : c",
    "x in [1, 2]",
    'name matches "/^a/"',
    "not (a or b)",
    "1_000 + .5 + 1. + 1e5 + 1.5E-3",
    "a ?? b",
    "a?.b?.c()",
    "a contains 'x'",
    "a starts with 'x' and b ends with 'y'",
    "a not in [1]",
    "{a: 1, 'b': 2, 3: c, (d): 4,}",
    "[1, [2], {}]",
    "foo.not()",
    "a ?: b",
    "a ? b",
    "constant('X') ~ enum('A::B') ~ min(1, 2) ~ max(3)",
    "-a ** 2",
    "a..b",
    "a === b !== c",
    "TRUE or FALSE or NULL",
    "'日本' ~ 名前.値",
    "😀 + 1",
    "a\n+\tb",
]


@pytest.mark.parametrize("source", VALID)
def test_valid(source: str) -> None:
    assert parse_expression_language(source).problems == ()


@pytest.mark.parametrize(
    ("source", "span", "message"),
    [
        ("a +", (3, 3), 'Unexpected token "end of expression" of value ""'),
        ("a b", (2, 3), 'Unexpected token "name" of value "b"'),
        ("(a", (0, 1), 'Unclosed "("'),
        ("a)", (1, 2), 'Unexpected ")"'),
        ("[a)", (0, 1), 'Unclosed "["'),
        ("'abc", (0, 4), 'Unexpected character "\'"'),
        ("a.", (2, 2), "Unexpected end of expression"),
        ("a.1", (1, 3), 'Unexpected token "number" of value "0.1"'),
        ("a. 'x'", (3, 6), "Expected name"),
        ("a = 1", (2, 3), 'Unexpected character "="'),
        (
            "{[a]: 1}",
            (1, 2),
            "A hash key must be a quoted string, a number, a name, or an "
            'expression enclosed in parentheses (unexpected token "punctuation" of value "["',
        ),
        (
            "[1 2]",
            (3, 4),
            "An array element must be followed by a comma. Unexpected token "
            '"number" of value "2" ("punctuation" expected with value ",")',
        ),
        ("a xor b", (2, 5), 'Unexpected token "name" of value "xor"'),
        ("a << 1", (3, 4), 'Unexpected token "operator" of value "<"'),
        ("/* c */ a", (0, 1), 'Unexpected token "operator" of value "/"'),
        ("true.a", (4, 5), 'Unexpected token "punctuation" of value "."'),
        # Code points, not bytes: 😀 is one.
        ("😀 + é +", (7, 7), 'Unexpected token "end of expression" of value ""'),
        ("'日本' ~ (", (7, 8), 'Unclosed "("'),
    ],
)
def test_refused_at_symfony_cursor(source: str, span: tuple[int, int], message: str) -> None:
    problems = parse_expression_language(source).problems
    assert [(p.kind, p.start, p.end, p.message) for p in problems] == [
        (ProblemKind.SYNTAX, *span, message)
    ]


def test_an_unknown_function_is_named_and_parsing_goes_on() -> None:
    parsed = parse_expression_language("frist(a) ~ constnat(b) ~ constant(c)")
    assert [(p.kind, p.name, p.start, p.end) for p in parsed.problems] == [
        (ProblemKind.UNKNOWN_FUNCTION, "frist", 0, 5),
        (ProblemKind.UNKNOWN_FUNCTION, "constnat", 11, 19),
    ]
    assert [read.name for read in parsed.reads] == ["a", "b", "c"]
    assert parsed.symbols == (
        SymbolUse(SymbolKind.FUNCTION, "frist", 0, 5),
        SymbolUse(SymbolKind.FUNCTION, "constnat", 11, 19),
        SymbolUse(SymbolKind.FUNCTION, "constant", 25, 33),
    )


def test_the_function_set_is_the_callers() -> None:
    assert "min" in EL_FUNCTIONS and "min" not in EL_FUNCTIONS_6_4
    assert not parse_expression_language("min(1, 2)", EL_FUNCTIONS_6_4).ok
    assert parse_expression_language("my_fn(1)", frozenset({"my_fn"})).ok
    assert {name for _, name in SIGNATURES} == EL_FUNCTIONS


def test_a_lexer_error_comes_first_as_in_symfony() -> None:
    problems = parse_expression_language("nope(1) ~ 'x").problems
    assert [p.message for p in problems] == ['Unexpected character "\'"']


@pytest.mark.parametrize(
    ("source", "reads"),
    [
        ("a.b[c].d(e)", [("a", 0, 1, False), ("c", 4, 5, False), ("e", 9, 10, False)]),
        ("{a: b, (c): 1}", [("b", 4, 5, False), ("c", 8, 9, False)]),
        ("a ?? b", [("a", 0, 1, True), ("b", 5, 6, False)]),
        ("a.b.c ?? d", [("a", 0, 1, True), ("d", 9, 10, False)]),
        ("(a) ?? 1", [("a", 1, 2, True)]),
        ("a + b ?? c", [("a", 0, 1, False), ("b", 4, 5, False), ("c", 9, 10, False)]),
        ("a?.b and a.c", [("a", 0, 1, True), ("a", 9, 10, True)]),
        ("a.b?.c", [("a", 0, 1, False)]),
        ("x ?? y ?? z", [("x", 0, 1, True), ("y", 5, 6, True), ("z", 10, 11, False)]),
        ("true ~ null ~ constant('A')", []),
        ("名前 ~ 😀", [("名前", 0, 2, False), ("😀", 5, 6, False)]),
        ("a + (b", [("a", 0, 1, False), ("b", 5, 6, False)]),  # the tokens are all read
        ("a ~ 'x + b", [("a", 0, 1, False)]),  # a lexer error: the reads before it
    ],
)
def test_reads(source: str, reads: list[tuple[str, int, int, bool]]) -> None:
    expected = tuple(NameRead(name, start, end, guarded) for name, start, end, guarded in reads)
    assert parse_expression_language(source).reads == expected


@pytest.mark.parametrize(
    ("source", "offset", "place"),
    [
        ("", 0, CompletionPlace(Place.NAME, 0, 0)),
        ("inp", 3, CompletionPlace(Place.NAME, 0, 3)),
        ("a + inp", 5, CompletionPlace(Place.NAME, 4, 7)),
        ("input.", 6, CompletionPlace(Place.ATTRIBUTE, 6, 6, "input")),
        ("input.ti", 8, CompletionPlace(Place.ATTRIBUTE, 6, 8, "input")),
        ("input?.ti", 9, CompletionPlace(Place.ATTRIBUTE, 7, 9, "input")),
        ("a.b.", 4, CompletionPlace(Place.ATTRIBUTE, 4, 4, None)),
        ("f(x).", 5, CompletionPlace(Place.ATTRIBUTE, 5, 5, None)),
        ("'inp", 3, CompletionPlace(Place.NONE, 3, 3)),
        ("'a' ~ b", 2, CompletionPlace(Place.NONE, 2, 2)),
        ("'a' ~ b", 7, CompletionPlace(Place.NAME, 6, 7)),
        ("12", 2, CompletionPlace(Place.NONE, 2, 2)),
        ("名前.値", 4, CompletionPlace(Place.ATTRIBUTE, 3, 4, "名前")),
        ("😀.", 2, CompletionPlace(Place.ATTRIBUTE, 2, 2, "😀")),
    ],
)
def test_completion_place(source: str, offset: int, place: CompletionPlace) -> None:
    assert expression_language_completion_place(source, offset) == place
