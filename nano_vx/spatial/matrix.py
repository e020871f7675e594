"""A site's matrix unit (docs/spatial.md, "The matrix unit"): the engine a target may have
beside its vector unit for matrix products, as a target file's `[matrix]` table declares it,
and the cycles one firing of a `matmul_acc` takes on it.

The unit multiplies blocks: in one cycle at its lowest fidelity, `block` = (rows, inner,
columns) of the product (Wormhole: an 8 x 16 block of the first operand by a 16 x 16 block
of the second). Its published figure is per product of two `tile` x `tile` tiles at each
math fidelity (Wormhole, 32 x 32 tiles: 16 cycles at LoFi, 32 at HiFi2, 48 at HiFi3, 64 at
HiFi4); a fidelity runs more phases over the operands' mantissas, each one more pass of the
multipliers. A firing's product of an m x K by K x n token pair (K the inner extent times the
rate) takes

    math   = ceil(m / rows) x ceil(K / inner) x ceil(n / columns) x tile cycles / blocks a tile
    unpack = the operands' bytes as the unpackers read them / unpack bytes a cycle
    pack   = the output's bytes / pack bytes a cycle

and the firing the largest of the three: unpack, math and pack run on their own processors
(TRISC0-2) and overlap. The destination register holds `dst_tiles` output tiles, so the
output is computed in sub-blocks of h x w tiles (h w <= dst_tiles, each dividing the output's
tiles), each over the whole of K: the first operand is unpacked once per column of
sub-blocks, the second once per row of them; the sub-block that unpacks the fewest bytes is
taken.

A unit may also reduce (Wormhole's does; the optional `reduce_block` and `reduce_formats`):
each cycle it folds a `reduce_block` (rows x columns) of a `sum` or `max`'s input, a sum
once per phase of the fidelity (a phase is one pass of the multipliers over a block, the
tile's cycles over its blocks), a max once whatever the fidelity; the input is unpacked and
the output packed as a product's are, and the firing takes the longest of the three.

A stage runs on the matrix unit when it is a `matmul_acc` whose operands are of one of the
unit's `formats` (after its `via`), or a `sum` or `max` whose input is of one of its
`reduce_formats`; every other stage runs on the vector unit, at `rates`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from math import ceil, prod

from .elements import ELEMENTS

FIDELITIES = ("lofi", "hifi2", "hifi3", "hifi4")
FIELDS = ("tile", "block", "formats", "cycles", "fidelity", "dst_tiles",
           "unpack_bytes_per_cycle", "pack_bytes_per_cycle")
REDUCE_FIELDS = ("reduce_block", "reduce_formats")  # both or neither
REDUCTIONS = ("sum", "max")


class MatrixError(Exception):
    """A `[matrix]` table that cannot be used: the message names the field."""


@dataclass(frozen=True)
class MatrixUnit:
    tile: int  # a tile is tile x tile
    block: tuple[int, int, int]  # rows, inner, columns of one cycle's product at LoFi
    formats: tuple[str, ...]
    cycles: tuple[tuple[str, int], ...]  # per fidelity: cycles per product of two tiles
    fidelity: str  # the one a program runs at
    dst_tiles: int
    unpack_bytes_per_cycle: float
    pack_bytes_per_cycle: float
    reduce_block: tuple[int, int] | None = None  # rows, columns a reduction folds a cycle
    reduce_formats: tuple[str, ...] = ()

    def tile_cycles(self) -> int:
        return dict(self.cycles)[self.fidelity]

    def fields(self) -> tuple[str, ...]:
        """The fields the unit has, each of which cites its source."""
        return FIELDS + (REDUCE_FIELDS if self.reduce_block is not None else ())

    def at(self, fidelity: str) -> "MatrixUnit":
        """The unit running at `fidelity` (MatrixError for one it has no figure for)."""
        if fidelity not in dict(self.cycles):
            raise MatrixError(f"math fidelity {fidelity!r}: the matrix unit has figures for "
                              f"{', '.join(k for k, _ in self.cycles)}")
        return replace(self, fidelity=fidelity)

    def firing_cycles(self, a_shape, b_shape, rate: int, a_fmt: str, b_fmt: str,
                      out_fmt: str) -> Fraction:
        """One firing of a matmul taking `rate` token pairs of those shapes (module
        docstring)."""
        m, k = a_shape
        n = b_shape[-1]
        inner = k * rate
        rows, depth, cols = self.block
        per_tile = (self.tile // rows) * (self.tile // depth) * (self.tile // cols)
        math = (ceil(m / rows) * ceil(inner / depth) * ceil(n / cols)
                * Fraction(self.tile_cycles(), per_tile))
        tm, tn = ceil(m / self.tile), ceil(n / self.tile)
        a_bytes = ELEMENTS[a_fmt].nbytes((m, inner))
        b_bytes = ELEMENTS[b_fmt].nbytes((inner, n))
        unpacked = min(a_bytes * (tn // w) + b_bytes * (tm // h)
                       for h, w in self.sub_blocks(tm, tn))
        unpack = Fraction(unpacked) / Fraction(repr(self.unpack_bytes_per_cycle))
        pack = Fraction(ELEMENTS[out_fmt].nbytes((m, n))) / Fraction(
            repr(self.pack_bytes_per_cycle))
        return max(math, unpack, pack)

    def reduce_cycles(self, shape, rate: int, op: str, in_fmt: str, out_fmt: str,
                      axis: int) -> Fraction:
        """One firing of a `sum` or `max` along `axis` taking `rate` tokens of `shape`
        (module docstring)."""
        rows, cols = (1, shape[0]) if len(shape) == 1 else (prod(shape[:-1]), shape[-1])
        block_rows, block_cols = self.reduce_block
        rows_, depth, cols_ = self.block
        per_tile = (self.tile // rows_) * (self.tile // depth) * (self.tile // cols_)
        phases = Fraction(self.tile_cycles(), per_tile) if op == "sum" else 1
        math = rate * ceil(rows / block_rows) * ceil(cols / block_cols) * phases
        made = tuple(1 if d == axis else n for d, n in enumerate(shape))
        unpack = Fraction(rate * ELEMENTS[in_fmt].nbytes(shape)) / Fraction(
            repr(self.unpack_bytes_per_cycle))
        pack = Fraction(rate * ELEMENTS[out_fmt].nbytes(made)) / Fraction(
            repr(self.pack_bytes_per_cycle))
        return max(math, unpack, pack)

    def sub_blocks(self, tm: int, tn: int):
        """The h x w sub-blocks of an output of tm x tn tiles the destination register can
        hold, h dividing tm and w dividing tn."""
        for h in range(1, tm + 1):
            for w in range(1, tn + 1):
                if tm % h == 0 and tn % w == 0 and (h * w <= self.dst_tiles or h == w == 1):
                    yield h, w


def operand_format(p, stage) -> str | None:
    """The element type a stage's operands are multiplied in: its `via`, else theirs."""
    if stage.via is not None:
        return stage.via
    types = {p.token_dtype(port.stream) for port in stage.ins}
    return types.pop() if len(types) == 1 else None


def on_matrix(target, p, stage) -> bool:
    unit = target.matrix
    if unit is None or stage._prod != "Compute":
        return False
    if stage.op == "matmul_acc":
        return operand_format(p, stage) in unit.formats
    return stage.op in REDUCTIONS and operand_format(p, stage) in unit.reduce_formats


def stage_cycles(target, p, stage, shapes, rate: int) -> Fraction:
    """One firing on `target`'s matrix unit of a stage `on_matrix` gives it, taking `rate`
    tokens (token pairs for a matmul) of its inputs' `shapes`."""
    fmt = operand_format(p, stage)
    if stage.op in REDUCTIONS:
        return target.matrix.reduce_cycles(shapes[0], rate, stage.op, fmt,
                                           p.stage_dtype(stage), stage.axis)
    a_shape, b_shape = shapes
    return target.matrix.firing_cycles(a_shape, b_shape, rate, fmt, fmt, p.stage_dtype(stage))


def matrix_unit(value, formats_known) -> MatrixUnit:
    """A target file's `[matrix]` table, checked (MatrixError naming the field)."""
    if not isinstance(value, Mapping):
        raise MatrixError("'matrix' must be a table")
    for key in value:
        if key not in FIELDS + REDUCE_FIELDS:
            raise MatrixError(f"unknown key 'matrix.{key}'; the matrix unit has the fields "
                              f"{', '.join(FIELDS + REDUCE_FIELDS)}")
    for key in FIELDS:
        if key not in value:
            raise MatrixError(f"missing field 'matrix.{key}'")
    tile = _count(value["tile"], "tile")
    block = _block(value, "block", ("rows", "inner", "columns"), tile)
    formats = _formats(value, "formats", formats_known)
    cycles = value["cycles"]
    if not isinstance(cycles, Mapping) or not cycles or any(f not in FIDELITIES
                                                            for f in cycles):
        raise MatrixError(f"'matrix.cycles' must be a table of math fidelities "
                          f"({' '.join(FIDELITIES)}) to cycles, not {cycles!r}")
    cycles = tuple((f, _count(cycles[f], f"cycles.{f}")) for f in FIDELITIES if f in cycles)
    fidelity = value["fidelity"]
    if fidelity not in dict(cycles):
        raise MatrixError(f"'matrix.fidelity' must be one of {', '.join(dict(cycles))}, "
                          f"not {fidelity!r}")
    return MatrixUnit(tile, block, formats, cycles, fidelity,
                      _count(value["dst_tiles"], "dst_tiles"),
                      _rate(value["unpack_bytes_per_cycle"], "unpack_bytes_per_cycle"),
                      _rate(value["pack_bytes_per_cycle"], "pack_bytes_per_cycle"),
                      *_reduction(value, tile, formats_known))


def _reduction(value, tile: int, formats_known) -> tuple:
    """`reduce_block` and `reduce_formats`, both or neither."""
    given = [key for key in REDUCE_FIELDS if key in value]
    if not given:
        return None, ()
    if len(given) == 1:
        other = next(key for key in REDUCE_FIELDS if key not in value)
        raise MatrixError(f"'matrix.{given[0]}' needs 'matrix.{other}' beside it")
    return (_block(value, "reduce_block", ("rows", "columns"), tile),
            _formats(value, "reduce_formats", formats_known))


def _block(value, key: str, axes: tuple, tile: int) -> tuple:
    """`matrix.KEY`: one count per axis, each dividing the tile."""
    block = value[key]
    if not isinstance(block, list) or len(block) != len(axes):
        raise MatrixError(f"'matrix.{key}' must be [{', '.join(axes)}]")
    block = tuple(_count(x, key) for x in block)
    if any(tile % x for x in block):
        raise MatrixError(f"'matrix.{key}' {list(block)} must divide the tile, {tile}")
    return block


def _formats(value, key: str, formats_known) -> tuple:
    """`matrix.KEY`: a non-empty list of the element types the lane knows."""
    formats = value[key]
    if not isinstance(formats, list) or not formats or any(f not in formats_known
                                                           for f in formats):
        raise MatrixError(f"'matrix.{key}' must list element types of "
                          f"{' '.join(formats_known)}, not {formats!r}")
    return tuple(formats)


def _count(x, key: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or x <= 0:
        raise MatrixError(f"'matrix.{key}' must be a positive integer, not {x!r}")
    return x


def _rate(x, key: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not x > 0 or x == float("inf"):
        raise MatrixError(f"'matrix.{key}' must be a positive number, not {x!r}")
    return float(x)
