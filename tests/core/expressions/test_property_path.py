"""Property paths: Symfony 6.4 … 7.x's PropertyPath grammar plus FlowDrop's dot→bracket reading,
by hand and against Debian's PropertyPath (5.4) on a generated corpus."""

from __future__ import annotations

import itertools
import random

import pytest

from flowdrop_lsp.core.expressions.base import NameRead
from flowdrop_lsp.core.expressions.property_path import parse_property_path
from tests.support.property_path_oracle import symfony_property_paths

VALID = [
    "a",
    "a.b",
    "a.b.c",
    "a[0]",
    "a[b]",
    "a.b[c].d",
    "[a]",
    "[a][b]",
    "[a].b",
    "a[0][1]",
    "a[b c]",
    "a b",
    "a?.b",
    "a.b?.c",
    "a\\.b",
    "a\\[b",
    "a.b|c",
    "a.b-c",
    "名前.値",
    "😀.x",
    "a[😀]",
    "a[.]",
    "a[[]",
    "user.field_tags[0].target_id",
]
REFUSED = {
    # path: (start, end) of the problem
    "": (0, 0),
    ".a": (0, 1),
    "a.": (1, 2),
    "a..b": (1, 3),
    "a.[0]": (1, 3),
    "a[": (1, 2),
    "a[b": (1, 3),
    "a[]": (1, 3),
    "a]b": (1, 2),
    "a.b]": (3, 4),
    "a\\": (1, 2),
    "[]": (0, 2),
    "a[b]?.c": (4, 5),
    "a[b]c": (4, 5),
    "[a": (0, 2),
    "名前..値": (2, 4),
    "😀.": (1, 2),
}


@pytest.mark.parametrize("path", VALID)
def test_valid_paths(path: str) -> None:
    assert parse_property_path(path).problems == ()


@pytest.mark.parametrize(("path", "span"), REFUSED.items())
def test_refused_paths_at_their_span(path: str, span: tuple[int, int]) -> None:
    problems = parse_property_path(path).problems
    assert [(problem.start, problem.end) for problem in problems] == [span]


@pytest.mark.parametrize(
    ("path", "read"),
    [
        ("a.b", NameRead("a", 0, 1)),
        ("[a][b]", NameRead("a", 1, 2)),
        ("a?.b", NameRead("a", 0, 1, guarded=True)),
        ("名前.値", NameRead("名前", 0, 2)),
        ("a\\.b.c", NameRead("a.b", 0, 4)),
        ("a..b", NameRead("a", 0, 1)),
    ],
)
def test_the_root_is_the_name_read(path: str, read: NameRead) -> None:
    assert parse_property_path(path).reads == (read,)


def _generated() -> list[str]:
    pieces = ["a", "b", ".", "[", "]", "?", "\\", "é", "0", " "]
    paths = ["".join(p) for n in range(1, 5) for p in itertools.product(pieces[:6], repeat=n)]
    rng = random.Random(7)
    paths += ["".join(rng.choices(pieces, k=rng.randrange(1, 9))) for _ in range(1500)]
    return list(dict.fromkeys(paths))


# Where Symfony 5.4 (the oracle) and the grammar we follow differ, and why.
DIFFERENCES = {
    "escapes": "6.3 lets `\\` escape any character (`a\\.` is one name); 5.4 has no escapes",
    "pipe": "5.4 stops a segment after the first at `|` (its singular separator); 6.x does not",
    "stray ]": "FlowDrop reads dots as brackets, so a `]` outside brackets closes nothing; "
    "Symfony alone takes it as part of a name",
}


def _difference(path: str, ours_ok: bool, theirs_ok: bool) -> str | None:
    """Which of DIFFERENCES explains a disagreement on `path`, if one may."""
    if "\\" in path:
        return "escapes"
    if "|" in path and ours_ok and not theirs_ok:
        return "pipe"
    ours = parse_property_path(path).problems
    if ours and ours[0].message.startswith('Unexpected "]"'):
        return "stray ]"
    return None


def test_same_verdict_and_position_as_symfony() -> None:
    paths = _generated()
    unexplained = []
    explained = 0
    for path, (theirs_ok, position) in zip(paths, symfony_property_paths(paths), strict=True):
        parsed = parse_property_path(path)
        at = len(path[: parsed.problems[0].start].encode()) if parsed.problems else None
        if parsed.ok == theirs_ok and (theirs_ok or position is None or at == position):
            continue
        if _difference(path, parsed.ok, theirs_ok) is None:
            unexplained.append((path, parsed.problems, theirs_ok, position))
        else:
            explained += 1
    assert unexplained == []
    assert explained < 0.4 * len(paths)  # most are a `]` or `\\` the generator put in
