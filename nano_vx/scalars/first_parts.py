"""What an expression computes before anything else, along its first parts (`f()[0] + 1`
computes `f()` first): where copy-tracked-functions and name-sizing-calls find a call they
name by a `let` before its statement, and the expression reading that `let`'s local."""

from __future__ import annotations

# The operand of each expression that is computed before the rest of it.
_FIRST = {"Index": "base", "Binary": "left", "Unary": "operand", "Cast": "value",
          "MethodCall": "receiver", "IfExpr": "cond"}

# Operands that compute nothing: what is computed after one is computed first.
NOTHING = ("Local", "Int", "Float", "Bool")


def first_part(e) -> str | None:
    """The field of `e` holding the part of it computed before anything else, if any (with
    the index of an argument: `args.0`, or the first of those computing something, after
    ones computing nothing: `g(1, make(3)[0])` computes `make(3)` first)."""
    if e._prod == "Binary" and e.left._prod in NOTHING and e.op not in ("&&", "||"):
        return "right"  # (the right of `&&` or `||` may not be computed at all)
    if e._prod in _FIRST:
        return _FIRST[e._prod]
    if e._prod == "Call" and e.callee._prod == "Global" and e.args:
        return f"args.{next((i for i, a in enumerate(e.args) if a._prod not in NOTHING), 0)}"
    return None


def part(e, field: str):
    """The part of `e` in `field`, as first_part names it."""
    return e.args[int(field[5:])] if field.startswith("args.") else getattr(e, field)


def first_found(e, found):
    """The part `found(part)` holds of that `e` computes before anything else (e itself, or
    along its first parts), if any."""
    while not found(e):
        field = first_part(e)
        if field is None:
            return None
        e = part(e, field)
    return e


def replaced_first(e, old, new):
    """`e` with `old`, a part first_found found, replaced by `new`."""
    if e is old:
        return new
    field = first_part(e)
    if field.startswith("args."):
        at = int(field[5:])
        return e.replace(args=(*e.args[:at], replaced_first(e.args[at], old, new),
                               *e.args[at + 1:]))
    return e.replace(**{field: replaced_first(getattr(e, field), old, new)})
