"""Config YAML read as Drupal reads it: our reader against Symfony's own parser (the oracle,
tests/support/symfony_yaml.py), on generated plain scalars and on real workflow documents
whose labels, ids and config values are such scalars. Any disagreement fails.

One difference is by design: Debian ships Symfony 5.4, Drupal 10.3/11 run Symfony 6.4/7,
and 6.0 stopped reading a leading-zero digit string (`0755`, `-017`) as an octal integer: we
read it as 6.4 does, a string (core/syntax/yaml/scalars.py)."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from flowdrop_lsp.core.syntax.tree import JArray, JLiteral, JNumber, JObject, JsonValue, JString
from flowdrop_lsp.core.syntax.yaml.reader import parse_yaml
from flowdrop_lsp.core.syntax.yaml.scalars import plain_value
from flowdrop_lsp.core.syntax.yaml.writer import yaml_scalar
from tests.support.symfony_yaml import symfony_parse

CORPUS = Path(__file__).parents[3] / "corpus" / "atelier-cms" / "config" / "sync"
# Symfony 5.4 only: a leading-zero octal digit string is an integer there, a string since 6.0.
_OCTAL_BEFORE_6 = re.compile(r"-?0[0-7]+")


def _words(text: str) -> list[str]:
    return text.split()


# The scalars the issue measured, and the corners of Symfony's evaluateScalar.
FIXED = [
    *_words(
        """
        yes no on off Yes NO On OFF y n Y N true false True FALSE tRuE null Null NULL ~ 12:30
        1:20 0b101 1e3 1E3 1e-3 +1e3 0o17 -0o17 +0o17 0o 0o_7 0x1F 0X1f 0x_ff 0 -0 +0 00 007 08
        09 0755 -0755 1_000 1__0 _1 1_ +1_000 1_000.5 1_0.5_0 1. .5 -.5 .inf -.inf +.inf .NaN
        .nan .Inf 9223372036854775807 9223372036854775808 -9223372036854775808
        -9223372036854775809 1e400 -1e400 12e03 1.5e+3 0.0 -0.0 2026-01-01 2026-1-1 2026-02-30
        2026-00-10 2026-01-00 2001-12-14t21:59:43.10-05:00 2001-12-14T21:59:43Z 1970-01-01
        1969-12-31 20260101 2026-01 12:30:45 1:2:3 Web web_search web-search Web_Search café 天気
        🌦 x1 1x 1a 0xg 1e 1e+ e3 +e3 - + . ..
        """
    ),
    "2001-12-14 21:59:43.10 -5",
    "2026-01-01 24:30:00",
    "2026-01-01 12:00:60",
]

_PIECES = [*"0123456789", "0", "1", *"+-._:eExXoObB", "~", " ", "T", "Z", "inf", "nan"]
_WORDS = ["yes", "no", "on", "off", "true", "false", "null", "y", "n", "Web", "x"]


def _generated(count: int, seed: int) -> list[str]:
    pick = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        if pick.random() < 0.15:
            word = pick.choice(_WORDS)
            text = "".join(c.upper() if pick.random() < 0.5 else c for c in word)
        elif pick.random() < 0.1:
            text = f"{pick.randint(1900, 2100)}-{pick.randint(0, 13)}-{pick.randint(0, 32)}" + (
                f" {pick.randint(0, 25)}:{pick.randint(0, 60):02}:{pick.randint(0, 61):02}"
            ) * pick.randint(0, 1)
        else:
            text = "".join(pick.choice(_PIECES) for _ in range(pick.randint(1, 7)))
        text = text.strip()
        # A plain scalar YAML's syntax takes as one value on a line (no indicator that makes
        # it something else): the scalar's resolution is under test here, not YAML's syntax.
        if text and not re.search(r":(\s|$)|\s#|^[-?:](\s|$)|^[!&*%@`|>'\"#,\[\]{}]", text):
            out.append(text)
    return out


def _underscores_dropped(scalar: str) -> str:
    """What Symfony reads of an integer written with underscores (`0_7` is `07`)."""
    return scalar.replace("_", "") if re.fullmatch(r"[+-]?[0-9][0-9_]*", scalar) else scalar


def _ours(value: JsonValue | None) -> Any:
    """Our tree in the oracle's shape."""
    if isinstance(value, JString):
        return value.value
    if isinstance(value, JNumber):
        number = value.value
        return {"float": repr(number)} if isinstance(number, float) else number
    if isinstance(value, JLiteral):
        return value.value
    if isinstance(value, JArray):
        return {"map": [[{"int": i}, _ours(item)] for i, item in enumerate(value.items)]}
    if isinstance(value, JObject):
        return {"map": [[_php_key(m.key.value), _ours(m.value)] for m in value.members]}
    return None


def _php_key(key: str) -> Any:
    """A key as a PHP array keeps it: a decimal integer string becomes an int."""
    if re.fullmatch(r"-?[1-9][0-9]*|0", key) and -(2**63) <= int(key) < 2**63:
        return {"int": int(key)}
    return key


def _first_difference(ours: Any, theirs: Any, path: str) -> str | None:
    """Where the two trees first differ (a path and both values), or None."""
    if isinstance(theirs, dict) and "map" in theirs and isinstance(ours, dict) and "map" in ours:
        if len(ours["map"]) != len(theirs["map"]):
            return f"{path}: {len(theirs['map'])} members for Symfony, {len(ours['map'])} ours"
        for (k1, v1), (k2, v2) in zip(ours["map"], theirs["map"], strict=True):
            if not _same(k1, k2):
                return f"{path}: key {k2!r} for Symfony, {k1!r} ours"
            found = _first_difference(v1, v2, f"{path}/{k2}")
            if found is not None:
                return found
        return None
    return None if _same(ours, theirs) else f"{path}: Symfony {theirs!r}, ours {ours!r}"


def _same(ours: Any, theirs: Any) -> bool:
    if isinstance(theirs, dict) and "float" in theirs:
        if not (isinstance(ours, dict) and "float" in ours):
            return False
        a, b = float(ours["float"]), float(theirs["float"])
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(theirs, dict) and "map" in theirs:
        if not (isinstance(ours, dict) and "map" in ours):
            return False
        return len(ours["map"]) == len(theirs["map"]) and all(
            _same(k1, k2) and _same(v1, v2)
            for (k1, v1), (k2, v2) in zip(ours["map"], theirs["map"], strict=True)
        )
    return type(ours) is type(theirs) and ours == theirs


def _disagreements(documents: list[str], scalars: list[str] | None = None) -> list[str]:
    theirs = symfony_parse(documents)
    problems: list[str] = []
    for index, (document, (status, value)) in enumerate(zip(documents, theirs, strict=True)):
        parsed = parse_yaml(document)
        errors = [p for p in parsed.problems if p.kind != "duplicate-key"]
        scalar = scalars[index] if scalars else None
        if status == "error":
            if not errors:
                problems.append(f"{document!r}: Symfony refuses it ({value}), we read it")
            continue
        if errors:
            if not any(p.kind == "syntax" for p in errors):
                problems.append(f"{document!r}: Symfony reads it, we report {errors[0].message}")
            continue  # YAML syntax PyYAML refuses and Symfony takes: not the scalar under test
        if scalar is not None and _OCTAL_BEFORE_6.fullmatch(_underscores_dropped(scalar)):
            assert plain_value(scalar) == _underscores_dropped(scalar)  # 6.4 and 7: a string
            continue
        ours = _ours(parsed.root)
        where = _first_difference(ours, value, "")
        if where is not None:
            problems.append(f"{document[:60]!r}…: at {where}")
    return problems


@pytest.mark.parametrize("seed", [0, 1])
def test_plain_scalars_read_as_symfony_reads_them(seed: int) -> None:
    scalars = FIXED + _generated(1500, seed) if seed == 0 else _generated(2000, seed)
    documents = [f"k: {scalar}\n" for scalar in scalars]
    problems = _disagreements(documents, scalars)
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems[:30])


def test_scalars_in_flow_collections_and_sequences() -> None:
    scalars = [s for s in FIXED if not re.search(r"[,\[\]{}]", s) and " " not in s]
    documents = [f"k: [{s}, {{a: {s}}}]\n" for s in scalars] + [f"k:\n  - {s}\n" for s in scalars]
    problems = _disagreements(documents, (scalars + scalars))
    assert not problems, "\n".join(problems[:30])


def test_real_workflows_with_generated_labels_ids_and_config_values() -> None:
    """Copies of the real site's workflows whose labels, node ids and config values are replaced
    by generated plain scalars: the whole document read alike."""
    pick = random.Random(7)
    # (Without the leading-zero octals Symfony 5.4 alone reads as integers: the scalar tests
    # above hold them.)
    scalars = [
        s
        for s in FIXED + _generated(400, 3)
        if not _OCTAL_BEFORE_6.fullmatch(_underscores_dropped(s))
    ]
    sources = sorted(CORPUS.glob("flowdrop_workflow.flowdrop_workflow.*.yml"))
    assert len(sources) == 15
    documents: list[str] = []
    for number, source in enumerate(sources * 3):
        text = source.read_text(encoding="utf-8")

        def plant(match: re.Match[str]) -> str:
            return f"{match.group(1)}{pick.choice(scalars)}"

        text = re.sub(r"(?m)^(\s+(?:label|id|title|timeout|model|temperature): ).+$", plant, text)
        if number % 2:
            # Whatever the value was, a generated one in its place (quoted values included).
            text = re.sub(r"(?m)^(\s+[a-z_]+: )'[^'\n]*'$", plant, text)
        documents.append(text)
    problems = _disagreements(documents)
    assert not problems, "\n".join(p[:400] for p in problems[:10])


def test_a_label_written_by_our_fixes_reads_back_as_itself_for_drupal() -> None:
    """What a rename writes into Drupal YAML: Symfony reads back the very string written."""
    values = FIXED + _generated(800, 11) + ["it's", "a: b", "# x", "-x", "  lead", "ü ü"]
    documents = [f"k: {yaml_scalar('plain', value)}\n" for value in values]
    theirs = symfony_parse(documents)
    wrong = [
        f"{value!r} written {documents[i]!r}, read back {theirs[i]!r}"
        for i, value in enumerate(values)
        if theirs[i] != ("ok", {"map": [["k", value]]})
    ]
    assert not wrong, "\n".join(wrong[:20])


def test_the_issue_s_table() -> None:
    """The measured table of issue 26, as Drupal reads it (no oracle needed)."""
    root = parse_yaml(
        "a: yes\nb: 'On'\nc: on\nd: 12:30\ne: 0b101\nf: 1e3\ng: 0o17\nh: 2026-01-01\n"
    ).root
    assert isinstance(root, JObject)
    read = {m.key.value: _ours(m.value) for m in root.members}
    assert read == {
        "a": "yes",
        "b": "On",
        "c": "on",
        "d": "12:30",
        "e": "0b101",
        "f": {"float": "1000.0"},
        "g": 15,
        "h": 1767225600,
    }
    assert yaml.safe_load("c: on\n") == {"c": True}  # what YAML 1.1 (PyYAML's resolver) says


def test_labels_on_and_quoted_on_collide_as_drupal_reads_them() -> None:
    """Issue 26's effect on a site: `label: on` is the string "on" for Drupal (no FD-SCHEMA on
    a boolean label), so it collides with `'On'` (CMP-9) and the fix renames the scalar."""
    from flowdrop_lsp.core.analysis import analyze
    from tests.support.drupal import workflow

    text = workflow("on", "'On'", "12:30", "'12:30'")
    found = analyze(text, syntax="yaml").findings
    assert "FD-SCHEMA" not in {f.code for f in found}
    findings = [f for f in found if f.code == "CMP-9"]
    assert len(findings) == 4
    named = {text[f.span.start : f.span.end] for f in findings}
    assert named == {"on", "'On'", "12:30", "'12:30'"}
    assert all(f.severity.name == "ERROR" for f in findings)
