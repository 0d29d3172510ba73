"""R6.l: a secret reference written without its `$` (spec rules/R6.l.yml).

FlowDrop substitutes `${{ secrets.NAME }}` in a node's config with the secret at execution;
`{{ secrets.NAME }}` without the `$` is no reference, and the node silently gets the literal
text instead of the secret. The spec's words are the test: a string in `data.config`, at any
depth, that contains `{{ secrets.` not preceded by `$`. (A `{{secrets.` without the space is
not the spec's pattern and is not reported.) A warning: the save is never blocked.

Fix: the `$` added before each such reference (safe, preferred: nothing else in it changes),
each an edit inside the string (`EditString`), written in place in the format's own style."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.remedies import fix_from, node_ref
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, Fix, Severity
from flowdrop_lsp.core.operations import EditString, Operation
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "R6.l",
    "Secret reference without its '$'",
    Severity.WARNING,
    "A string in a node's config contains `{{ secrets.` without the leading `$`: it is no "
    "secret reference, and the node gets the literal text at execution.",
    spec_ids=("R6.l",),
)
CONFIG_PATH = ("data", "config")
SECRET_OPENING = "{{ secrets."
# The spec's pattern, exactly: `{{ secrets.` not preceded by `$`.
UNPREFIXED_REFERENCE = re.compile(r"(?<!\$)\{\{ secrets\.")

Path = tuple[str | int, ...]


def malformed_strings(value: Any, path: Path = ()) -> Iterator[tuple[Path, str]]:
    """The strings below `value` (a plain config value) holding an unprefixed reference, with
    their paths, in document order."""
    if isinstance(value, str):
        if SECRET_OPENING in value and UNPREFIXED_REFERENCE.search(value):
            yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from malformed_strings(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from malformed_strings(item, (*path, index))


def holds_opening(value: Any) -> bool:
    """Whether a string below `value` contains `{{ secrets.` at all: what rules out nearly
    every node at once (a whole read asks it of each), without a generator per value."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if SECRET_OPENING in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def corrected(value: str) -> str:
    return UNPREFIXED_REFERENCE.sub(lambda match: "$" + match.group(), value)


def dollar_insertions(node: Node, path: Path, value: str) -> list[tuple[Node, Operation]]:
    """The `$` inserted before each unprefixed reference of the string `value` at `path`
    (below the node's config), the last first: each insertion's offset into the value is then
    the same before and after those made before it."""
    ref = node_ref(node)
    return [
        (node, EditString(ref, (*CONFIG_PATH, *path), match.start(), match.start(), "$"))
        for match in reversed(list(UNPREFIXED_REFERENCE.finditer(value)))
    ]


def _path_text(path: Path) -> str:
    return "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path)[1:]


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    config = node.config
    if node.id is None or not isinstance(config, dict) or not holds_opening(config):
        return
    for path, value in malformed_strings(config):
        located = node.editor.locate((*CONFIG_PATH, *path)) if node.editor is not None else None
        anchor = located.value if located is not None else node.anchor
        fixes: tuple[Fix, ...] = ()
        if located is not None:
            fix = fix_from(
                "Write '${{ secrets.…'", dollar_insertions(node, path, value), preferred=True
            )
            fixes = () if fix is None else (fix,)
        yield RULE.finding(
            anchor,
            f"config '{short_text(_path_text(path))}' of {node.display} writes "
            f"'{SECRET_OPENING}' without the leading '$': it is no secret reference, and the "
            f"node gets the text as it is; write '${{{{ secrets.NAME }}}}'",
            node=node.id,
            fixes=fixes,
            # The spec's locator names the config key the string is under (at any depth).
            key=str(path[0]),
            identity=tuple(str(step) for step in path),
        )


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "FlowDrop replaces `${{ secrets.NAME }}` in a node's config by the secret at execution. "
    "Written without the `$`, `{{ secrets.NAME }}` is plain text: the node sends it as it is "
    "(an API key that is the words of its own name), silently. Config is searched at any "
    "depth. The fix adds the `$`.",
    failing="""\
{
  "nodes": [
    {"id": "fetch", "type": "http_request", "data": {"label": "Fetch",
      "config": {"headers": {"Authorization": "Bearer {{ secrets.FEED_TOKEN }}"}}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "fetch", "type": "http_request", "data": {"label": "Fetch",
      "config": {"headers": {"Authorization": "Bearer ${{ secrets.FEED_TOKEN }}"}}}}
  ],
  "edges": []
}
""",
)
