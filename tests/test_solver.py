"""solver.smallest: the counterexample shown is the smallest one, the first value first (closest
to zero, then positive; a bool false), whatever the constraints, as a search through every
value of two i8 finds it."""

from __future__ import annotations

import functools
import itertools

from hypothesis import given, settings, strategies as st

from nano_vx.solver import smallest, z3

I8 = range(-128, 128)


def _order(v: int) -> tuple[int, bool]:
    """What smallest orders an i8 by: its magnitude as 8 bits (-128 is 128), then its sign."""
    return (-v) & 0xFF if v < 0 else v, v < 0


def _signed(value) -> int:
    n = value.as_long()
    return n - 256 if n >= 128 else n


@functools.cache
def _in_order() -> list[tuple[int, int, bool]]:
    """Every (a, b, flag), the smallest first."""
    return sorted(itertools.product(I8, I8, (False, True)),
                  key=lambda m: (*_order(m[0]), *_order(m[1]), m[2]))


# a*p + b*q + r compared with 0, with i8 wrapping as z3's bit-vectors wrap.
COEFFICIENT = st.integers(-5, 5)
COMPARISON = st.sampled_from(["==", "!=", "<", ">="])


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(COEFFICIENT, COEFFICIENT, st.integers(-128, 127), COMPARISON, st.booleans())
def test_the_smallest_model_is_the_first_in_order_of_every_model(p, q, r, comparison, with_flag):
    z = z3()
    a, b, flag = z.BitVec("a", 8), z.BitVec("b", 8), z.Bool("flag")
    total = a * p + b * q + r

    def holds(x, y, f):
        wrapped = ((x * p + y * q + r + 128) & 0xFF) - 128
        return {"==": wrapped == 0, "!=": wrapped != 0, "<": wrapped < 0,
                ">=": wrapped >= 0}[comparison] and (f or not with_flag or x != y)

    ops = {"==": total == 0, "!=": total != 0, "<": total < 0, ">=": total >= 0}
    assertions = [ops[comparison], z.Or(flag, z.Not(with_flag), a != b)]
    best = next((m for m in _in_order() if holds(*m)), None)
    model = smallest(assertions, [(a, True), (b, True), (flag, False)])
    if best is None:
        assert model is None
        return
    got = (_signed(model.eval(a, model_completion=True)),
           _signed(model.eval(b, model_completion=True)),
           z.is_true(model.eval(flag, model_completion=True)))
    assert got == best
