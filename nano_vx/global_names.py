"""What a `Global` may name: the program's items and the builtins every program has; a name
that is neither is E2001. Shared by resolve-names, which resolves names, and
check-deferred-names, which judges the names of an `if comptime` branch resolve-names could
not."""

from __future__ import annotations

from .values.math import MATH

BUILTINS = frozenset({"print", "sizeof"}) | MATH


def undefined(diagnostics, name, span, notes=()) -> None:
    """E2001: `name`, at `span`, is no local, item or builtin."""
    diagnostics.error(
        "E2001", span, f"cannot find value '{name}' in this scope", notes=notes, name=name)
