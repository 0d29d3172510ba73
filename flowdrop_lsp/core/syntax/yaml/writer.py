"""Scalars written into Drupal config YAML as Drupal's dumper (Symfony YAML) writes them, and the
fixes a YAML document keeps.

`yaml_scalar` writes a string in place of a scalar: it keeps the scalar's style when that style
can hold the new text (plain stays plain, 'single' stays single, "double" stays double),
otherwise it is single-quoted with `''` escaping, or double-quoted when it holds control
characters (Symfony's own choice); a block scalar (`|`, `>`) becomes a single-quoted one-line
scalar. The reader seam writes a rename, a value, a key with it (core.syntax.reader), and the
rendering of a fix's operations goes through the seam (core.engine.rendering): every fix comes
written in YAML already, and `yaml_fixes` only leaves out one that would rewrite a value aliases
repeat.
"""

from __future__ import annotations

import re
from dataclasses import replace

import yaml

from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.syntax.yaml.scalars import InvalidDate, is_plain_string, plain_value
from flowdrop_lsp.core.text.literals import json_string
from flowdrop_lsp.core.text.positions import EditableText

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Symfony's Escaper: what needs single quotes in a plain scalar (its characters and first
# characters, and the words YAML 1.1 would read as booleans or null), and what needs double quotes.
_NEEDS_SINGLE = re.compile(r"[\s'\":{}\[\],&*#?]|\A[\-?|<>=!%@`\s]")
_QUOTED_WORDS = frozenset({"null", "~", "true", "false", "y", "n", "yes", "no", "on", "off"})
# What Symfony's dumper quotes besides: digit strings (`007`, `1_000`), hexadecimal-looking ones,
# dates and numbers in PHP's sense (`1e3`, `.5`).
_DUMPER_QUOTES = re.compile(
    r"[0-9]+[_0-9]*|0x[0-9a-f_]+|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt \t].*)?"
    r"|\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*",
    re.IGNORECASE,
)
_NEEDS_DOUBLE = re.compile("[\x00-\x1f\x7f\x85\xa0\u2028\u2029\ud800-\udfff]")


def _reads_back_plain(value: str) -> bool:
    """Whether `value` written plain is read back as itself: by Drupal (Symfony's rules,
    core.syntax.yaml.scalars: not `12`, `1e3`, `0o17`, `TRUE`, a date) and by YAML's syntax
    (PyYAML composes it as one plain scalar of that text). Symfony's own dumper writes `0o17`
    and `1_000.5` plain and so changes them on the next read: we quote them."""
    if value.lower() in _QUOTED_WORDS or _DUMPER_QUOTES.fullmatch(value):
        return False
    if not is_plain_string(value):
        return False
    try:
        if plain_value(value) != value:
            return False
        node = yaml.compose(f"k: {value}\n", Loader=_LOADER)
    except (yaml.YAMLError, InvalidDate):
        return False
    if not isinstance(node, yaml.MappingNode) or len(node.value) != 1:
        return False
    written = node.value[0][1]
    return isinstance(written, yaml.ScalarNode) and not written.style and written.value == value


def _double_quoted(value: str) -> str:
    """`value` double-quoted: JSON's escapes are YAML double-quoted escapes, and the line breaks
    YAML 1.1 has besides LF and CR (NEL, LS, PS), which JSON writes raw, escaped too: raw, YAML
    would fold them (a NEL reads back as a space)."""
    written = json_string(value)
    if "\x85" in value or "\u2028" in value or "\u2029" in value:
        written = written.translate(_YAML_BREAK_ESCAPES)
    return written


_YAML_BREAK_ESCAPES = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def yaml_scalar(original: str, value: str) -> str:
    """`value` written as a YAML scalar in place of the scalar `original`."""
    if _NEEDS_DOUBLE.search(value):
        return _double_quoted(value)
    style = original[:1]
    if style == '"':
        return _double_quoted(value)
    if style not in ("'", "|", ">") and (
        value and not _NEEDS_SINGLE.search(value) and _reads_back_plain(value)
    ):
        return value
    return "'" + value.replace("'", "''") + "'"


def inside_shared(shared: tuple[tuple[int, int], ...], start: int, end: int) -> bool:
    """Whether `[start, end)` is inside one of the values aliases repeat (`shared`)."""
    return any(first <= start and end <= last for first, last in shared if first < last)


def yaml_fixes(
    finding: Finding, buffer: EditableText, shared: tuple[tuple[int, int], ...] = ()
) -> Finding:
    """`finding` with the fixes a YAML document can take: every fix is written in the
    document's own format by its element's editor (`Fix.operations`, core.engine.rendering),
    so none is rewritten here. A fix that would rewrite text inside a value aliases repeat
    (`shared`: an anchored label, a mapping given as `*name` elsewhere) is left out: it would
    change the places that repeat it too (the rename plan keeps such labels: a safety net)."""
    if not finding.fixes or not shared:
        return finding
    kept = tuple(
        fix
        for fix in finding.fixes
        if not any(inside_shared(shared, e.span.start, e.span.end) for e in fix.edits)
    )
    return finding if len(kept) == len(finding.fixes) else replace(finding, fixes=kept)
