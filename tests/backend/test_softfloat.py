"""The f16 and bf16 conversions of native code agree bit for bit with the interpreter's
rounding (values/numbers.py), on every half, at every rounding boundary, subnormals included,
whether LLVM's code generator calls the routines linked into every program for a plain fptrunc
or fpext or uses an instruction: on the JIT's target (llvm.target_machine) for each x86-64 CPU
this host can run code for, from a generic x86-64 without F16C to one with AVX512-BF16 and
AVX512-FP16."""

from __future__ import annotations

import ctypes
import functools
import math
import random
import struct

import pytest

from cpus import RUN, skip_unless_runnable

from nano_vx.backend.llvm import binding, target_machine
from nano_vx.backend.softfloat import link_softfloat
from nano_vx.values.numbers import FLOAT_TYPES

# Slow (the whole suite's, not the inner loop's): every half, for each x86-64 CPU.
pytestmark = pytest.mark.slow

# Each conversion as the code generator meets it, on bits in and bits out.
_WRAPPERS = r"""
define i16 @d2h(i64 %x) {
  %d = bitcast i64 %x to double
  %h = fptrunc double %d to half
  %b = bitcast half %h to i16
  ret i16 %b
}
define i16 @f2h(i32 %x) {
  %f = bitcast i32 %x to float
  %h = fptrunc float %f to half
  %b = bitcast half %h to i16
  ret i16 %b
}
define i32 @h2f(i16 %x) {
  %h = bitcast i16 %x to half
  %f = fpext half %h to float
  %b = bitcast float %f to i32
  ret i32 %b
}
define i16 @f2b(i32 %x) {
  %f = bitcast i32 %x to float
  %h = fptrunc float %f to bfloat
  %b = bitcast bfloat %h to i16
  ret i16 %b
}
define i16 @d2b(i64 %x) {
  %d = bitcast i64 %x to double
  %h = fptrunc double %d to bfloat
  %b = bitcast bfloat %h to i16
  ret i16 %b
}
define i64 @h2d(i16 %x) {
  %h = bitcast i16 %x to half
  %d = fpext half %h to double
  %b = bitcast double %d to i64
  ret i64 %b
}
define i32 @b2f(i16 %x) {
  %h = bitcast i16 %x to bfloat
  %f = fpext bfloat %h to float
  %b = bitcast float %f to i32
  ret i32 %b
}
define i64 @b2d(i16 %x) {
  %h = bitcast i16 %x to bfloat
  %d = fpext bfloat %h to double
  %b = bitcast double %d to i64
  ret i64 %b
}
"""
_TYPES = {"d2h": (ctypes.c_uint16, ctypes.c_uint64), "f2h": (ctypes.c_uint16, ctypes.c_uint32),
          "h2f": (ctypes.c_uint32, ctypes.c_uint16), "f2b": (ctypes.c_uint16, ctypes.c_uint32),
          "d2b": (ctypes.c_uint16, ctypes.c_uint64), "h2d": (ctypes.c_uint64, ctypes.c_uint16),
          "b2f": (ctypes.c_uint32, ctypes.c_uint16), "b2d": (ctypes.c_uint64, ctypes.c_uint16)}
F16, BF16, F32 = FLOAT_TYPES["f16"], FLOAT_TYPES["bf16"], FLOAT_TYPES["f32"]


@pytest.fixture(scope="module", params=[*RUN, "host"])
def conversions(request):
    """The wrappers compiled as the JIT compiles a program, for the CPU named (x86-64 has no
    F16C: every conversion is a call) or for this host."""
    llvm = binding()
    skip_unless_runnable(request.param)
    tm = target_machine(2, None if request.param == "host" else request.param)
    module = llvm.parse_assembly(_WRAPPERS)
    module.triple, module.data_layout = tm.triple, str(tm.target_data)
    link_softfloat(module, llvm)
    engine = llvm.create_mcjit_compiler(module, tm)
    engine.finalize_object()
    fns = {name: ctypes.CFUNCTYPE(*types)(engine.get_function_address(name))
           for name, types in _TYPES.items()}
    yield fns
    del engine


def _bits(fmt: str, v: float) -> int:
    return struct.unpack({"d": "=Q", "f": "=I", "e": "=H"}[fmt], struct.pack("=" + fmt, v))[0]


def _value(fmt: str, bits: int) -> float:
    return struct.unpack("=" + fmt, struct.pack({"d": "=Q", "f": "=I", "e": "=H"}[fmt], bits))[0]


def _same(a: float, b: float) -> bool:
    return (a != a and b != b) or (a == b and math.copysign(1, a) == math.copysign(1, b))


def test_every_half_and_every_bf16_extends_exactly(conversions):
    wrong = [h for h in range(1 << 16)
             if not _same(_value("f", conversions["h2f"](h)), _value("e", h))
             or not _same(_value("d", conversions["h2d"](h)), _value("e", h))
             or not _same(_value("f", conversions["b2f"](h)), _value("f", h << 16))
             or not _same(_value("d", conversions["b2d"](h)), _value("f", h << 16))]
    assert wrong == []


@functools.cache
def _around_every_half():
    """Finite halves (every subnormal, the largest, a third of the rest), the midpoints to
    their neighbours and the doubles either side."""
    out = []
    chosen = sorted({*range(0x400), *range(0x400, 0x7C00, 3), *range(0x7BC0, 0x7C00)})
    for h in chosen:
        v = _value("e", h)
        nxt = _value("e", h + 1) if h < 0x7BFF else 65520.0  # where rounding reaches inf
        mid = (v + nxt) / 2
        out += [v, mid, math.nextafter(mid, 0.0), math.nextafter(mid, math.inf)]
    out += [5e-324, 1e300, math.inf, 2.0 ** -25, 2.0 ** -26, 65504.0, 65519.99, 0.1]
    return tuple(out + [-v for v in out] + [math.nan])


def test_f64_to_f16_rounds_once_to_nearest_even(conversions):
    d2h = conversions["d2h"]
    wrong = [v for v in _around_every_half()
             if not _same(_value("e", d2h(_bits("d", v))), F16.round(v))]
    assert wrong == []


def test_f32_to_f16_rounds_to_nearest_even(conversions):
    f2h = conversions["f2h"]
    wrong = [v for v in map(F32.round, _around_every_half())
             if not _same(_value("e", f2h(_bits("f", v))), F16.round(v))]
    assert wrong == []


def _bf16_samples():
    rnd = random.Random(7)
    out = [rnd.uniform(-1e5, 1e5) for _ in range(3000)]
    out += [rnd.choice((-1, 1)) * 2.0 ** rnd.uniform(-149, 128) for _ in range(3000)]
    # ties of bf16 after the rounding to f32, and just off them
    out += [(1 + k / 256 + 1 / 512) * 2.0 ** e for k in range(0, 256, 17) for e in (-130, 0, 40)]
    out += [math.nextafter(v, 0.0) for v in out[-48:]]
    out += [0.0, -0.0, math.inf, -math.inf, 3.4e38, 3.39e38, 1e-45, 0.1, 0.2]
    return out


def test_f32_and_f64_to_bf16_round_as_the_interpreter_does(conversions):
    f2b, d2b = conversions["f2b"], conversions["d2b"]
    wrong = []
    for v in _bf16_samples():
        expected = BF16.round(v)
        f32 = F32.round(v)
        for got in (f2b(_bits("f", f32)), d2b(_bits("d", v))):
            if not _same(_value("f", got << 16), expected):
                wrong.append(v)
    assert wrong == []


def _around_every_small_bf16():
    """The f32s at and next to every bf16 subnormal and the smallest normals, and either side
    of the midpoints between them, of both signs: where a conversion that reads subnormals as
    zero, or rounds them otherwise, differs."""
    offsets = (*range(4), *range(0x7FFC, 0x8005), *range(0xFFFC, 0x10000))
    return [sign | high << 16 | low for sign in (0, 1 << 31) for high in range(0x100)
            for low in offsets]


def test_f32_and_f64_near_bf16_subnormals_round_as_the_interpreter_does(conversions):
    f2b, d2b = conversions["f2b"], conversions["d2b"]
    wrong = []
    for bits in _around_every_small_bf16():
        v = _value("f", bits)
        expected = BF16.round(v)
        if not (_same(_value("f", f2b(bits) << 16), expected)
                and _same(_value("f", d2b(_bits("d", v)) << 16), expected)):
            wrong.append(hex(bits))
    assert wrong == []


def test_f32_and_f64_near_f16_subnormals_round_as_the_interpreter_does(conversions):
    f2h, d2h = conversions["f2h"], conversions["d2h"]
    smallest = 2.0 ** -24
    # f16's subnormals and smallest normals, the midpoints, and the f32s next to them
    values = [k * smallest / 2 for k in range(0, 2 * 0x480)]
    values += [math.nextafter(v, d) for v in values for d in (0.0, 1.0)]
    values += [-v for v in values]
    wrong = [v for v in map(F32.round, values)
             if not (_same(_value("e", f2h(_bits("f", v))), F16.round(v))
                     and _same(_value("e", d2h(_bits("d", v))), F16.round(v)))]
    assert wrong == []


def test_nan_stays_a_quiet_nan(conversions):
    nan = _bits("d", math.nan)
    assert conversions["d2h"](nan) == 0x7E00
    assert conversions["d2b"](nan) == 0x7FC0
    assert conversions["f2b"](_bits("f", math.nan)) == 0x7FC0
    assert conversions["f2b"](0xFF800001) == 0xFFC0  # signalling, negative: quiet, signed
    assert conversions["f2h"](0x7F800001) & 0x7E00 == 0x7E00
    assert conversions["b2f"](0x7F81) == 0x7F810000  # widening keeps the payload
