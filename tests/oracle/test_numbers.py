"""Scalar arithmetic of the reference interpreter: wrapping per width, Rust's division rules,
casts, and float printing."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.values.numbers import (
    FLOAT_TYPES, INT_TYPES, TFloat, TInt, arith, cast, format_float, format_scalar, negate,
)
from nano_vx.values.stops import RuntimeStop


def typed(v, name):
    return v if name == "i32" else TInt(INT_TYPES[name].wrap(v), INT_TYPES[name])


def plain(v):
    return v.v if type(v) is TInt else v


def math_wrap(v, bits, signed):
    v %= 1 << bits
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(INT_TYPES)), st.sampled_from("+-*"),
       st.integers(-(1 << 64), 1 << 64), st.integers(-(1 << 64), 1 << 64))
def test_wrapping_equals_the_mathematical_result_mod_the_width(name, op, x, y):
    t = INT_TYPES[name]
    a, b = typed(x, name), typed(y, name)
    got = plain(arith(op, a, b, None))
    exact = {"+": t.wrap(x) + t.wrap(y), "-": t.wrap(x) - t.wrap(y),
             "*": t.wrap(x) * t.wrap(y)}[op]
    assert got == math_wrap(exact, t.bits, t.signed)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(INT_TYPES)), st.integers(-(1 << 64), 1 << 64),
       st.integers(-(1 << 64), 1 << 64))
def test_division_truncates_toward_zero_and_remainder_takes_the_dividend_sign(name, x, y):
    t = INT_TYPES[name]
    a, b = t.wrap(x), t.wrap(y)
    if b == 0 or (t.signed and a == t.lo and b == -1):
        for op in "/%":
            with pytest.raises(RuntimeStop) as e:
                arith(op, typed(a, name), typed(b, name), None)
            assert e.value.code == "E9001"
        return
    q = plain(arith("/", typed(a, name), typed(b, name), None))
    r = plain(arith("%", typed(a, name), typed(b, name), None))
    # these three fix truncating division uniquely (Python's // floors instead)
    assert q * b + r == a and abs(r) < abs(b) and (r == 0 or (r < 0) == (a < 0))


def test_division_examples():
    assert arith("/", -7, 2, None) == -3
    assert arith("%", -7, 2, None) == -1
    assert arith("%", 7, -2, None) == 1
    with pytest.raises(RuntimeStop, match="E9001"):
        arith("/", -2147483648, -1, None)
    with pytest.raises(RuntimeStop, match="E9001"):
        arith("%", 5, 0, None)
    assert plain(arith("/", typed(-128, "i8"), -2, None)) == 64  # the literal adopts i8


def test_i32_wraps_and_literals_adopt_the_typed_operand():
    assert arith("+", 2147483647, 1, None) == -2147483648
    r = arith("+", typed(2147483647, "i64"), 1, None)
    assert type(r) is TInt and r.t.name == "i64" and r.v == 2147483648
    assert plain(arith("-", typed(0, "u8"), 1, None)) == 255
    assert plain(negate(typed(-128, "i8"), None)) == -128
    with pytest.raises(RuntimeStop, match="E9006"):
        arith("+", typed(1, "i8"), typed(1, "i64"), None)
    with pytest.raises(RuntimeStop, match="E9006"):
        arith("+", 1, 1.5, None)


def test_casts_like_rust():
    assert cast(300, "u8", None).v == 44
    assert cast(-1, "u32", None).v == 4294967295
    assert cast(1e20, "i32", None) == 2147483647
    assert cast(-1e20, "u8", None).v == 0
    assert cast(math.nan, "i64", None).v == 0
    assert cast(-3.9, "i32", None) == -3
    assert cast(True, "i32", None) == 1
    # i64 -> f32 rounds once (2^60 + 2^36 + 1 is nearer 2^60 + 2^37 than 2^60 in f32)
    big = (1 << 60) + (1 << 36) + 1
    assert cast(typed(big, "i64"), "f32", None).v == float((1 << 60) + (1 << 37))
    assert cast(0.1, "f32", None).v == FLOAT_TYPES["f32"].round(0.1) != 0.1


@pytest.mark.parametrize("value, name, text", [
    (1.5, None, "1.5"), (0.1, None, "0.1"), (3.0, None, "3"), (-0.0, None, "-0"),
    (1e20, None, "100000000000000000000"), (1e-7, None, "0.0000001"),
    (math.inf, None, "inf"), (-math.inf, None, "-inf"), (math.nan, None, "NaN"),
    (0.1, "f32", "0.1"), (1 / 3, "f32", "0.33333334"), (16777217.0, "f32", "16777216"),
    (0.1, "f16", "0.1"), (65504.0, "f16", "65500"), (1e6, "f16", "inf"),
    (1 / 3, "bf16", "0.334"), (3.0, "bf16", "3"),
])
def test_float_printing_is_the_shortest_text_that_reads_back(value, name, text):
    if name is None:
        assert format_float(value, None) == text
    else:
        t = FLOAT_TYPES[name]
        assert format_scalar(TFloat(t.round(value), t)) == text


def test_float_rounding_per_type():
    f32, bf16 = FLOAT_TYPES["f32"], FLOAT_TYPES["bf16"]
    assert f32.round(1e300) == math.inf
    assert bf16.round(1.0 + 2 ** -8) == 1.0  # a tie rounds to even
    assert bf16.round(1.0 + 3 * 2 ** -9) == 1.0 + 2 ** -7
    third = TFloat(f32.round(1 / 3), f32)
    assert arith("*", third, 3.0, None).v == 1.0
    assert arith("/", 1.0, -0.0, None) == -math.inf
    assert math.isnan(arith("%", 1.0, 0.0, None))
    assert arith("%", -7.5, 2.0, None) == -1.5
