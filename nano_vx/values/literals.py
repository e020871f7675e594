"""How a literal takes its type from its context, as Rust infers it: the scalar type an
annotation fixes (`scalar_hint`), an unsuffixed literal under it (`literal`), and an untyped
value assigned to a typed variable (`adopt`).

The interpreter and the compile-time evaluator both type literals this way, so `let x: u8 =
..` wraps at 8 bits while compiling as it does when the program runs.
"""

from __future__ import annotations

from .numbers import FLOAT_TYPES, INT_TYPES, TFloat, TInt, coerce

# Types that mark a value without changing its scalar type.
TYPE_WRAPPERS = ("PinnedType", "VerifiedType", "RefType")


def scalar_hint(ty) -> str | None:
    """The scalar type name a type fixes for the literals of the expression it annotates."""
    while ty is not None and ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    return ty.name if ty is not None and ty._prod == "Scalar" else None


def literal(value, hint, span):
    """An unsuffixed literal under a typed context is a value of that type."""
    if type(value) is int and hint in INT_TYPES:
        return coerce(value, hint, span)
    if type(value) is float and (hint in FLOAT_TYPES or hint == "f64"):
        return coerce(value, hint, span)
    return value


def negated_literal(value: int, hint, span):
    """`-N` for an integer literal N, as one literal: Rust reads `let x: i8 = -128` as the
    literal -128, never as 128 (which i8 cannot hold) negated. An unsigned type cannot be
    negated, so there it is None: the caller negates, which refuses."""
    if hint in INT_TYPES and not INT_TYPES[hint].signed:
        return None
    return literal(-value, hint, span)


def adopt(old, new):
    """An untyped literal assigned to a typed variable takes the variable's type."""
    if type(new) is int and type(old) is TInt:
        return TInt(old.t.wrap(new), old.t)
    if type(new) is float and type(old) is TFloat:
        return TFloat(old.t.round(new), old.t)
    return new
