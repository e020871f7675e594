"""Block floating point, as Tenstorrent's BFLOAT8_B and BFLOAT4_B define it: values in blocks
of 16 that share one 8-bit exponent, each value a sign and a magnitude of 7 bits (bfp8) or 3
bits (bfp4). A block of 16 takes 16 (bfp8) or 8 (bfp4) bytes of signs and magnitudes and one
byte of exponent, so a 32 x 32 tile takes 1,088 or 576 bytes.

The format is written here once, in values: `quantize` gives the value each element of an
f32 array has once stored in the format, as an f32 array (every value of the format is one
of f32's), blocks running along the last axis from its start (a row of 16 values of one face
of a tile, in the tiles of 16 x 16 faces the hardware lays a tensor out in). A short last
block holds the rest of its row: the padding the hardware would add is zeros, which do not
change a block's exponent.

Per block, as tt-metal's packer (`convert_u32_to_bfp`, blockfloat_common.cpp) does it:

- the shared exponent E is the largest biased f32 exponent among the block's values;
- a value of exponent e keeps its 24-bit significand (hidden bit included) shifted right by
  E - e, the bits shifted out dropped; the result is rounded to the format's width W by its
  low 24 - W bits, to nearest, ties to even; a rounding that carries past W bits saturates
  at 2^W - 1 (the exponent is shared, so it cannot grow);
- a zero is zero, and a magnitude that rounds to zero loses its sign.

The value of a stored element is sign x magnitude x 2^(E - 127 - (W - 1)). Two choices of
ours where the definition reads bits no f32 value means: an f32 subnormal (exponent field 0)
is stored as zero (the packer would read it as a normal number of exponent -127), and a NaN
stays NaN (the packer would store it as 2^128, which is infinity as an f32; an infinity is
stored as infinity, as there).
"""

from __future__ import annotations

import numpy as np

BLOCK = 16


class BlockFormat:
    __slots__ = ("name", "width")

    def __init__(self, name: str, width: int):
        self.name, self.width = name, width

    def nbytes(self, shape: tuple) -> int:
        """Bytes of a tensor of `shape`: per row of its last axis, its blocks' magnitudes
        (a block always takes 16 of them) and one exponent byte a block."""
        *rows, last = shape or (1,)
        blocks = -(-last // BLOCK)
        per_block = BLOCK * (1 + self.width) // 8 + 1
        count = 1
        for n in rows:
            count *= n
        return count * blocks * per_block

    def quantize(self, x) -> np.ndarray:
        return quantize(x, self.width)


BFP8 = BlockFormat("bfp8", 7)
BFP4 = BlockFormat("bfp4", 3)


def quantize(x, width: int) -> np.ndarray:
    """Each element of `x` (as an f32 array) as stored in a block format of `width` magnitude
    bits: see the module's docstring."""
    x = np.asarray(x, dtype=np.float32)
    shape = x.shape
    rows = x.reshape(-1, shape[-1] if shape else 1)
    pad = -rows.shape[1] % BLOCK
    blocks = np.pad(rows, ((0, 0), (0, pad))).reshape(rows.shape[0], -1, BLOCK)
    bits = blocks.view(np.uint32).astype(np.int64)
    exponent = (bits >> 23) & 0xFF
    flushed = exponent == 0  # zeros and subnormals: stored as zero
    shared = exponent.max(axis=-1, keepdims=True)
    significand = np.where(flushed, 0, (bits & 0x7FFFFF) | (1 << 23))
    shifted = significand >> np.minimum(shared - exponent, 63)
    cut = 24 - width
    kept, dropped = shifted >> cut, shifted & ((1 << cut) - 1)
    tie = 1 << (cut - 1)
    up = (dropped > tie) | ((dropped == tie) & (kept & 1 == 1))
    magnitude = np.minimum(kept + up, (1 << width) - 1)
    sign = np.where(bits >> 31 == 1, -1.0, 1.0)
    value = sign * np.ldexp(magnitude.astype(np.float64), (shared - 127 - (width - 1)))
    value = np.where(magnitude == 0, 0.0, value)
    value = np.where(np.isnan(blocks), np.nan, value)
    with np.errstate(over="ignore"):
        out = value.astype(np.float32).reshape(rows.shape[0], -1)
    return out[:, :rows.shape[1]].reshape(shape)
