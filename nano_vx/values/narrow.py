"""The narrow storage types of accelerators (`i4 u4 f8e4m3 f8e5m2 f4e2m1`): element types of
tensors, never of scalars.

An element of a narrow tensor is read as a value of a scalar type, its value type (f32 for the
narrow floats, i8 for i4, u8 for u4), so arithmetic on it computes in that type; writing one
converts the value back to the element type. The conversion is ml_dtypes' (each format is one
of its numpy dtypes): a float rounds to nearest, ties to even, and a value past the format's
range becomes what the format's own definition says (NaN for f8e4m3, which has no infinity;
infinity for f8e5m2; the largest finite value for f4e2m1, which has neither); an integer wraps
to 4 bits, as `as` does.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from .numbers import FLOAT_TYPES, INT_TYPES, TFloat, TInt, coerce


class NarrowType:
    __slots__ = ("name", "value_type", "dtype", "bits", "mlir")

    def __init__(self, name: str, value_type: str, dtype, bits: int, mlir: str):
        self.name, self.value_type, self.dtype, self.bits = name, value_type, dtype, bits
        self.mlir = mlir  # the MLIR type of its bits (native code stores them in a byte)


NARROW_TYPES = {t.name: t for t in (
    NarrowType("i4", "i8", ml_dtypes.int4, 4, "i4"),
    NarrowType("u4", "u8", ml_dtypes.uint4, 4, "i4"),
    NarrowType("f8e4m3", "f32", ml_dtypes.float8_e4m3fn, 8, "f8E4M3FN"),
    NarrowType("f8e5m2", "f32", ml_dtypes.float8_e5m2, 8, "f8E5M2"),
    NarrowType("f4e2m1", "f32", ml_dtypes.float4_e2m1fn, 4, "f4E2M1FN"),
)}
# The narrow floats by their MLIR types.
MLIR_FLOATS = {t.mlir: t for t in NARROW_TYPES.values() if t.value_type == "f32"}


def narrow_float_bits(v: float, t: NarrowType) -> int:
    """The bits of an f32 value `v` written as an element of narrow float type `t`."""
    return int(np.array([v], dtype=np.float32).astype(t.dtype).view(np.uint8)[0])


def narrow_float_value(bits: int, t: NarrowType) -> float:
    """The value of narrow float type `t` whose bits are the low ones of `bits`."""
    return float(np.array([bits & ((1 << t.bits) - 1)], dtype=np.uint8).view(t.dtype)[0])
_NUMPY = {"i8": np.int8, "u8": np.uint8, "f32": np.float32}


def value_type(elem: str) -> str:
    """The scalar type an element of a tensor of `elem` is read and written as."""
    narrow = NARROW_TYPES.get(elem)
    return narrow.value_type if narrow is not None else elem


def element(v, elem: str, span):
    """v stored as an element of type `elem`: coerced to its value type (as a typed `let`
    would), then, for a narrow type, converted to it."""
    narrow = NARROW_TYPES.get(elem)
    if narrow is None:
        return coerce(v, elem, span)
    v = coerce(v, narrow.value_type, span)
    stored = _NUMPY[narrow.value_type](v.v).astype(narrow.dtype)
    if type(v) is TFloat:
        return TFloat(float(stored), FLOAT_TYPES["f32"])
    return TInt(int(stored), INT_TYPES[narrow.value_type])
