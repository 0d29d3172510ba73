"""What each route's JSON must be before the service is asked (400 `INVALID_BODY` otherwise):
a diagnose body is the draft, a workflow object whose `nodes` and `edges`, when present, are
lists; a remedy body is `{"draft", "code", "target", "remedy", "params"?}`. The draft's content
beyond that is the service's to judge: a problem in it is a finding, not a refusal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flowdrop_lsp.doctor.refusals import INVALID_BODY, Refusal


@dataclass(frozen=True)
class RemedyRequest:
    draft: dict[str, Any]
    target: str
    remedy: str
    params: dict[str, Any] | None


def _invalid(message: str) -> Refusal:
    return Refusal(400, INVALID_BODY, message)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return "a string" if isinstance(value, str) else "a number"


def draft_of(value: Any, where: str = "The body") -> dict[str, Any]:
    """`value` as a draft: a workflow object whose `nodes` and `edges` are lists if given."""
    if not isinstance(value, dict):
        raise _invalid(f"{where} must be a workflow object, not {_kind(value)}")
    for key in ("nodes", "edges"):
        if key in value and not isinstance(value[key], list):
            raise _invalid(f"{where}'s {key!r} must be a list, not {_kind(value[key])}")
    return value


def remedy_request_of(value: Any) -> RemedyRequest:
    if not isinstance(value, dict):
        raise _invalid(
            'The body must be an object {"draft", "code", "target", "remedy", "params"?}, '
            f"not {_kind(value)}"
        )
    if "draft" not in value:
        raise _invalid("The body has no 'draft': the workflow the remedy applies to")
    draft = draft_of(value["draft"], "'draft'")
    names = {}
    for key, meaning in (("target", "the problem's id"), ("remedy", "the remedy's id")):
        if key not in value:
            raise _invalid(f"The body has no {key!r}: {meaning}")
        if not isinstance(value[key], str):
            raise _invalid(f"{key!r} must be a string, {meaning}, not {_kind(value[key])}")
        names[key] = value[key]
    params = value.get("params")
    if params is not None and not isinstance(params, dict):
        raise _invalid(f"'params' must be an object, not {_kind(params)}")
    return RemedyRequest(draft, names["target"], names["remedy"], params)
