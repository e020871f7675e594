"""The MLIR operations of Vx's scalar operators, on values of a FunctionBuilder: arithmetic
with the checks the interpreter makes (a zero divisor, the minimum divided by -1), Rust's
wrapping shifts, comparisons signed or unsigned, negation and casts."""

from __future__ import annotations

from ..values.numbers import INT_TYPES
from .machine_types import BITS, MACHINE, kind, signed

_ARITH = {("+", "int"): "addi", ("-", "int"): "subi", ("*", "int"): "muli",
          ("+", "float"): "addf", ("-", "float"): "subf", ("*", "float"): "mulf",
          ("/", "float"): "divf", ("%", "float"): "remf"}
_BITWISE_OPS = {"&": "andi", "|": "ori", "^": "xori"}
_PREDICATE = {"==": ("eq", "eq", "oeq"), "!=": ("ne", "ne", "une"), "<": ("slt", "ult", "olt"),
              "<=": ("sle", "ule", "ole"), ">": ("sgt", "ugt", "ogt"),
              ">=": ("sge", "uge", "oge")}
COMPARISONS = frozenset(_PREDICATE)


def compare(b, op: str, left: str, right: str, t: str) -> str:
    """`left op right` for a comparison of operands of type t: a bool."""
    signed_, unsigned, ordered = _PREDICATE[op]
    if kind(t) == "float":
        return b.op("Compare", "cmpf", ordered, left, right, MACHINE[t])
    pred = signed_ if signed(t) and t != "bool" else unsigned
    return b.op("Compare", "cmpi", pred, left, right, MACHINE[t])


def operate(b, op: str, left: str, right: str, right_type: str, t: str) -> str:
    """`left op right` of type t, for an operator or a compound assignment's."""
    if op in ("<<", ">>"):
        return _shift(b, op, left, right, right_type, t)
    return _arith(b, op, left, right, t)


def lanewise(b, op: str, left: str, right: str, t: str, m: str) -> str:
    """`left op right` of two values of machine type m whose lanes are of Vx type t, as one
    operation: `+ - *` of either kind, `/` of floats (an integer `/` checks each lane)."""
    return b.op("Arith", _ARITH[op, kind(t)], left, right, m)


def _shift(b, op: str, value: str, amount: str, amount_type: str, t: str) -> str:
    """`<<`, `>>` as Rust's wrapping shifts: the amount in the value's width, modulo it
    (LLVM's shift by the width or more would be poison); `>>` of a signed type
    arithmetic, of an unsigned one logical."""
    m, a = MACHINE[t], MACHINE[amount_type]
    if BITS[a] > BITS[m]:
        amount = b.op("Convert", "arith.trunci", amount, a, m)
    elif BITS[a] < BITS[m]:
        ext = "arith.extsi" if signed(amount_type) else "arith.extui"
        amount = b.op("Convert", ext, amount, a, m)
    amount = b.op("Arith", "andi", amount, b.const(BITS[m] - 1, t), m)
    name = "shli" if op == "<<" else "shrsi" if signed(t) else "shrui"
    return b.op("Arith", name, value, amount, m)


def _arith(b, op: str, left: str, right: str, t: str) -> str:
    m = MACHINE[t]
    if op in _BITWISE_OPS:
        return b.op("Arith", _BITWISE_OPS[op], left, right, m)
    if (op, kind(t)) in _ARITH:
        return b.op("Arith", _ARITH[op, kind(t)], left, right, m)
    # Integer / and %: the checks the interpreter makes, then the operation.
    verb = "divide" if op == "/" else "take the remainder of"
    divisor = b.constants.get(right)
    if divisor is None or divisor == 0:
        zero = b.const(0, t)
        nonzero = b.op("Compare", "cmpi", "ne", right, zero, m)
        b.check(nonzero, "E9001", f"attempt to {verb} {{a}} by zero ({t})", t,
                b.to_i64(left, t))
    if signed(t) and (divisor is None or divisor == -1):
        least = b.const(INT_TYPES[t].lo, t)
        is_least = b.op("Compare", "cmpi", "eq", left, least, m)
        minus_one = b.op("Compare", "cmpi", "eq", right, b.const(-1, t), m)
        overflow = b.op("Arith", "andi", is_least, minus_one, "i1")
        fine = b.op("Arith", "xori", overflow, b.const(1, "bool"), "i1")
        b.check(fine, "E9001", f"attempt to compute {{a}} {op} -1, which overflows {t}",
                t, b.to_i64(left, t))
    name = ("divsi" if op == "/" else "remsi") if signed(t) else \
        ("divui" if op == "/" else "remui")
    return b.op("Arith", name, left, right, m)


def negate(b, op: str, value: str, t: str) -> str:
    """`-v` (0 - v, or -1.0 * v for a float), `!v` (all bits flipped; a bool's one)."""
    m = MACHINE[t]
    if op == "-":
        if kind(t) == "float":
            return b.op("Arith", "mulf", b.const(-1.0, t), value, m)
        return b.op("Arith", "subi", b.const(0, t), value, m)
    return b.op("Arith", "xori", value, b.const(-1 if t != "bool" else 1, t), m)


def cast(b, value: str, source: str, target: str) -> str:
    """`value as target` from Vx scalar type `source`: the value itself when the machine
    types agree."""
    s, m = MACHINE[source], MACHINE[target]
    if kind(source) == "int" and kind(target) == "int":
        if BITS[s] == BITS[m]:
            return value
        if BITS[s] > BITS[m]:
            return b.op("Convert", "arith.trunci", value, s, m)
        ext = "arith.extsi" if signed(source) and source != "bool" else "arith.extui"
        return b.op("Convert", ext, value, s, m)
    if kind(source) == "int":
        conv = "arith.sitofp" if signed(source) and source != "bool" else "arith.uitofp"
        return b.op("Convert", conv, value, s, m)
    if kind(target) == "int":
        conv = "llvm.intr.fptosi.sat" if signed(target) else "llvm.intr.fptoui.sat"
        return b.op("Convert", conv, value, s, m)
    if s == m:
        return value
    if {s, m} == {"bf16", "f16"}:
        # Neither format holds the other, and MLIR converts only to a wider or a narrower
        # one: through f32, which holds both exactly, so the value is rounded once, as the
        # interpreter rounds it.
        value, s = b.op("Convert", "arith.extf", value, s, "f32"), "f32"
    conv = "arith.extf" if BITS[s] < BITS[m] else "arith.truncf"
    return b.op("Convert", conv, value, s, m)


def math_builtin(b, name: str, args: list):
    """A math built-in: one `math` op, or arith's max and min of integers. Its operands
    have one type (type-scalars)."""
    t = args[0][1]
    m, float_ = MACHINE[t], kind(t) == "float"
    if name in ("max", "min") and float_:
        return _float_extremum(b, name, args[0][0], args[1][0], t), t
    if name in ("max", "min"):
        return b.op("Arith", f"{name}{'si' if signed(t) else 'ui'}", args[0][0], args[1][0],
                    m), t
    if name == "abs" and not float_ and not signed(t):
        return args[0][0], t  # an unsigned number is its own absolute value
    op = {"abs": "absf" if float_ else "absi"}.get(name, name)
    return b.op("Math", op, args[0][0], m), t


def _float_extremum(b, name: str, x: str, y: str, t: str) -> str:
    """max(x, y) or min(x, y) of floats as the interpreter picks: y when it beats x or x is
    a NaN, else x, so a NaN loses to a number and of two equal numbers, -0.0 and 0.0, the
    first is the value. (arith.maxnumf leaves which zero to the machine: x86 gives the
    second.)"""
    beats = compare(b, ">" if name == "max" else "<", y, x, t)
    nan = b.op("Compare", "cmpf", "une", x, x, MACHINE[t])
    take_y = b.op("Arith", "ori", beats, nan, "i1")
    join = b.new_block((b.arg(MACHINE[t]),))
    b.end("CondBr", take_y, join.label, (y,), join.label, (x,))
    b.enter(join)
    return join.args[0].name
