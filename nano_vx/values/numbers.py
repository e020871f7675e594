"""Scalar values and their arithmetic, as the interpreter and the compile-time evaluator
both compute them.

The representation keeps the common case on bare Python objects, so a simple loop runs
without allocating wrappers:
- an i32, or an integer literal no context has typed yet: a Python int. An operation on two
  of them wraps at 32 bits; such an int that meets a typed operand adopts its type, as a Rust
  literal would by inference.
- any other integer type: TInt(v, t), v already wrapped to t.
- an f64, or a float literal no context has typed: a Python float.
- f32, f16, bf16: TFloat(v, t), v already rounded to t.
- bool: a Python bool (always tested with `type(x) is bool`: bool is an int subclass).
- a string: a Python str (strings are only printed).
"""

from __future__ import annotations

import math
import struct
from decimal import Decimal

from .stops import stop, wrong_kind


class IntType:
    __slots__ = ("name", "bits", "signed", "lo", "hi", "mask", "modulus")

    def __init__(self, name: str, bits: int, signed: bool):
        self.name, self.bits, self.signed = name, bits, signed
        self.modulus = 1 << bits
        self.mask = self.modulus - 1
        self.lo = -(1 << (bits - 1)) if signed else 0
        self.hi = (1 << (bits - 1)) - 1 if signed else self.mask

    def wrap(self, v: int) -> int:
        v &= self.mask
        if self.signed and v > self.hi:
            v -= self.modulus
        return v


INT_TYPES = {t.name: t for t in (
    IntType("i8", 8, True), IntType("i16", 16, True), IntType("i32", 32, True),
    IntType("i64", 64, True), IntType("u8", 8, False), IntType("u16", 16, False),
    IntType("u32", 32, False), IntType("u64", 64, False),
    # no program names it: compute-wide-extents computes in it an extent that might leave
    # i64, as the interpreter's unbounded integers compute it
    IntType("i128", 128, True),
)}
I32 = INT_TYPES["i32"]
I32_LO, I32_HI = I32.lo, I32.hi


def wrap32(v: int) -> int:
    return v if I32_LO <= v <= I32_HI else I32.wrap(v)


def _f32(x: float) -> float:
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:  # rounds past the largest f32: IEEE gives infinity
        return math.copysign(math.inf, x)


def _f16(x: float) -> float:
    try:
        return struct.unpack("e", struct.pack("e", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _bf16(x: float) -> float:
    f = _f32(x)
    if f != f:
        return f
    bits = struct.unpack("I", struct.pack("f", f))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000  # round to nearest, ties even
    return struct.unpack("f", struct.pack("I", bits))[0]


class FloatType:
    __slots__ = ("name", "round")

    def __init__(self, name: str, round_fn):
        self.name, self.round = name, round_fn


FLOAT_TYPES = {t.name: t for t in (
    FloatType("f32", _f32), FloatType("f16", _f16), FloatType("bf16", _bf16),
)}


class TInt:
    """An integer of a type other than i32; v is within the type's range."""

    __slots__ = ("v", "t")

    def __init__(self, v: int, t: IntType):
        self.v, self.t = v, t

    def __repr__(self):
        return f"{self.v}{self.t.name}"


class TFloat:
    """A float of a type other than f64; v is exactly representable in that type."""

    __slots__ = ("v", "t")

    def __init__(self, v: float, t: FloatType):
        self.v, self.t = v, t

    def __repr__(self):
        return f"{self.v}{self.t.name}"


class Traced:
    """A float carrying a derivative: what the reference interpreter's `grad`, `vjp` and
    `jvp` run a function on (oracle/traced.py). `v` is its value, a float or a TFloat. The
    operations below take plain numbers first; one that meets a Traced hands it to the
    value's own methods (`arith`, `negated`, `cast`, `coerced`, and math.apply's `math`),
    which compute the value as for `v` and its derivative beside it."""

    __slots__ = ("v",)

    @property
    def kind(self) -> str:  # what `describe` names: the value's type
        return describe(self.v)


class Elementwise:
    """A value an operator applies to piece by piece, by its own `arith(op, a, b, span)`
    (a vector's lanes, values/vectors.py)."""

    __slots__ = ()


class Placed:
    """A scalar marked with the memory space (and topology) it was moved or spawned to.
    Operators read through it; the result of a computation carries no mark."""

    __slots__ = ("value", "space", "topo")

    def __init__(self, value, space: str, topo):
        self.value, self.space, self.topo = value, space, topo


def unplace(v):
    return v.value if type(v) is Placed else v


def describe(v) -> str:
    """The type of a value, as a message names it."""
    t = type(v)
    if t is bool:
        return "bool"
    if t is int:
        return "i32"
    if t is float:
        return "f64"
    if t is TInt or t is TFloat:
        return v.t.name
    if t is str:
        return "string"
    if t is Placed:
        return describe(v.value)
    if v is None:
        return "()"
    return getattr(v, "kind", t.__name__)


# -- conversions -------------------------------------------------------------------------


def _round_int_bits(v: int, bits: int) -> int:
    """v rounded (ties to even) to `bits` significant bits, so float() of it is exact."""
    n = abs(v).bit_length() - bits
    if n <= 0:
        return v
    q, r = divmod(abs(v), 1 << n)
    half = 1 << (n - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return (q << n) if v > 0 else -(q << n)


def int_to_float(v: int, t: FloatType | None) -> float:
    if t is None:
        return float(v)
    if abs(v) > 1 << 53:  # float(v) would round once and t.round again: round once, exactly
        v = _round_int_bits(v, 24)
    return t.round(float(v))


def float_to_int(v: float, t: IntType) -> int:
    """Rust's `as`: saturate at the type's bounds, NaN gives 0, otherwise truncate."""
    if v != v:
        return 0
    if v >= t.hi:
        return t.hi
    if v <= t.lo:
        return t.lo
    return int(v)


def coerce(v, name: str, span):
    """v as a value of scalar type `name` where the context fixes the type (a typed `let`,
    parameter, return, element): an untyped literal adopts it, a typed value must match."""
    v = unplace(v)
    tv = type(v)
    if name == "void":
        return v
    if name == "bool":
        if tv is bool:
            return v
    elif name == "i32":
        if tv is int:
            return wrap32(v)
    elif name == "f64":
        if tv is float:
            return v
    elif name in INT_TYPES:
        t = INT_TYPES[name]
        if tv is int:
            return TInt(t.wrap(v), t)
        if tv is TInt and v.t is t:
            return v
    else:
        t = FLOAT_TYPES[name]
        if tv is float:
            return TFloat(t.round(v), t)
        if tv is TFloat and v.t is t:
            return v
    if isinstance(v, Traced):
        return v.coerced(name, span)
    wrong_kind(span, f"expected a value of type {name}, found {describe(v)}")


def cast(v, name: str, span):
    """`v as name`."""
    v = unplace(v)
    tv = type(v)
    if tv is bool:
        if name in INT_TYPES:
            return coerce(int(v), name, span)
        if name == "bool":
            return v
    elif tv is int or tv is TInt:
        iv = v if tv is int else v.v
        if name == "i32":
            return wrap32(iv)
        if name in INT_TYPES:
            t = INT_TYPES[name]
            return TInt(t.wrap(iv), t)
        if name == "f64":
            return int_to_float(iv, None)
        if name in FLOAT_TYPES:
            t = FLOAT_TYPES[name]
            return TFloat(int_to_float(iv, t), t)
    elif tv is float or tv is TFloat:
        fv = v if tv is float else v.v
        if name == "i32":
            return float_to_int(fv, I32)
        if name in INT_TYPES:
            t = INT_TYPES[name]
            return TInt(float_to_int(fv, t), t)
        if name == "f64":
            return fv
        if name in FLOAT_TYPES:
            t = FLOAT_TYPES[name]
            return TFloat(t.round(fv), t)
    elif isinstance(v, Traced):
        return v.cast(name, span)
    wrong_kind(span, f"cannot cast a value of type {describe(v)} to {name}")


def to_index(v, span) -> int:
    v = unplace(v)
    if type(v) is int:
        return wrap32(v)
    if type(v) is TInt:
        return v.v
    wrong_kind(span, f"an index must be an integer, found {describe(v)}")


# -- arithmetic ----------------------------------------------------------------------------


_BITWISE = {"&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b}
SHIFTS = frozenset({"<<", ">>"})


def _int_op(op: str, a: int, b: int, t: IntType, span) -> int:
    if op == "+":
        return t.wrap(a + b)
    if op == "-":
        return t.wrap(a - b)
    if op == "*":
        return t.wrap(a * b)
    if op in _BITWISE:  # two's complement: Python's ints act as if sign-extended forever
        return t.wrap(_BITWISE[op](a, b))
    if b == 0:
        stop("E9001", span, f"attempt to {'divide' if op == '/' else 'take the remainder of'} "
                            f"{a} by zero ({t.name})")
    if t.signed and a == t.lo and b == -1:
        stop("E9001", span, f"attempt to compute {a} {op} -1, which overflows {t.name}")
    return truncating(op, a, b)


def truncating(op: str, a: int, b: int) -> int:
    """`a / b` or `a % b` truncated toward zero, as Rust does (not Python's floor); b != 0."""
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return q if op == "/" else a - b * q


def _float_op(op: str, a: float, b: float) -> float:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        if b == 0:  # Python raises; IEEE gives a signed infinity or NaN
            if a != a or a == 0:
                return math.nan
            return math.copysign(math.inf, a) * math.copysign(1.0, b)
        return a / b
    try:
        return math.fmod(a, b)  # Rust's float % keeps the dividend's sign, like fmod
    except ValueError:  # fmod(x, 0) and fmod(inf, y): IEEE gives NaN
        return math.nan


def _int_type_of(a, b, op, span) -> IntType:
    ta = a.t if type(a) is TInt else None
    tb = b.t if type(b) is TInt else None
    if ta is not None and tb is not None and ta is not tb:
        wrong_kind(span, f"cannot apply '{op}' to {ta.name} and {tb.name}")
    return ta or tb


def _mismatch(op, a, b, span):
    wrong_kind(span, f"cannot apply '{op}' to {describe(a)} and {describe(b)}")


def shift(op: str, a, b, span):
    """`a << b`, `a >> b`: of a's type (b may be any integer type), the amount taken modulo
    the width as Rust's wrapping shifts do; `>>` is arithmetic for a signed type, logical for
    an unsigned one."""
    a, b = unplace(a), unplace(b)
    if type(a) not in (int, TInt) or type(b) not in (int, TInt):
        _mismatch(op, a, b, span)
    t = a.t if type(a) is TInt else I32
    av = a.v if type(a) is TInt else wrap32(a)
    n = (b.v if type(b) is TInt else b) % t.bits
    r = t.wrap(av << n) if op == "<<" else t.wrap(av >> n)
    return TInt(r, t) if type(a) is TInt else r


def arith(op: str, a, b, span):
    """The general case of + - * / % & | ^ << >> (the evaluator inlines the i32 and f64 fast
    paths)."""
    if op in SHIFTS:
        return shift(op, a, b, span)
    a, b = unplace(a), unplace(b)
    ta, tb = type(a), type(b)
    if ta is bool and tb is bool and op in _BITWISE:  # `&`, `|`, `^` of bools: no shortcut
        return bool(_BITWISE[op](a, b))
    if ta is int and tb is int:
        return _int_op(op, wrap32(a), wrap32(b), I32, span)
    if (ta is int or ta is TInt) and (tb is int or tb is TInt):
        t = _int_type_of(a, b, op, span)
        av = a.v if ta is TInt else t.wrap(a)
        bv = b.v if tb is TInt else t.wrap(b)
        return TInt(_int_op(op, av, bv, t, span), t)
    if op in _BITWISE:  # of two integers or two bools, not of floats (Rust has no such op)
        _mismatch(op, a, b, span)
    if ta is float and tb is float:
        return _float_op(op, a, b)
    if (ta is float or ta is TFloat) and (tb is float or tb is TFloat):
        if ta is TFloat and tb is TFloat and a.t is not b.t:
            _mismatch(op, a, b, span)
        t = a.t if ta is TFloat else b.t
        av = a.v if ta is TFloat else t.round(a)
        bv = b.v if tb is TFloat else t.round(b)
        return TFloat(t.round(_float_op(op, av, bv)), t)
    if isinstance(a, (Traced, Elementwise)) or isinstance(b, (Traced, Elementwise)):
        return (a if isinstance(a, (Traced, Elementwise)) else b).arith(op, a, b, span)
    _mismatch(op, a, b, span)


def comparable(op: str, a, b, span):
    """The two Python values a comparison compares, after typing as `arith` does."""
    a, b = unplace(a), unplace(b)
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        return wrap32(a), wrap32(b)
    if (ta is int or ta is TInt) and (tb is int or tb is TInt):
        t = _int_type_of(a, b, op, span)
        return (a.v if ta is TInt else t.wrap(a)), (b.v if tb is TInt else t.wrap(b))
    if (ta is float or ta is TFloat) and (tb is float or tb is TFloat):
        if ta is TFloat and tb is TFloat and a.t is not b.t:
            _mismatch(op, a, b, span)
        t = a.t if ta is TFloat else b.t if tb is TFloat else None
        av = a.v if ta is TFloat else (t.round(a) if t else a)
        bv = b.v if tb is TFloat else (t.round(b) if t else b)
        return av, bv
    if (ta is bool and tb is bool) or (ta is str and tb is str):
        return a, b
    if isinstance(a, Traced) or isinstance(b, Traced):  # compared by value
        return comparable(op, a.v if isinstance(a, Traced) else a,
                          b.v if isinstance(b, Traced) else b, span)
    _mismatch(op, a, b, span)


def negate(v, span):
    v = unplace(v)
    tv = type(v)
    if tv is int:
        # Outside i32 a plain int can only be a literal no context has typed yet (`-N` for a
        # large N): it stays one, exact, for the context to type (`let x: i64 = -5000000000`).
        return wrap32(-v) if I32_LO <= v <= I32_HI else -v
    if tv is TInt:
        if not v.t.signed:
            wrong_kind(span, f"cannot negate a value of unsigned type {v.t.name}")
        return TInt(v.t.wrap(-v.v), v.t)
    if tv is float:
        return -v
    if tv is TFloat:
        return TFloat(-v.v, v.t)
    if isinstance(v, Traced):
        return v.negated(span)
    wrong_kind(span, f"cannot negate a value of type {describe(v)}")


def logical_not(v, span):
    v = unplace(v)
    tv = type(v)
    if tv is bool:
        return not v
    if tv is int:  # Rust's `!` on an integer is bitwise
        return wrap32(~v)
    if tv is TInt:
        return TInt(v.t.wrap(~v.v), v.t)
    wrong_kind(span, f"cannot apply '!' to a value of type {describe(v)}")


# -- printing ------------------------------------------------------------------------------


def format_float(v: float, t: FloatType | None) -> str:
    """Rust's `{}` of a float: the shortest digits that read back to the same value in its
    type, written without an exponent (`1.5`, `3`, `100000000000000000000`)."""
    if v != v:
        return "NaN"
    if v in (math.inf, -math.inf):
        return "inf" if v > 0 else "-inf"
    if v == 0:
        return "-0" if math.copysign(1.0, v) < 0 else "0"
    if t is None:
        text = repr(v)  # Python's repr is already the shortest round-trip for f64
    else:
        for digits in range(1, 18):
            text = "%.*e" % (digits - 1, v)
            if t.round(float(text)) == v:
                break
    return format(Decimal(text).normalize(), "f")


def format_scalar(v) -> str | None:
    """The printed text of a scalar, or None when v is not one."""
    tv = type(v)
    if tv is bool:
        return "true" if v else "false"
    if tv is int:
        return str(wrap32(v))
    if tv is float:
        return format_float(v, None)
    if tv is TInt:
        return str(v.v)
    if tv is TFloat:
        return format_float(v.v, v.t)
    if tv is str:
        return v
    if tv is Placed:
        return format_scalar(v.value)
    if isinstance(v, Traced):  # printed inside a function being differentiated
        return format_scalar(v.v)
    return None
