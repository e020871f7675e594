"""The rules forward mode differentiates arithmetic and the math built-ins by: the tangent
of `a + c`, `a - c`, `a * c`, `a / c` and of `exp`, `log`, `sqrt`, `abs`, `max`, `min`, from
the tangents of their operands. differentiate-forward applies them to a float expression;
`tan` is its tangent of an operand, None when that is zero (a constant, an integer), and
a rule gives None when the whole tangent is."""

from __future__ import annotations

from .code import picks_first, zero


def binary_tangent(b, e, tan):
    """The tangent of the float `e.left op e.right`; None for an operator with none."""
    a, c = e.left, e.right
    ta, tc = tan(a), tan(c)
    op = e.op
    if op in ("+", "-"):
        if tc is None:
            return ta
        if ta is None:
            return tc if op == "+" else b.neg(tc)
        return b.bin(op, ta, tc)
    if op == "*":  # ta * c + a * tc
        return _sum(b, ta and b.bin("*", ta, c), tc and b.bin("*", a, tc))
    if op == "/":  # ta / c - tc / c * (a / c), as the adjoint divides
        left = ta and b.bin("/", ta, c)
        right = tc and b.bin("*", b.bin("/", tc, c), e)
        if right is None:
            return left
        return b.bin("-", left, right) if left is not None else b.neg(right)
    return None


def math_tangent(b, e, tan, type_of):
    """The tangent of the float call `e` of a math built-in; `type_of` gives e's type, whose
    zero is the tangent of an argument of max or min that has none."""
    name, args = e.callee.name, e.args
    if name in ("max", "min"):  # the argument max/min picks (a NaN loses), its tangent
        a, c = args
        ta, tc = tan(a), tan(c)
        if ta is None and tc is None:
            return None
        ty = type_of(e)
        return b.if_value(picks_first(b, name, a, c), ta or zero(b, ty), tc or zero(b, ty))
    a = args[0]
    ta = tan(a)
    if ta is None:
        return None
    if name == "exp":
        return b.bin("*", e, ta)
    if name == "log":
        return b.bin("/", ta, a)
    if name == "sqrt":
        return b.bin("/", ta, b.bin("*", b.flt(2.0), e))
    return b.if_value(b.bin("<", a, b.flt(0.0)), b.neg(ta), ta)  # abs


def _sum(b, x, y):
    if x is None:
        return y
    if y is None:
        return x
    return b.bin("+", x, y)
