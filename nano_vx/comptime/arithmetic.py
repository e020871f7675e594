"""Operators at compile time: the arithmetic the interpreter runs (nano_vx/values/numbers.py),
plus what compiling needs on top of it: unknown operands, results outside their type, and the
checks `/` and `%` make."""

from __future__ import annotations

import math
import operator

from ..values.numbers import (
    I32, TFloat, TInt, arith, cast, comparable, format_scalar, logical_not, negate,
    unplace,
)
from ..values.places import same
from ..values.stops import RuntimeStop
from .errors import cannot_finish, depends
from .values import Unknown, overflow

_EXACT = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_QUOTIENT = {"/": operator.floordiv, "%": operator.mod}
_BITS = frozenset("& | ^ << >>".split())
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


def _int_value(v, t) -> int:
    """An integer operand as `arith` reads it in type t (an untyped literal adopts t)."""
    return v.v if type(v) is TInt else t.wrap(v)


def _wrapped(exact: int, r) -> str | None:
    """Where an integer result `r` differs from the exact one: the type it left, else None."""
    if type(r) is int:
        return None if exact == r else I32.name
    if type(r) is TInt:
        return None if exact == r.v else r.t.name
    return None


def _is_float(v) -> bool:
    v = unplace(v)
    return type(v) is float or type(v) is TFloat


class Literal:
    """A right operand known when the code is compiled (`i + 1`): `operation` takes its
    value once instead of calling a closure for it on every evaluation."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class ArithmeticMixin:
    """Needs `self.check_fails(span, detail)`, which knows whether the path always runs."""

    def guarded(self, fn, *args):
        """Call a shared operation on values; its run-time stop becomes a compile-time error."""
        try:
            return fn(*args)
        except RuntimeStop as stop:
            if stop.code == "E9001":
                self.check_fails(stop.span, stop.message)
            cannot_finish(stop.span, stop.message)

    def operation(self, op, span, left, right):
        """`f(x) -> left(x) op right(x)`, compiled once per operator, with the interpreter's
        fast paths for i32 operands and `binary` for every other case. The operands are
        functions of one argument (a frame's closures, or `itemgetter`s of a pair of
        values); a right operand that is a Literal is its value, taken once."""
        binary = self.binary
        literal = type(right) is Literal
        c = right.value if literal else None
        exact = _EXACT.get(op)
        if exact is not None:
            def arithmetic(x):
                a, b = left(x), c if literal else right(x)
                if type(a) is int and type(b) is int:
                    r = exact(a, b)
                    if -2147483648 <= r <= 2147483647:
                        return r
                return binary(op, a, b, span)
            return arithmetic
        if op in _BITS:
            def bits(x):
                return binary(op, left(x), c if literal else right(x), span)
            return bits
        compare = _COMPARE.get(op)
        if compare is not None:
            def comparison(x):
                a, b = left(x), c if literal else right(x)
                if type(a) is int and type(b) is int:
                    return compare(a, b)
                return binary(op, a, b, span)
            return comparison
        quotient = _QUOTIENT[op]

        def division(x):
            a, b = left(x), c if literal else right(x)
            # Non-negative i32 operands: floor and truncation agree, no check can fail.
            if type(a) is int and type(b) is int and 0 <= a <= 2147483647 and b > 0:
                return quotient(a, b)
            return binary(op, a, b, span)
        return division

    def binary(self, op, a, b, span):
        if op in ("/", "%"):
            return self.divide(op, a, b, span)
        if type(a) is Unknown:
            return a
        if type(b) is Unknown:
            return b
        if op in _EXACT:
            r = self.guarded(arith, op, a, b, span)
            ra = unplace(r)
            t = ra.t if type(ra) is TInt else I32
            if type(ra) in (int, TInt):
                exact = _EXACT[op](_int_value(unplace(a), t), _int_value(unplace(b), t))
                left = _wrapped(exact, ra)
                if left is not None:
                    return overflow(f"{format_scalar(unplace(a))} {op} "
                                    f"{format_scalar(unplace(b))} = {exact} is outside {left}")
            return r
        if op in _BITS:  # no overflow to report: the bits are the result
            return self.guarded(arith, op, a, b, span)
        if op in ("==", "!="):
            eq = same(unplace(a), unplace(b))
            if eq is not None:
                return eq if op == "==" else not eq
        x, y = self.guarded(comparable, op, a, b, span)
        return _COMPARE[op](x, y)

    def divide(self, op, a, b, span):
        """`/` and `%`: an integer one is a check (zero divisor, minimum / -1) the compiler
        must decide; a float one is not."""
        ua, ub = type(a) is Unknown, type(b) is Unknown
        if ub:
            if not ua and _is_float(a):
                return b
            depends(span, b.why, what=f"the divisor of this `{op}` (zero stops the program)")
        if ua:
            if _is_float(b):
                return a
            d = unplace(b)
            dv = d.v if type(d) is TInt else d
            if dv == 0:
                self.check_fails(span, f"`{op}` by zero")
            signed = type(d) is not TInt or d.t.signed
            if dv == -1 and signed:
                depends(span, a.why, what=f"this `{op}` by -1 (the minimum value divided "
                                          f"by -1 stops the program)")
            return a
        return self.guarded(arith, op, a, b, span)

    def negative(self, v, span):
        if type(v) is Unknown:
            return v
        r = self.guarded(negate, v, span)
        rv = unplace(r)
        if type(rv) in (int, TInt):
            uv = unplace(v)
            exact = -(uv.v if type(uv) is TInt else uv)  # one operand: nothing to adopt
            left = _wrapped(exact, rv)
            if left is not None:
                return overflow(f"-({format_scalar(unplace(v))}) = {exact} is outside {left}")
        return r

    def bit_not(self, v, span):
        return v if type(v) is Unknown else self.guarded(logical_not, v, span)

    def converted(self, v, name, span):
        """`v as name`, when it keeps the value: a cast that wraps an integer (`-1i64 as
        u64`) or saturates a float outside the integer type (`1e20 as i64`) is what the
        program does when it runs, but not a value the compiler takes as known (vxc's
        rule: E3033 where a block needs it). A float's fraction is dropped, as `as` does."""
        if type(v) is Unknown:
            return v
        r = self.guarded(cast, v, name, span)
        u, ru = unplace(v), unplace(r)
        if type(ru) in (int, TInt) and _changed(u, ru.v if type(ru) is TInt else ru):
            return overflow(f"`{format_scalar(u)} as {name}` is {format_scalar(ru)}, a cast "
                            f"that changes the value")
        return r



def _changed(source, result: int) -> bool:
    """Whether an integer `result` of a cast is not the value `source` had (a float's
    fraction aside)."""
    if type(source) in (float, TFloat):
        f = source.v if type(source) is TFloat else source
        return math.isnan(f) or math.isinf(f) or math.trunc(f) != result
    if type(source) in (int, TInt):
        return (source.v if type(source) is TInt else source) != result
    return False
