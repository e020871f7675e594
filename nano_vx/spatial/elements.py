"""The element types of the spatial lane: what a token of each holds, how it computes, how
many bytes it takes.

- `i32`, `i64`, `f32`, `f64`: numpy's, computing in themselves;
- `bf16`, `f16`: ml_dtypes' bfloat16 and numpy's float16 (IEEE binary16);
- `bfp8`, `bfp4`: block floats, 16 values sharing an exponent (`nano_vx/values/block_floats`);
  a token holds their values in an f32 array.

A narrow float (the last four) computes in f32: a stage reads its operands as f32 values,
computes in f32 and rounds what it puts to its output's format (to nearest, ties to even),
which is what `store` does to an array. Bytes are those of the format: a bf16 element two, a
bfp8 block of 16 seventeen, so buffers and DRAM traffic count the format's own size.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import ml_dtypes
import numpy as np

from ..values.block_floats import BFP4, BFP8, BlockFormat


@dataclass(frozen=True)
class Element:
    name: str
    storage: type  # the numpy type of a token's array
    compute: type  # the numpy type a stage computes in
    significand: int | None  # bits of precision of a float, the hidden bit counted
    block: BlockFormat | None = None

    @property
    def is_float(self) -> bool:
        return self.significand is not None

    @property
    def unit_roundoff(self) -> float:
        """Half the distance from 1 to the next value of the format (of a block float: from
        its block's largest magnitude, written as 1)."""
        return 2.0 ** -self.significand

    def nbytes(self, shape: tuple) -> int:
        if self.block is not None:
            return self.block.nbytes(tuple(shape))
        return prod(shape) * np.dtype(self.storage).itemsize

    def store(self, array) -> np.ndarray:
        """`array` as this format holds it."""
        if self.block is not None:
            return self.block.quantize(array)
        with np.errstate(all="ignore"):
            return np.asarray(array).astype(self.storage)


ELEMENTS = {e.name: e for e in (
    Element("i32", np.int32, np.int32, None),
    Element("i64", np.int64, np.int64, None),
    Element("f32", np.float32, np.float32, 24),
    Element("f64", np.float64, np.float64, 53),
    Element("bf16", ml_dtypes.bfloat16, np.float32, 8),
    Element("f16", np.float16, np.float32, 11),
    # A block float's magnitude of W bits holds the block's largest value to W bits.
    Element("bfp8", np.float32, np.float32, BFP8.width, BFP8),
    Element("bfp4", np.float32, np.float32, BFP4.width, BFP4),
)}
NARROW = ("bf16", "f16", "bfp8", "bfp4")
