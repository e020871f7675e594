"""What a `Global` may name: the program's items and the builtins every program has; a name
that is neither is E2001. Shared by resolve-names, which resolves names, and
check-deferred-names, which judges the names of an `if comptime` branch resolve-names could
not."""

from __future__ import annotations

from difflib import get_close_matches

from .values.math import MATH

BUILTINS = frozenset({"print", "sizeof"}) | MATH


def undefined(diagnostics, name, span, notes=(), near=()) -> None:
    """E2001: `name`, at `span`, is no local, item or builtin; `near` are the names that are
    (a misspelling of one is named in the help)."""
    close = get_close_matches(name, sorted(n for n in near if "::" not in n), n=1)
    diagnostics.error(
        "E2001", span, f"cannot find value '{name}' in this scope", notes=notes,
        help=[f"a name in scope is close: '{close[0]}'"] if close else [], name=name)
