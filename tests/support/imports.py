"""Reading a module's imports the way the architecture tests do."""

from __future__ import annotations

import ast


def type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under `if TYPE_CHECKING:` (imports for annotations only)."""
    hidden: set[int] = set()
    for item in ast.walk(tree):
        if isinstance(item, ast.If) and "TYPE_CHECKING" in ast.unparse(item.test):
            hidden |= {id(inner) for child in item.body for inner in ast.walk(child)}
    return hidden
