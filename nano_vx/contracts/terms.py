"""Vx scalars as z3 terms, meaning what the interpreter computes (nano_vx/values/numbers.py).

- An integer of type T is a z3 bit-vector of T's width, z3's machine integer: `+ - *` wrap
  as the interpreter's do, comparisons and `/ %` are signed or unsigned as T is, `/` and `%`
  truncate toward zero, `& | ^ << >>` are the bits'. So `x + 1 > x`, a theorem of the
  integers, is refused for an i32 x (z3 finds 2147483647). Bit-vectors rather than z3's
  unbounded integers with each result reduced modulo 2^n: those are exact too, but z3
  decided neither `x ^ 5 ^ 5 == x` nor a product of two bounded variables within seconds,
  which bit-vectors take milliseconds for.
- A zero divisor (and the minimum divided by -1) stops the program, so past such an
  operation the path assumes it did not happen.
- A float of type T is an IEEE float of T's format: every operation rounds to nearest, ties
  to even, as the interpreter's does, and NaN and the infinities are values like any other.
  Reals would be simpler but unsound: `x + 1.0 > x` is true of every real and false of a
  large enough f32, and NaN makes `x < 0.0 || x >= 0.0` false.
- A literal no context has typed yet stays a Python number, exact, until it meets an
  operand whose type it takes (as a Rust literal's type is inferred).

What the encoding does not follow is an `Unknown`: where a value of a type is needed it
becomes a fresh constant of that type, registered as opaque with the node that made it, so
a refutation that depends on one is reported as unverified rather than as a counterexample.

A tensor of scalars is a z3 array from 64-bit indices to its elements; an element read is the
array at the index, widened to 64 bits as `as i64` widens it. This is the one encoding of Vx
into z3: verify-contracts runs a function's paths with it (execute.py), verify-seams a
kernel's asserts over the tensors a relaxed transfer moves (seams.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..solver import float_sort, z3
from ..values.numbers import FLOAT_TYPES, INT_TYPES, truncating

INT_LITERAL, FLOAT_LITERAL = "an integer literal", "a float literal"
LITERALS = (INT_LITERAL, FLOAT_LITERAL)
FLOATS = frozenset(FLOAT_TYPES) | {"f64"}
_COMPARE = frozenset({"==", "!=", "<", "<=", ">", ">="})
_BITS = frozenset({"&", "|", "^"})


@dataclass(frozen=True)
class Term:
    expr: object  # a z3 expression; a Python int or float for a literal not yet typed
    ty: str  # "bool", an integer or float type name, INT_LITERAL or FLOAT_LITERAL


@dataclass(frozen=True)
class Unknown:
    """A value the encoding does not follow; `why` is the node that made it."""

    why: object


def is_scalar(ty: str | None) -> bool:
    return ty == "bool" or ty in INT_TYPES or ty in FLOATS


class Encoding:
    """Makes the terms of one function: fresh constants, the opaque ones, the operators."""

    def __init__(self):
        self.z = z3()
        self.opaque: dict[str, object] = {}  # constant name -> the node it stands for
        self._count = 0

    def truth(self, value: bool):
        return self.z.BoolVal(value)

    def _int(self, value: int, bits: int):
        return self.z.BitVecVal(value, bits)

    def _float(self, value: float, ty: str):
        return self.z.FPVal(value, float_sort(ty))

    # -- constants ---------------------------------------------------------------------

    def fresh(self, ty: str, label: str, why=None, opaque: bool = False) -> Term:
        """A new constant of scalar type `ty`, named after `label`; opaque when it stands
        for a value the encoding does not follow, made by the node `why` (None when no
        node made it: two paths meeting with values of two types)."""
        self._count += 1
        name = f"{label}!{self._count}"
        if opaque or why is not None:
            self.opaque[name] = why
        return self.constant(name, ty)

    def constant(self, name: str, ty: str) -> Term:
        """The constant `name` of scalar type `ty`: any value of the type, the same one
        wherever the name is asked for again."""
        return Term(self.z.Const(name, self.sort(ty)), ty)

    def sort(self, ty: str):
        """The z3 sort of scalar type `ty`."""
        if ty == "bool":
            return self.z.BoolSort()
        if ty in INT_TYPES:
            return self.z.BitVecSort(INT_TYPES[ty].bits)
        return float_sort(ty)

    def typed(self, v, ty: str, why) -> Term:
        """`v` as a term of scalar type `ty`: a literal takes the type, an unknown value is a
        fresh opaque constant of it, a value of another type too (the checker refuses
        those; a cast the encoding does not follow may still make one)."""
        if isinstance(v, Unknown):
            return self.fresh(ty, "value", v.why, opaque=True)
        if v.ty == ty:
            return v
        if v.ty == INT_LITERAL and ty in INT_TYPES:
            return Term(self._int(INT_TYPES[ty].wrap(v.expr), INT_TYPES[ty].bits), ty)
        if v.ty in LITERALS and ty in FLOATS:
            return Term(self._float(float(v.expr), ty), ty)
        return self.fresh(ty, "value", why, opaque=True)

    def settled(self, v: Term) -> Term:
        """A literal no context typed, as the interpreter keeps it: i32 or f64."""
        if v.ty == INT_LITERAL:
            return self.typed(v, "i32", None)
        if v.ty == FLOAT_LITERAL:
            return self.typed(v, "f64", None)
        return v

    def boolean(self, v, why):
        """A condition as a z3 Bool (an unknown one is a fresh opaque Bool)."""
        if isinstance(v, Term) and v.ty == "bool":
            return v.expr
        return self.fresh("bool", "condition", v.why if isinstance(v, Unknown) else why,
                          opaque=True).expr

    # -- tensors -----------------------------------------------------------------------

    def array(self, name: str, ty: str):
        """The tensor `name` of scalar elements of type `ty`: a z3 array from 64-bit indices."""
        return self.z.Array(name, self.z.BitVecSort(64), self.sort(ty))

    def index(self, v, node):
        """`v` as the 64-bit index of an element: an integer as `as i64` makes it (by its
        sign, or zeros for an unsigned one; a literal wrapped), an Unknown for anything
        else."""
        if isinstance(v, Term) and v.ty == INT_LITERAL:
            return self.typed(v, "i64", node)
        if isinstance(v, Term) and v.ty in INT_TYPES:
            return self.cast(v, "i64", node)
        return v if isinstance(v, Unknown) else Unknown(node)

    def element(self, array, ty: str, at: Term) -> Term:
        """The element of `array` (a tensor of `ty`) at the index `at`."""
        return Term(self.z.Select(array, at.expr), ty)

    # -- operators ---------------------------------------------------------------------

    def binary(self, op: str, a, b, node, assume):
        """`a op b` (not `&&`, `||`: the executor short-circuits them). `assume(c)` adds
        to the path what must hold for the operation not to stop the program."""
        if isinstance(a, Unknown) or isinstance(b, Unknown):
            return a if isinstance(a, Unknown) else b
        if a.ty in LITERALS and b.ty in LITERALS:
            return self._literal_op(op, a, b, node)
        if op in ("<<", ">>"):
            return self._shift(op, a, b, node)
        ty = a.ty if a.ty not in LITERALS else b.ty
        a, b = self.typed(a, ty, node), self.typed(b, ty, node)
        x, y, z = a.expr, b.expr, self.z
        if op in _COMPARE:
            return self._compare(op, x, y, ty, node)
        if ty == "bool":
            if op not in _BITS:
                return Unknown(node)
            return Term({"&": z.And(x, y), "|": z.Or(x, y), "^": z.Xor(x, y)}[op], "bool")
        if ty in FLOATS:
            arith = {"+": z.fpAdd, "-": z.fpSub, "*": z.fpMul, "/": z.fpDiv}
            if op not in arith:  # `%` is fmod, which z3 has not (its fpRem rounds the quotient)
                return Unknown(node)
            return Term(arith[op](z.RNE(), x, y), ty)
        t = INT_TYPES[ty]
        if op in ("/", "%"):
            assume(y != 0)
            if t.signed:
                assume(z.Not(z.And(x == t.lo, y == -1)))
                return Term(x / y if op == "/" else z.SRem(x, y), ty)
            return Term(z.UDiv(x, y) if op == "/" else z.URem(x, y), ty)
        return Term({"+": x + y, "-": x - y, "*": x * y, "&": x & y, "|": x | y,
                     "^": x ^ y}[op], ty)

    def _compare(self, op: str, x, y, ty: str, node):
        z = self.z
        if op in ("==", "!="):
            same = z.fpEQ(x, y) if ty in FLOATS else x == y
            return Term(same if op == "==" else z.Not(same), "bool")
        if ty == "bool":
            return Unknown(node)
        if ty in FLOATS:
            order = {"<": z.fpLT, "<=": z.fpLEQ, ">": z.fpGT, ">=": z.fpGEQ}
        elif INT_TYPES[ty].signed:
            order = {"<": lambda p, q: p < q, "<=": lambda p, q: p <= q,
                     ">": lambda p, q: p > q, ">=": lambda p, q: p >= q}
        else:
            order = {"<": z.ULT, "<=": z.ULE, ">": z.UGT, ">=": z.UGE}
        return Term(order[op](x, y), "bool")

    def _shift(self, op: str, a: Term, b: Term, node):
        """Of a's type; the amount, of any integer type, taken modulo a's width (a power of
        two: its low bits), as the interpreter takes it."""
        if a.ty == INT_LITERAL:
            a = self.settled(a)
        if a.ty not in INT_TYPES or not (b.ty in INT_TYPES or b.ty == INT_LITERAL):
            return Unknown(node)
        z, bits = self.z, INT_TYPES[a.ty].bits
        if b.ty == INT_LITERAL:
            amount = self._int(b.expr % bits, bits)
        else:
            low = z.Extract(bits.bit_length() - 2, 0, b.expr)
            amount = z.ZeroExt(bits - low.size(), low)
        x = a.expr
        if op == "<<":
            return Term(x << amount, a.ty)
        return Term(x >> amount if INT_TYPES[a.ty].signed else z.LShR(x, amount), a.ty)

    def _literal_op(self, op: str, a: Term, b: Term, node):
        x, y = a.expr, b.expr
        if op in _COMPARE:
            return Term(self.truth({"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y,
                                    ">": x > y, ">=": x >= y}[op]), "bool")
        kind = FLOAT_LITERAL if FLOAT_LITERAL in (a.ty, b.ty) else INT_LITERAL
        if op in ("+", "-", "*"):
            return Term({"+": x + y, "-": x - y, "*": x * y}[op], kind)
        if op in ("/", "%") and kind == INT_LITERAL and y != 0:
            return Term(truncating(op, x, y), kind)
        return Unknown(node)

    def unary(self, op: str, a, node):
        if isinstance(a, Unknown):
            return a
        z = self.z
        if a.ty in LITERALS:
            return Term(-a.expr, a.ty) if op == "-" else Unknown(node)
        if a.ty == "bool":
            return Term(z.Not(a.expr), "bool") if op == "!" else Unknown(node)
        if a.ty in FLOATS:
            return Term(z.fpNeg(a.expr), a.ty) if op == "-" else Unknown(node)
        if op == "-" and not INT_TYPES[a.ty].signed:
            return Unknown(node)  # the checker refuses it; the interpreter stops
        return Term(-a.expr if op == "-" else ~a.expr, a.ty)

    def cast(self, a, ty: str | None, node):
        """`a as ty`, as `values.numbers.cast` computes it."""
        if isinstance(a, Unknown) or not is_scalar(ty):
            return a if isinstance(a, Unknown) else Unknown(node)
        z = self.z
        a = self.settled(a)
        if a.ty == ty:
            return a
        if a.ty == "bool":
            if ty not in INT_TYPES:
                return Unknown(node)
            bits = INT_TYPES[ty].bits
            return Term(z.If(a.expr, self._int(1, bits), self._int(0, bits)), ty)
        if a.ty in INT_TYPES:
            source = INT_TYPES[a.ty]
            if ty in FLOATS:
                convert = z.fpSignedToFP if source.signed else z.fpUnsignedToFP
                return Term(convert(z.RNE(), a.expr, float_sort(ty)), ty)
            if ty not in INT_TYPES:
                return Unknown(node)
            return Term(self._resized(a.expr, source, INT_TYPES[ty].bits), ty)
        if ty in FLOATS:
            return Term(z.fpToFP(z.RNE(), a.expr, float_sort(ty)), ty)
        if ty not in INT_TYPES:
            return Unknown(node)
        return Term(self._saturated(a.expr, INT_TYPES[ty]), ty)

    def _resized(self, x, source, bits: int):
        """An integer's value wrapped to `bits`: its low bits, or widened by its sign."""
        z, have = self.z, source.bits
        if bits < have:
            return z.Extract(bits - 1, 0, x)
        if bits > have:
            return (z.SignExt if source.signed else z.ZeroExt)(bits - have, x)
        return x

    def _saturated(self, x, t):
        """A float as an integer of type t, as Rust's `as`: NaN is 0, what is beyond the
        type's range its nearest bound, the rest truncated toward zero."""
        z = self.z
        r = z.fpToReal(x)
        lo, hi = self._int(t.lo, t.bits), self._int(t.hi, t.bits)
        whole = (z.fpToSBV if t.signed else z.fpToUBV)(z.RTZ(), x,
                                                        z.BitVecSort(t.bits))
        finite = z.If(r >= t.hi, hi, z.If(r <= t.lo, lo, whole))
        return z.If(z.fpIsNaN(x), self._int(0, t.bits),
                    z.If(z.fpIsInf(x), z.If(z.fpIsPositive(x), hi, lo), finite))

    def merge(self, cond, a, b):
        """The value `a` where `cond` holds, else `b` (where two paths meet)."""
        if a is b:
            return a
        if isinstance(a, Unknown) or isinstance(b, Unknown):
            return a if isinstance(a, Unknown) else b
        if a.ty != b.ty:
            if a.ty in LITERALS and b.ty not in LITERALS:
                a = self.typed(a, b.ty, None)
            elif b.ty in LITERALS and a.ty not in LITERALS:
                b = self.typed(b, a.ty, None)
            else:
                a, b = self.settled(a), self.settled(b)
        elif a.ty in LITERALS:
            if a.expr == b.expr:
                return a
            a, b = self.settled(a), self.settled(b)
        if a.ty != b.ty:
            return Unknown(None)
        if self.z.eq(a.expr, b.expr):
            return a
        return Term(self.z.If(cond, a.expr, b.expr), a.ty)
