"""The math built-ins, `exp`, `log`, `sqrt`, `abs`, `max` and `min`: what each takes, and its
value, for the reference interpreter and the compile-time evaluator alike.

`exp`, `log` and `sqrt` take a float; `abs` a number; `max` and `min` two numbers of one type.
The result has the argument's type, computed as IEEE does in that type (a float result is
rounded to it once, as native code's single instruction or libm call is, to within libm's last
bit): `log` of a negative number and `sqrt` of one are NaN, `log(0.0)` is minus infinity, `exp`
past the type's range infinity. `max` and `min` of a NaN and a number give the number, as
Rust's `f64::max` does; `abs` of an integer's most negative value is itself, as integers wrap.
"""

from __future__ import annotations

import math

from .numbers import TFloat, TInt, Traced, describe, unplace, wrap32
from .stops import wrong_kind

ARITY = {"exp": 1, "log": 1, "sqrt": 1, "abs": 1, "max": 2, "min": 2}
FLOAT_ONLY = frozenset({"exp", "log", "sqrt"})
MATH = frozenset(ARITY)


def _log(x: float) -> float:
    if x != x or x < 0:
        return math.nan
    return -math.inf if x == 0 else math.log(x)


def _sqrt(x: float) -> float:
    return math.nan if x != x or x < 0 else math.sqrt(x)


def _exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


_FLOAT_FNS = {"exp": _exp, "log": _log, "sqrt": _sqrt, "abs": abs}


def float_fn(name: str):
    """exp, log, sqrt or abs of a Python float, unrounded (the caller rounds to its type)."""
    return _FLOAT_FNS[name]


def pick(name: str, a, b):
    """max/min of two plain numbers; a NaN loses to a number."""
    if a != a:
        return b
    if b != b:
        return a
    return max(a, b) if name == "max" else min(a, b)


def apply(name: str, args: list, span):
    """`name(args)` on interpreter values."""
    if len(args) != ARITY[name]:
        wrong_kind(span, f"`{name}` takes {ARITY[name]} argument(s), {len(args)} were given")
    args = [unplace(a) for a in args]
    traced = [a for a in args if isinstance(a, Traced)]
    if traced:
        return traced[0].math(name, args, span)
    kinds = {_kind(a) for a in args}
    if len(kinds) != 1 or None in kinds or name in FLOAT_ONLY and kinds != {"float"}:
        shown = " and ".join(describe(a) for a in args)
        wrong_kind(span, f"`{name}` does not take {shown}")
    a = args[0]
    if len(args) == 2:
        b = args[1]
        if type(a) in (TInt, TFloat) and type(b) in (TInt, TFloat) and a.t is not b.t:
            wrong_kind(span, f"`{name}` takes two numbers of one type, not {describe(a)} and "
                             f"{describe(b)}")
        typed = a if type(a) in (TInt, TFloat) else b
        value = pick(name, _plain(a), _plain(b))
        return _as(value, typed)
    if type(a) is float:
        return _FLOAT_FNS[name](a)
    if type(a) is TFloat:
        return TFloat(a.t.round(_FLOAT_FNS[name](a.v)), a.t)
    if type(a) is TInt:
        return TInt(a.t.wrap(abs(a.v)), a.t)
    return wrap32(abs(a))


def _kind(v) -> str | None:
    if type(v) in (int, TInt):
        return "int"
    if type(v) in (float, TFloat):
        return "float"
    return None


def _plain(v):
    return v.v if type(v) in (TInt, TFloat) else v


def _as(value, like):
    """`value` in the type of `like` (an i32 or f64 stays a plain number)."""
    if type(like) is TInt:
        return TInt(value, like.t)
    if type(like) is TFloat:
        return TFloat(like.t.round(value), like.t)
    return wrap32(value) if type(value) is int else value
