"""Operations rendered to text edits in an element's own format (`ElementEditor.render`).

The element's new value is what the operations make of its current one
(`core.operations.apply_to_element`); the edits are the smallest set of the format's own moves
that turns the one into the other: a value written in place of a value (its quoting style
kept), a key written in place of a key (a member renamed, its value kept as written), a member
removed or added as the reader writes them, characters written inside a string. Each edit is
computed against the element's text as it is; when two would touch one place, they are made
one after the other instead, each on the text the last left, as one edit. Whatever the route,
the result is re-read and must be exactly the new value: otherwise there is no rendering, and
the fix is not offered in that format (never a fix that writes something else)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from flowdrop_lsp.core.findings import TextEdit
from flowdrop_lsp.core.operations import EditString, Operation, Remove, Update, apply_to_element
from flowdrop_lsp.core.syntax.reader import WorkflowReader
from flowdrop_lsp.core.syntax.tree import JArray, JObject, JsonValue, JString, child_at, to_python
from flowdrop_lsp.core.text.changes import unchanged_ends
from flowdrop_lsp.core.text.positions import Span

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.elements import Element, ElementSource

# (start, end, written) in the element's text.
Step = tuple[int, int, str]
# How many moves one rendering may make one after the other (each re-reads the element).
MAX_SEQUENTIAL = 64


class _Unrenderable(Exception):
    pass


def same_value(a: Any, b: Any) -> bool:
    """Equal as JSON values: `true` is not `1`, a key's order does not count."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict | list | str) or isinstance(b, dict | list | str):
        return type(a) is type(b) and a == b
    return bool(a == b)


def render(
    source: ElementSource, element: Element, operations: Sequence[Operation]
) -> tuple[TextEdit, ...] | None:
    """The edits of the document that make `operations` (all aimed at `element`); None when the
    format cannot write them exactly."""
    if element.broken or not operations:
        return None
    if any(isinstance(op, Remove) for op in operations):
        if len(operations) != 1:
            return None
        removal = source.item_removal(element)
        return None if removal is None else (TextEdit(removal, ""),)
    if not all(isinstance(op, Update | EditString) for op in operations):
        return None
    text, column = source.text(element.owner, element.index)
    reader = source.reader
    # (The source keeps the last text it re-read: a rule offering several fixes of one node
    # reads it once.)
    tree = source.reread_value(text, column)
    base = element.created_start
    if not isinstance(tree, JObject):
        # Not readable alone (a YAML alias of an anchor elsewhere): rendered in the whole text.
        return _in_whole_text(source, element, operations)
    old = to_python(tree)
    new = apply_to_element(old, operations)  # type: ignore[arg-type]
    if new is None:
        return None
    if same_value(old, new):
        return ()
    steps = _string_steps(reader, text, column, tree, operations)
    if steps is None or not _reads_as(reader, _applied(text, steps), column, new):
        steps = _independent(reader, text, column, tree, old, new)
        if steps is None or not _reads_as(reader, _applied(text, steps), column, new):
            steps = _sequential(reader, text, column, new)
    if steps is None:
        return None
    return tuple(TextEdit(Span(s + base, e + base, element), w) for s, e, w in steps)


def _in_whole_text(
    source: ElementSource, element: Element, operations: Sequence[Operation]
) -> tuple[TextEdit, ...] | None:
    """The rendering made on the whole document: the element is read where it stands, every
    other value must read back unchanged."""
    whole = source.buffer.slice(0, len(source.buffer))
    reader = source.reader
    root = reader.reread_value(whole, 0)
    if not isinstance(root, JObject):
        return None
    array = child_at(root, element.owner.name)
    tree = child_at(array, element.index)
    if not isinstance(tree, JObject):
        return None
    before = to_python(root)
    new_element = apply_to_element(to_python(tree), operations)  # type: ignore[arg-type]
    if new_element is None:
        return None
    new = before
    new[element.owner.name][element.index] = new_element
    try:
        steps = _diff(reader, whole, 0, tree, to_python(tree), new_element, first_only=False)
    except _Unrenderable:
        return None
    if not _apart(steps) or not _reads_as(reader, _applied(whole, steps), 0, new):
        return None
    shift = element.offset()
    return tuple(TextEdit(Span(s - shift, e - shift, element), w) for s, e, w in steps)


def _applied(text: str, steps: Sequence[Step]) -> str:
    pieces: list[str] = []
    cursor = 0
    for start, end, written in sorted(steps):
        pieces.append(text[cursor:start])
        pieces.append(written)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _reads_as(reader: WorkflowReader, text: str, column: int, new: Any) -> bool:
    try:
        value = reader.reread_value(text, column)
    except Exception:  # noqa: BLE001 - a reader that cannot read it: not this rendering
        return False
    return isinstance(value, JObject) and same_value(to_python(value), new)


def _string_steps(
    reader: WorkflowReader,
    text: str,
    column: int,
    tree: JObject,
    operations: Sequence[Operation],
) -> list[Step] | None:
    """Edits inside strings written in place (only when every operation is one)."""
    if not all(isinstance(op, EditString) for op in operations):
        return None
    steps: list[Step] = []
    for op in operations:
        assert isinstance(op, EditString)
        value: JsonValue | None = tree
        for step in op.path:
            value = child_at(value, step)
        if not isinstance(value, JString):
            return None
        offsets = reader.string_offsets(text, column, value)
        if offsets is None or op.end >= len(offsets):
            return None
        steps.append((offsets[op.start], offsets[op.end], op.text))
    return steps if _apart(steps) else None


def _apart(steps: Sequence[Step]) -> bool:
    """No two steps overlap or start at one place (each was written as if alone)."""
    ordered = sorted(steps)
    return all(a[1] <= b[0] and a[0] != b[0] for a, b in zip(ordered, ordered[1:], strict=False))


def _independent(
    reader: WorkflowReader, text: str, column: int, tree: JObject, old: Any, new: Any
) -> list[Step] | None:
    try:
        steps = _diff(reader, text, column, tree, old, new, first_only=False)
    except _Unrenderable:
        return None
    return steps if _apart(steps) else None


def _sequential(reader: WorkflowReader, text: str, column: int, new: Any) -> list[Step] | None:
    """One move at a time, each on the text the last left, as one edit (the stretch where the
    first and the last text differ)."""
    current = text
    for _ in range(MAX_SEQUENTIAL):
        tree = reader.reread_value(current, column)
        if not isinstance(tree, JObject):
            return None
        old = to_python(tree)
        if same_value(old, new):
            break
        try:
            steps = _diff(reader, current, column, tree, old, new, first_only=True)
        except _Unrenderable:
            return None
        if not steps:
            return None
        current = _applied(current, steps[:1])
    else:
        return None
    if not _reads_as(reader, current, column, new):
        return None
    same_start, same_end = unchanged_ends(text, current)
    return [(same_start, len(text) - same_end, current[same_start : len(current) - same_end])]


def _diff(
    reader: WorkflowReader,
    text: str,
    column: int,
    tree: JsonValue | None,
    old: Any,
    new: Any,
    first_only: bool,
) -> list[Step]:
    """The moves turning the value `tree` (read as `old`) into `new`."""
    if same_value(old, new):
        return []
    if isinstance(tree, JObject) and isinstance(old, dict) and isinstance(new, dict):
        return _object_diff(reader, text, column, tree, old, new, first_only)
    if (
        isinstance(tree, JArray)
        and isinstance(old, list)
        and isinstance(new, list)
        and len(old) > len(new)
        and len(tree.items) == len(old)
    ):
        return _items_removed(tree, old, new, first_only)
    if (
        isinstance(tree, JArray)
        and isinstance(old, list)
        and isinstance(new, list)
        and len(old) == len(new)
        and len(tree.items) == len(old)
    ):
        steps: list[Step] = []
        for item, before, after in zip(tree.items, old, new, strict=True):
            steps.extend(_diff(reader, text, column, item, before, after, first_only))
            if first_only and steps:
                return steps
        return steps
    if tree is None or isinstance(tree, JObject | JArray) and (old or new):
        raise _Unrenderable("a container replaced")
    written = reader.write_value(new, text[tree.start : tree.end])
    if written is None:
        raise _Unrenderable("a value the format cannot write there")
    return [(tree.start, tree.end, written)]


def _items_removed(tree: JArray, old: list[Any], new: list[Any], first_only: bool) -> list[Step]:
    """Items deleted from a list (the rest kept, in order), each with one separator: from the
    end of the item before it to its own end, or (the first) from its start to the next one's
    start — the same spans in JSON (`, {…}`) and a YAML block sequence (the item's `-` line).
    A list left empty is written differently in each format: not rendered here."""
    if not new:
        raise _Unrenderable("a list emptied")
    kept: list[int] = []
    at = 0
    for index, item in enumerate(old):
        if at < len(new) and same_value(item, new[at]):
            kept.append(index)
            at += 1
    if at != len(new):
        raise _Unrenderable("a list changed otherwise than by deletions")
    items = tree.items
    steps: list[Step] = []
    for index in sorted(set(range(len(old))) - set(kept)):
        if index > 0:
            steps.append((items[index - 1].end, items[index].end, ""))
        else:
            steps.append((items[0].start, items[1].start, ""))
        if first_only:
            break
    return steps


def _object_diff(
    reader: WorkflowReader,
    text: str,
    column: int,
    tree: JObject,
    old: dict[str, Any],
    new: dict[str, Any],
    first_only: bool,
) -> list[Step]:
    steps: list[Step] = []
    removed = [key for key in old if key not in new]
    added = [key for key in new if key not in old]
    # A member renamed: its key rewritten, its value kept as written.
    for key in list(removed):
        partner = next((k for k in added if same_value(new[k], old[key])), None)
        member = tree.member(key)
        if partner is None or member is None:
            continue
        written = reader.write_key(partner, text[member.key.start : member.key.end])
        if written is None:
            continue
        steps.append((member.key.start, member.key.end, written))
        removed.remove(key)
        added.remove(partner)
        if first_only:
            return steps
    for key in removed:
        removal = reader.member_removal(text, column, tree, key)
        if removal is None:
            raise _Unrenderable(f"member {key!r} cannot be removed")
        steps.append(removal)
        if first_only:
            return steps
    for key in added:
        insertion = reader.member_insertion(text, column, tree, key, new[key])
        if insertion is None:
            raise _Unrenderable(f"member {key!r} cannot be added")
        steps.append(insertion)
        if first_only:
            return steps
    for key in old:
        if key in new and not same_value(old[key], new[key]):
            steps.extend(_diff(reader, text, column, tree.get(key), old[key], new[key], first_only))
            if first_only and steps:
                return steps
    return steps
