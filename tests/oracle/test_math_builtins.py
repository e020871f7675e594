"""The math built-ins in the reference interpreter and the compile-time evaluator: IEEE's
answers at the edges, the argument's type kept, integers wrapping; and a property test that
the interpreter's value is the float computed once and rounded to the type."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nano_vx.values.math import apply
from nano_vx.values.numbers import FLOAT_TYPES, INT_TYPES, TFloat, TInt
from nano_vx.values.stops import RuntimeStop
from oracle_run import output, run_chain

F32, I64, U32 = FLOAT_TYPES["f32"], INT_TYPES["i64"], INT_TYPES["u32"]


@pytest.mark.parametrize("name, args, expected", [
    ("exp", [0.0], 1.0),
    ("log", [0.0], -math.inf),
    ("exp", [1000.0], math.inf),
    ("sqrt", [16.0], 4.0),
    ("abs", [-2.5], 2.5),
    ("abs", [-7], 7),
    ("abs", [-2147483648], -2147483648),  # i32's most negative value wraps to itself
    ("max", [3, 9], 9),
    ("min", [3, 9], 3),
    ("max", [math.nan, 1.0], 1.0),
    ("min", [2.0, math.nan], 2.0),
])
def test_values_at_the_edges(name, args, expected):
    assert apply(name, args, None) == expected


@pytest.mark.parametrize("name, value", [("log", -1.0), ("sqrt", -4.0), ("exp", math.nan)])
def test_nan_where_ieee_gives_nan(name, value):
    assert math.isnan(apply(name, [value], None))


def test_the_argument_type_is_kept():
    r = apply("exp", [TFloat(1.0, F32)], None)
    assert type(r) is TFloat and r.t is F32 and r.v == F32.round(math.e)
    m = apply("max", [TInt(-9, I64), 3], None)  # an untyped literal takes the other's type
    assert type(m) is TInt and m.t is I64 and m.v == 3
    assert apply("abs", [TInt(4000000000, U32)], None).v == 4000000000


@pytest.mark.parametrize("name, args", [
    ("exp", [3]), ("max", [1, 2.5]), ("sqrt", [1.0, 2.0]),
    ("max", [TFloat(1.0, F32), TInt(1, I64)]), ("min", [TInt(1, I64), TInt(2, U32)])])
def test_what_a_built_in_does_not_take_stops_the_program(name, args):
    with pytest.raises(RuntimeStop):
        apply(name, args, None)


@given(st.floats(min_value=-80.0, max_value=80.0))
def test_an_f32_result_is_rounded_once(x):
    assert apply("exp", [TFloat(F32.round(x), F32)], None).v == \
        F32.round(math.exp(F32.round(x)))


def test_every_il_of_the_chain_computes_them():
    out, _ = run_chain("fn main() {\n  print(sqrt(2.0));\n  print(max(-3, abs(-5)));\n"
                       "  print(comptime { min(4, 2) });\n}\n")
    assert out == "1.4142135623730951\n5\n2\n"


def test_a_function_of_the_program_hides_the_built_in():
    assert output("fn max(a: i32, b: i32) -> i32 { a }\nfn main() { print(max(1, 2)); }") \
        == "1\n"
