"""The element types beyond the first round: `u16` (interpreted and native alike), `Bool` as a
spelling of `bool`, and the narrow storage types, whose elements are read as f32 (or i8, u8),
computed on in that type and stored as ml_dtypes converts them: the expectations here are
ml_dtypes' own arithmetic, never a rounding written by hand."""

import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle_run import output, run_chain

from nano_vx.parser import parse_text
from nano_vx.values.narrow import NARROW_TYPES, element, value_type
from nano_vx.values.numbers import FLOAT_TYPES, TFloat
from nano_vx.values.sizes import tensor_bytes

FLOATS = {"f8e4m3": ml_dtypes.float8_e4m3fn, "f8e5m2": ml_dtypes.float8_e5m2,
          "f4e2m1": ml_dtypes.float4_e2m1fn}
INTS = {"i4": (ml_dtypes.int4, np.int8), "u4": (ml_dtypes.uint4, np.uint8)}
F32 = FLOAT_TYPES["f32"]


def test_every_narrow_type_is_named_and_says_its_value_type():
    assert set(NARROW_TYPES) == set(FLOATS) | set(INTS)
    assert {n: value_type(n) for n in NARROW_TYPES} == {
        "i4": "i8", "u4": "u8", "f8e4m3": "f32", "f8e5m2": "f32", "f4e2m1": "f32"}
    assert value_type("bf16") == "bf16"


def _same_float(got: float, want) -> bool:
    want = float(want)
    if math.isnan(want):
        return math.isnan(got)
    return got == want and math.copysign(1, got) == math.copysign(1, want)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(FLOATS)), st.floats(width=32))
def test_a_float_written_to_a_narrow_element_is_stored_as_ml_dtypes_converts_the_f32(name, x):
    stored = element(TFloat(x, F32), name, None)
    assert stored.t is F32  # read back as the value type
    want = np.float32(x).astype(FLOATS[name]).astype(np.float32)
    assert _same_float(stored.v, want)
    assert _same_float(element(stored, name, None).v, want)  # stored values are exact


@pytest.mark.parametrize("name, x, shown", [
    ("f8e4m3", 1e6, "NaN"),          # no infinity: out of range is NaN
    ("f8e4m3", 460.0, "448"),        # rounds down to the largest finite value
    ("f8e5m2", 1e6, "inf"),
    ("f4e2m1", 1e6, "6"),            # neither: saturates
    ("f4e2m1", 2.5, "2"),            # a tie rounds to even
    ("f4e2m1", 3.5, "4"),
])
def test_out_of_range_and_ties_follow_each_format(name, x, shown):
    text = output(f"fn main() {{ let t = Tensor<{name}, [1]>::fill({x!r}); print(t[0]); }}",
                  native_too=False)
    assert text == f"{shown}\n"
    want = np.float32(x).astype(FLOATS[name]).astype(np.float32)
    assert _same_float(float(text), want)


FLOAT_VALUES = [0.3, -1.7, 2.5, 100.0, 0.0078, -0.0, 447.0, 1e-3, 57000.0, 6.5]


def _literal(v: float) -> str:
    return repr(v) if v < 0 or "e" not in repr(v) else f"{v:.10f}"


@pytest.mark.parametrize("name", sorted(FLOATS))
def test_arithmetic_on_narrow_floats_computes_in_f32_and_rounds_back(name):
    writes = "".join(f"    t[{i}] = {_literal(v)};\n" for i, v in enumerate(FLOAT_VALUES))
    program = f"""
fn main() {{
    let mut t = Tensor<{name}, [{len(FLOAT_VALUES)}]>::new();
{writes}    for i in 0..{len(FLOAT_VALUES)} {{
        t[i] = t[i] * 3.0 + 0.25;
        print(t[i]);
    }}
    let sum: f32 = t[0] + t[1];
    print(sum);
}}
"""
    fmt = FLOATS[name]
    x = np.array(FLOAT_VALUES, dtype=np.float32).astype(fmt).astype(np.float32)
    y = (x * np.float32(3.0) + np.float32(0.25)).astype(fmt).astype(np.float32)
    lines = output(program, native_too=False).splitlines()
    assert len(lines) == len(FLOAT_VALUES) + 1
    for got, want in zip(lines, [*y, y[0] + y[1]]):
        assert _same_float(float(np.float32(float(got))), want), (got, want)


@pytest.mark.parametrize("name", sorted(INTS))
def test_arithmetic_on_narrow_integers_computes_in_eight_bits_and_wraps_to_four(name):
    fmt, wide = INTS[name]
    values = [0, 1, 5, 7, 3, 2, 6, 4]
    writes = "".join(f"    t[{i}] = {v};\n" for i, v in enumerate(values))
    program = f"""
fn main() {{
    let mut t = Tensor<{name}, [{len(values)}]>::new();
{writes}    for i in 0..{len(values)} {{
        t[i] = t[i] * 3 + 5;
    }}
    print(t);
}}
"""
    want = (np.array(values, dtype=wide) * wide(3) + wide(5)).astype(fmt).astype(np.int64)
    assert output(program, native_too=False) == f"[{', '.join(map(str, want))}]\n"


def test_a_narrow_tensor_takes_its_packed_bytes():
    program, diagnostics = parse_text(
        "fn f(a: Tensor<i4, [3]>, b: Tensor<f8e4m3, [3]>, c: Tensor<f4e2m1, [2, 3]>) {}")
    assert not diagnostics.has_errors
    sizes = [tensor_bytes(p.type) for p in program.items[0].params]
    assert sizes == [2, 3, 3]


def test_u16_wraps_divides_shifts_and_casts_alike_interpreted_and_native():
    # run_chain runs it in every IL and as native code, which must agree.
    out, end = run_chain("""
fn half(x: u16) -> u16 {
    x / 2
}

fn main() -> i32 {
    let a: u16 = 65535;
    print(a + 1);
    print(half(a));
    let b: u16 = 40000;
    print(b > 30000);
    print(b as i16);
    print(-1 as u16);
    print((70000 as u16) as f32);
    print(b >> 3);
    let mut t = Tensor<u16, [3]>::fill(7);
    t[1] = 65000;
    t[2] = t[1] * 2;
    print(t);
    return (b % 256) as i32;
}
""")
    assert out == "0\n32767\ntrue\n-25536\n65535\n4464\n5000\n[7, 65000, 64464]\n"
    assert end == 40000 % 256


def test_Bool_is_bool():
    assert output("""
struct Flag { on: Bool }

fn flip(x: Bool) -> Bool {
    !x
}

fn main() {
    let t = Tensor<Bool, [2]>::new();
    let f = Flag { on: flip(t[0]) };
    let y: bool = f.on;
    print(y);
}
""", native_too=False) == "true\n"
