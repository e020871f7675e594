"""The narrow floats' conversions of native code (backend/narrow_floats.py) agree bit for bit
with ml_dtypes, which the interpreter converts with (values/narrow.py): every bit pattern of
each format read as an f32, and f32 values written at every rounding boundary of each format
(the midpoints between neighbours and the f32 either side of them), subnormals of both, the
largest finite values and past them, infinities and NaNs, and a spread of f32 bit patterns."""

from __future__ import annotations

import ctypes

import ml_dtypes
import numpy as np
import pytest

from nano_vx.backend.llvm import binding, target_machine
from nano_vx.backend.mlir import PIPELINE, _ops_named, mlir_context
from nano_vx.backend.narrow_floats import narrow_in_integers

# Slow (the whole suite's, not the inner loop's): every bit pattern of each narrow format.
pytestmark = pytest.mark.slow

DTYPES = {"f8E4M3FN": ml_dtypes.float8_e4m3fn, "f8E5M2": ml_dtypes.float8_e5m2,
          "f4E2M1FN": ml_dtypes.float4_e2m1fn}


def _wrappers(name: str, bits: int) -> str:
    """widen(byte) -> f32 bits, round(f32 bits) -> byte (a 4-bit value in its low bits)."""
    small = f"i{bits}"
    narrow, widened = ("arith.trunci %x : i8 to i4", "arith.extui %s : i4 to i8") if bits == 4 \
        else ("arith.addi %x, %zero : i8", "arith.addi %s, %zero8 : i8")
    return f"""
func.func @widen(%x: i8) -> i32 {{
  %zero = arith.constant 0 : i8
  %s = {narrow}
  %n = arith.bitcast %s : {small} to {name}
  %f = arith.extf %n : {name} to f32
  %b = arith.bitcast %f : f32 to i32
  return %b : i32
}}
func.func @round(%x: i32) -> i8 {{
  %f = arith.bitcast %x : i32 to f32
  %n = arith.truncf %f : f32 to {name}
  %zero8 = arith.constant 0 : i8
  %s = arith.bitcast %n : {name} to {small}
  %b = {widened}
  return %b : i8
}}
"""


@pytest.fixture(scope="module", params=sorted(DTYPES))
def conversions(request):
    from mlir import ir
    from mlir.dialects.llvm import translate_module_to_llvmir
    from mlir.passmanager import PassManager

    name = request.param
    bits = np.dtype(DTYPES[name]).itemsize * 8 if "f8" in name else 4
    with mlir_context():
        module = ir.Module.parse(_wrappers(name, bits))
        narrow_in_integers(_ops_named(module, "arith.extf", "arith.truncf"))
        assert "extf" not in str(module) and "truncf" not in str(module)
        PassManager.parse(PIPELINE).run(module.operation)
        text = str(translate_module_to_llvmir(module.operation))
    llvm = binding()
    tm = target_machine(2, None)
    compiled = llvm.parse_assembly(text)
    compiled.triple, compiled.data_layout = tm.triple, str(tm.target_data)
    engine = llvm.create_mcjit_compiler(compiled, tm)
    engine.finalize_object()
    widen = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_uint8)(engine.get_function_address("widen"))
    rnd = ctypes.CFUNCTYPE(ctypes.c_uint8, ctypes.c_uint32)(engine.get_function_address("round"))
    yield DTYPES[name], bits, widen, rnd
    del engine


def _f32_bits(values) -> np.ndarray:
    return np.asarray(values, dtype=np.float32).view(np.uint32)


def test_every_pattern_widens_as_ml_dtypes_reads_it(conversions):
    dtype, bits, widen, _ = conversions
    patterns = np.arange(1 << bits, dtype=np.uint8)
    expected = _f32_bits(patterns.view(dtype).astype(np.float32))
    got = np.array([widen(int(p)) for p in patterns], dtype=np.uint32)
    assert [(hex(p), hex(g), hex(e)) for p, g, e in zip(patterns, got, expected) if g != e] == []


def _sweep(dtype, bits: int) -> np.ndarray:
    """f32 values at every rounding boundary of the format, and a spread of bit patterns."""
    patterns = np.arange(1 << bits, dtype=np.uint8).view(dtype).astype(np.float32)
    finite = np.unique(patterns[np.isfinite(patterns)].astype(np.float64))
    mids = (finite[:-1] + finite[1:]) / 2
    top = finite[-1] + (finite[-1] - finite[-2]) / 2  # where rounding passes the largest
    points = np.concatenate([finite, mids, [top, 2 * top, 1e30]]).astype(np.float32)
    around = np.concatenate([np.nextafter(points, np.float32(np.inf)),
                             np.nextafter(points, np.float32(-np.inf)), points])
    spread = np.arange(0, 1 << 32, 4099, dtype=np.uint64).astype(np.uint32).view(np.float32)
    tiny = np.arange(0, 1 << 12, dtype=np.uint32).view(np.float32)  # f32 subnormals
    special = np.array([np.inf, np.nan], dtype=np.float32)
    values = np.concatenate([around, spread, tiny, special])
    return np.concatenate([values, -values,
                           np.array([0x7F800001, 0xFFBFFFFF], np.uint32).view(np.float32)])


def test_f32_values_round_as_ml_dtypes_writes_them(conversions):
    dtype, bits, _, rnd = conversions
    values = _sweep(dtype, bits)
    with np.errstate(invalid="ignore", over="ignore"):
        expected = values.astype(dtype).view(np.uint8)
    got = np.array([rnd(int(b)) for b in values.view(np.uint32)], dtype=np.uint8)
    wrong = [(hex(int(b)), hex(g), hex(e))
             for b, g, e in zip(values.view(np.uint32), got, expected) if g != e]
    assert wrong[:20] == [] and len(values) > 1_000_000
