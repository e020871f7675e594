"""How a literal takes its type from its context, as Rust infers it: the scalar type an
annotation fixes (`scalar_hint`; per element of a tuple, `literal_hint`), the type of the
place an assignment writes (`PLACE`, `held_type`, `run_placed`), an unsuffixed literal under
it (`literal`), and an untyped value assigned to a typed variable (`adopt`).

The interpreter and the compile-time evaluator both type literals this way, so `let x: u8 =
..` wraps at 8 bits while compiling as it does when the program runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..nanopass import descendants
from .numbers import FLOAT_TYPES, INT_TYPES, TFloat, TInt, coerce
from .structs import StructValue

# The hint of a value assigned to a place (`x = ..`, `*r += ..`, `t[i] = ..`): its literals
# take the scalar type the place holds, known only as the program runs (`held_type`).
PLACE = "the place's type"

# Types that mark a value without changing its scalar type.
TYPE_WRAPPERS = ("PinnedType", "VerifiedType", "RefType")


def scalar_hint(ty) -> str | None:
    """The scalar type name a type fixes for the literals of the expression it annotates."""
    while ty is not None and ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    return ty.name if ty is not None and ty._prod == "Scalar" else None


@dataclass(frozen=True)
class Applied:
    """What a generic struct's type (`Cell<f32>`, or `Cell::<f32> { .. }` written on its
    literal) fixes for the literals of a literal of it: per argument, the hint a field of that
    parameter's type takes (None for a `const` argument)."""
    name: str
    args: tuple


def applied_hint(name, args, bound=None) -> Applied:
    """The hint of the struct `name` given the generic arguments `args` (GArgs)."""
    return Applied(name, tuple(literal_hint(a.type, bound) if a._prod == "TypeArg" else None
                               for a in args))


def literal_hint(ty, bound=None):
    """What a type fixes for the literals of the expression it annotates: its scalar type, or
    for a tuple type one such hint per element (`let p: (i64, i32) = (1 << 40, 0)`), for a
    generic struct applied to arguments what they fix (`let c: Cell<u8> = Cell { v: 250 }`),
    for a tensor type its element's scalar type, which an array literal's elements take
    (`let v: Tensor<f32, [2]> = [0.1, 0.2]`). bound: a generic parameter's name -> the hint of the argument a call writes for it, which
    a parameter's type naming it fixes (`px::<i64>(P { .. })` for `fn px<T>(p: P<T>)`)."""
    if ty is not None and ty._prod == "TupleType":
        return tuple(literal_hint(e, bound) for e in ty.elems)
    if ty is not None and ty._prod == "AppliedType":
        return applied_hint(ty.name, ty.args, bound)
    if ty is not None and ty._prod == "TensorType":
        return literal_hint(ty.elem, bound)
    if bound and ty is not None and ty._prod == "NamedType" and ty.name in bound:
        return bound[ty.name]
    return scalar_hint(ty)


@dataclass(frozen=True)
class Held:
    """What a place holding a struct fixes for the literals of a struct literal assigned to
    it: per field, (its name, what the value held there fixes)."""
    name: str
    fields: tuple


def held_type(v) -> str | None:
    """What a place holding `v` fixes for the literals assigned to it: a typed integer's or
    float's scalar type (an untyped one, i32 or f64, fixes none), per element of a tuple, per
    field of a struct (`Held`: a `Cell<u8>`'s field holds a u8, whatever the type erased)."""
    if type(v) is tuple:
        return tuple(held_type(e) for e in v)
    if type(v) is StructValue:
        return Held(v.name, tuple((k, held_type(e)) for k, e in v.fields.items()))
    return v.t.name if type(v) is TInt or type(v) is TFloat else None


def typed_by_place(value) -> bool:
    """Whether the place an assignment writes types a literal of `value` that nothing in it
    types: one of an operator over literals alone (`x = 1 << 40`), or an element of a tuple.
    A literal alone (`x = 5`) takes the place's type as `adopt` stores it, and one beside a
    typed operand (`x = x + 1`) that operand's, so such a value runs without PLACE."""
    return any(n._prod in ("Tuple", "StructLit") or
               n._prod in ("Binary", "Unary") and of_literals(n) for n in descendants(value))


def of_literals(e) -> bool:
    """Whether e is an untyped literal or an operator over such literals alone."""
    if e._prod in ("Int", "Float"):
        return "type" not in e._fields
    if e._prod == "Binary":
        return of_literals(e.left) and of_literals(e.right)
    return e._prod == "Unary" and of_literals(e.operand)


def run_placed(owner, run, arg, place_type):
    """`run(arg)`, compiled under the hint PLACE, where the place written holds `place_type`:
    `owner` (the interpreter or the compile-time evaluator) keeps it while `run` runs."""
    if place_type is None and owner.place_type is None:  # an untyped place, outside any other
        return run(arg)
    outer, owner.place_type = owner.place_type, place_type
    try:
        return run(arg)
    finally:
        owner.place_type = outer


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
