"""The element types of the spatial lane (nano_vx/spatial/elements.py) and the block floats
they use (nano_vx/values/block_floats.py), checked against the formats' definitions: the
block floats against a transcription, value by value and bit by bit, of how tt-metal's
packer encodes a block of 16 f32 values (BFLOAT8_B, BFLOAT4_B), bf16 and f16 against
ml_dtypes and numpy."""

from __future__ import annotations

import struct

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.spatial.elements import ELEMENTS
from nano_vx.values.block_floats import BFP4, BFP8, quantize

# Slow (the whole suite's, not the inner loop's): the element formats value by value and bit by
# bit.
pytestmark = pytest.mark.slow


def _bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _encode(block: list[float], width: int) -> list[tuple[int, int, int]]:
    """The definition, one value at a time on the bits of its f32: (sign, magnitude, shared
    exponent) per value."""
    words = [_bits(x) for x in block]
    shared = max((w >> 23) & 0xFF for w in words)
    out = []
    for w in words:
        if w & 0x7FFFFFFF == 0:
            out.append((0, 0, shared))
            continue
        exp, mantissa = (w >> 23) & 0xFF, (w & 0x7FFFFF) | (1 << 23)
        mantissa >>= shared - exp
        shift = 24 - width
        low, mantissa = mantissa & ((1 << shift) - 1), mantissa >> shift
        tie = 1 << (shift - 1)
        if low > tie or (low == tie and mantissa & 1):
            mantissa += 1
        mantissa = min(mantissa, (1 << width) - 1)
        out.append((w >> 31 if mantissa else 0, mantissa, shared))
    return out


def _decode(sign: int, magnitude: int, shared: int, width: int) -> float:
    value = magnitude * 2.0 ** (shared - 127 - (width - 1))
    return -value if sign else value


# f32 values the definition reads as numbers: zeros and normal numbers.
NORMALS = st.floats(width=32, allow_nan=False, allow_infinity=False,
                    allow_subnormal=False)
BLOCKS = st.lists(NORMALS, min_size=16, max_size=16)


@settings(max_examples=300, deadline=None)
@given(block=BLOCKS, fmt=st.sampled_from([BFP8, BFP4]))
def test_quantize_is_the_definition_value_for_value(block, fmt):
    want = [_decode(*code, fmt.width) for code in _encode(block, fmt.width)]
    got = quantize(np.array(block, dtype=np.float32), fmt.width)
    assert got.tolist() == [float(np.float32(v)) for v in want]


@settings(max_examples=100, deadline=None)
@given(rows=st.lists(BLOCKS, min_size=1, max_size=3), fmt=st.sampled_from([BFP8, BFP4]))
def test_storing_twice_and_storing_part_of_a_row_change_nothing(rows, fmt):
    x = fmt.quantize(np.array(rows, dtype=np.float32))
    assert np.array_equal(fmt.quantize(x), x)
    # a tile that cuts a row into smaller pieces holds the same values
    assert np.array_equal(fmt.quantize(x[:, 3:11]), x[:, 3:11])


def test_blocks_run_along_the_last_axis_from_its_start():
    x = np.zeros((2, 20), dtype=np.float32)
    x[0, 0], x[0, 1], x[0, 17] = 64.0, 0.3, 0.3
    got = BFP8.quantize(x)
    assert got[0, 1] == 0.0  # shares 64's exponent, whose last bit is 1: 0.3 rounds to 0
    assert got[0, 17] == np.float32(quantize(np.float32([0.3]), 7)[0]) != 0.0  # its own block


def test_a_carry_saturates_instead_of_growing_the_exponent():
    assert quantize(np.float32([1.999]), 7)[0] == 127 / 64
    assert quantize(np.float32([1.999]), 3)[0] == 7 / 4


def test_what_the_definition_reads_as_no_number():
    got = quantize(np.float32([np.nan, np.inf, -np.inf, 1e-40, 1.0]), 7)
    assert np.isnan(got[0]) and got[1] == np.inf and got[2] == -np.inf
    assert got[3] == 0.0  # a subnormal is stored as zero


@pytest.mark.parametrize("name, shape, nbytes", [
    ("bfp8", (32, 32), 1088),  # tt-metal's BFLOAT8_B tile: 1024 + 64 exponents
    ("bfp4", (32, 32), 576),   # BFLOAT4_B: 512 + 64
    ("bfp8", (3, 20), 3 * 2 * 17),  # a short last block takes a whole block
    ("bf16", (32, 32), 2048),
    ("f16", (4, 4), 32),
    ("f32", (4, 4), 64),
])
def test_bytes_are_the_formats(name, shape, nbytes):
    assert ELEMENTS[name].nbytes(shape) == nbytes


def test_bf16_and_f16_round_as_ml_dtypes_and_numpy_do():
    x = np.random.default_rng(3).uniform(-3, 3, 1000).astype(np.float32)
    assert np.array_equal(ELEMENTS["bf16"].store(x).view(np.uint16),
                          x.astype(ml_dtypes.bfloat16).view(np.uint16))
    assert np.array_equal(ELEMENTS["f16"].store(x), x.astype(np.float16))
