"""The integer value of an expression while compiling, read off the tree without running
anything: literals, `const` items (when their type holds the value), casts to an integer
type, unary `-` and `+ - * / %` of those, and locals known to hold a number. fold-const-extents
reads extents and spawn indices with it, from-vx a kernel's loop bounds; and an expression as
written, for the message about one that is not such an integer."""

from __future__ import annotations

from .numbers import INT_TYPES, truncating


def const_item_value(name: str, consts: dict, memo: dict | None = None) -> int | None:
    """The value of the const item `name` (consts: name -> ConstItem), when it is an integer
    its type holds. `memo` keeps the values found so far, so a chain of consts each reading
    the one before several times costs one evaluation per const, not one per path to it."""
    memo = {} if memo is None else memo
    if name in memo:
        return memo[name]
    # While its value is worked out, a const has none: one defined in terms of itself stays
    # None, and so does every const on the cycle, whichever is asked first.
    memo[name] = None
    item = consts[name]
    if item.value is None:
        return None
    value = int_value(item.value, consts, memo=memo)
    t = INT_TYPES.get(item.type.name) if item.type._prod == "Scalar" else None
    if t is not None and value is not None and t.lo <= value <= t.hi:
        memo[name] = value
    return memo[name]


def int_value(expr, consts: dict, known: dict | None = None,
              memo: dict | None = None) -> int | None:
    """`expr`'s integer value, or None; `known` maps locals to numbers they hold, `memo` the
    const items' values found so far (see const_item_value)."""
    memo = {} if memo is None else memo
    kind = expr._prod
    if kind == "Int":
        return expr.value
    if kind == "Local" and known is not None:
        return known.get(expr.name)
    if kind == "Global" and expr.name in consts:
        return const_item_value(expr.name, consts, memo)
    if kind == "Unary" and expr.op == "-":
        value = int_value(expr.operand, consts, known, memo)
        return None if value is None else -value
    if kind == "Cast" and expr.type._prod == "Scalar" and expr.type.name in INT_TYPES:
        return int_value(expr.value, consts, known, memo)
    if kind == "Binary" and expr.op in ("+", "-", "*", "/", "%"):
        a = int_value(expr.left, consts, known, memo)
        b = int_value(expr.right, consts, known, memo)
        if a is None or b is None or expr.op in ("/", "%") and b == 0:
            return None
        if expr.op in ("/", "%"):
            return truncating(expr.op, a, b)
        return a + b if expr.op == "+" else a - b if expr.op == "-" else a * b
    return None


def written(expr) -> str:
    """`expr` as the programmer wrote it, for a message saying it is not a compile-time
    integer (an `unroll across` bound, a `spawn on` index)."""
    if expr.span is not None:
        return expr.span.source.text[expr.span.start:expr.span.end]
    return expr.name if expr._prod == "Var" else expr._prod
