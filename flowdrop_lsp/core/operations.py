"""What a fix does to a workflow, as operations on its model: the vocabulary of FlowDrop's visual
editor's Doctor (docs/doctor.md), plus what a text format needs beyond it.

A fix is operations first. Each format's writer renders them to text edits that keep the file's
style (`ElementEditor.render`: the element's new value is what the operations make of its
current one, and the edits are verified to read back as exactly that), and the Doctor sends
them to the editor as they are (`Operation.as_editor`). An operation the editor cannot apply
(`TextOnly`: Drupal config outside the graph, such as `dependencies`) makes a fix that the
Doctor does not offer; an operation a format cannot render makes a fix that is not offered in
that format. Nothing is dropped silently.

Elements are addressed as the editor addresses them (`ElementRef`): by id, or `#<n>` for the
n-th node or edge when it has no string id. Values are plain JSON values, kept as JSON text so
that operations stay hashable (findings are frozen and compared).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

ElementKind = Literal["node", "edge"]


@dataclass(frozen=True, slots=True)
class ElementRef:
    """A node or an edge as the editor addresses it: its string id, else its position."""

    kind: ElementKind
    id: str | None
    index: int

    @property
    def address(self) -> str:
        return self.id if self.id else f"#{self.index}"


def element_ref(kind: ElementKind, element_id: object, index: int) -> ElementRef:
    return ElementRef(
        kind, element_id if isinstance(element_id, str) and element_id else None, index
    )


def _frozen(values: dict[str, Any] | None) -> tuple[tuple[str, str], ...]:
    return tuple(
        (key, json.dumps(value, ensure_ascii=False)) for key, value in (values or {}).items()
    )


@dataclass(frozen=True, slots=True)
class Update:
    """`updateNode` / `updateNodeData` / `updateNodeConfig` / `updateEdge`: on the object
    `scope` names (the node or edge itself, its `data`, its `data.config`), delete the `unset`
    keys, then assign each key of `patch` (shallow)."""

    target: ElementRef
    scope: Literal["node", "data", "config", "edge"]
    patch_json: tuple[tuple[str, str], ...] = ()
    unset: tuple[str, ...] = ()

    @staticmethod
    def of(
        target: ElementRef,
        scope: Literal["node", "data", "config", "edge"],
        patch: dict[str, Any] | None = None,
        unset: Iterable[str] = (),
    ) -> Update:
        return Update(target, scope, _frozen(patch), tuple(unset))

    @property
    def patch(self) -> dict[str, Any]:
        return {key: json.loads(value) for key, value in self.patch_json}

    def as_editor(self) -> dict[str, Any]:
        name = {
            "node": "updateNode",
            "data": "updateNodeData",
            "config": "updateNodeConfig",
            "edge": "updateEdge",
        }[self.scope]
        key = "edgeId" if self.scope == "edge" else "nodeId"
        return {
            "op": name,
            key: self.target.address,
            "patch": self.patch,
            "unset": list(self.unset),
        }


@dataclass(frozen=True, slots=True)
class Remove:
    """`removeNode` / `removeEdge`: the element goes (a node's edges are not touched by it)."""

    target: ElementRef

    def as_editor(self) -> dict[str, Any]:
        if self.target.kind == "edge":
            return {"op": "removeEdge", "edgeId": self.target.address}
        return {"op": "removeNode", "nodeId": self.target.address}


@dataclass(frozen=True, slots=True)
class EditString:
    """The characters `[start, end)` of the string at `path` below the element (code points of
    its value) replaced by `text`: an expression repaired inside a template keeps the rest of
    the string as written. To the editor it is the whole new string, in the shallow patch of
    the first object the path goes through (`data.config.<key>`, `data.<key>`, `<key>`)."""

    target: ElementRef
    path: tuple[str | int, ...]
    start: int
    end: int
    text: str

    def as_editor_on(self, element: dict[str, Any]) -> dict[str, Any] | None:
        """The editor's operation, given the element's current value (the draft's); None when
        the path holds no string there."""
        new = apply_to_element(element, (self,))
        if new is None:
            return None
        scope, rest = _scope_of(self.path, self.target.kind)
        holder: Any = new
        for step in _scope_path(scope):
            holder = holder[step]
        key = rest[0]
        return Update.of(self.target, scope, {str(key): holder[key]}).as_editor()


@dataclass(frozen=True, slots=True)
class TextOnly:
    """Text edits a fix makes outside the workflow graph (Drupal config's `dependencies`, a
    config entity's `id`): the editor has no operation for them, so a fix holding one is not a
    remedy. Its edits are in the document's format already (`Fix.edits`)."""

    why: str

    def as_editor(self) -> None:
        return None


Operation = Update | Remove | EditString | TextOnly

# Where a `Choice`'s picked value goes in a fix's operations (a patch value equal to it).
PICKED = "\x00picked\x00"


@dataclass(frozen=True, slots=True)
class Choice:
    """A value the person picks before the operations apply (the Doctor's `params.choices`:
    value → label, the picked value sent back as `params.<param>`), ranked best first. The
    operations hold `PICKED` where the value goes (`with_picked`)."""

    param: str
    options: tuple[tuple[str, str], ...]


def with_picked(operations: Sequence[Operation], picked: str) -> tuple[Operation, ...]:
    """`operations` with the picked value in place of every `PICKED` in their patches (at any
    depth: a type named inside `data.metadata` is patched as the whole `metadata`)."""
    return tuple(
        Update(op.target, op.scope, _picked_in(op.patch_json, picked), op.unset)
        if isinstance(op, Update)
        else op
        for op in operations
    )


def _picked_in(patch_json: tuple[tuple[str, str], ...], picked: str) -> tuple[tuple[str, str], ...]:
    def put(value: Any) -> Any:
        if value == PICKED:
            return picked
        if isinstance(value, dict):
            return {key: put(item) for key, item in value.items()}
        if isinstance(value, list):
            return [put(item) for item in value]
        return value

    return tuple(
        (key, json.dumps(put(json.loads(value)), ensure_ascii=False)) for key, value in patch_json
    )


def _scope_path(scope: str) -> tuple[str, ...]:
    return {"node": (), "edge": (), "data": ("data",), "config": ("data", "config")}[scope]


def _scope_of(
    path: tuple[str | int, ...], kind: ElementKind
) -> tuple[Literal["node", "data", "config", "edge"], tuple[str | int, ...]]:
    if kind == "edge":
        return "edge", path
    if len(path) >= 3 and path[:2] == ("data", "config"):
        return "config", path[2:]
    if len(path) >= 2 and path[0] == "data":
        return "data", path[1:]
    return "node", path


class CannotApply(ValueError):
    """An operation that does not apply to the value it is given (the editor refuses it)."""


def _apply_update(element: dict[str, Any], op: Update) -> None:
    """As the editor applies it (its `doctorOperations.ts`): the scope's object copied (a
    missing `data` or `config` is empty), the `unset` keys deleted, the patch assigned; an
    update of the node never replaces its `data`, one of `data` never its `config`."""
    if op.scope == "edge":
        _assign(element, op)
        return
    if op.scope == "node":
        kept = element.get("data", _MISSING)
        _assign(element, op)
        _restore(element, "data", kept)
        return
    data = element.get("data", {})
    if not isinstance(data, dict):
        raise CannotApply("data: not an object")
    data = dict(data)
    config = data.get("config", _MISSING)
    if op.scope == "config":
        if config is not _MISSING and config is not None and not isinstance(config, dict):
            raise CannotApply("config: not an object")
        new_config = dict(config) if isinstance(config, dict) else {}
        _assign(new_config, op)
        data["config"] = new_config
    else:
        _assign(data, op)
        _restore(data, "config", config)
    element["data"] = data


_MISSING: Any = object()


def _assign(holder: dict[str, Any], op: Update) -> None:
    for key in op.unset:
        holder.pop(key, None)
    holder.update(op.patch)


def _restore(holder: dict[str, Any], key: str, kept: Any) -> None:
    if kept is _MISSING:
        holder.pop(key, None)
    else:
        holder[key] = kept


def _apply_string_edit(element: dict[str, Any], op: EditString) -> None:
    holder: Any = element
    for step in op.path[:-1]:
        holder = _child(holder, step)
    last = op.path[-1]
    value = _child(holder, last)
    if not isinstance(value, str) or not 0 <= op.start <= op.end <= len(value):
        raise CannotApply(f"no string at {op.path}")
    holder[last] = value[: op.start] + op.text + value[op.end :]


def _child(holder: Any, step: str | int) -> Any:
    if isinstance(holder, dict) and isinstance(step, str) and step in holder:
        return holder[step]
    if isinstance(holder, list) and isinstance(step, int) and 0 <= step < len(holder):
        return holder[step]
    raise CannotApply(f"no {step!r}")


def apply_to_element(
    element: Any, operations: Sequence[Update | EditString]
) -> dict[str, Any] | None:
    """The element's value after `operations` (all aimed at it), or None when one of them does
    not apply. `element` is left as it is."""
    if not isinstance(element, dict):
        return None
    new = copy.deepcopy(element)
    try:
        for op in operations:
            if isinstance(op, Update):
                _apply_update(new, op)
            else:
                _apply_string_edit(new, op)
    except CannotApply:
        return None
    return new


def apply_operations(workflow: dict[str, Any], operations: Sequence[Operation]) -> dict[str, Any]:
    """`workflow` (a plain value) after `operations`, applied in order and all or nothing as the
    editor applies them: raises CannotApply when one names an element the workflow lacks or
    does not apply (a `TextOnly` never does). The workflow given is left as it is."""
    new = copy.deepcopy(workflow)
    for op in operations:
        if isinstance(op, TextOnly):
            raise CannotApply(f"a text-only edit: {op.why}")
        arrays = {"node": "nodes", "edge": "edges"}
        items = new.get(arrays[op.target.kind]) if isinstance(new, dict) else None
        if not isinstance(items, list):
            raise CannotApply(f"no {arrays[op.target.kind]}")
        index = find_element(items, op.target)
        if index is None:
            raise CannotApply(f"no {op.target.kind} {op.target.address}")
        if isinstance(op, Remove):
            del items[index]
            continue
        changed = apply_to_element(items[index], (op,))
        if changed is None:
            raise CannotApply(f"{op!r} does not apply")
        items[index] = changed
    return new


def find_element(items: list[Any], target: ElementRef) -> int | None:
    """Where the element `target` addresses is in `items` (the editor's rule: `#<n>` is the
    n-th item, anything else an item's `id`)."""
    address = target.address
    if address.startswith("#") and address[1:].isdigit():
        index = int(address[1:])
        return index if index < len(items) else None
    for index, item in enumerate(items):
        if isinstance(item, dict) and item.get("id") == address:
            return index
    return None


def operation_json(op: Operation) -> dict[str, Any]:
    """An operation as `check --format json` writes it: the editor's own form where it has one
    (`updateNodeConfig`, `removeEdge`…), else `editString` (characters of a string value
    replaced) or `text` (an edit outside the graph, in the file's format)."""
    if isinstance(op, Update | Remove):
        return op.as_editor()
    if isinstance(op, EditString):
        key = "edgeId" if op.target.kind == "edge" else "nodeId"
        return {
            "op": "editString",
            key: op.target.address,
            "path": list(op.path),
            "start": op.start,
            "end": op.end,
            "text": op.text,
        }
    return {"op": "text", "why": op.why}


def editor_operations(
    operations: Sequence[Operation], workflow: dict[str, Any]
) -> list[dict[str, Any]] | None:
    """The operations as the editor's JSON (docs/doctor.md), resolved against `workflow` (the
    draft: an in-string edit becomes the whole new string); None when one of them is not the
    editor's to apply (a text-only edit) or does not apply to the draft."""
    answer: list[dict[str, Any]] = []
    for op in operations:
        if isinstance(op, TextOnly):
            return None
        if isinstance(op, EditString):
            arrays = {"node": "nodes", "edge": "edges"}
            items = workflow.get(arrays[op.target.kind]) if isinstance(workflow, dict) else None
            index = find_element(items, op.target) if isinstance(items, list) else None
            if index is None or not isinstance(items, list):
                return None
            written = op.as_editor_on(items[index])
            if written is None:
                return None
            answer.append(written)
            continue
        answer.append(op.as_editor())
    return answer
