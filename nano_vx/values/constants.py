"""The integer value of an expression while compiling, read off the tree without running
anything: literals, `const` items (when their type holds the value), casts to an integer
type, unary `-` and `+ - * / %` of those, and locals known to hold a number. fold-const-extents
reads extents and spawn indices with it, from-vx a kernel's loop bounds; and an expression as
written, for the message about one that is not such an integer."""

from __future__ import annotations

from .numbers import INT_TYPES, truncating


def const_item_value(name: str, consts: dict, seen: frozenset = frozenset()) -> int | None:
    """The value of the const item `name` (consts: name -> ConstItem), when it is an integer
    its type holds."""
    item = consts[name]
    if item.value is None:
        return None
    value = int_value(item.value, consts, seen=seen | {name})
    t = INT_TYPES.get(item.type.name) if item.type._prod == "Scalar" else None
    return value if t is not None and value is not None and t.lo <= value <= t.hi else None


def int_value(expr, consts: dict, known: dict | None = None,
              seen: frozenset = frozenset()) -> int | None:
    """`expr`'s integer value, or None; `known` maps locals to numbers they hold, `seen` the
    const items being read (one defined in terms of itself has no value)."""
    kind = expr._prod
    if kind == "Int":
        return expr.value
    if kind == "Local" and known is not None:
        return known.get(expr.name)
    if kind == "Global" and expr.name in consts and expr.name not in seen:
        return const_item_value(expr.name, consts, seen)
    if kind == "Unary" and expr.op == "-":
        value = int_value(expr.operand, consts, known, seen)
        return None if value is None else -value
    if kind == "Cast" and expr.type._prod == "Scalar" and expr.type.name in INT_TYPES:
        return int_value(expr.value, consts, known, seen)
    if kind == "Binary" and expr.op in ("+", "-", "*", "/", "%"):
        a = int_value(expr.left, consts, known, seen)
        b = int_value(expr.right, consts, known, seen)
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
