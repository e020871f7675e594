"""`fire STAGE` in a tt-metal compute kernel: the stage's op through the compute API
(tt_api.py), tile by tile (docs/spatial.md, "Lowering"). A token is a grid of tiles in its
circular buffer (tt_layout.py); the fire reads the front tokens of its inputs (tile j x T + t
of a buffer's front is tile t of its token j) and packs each output tile into the reserved
back, after the tokens already staged there.

- `matmul_acc` of floats: the matrix unit, `matmul_tiles` accumulating the r x K/32 products
  of each output tile in the destination register (`mm_init`); one accumulating over n
  firings keeps its output's tiles in the register from its first firing to its n-th;
- `sum`, `max` of floats: the matrix unit, `reduce_tile` over the tiles along the axis,
  accumulating in the destination, with the core's scaler tile of ones (`reduce_init`), where
  the cost model charges it too (spatial/matrix.py);
- `transpose`: each output tile (i, j) is input tile (j, i), transposed by the unpacker on
  its way into the destination (`transpose_wh_tile`), then packed;
- `add`, `sub`, `mul` and a scalar body that is one `+`, `-` or `*` of two inputs, in a narrow
  float without broadcasting: the matrix unit (`add_tiles`, `sub_tiles`, `mul_tiles`);
- every other element-wise stage: its inputs copied (or broadcast, `unary_bcast`) into the
  destination register and its expression computed there by the vector unit (the SFPU),
  a register per live value.

Refused (E7041): an integer product, reduction, division or constant (the API has int32 sums
and differences only), a reduction or product along an axis that does not fill whole tiles
unless the padding is zeros a reader wrote and the op is a sum or product, an expression
that needs more destination tiles than the register holds, and any other op.
"""

from __future__ import annotations

import struct

from ..spatial.elements import NARROW
from ..spatial.program import flat_ops, ins, outs
from . import LowerError
from .tt_api import DST_TILES
from .tt_layout import TILE, grid, tiles

ELEMENTWISE = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
FPU_BINARY = {"+": "add", "-": "sub", "*": "mul"}
SFPU_BINARY = {"+": "add_binary", "-": "sub_binary", "*": "mul_binary", "/": "div_binary",
               "max": "binary_max",
               "min": "binary_min"}
SFPU_UNARY = {"-": "negative", "exp": "exp", "recip": "recip"}
SCALAR_OPS = {"+": "add", "*": "mul"}  # x op c (either side) by binop_with_scalar
BCAST = {(False, False): None, (False, True): "COL", (True, False): "ROW", (True, True): "SCALAR"}


def body_of(stage) -> tuple:
    """The stage's element-wise computation as a tree: ('arg', i), ('num', v),
    ('bin', op, a, b), ('un', op, a)."""
    if stage._prod == "Scalar":
        return _tree(stage.body, list(stage.params))
    op = stage.op
    if op in ELEMENTWISE:
        return ("bin", ELEMENTWISE[op], ("arg", 0), ("arg", 1))
    if op == "scale":
        return ("bin", "*", ("arg", 0), ("num", stage.factor))
    if op == "exp":
        return ("un", "exp", ("arg", 0))
    raise _refuse(stage, f"its op {op} has no image in the compute API here")


def _tree(e, params) -> tuple:
    kind = e._prod
    if kind == "Arg":
        return ("arg", params.index(e.name))
    if kind == "Num":
        return ("num", e.value)
    if kind == "Bin":
        return ("bin", e.op, _tree(e.a, params), _tree(e.b, params))
    return ("un", e.op, _tree(e.a, params))


def _refuse(stage, why: str) -> LowerError:
    return LowerError("E7041", f"stage '{stage.name}' cannot be written through tt-metal's "
                               f"compute API: {why}")


def rows_cols(shape) -> tuple[int, int]:
    return (1, shape[0]) if len(shape) == 1 else tuple(shape[-2:])


class FireWriter:
    """The lines of one `fire` of a compute kernel. `k` is the KernelWriter: its `cb`, `var`
    and `call` (which formats a compute-API call and counts it)."""

    def __init__(self, k, stage):
        self.k, self.st, self.plan = k, stage, k.plan
        self.ins = [port.stream for port in ins(stage)]
        self.outs = [port.stream for port in outs(stage)]
        self.rates = [port.rate for port in ins(stage)]
        self.dtype = self.plan.p.stage_dtype(stage)

    def lines(self) -> list[str]:
        st = self.st
        if st._prod == "Compute" and st.op == "matmul_acc":
            return self._matmul()
        if st._prod == "Compute" and st.op in ("sum", "max"):
            return self._reduce()
        if st._prod == "Compute" and st.op == "transpose":
            return self._transpose()
        tree = body_of(st)
        if self._on_fpu(tree):
            return self._fpu_binary(tree)
        return self._sfpu(tree)

    # -- helpers ---------------------------------------------------------------------------

    def c(self, name, *args, template=()) -> str:
        return self.k.call(name, *args, template=template) + ";"

    def cb(self, stream: str) -> str:
        return self.k.cb(stream)

    def ntiles(self, stream: str) -> int:
        return tiles(self.plan.shapes[stream])

    def staged(self, stream: str) -> str:
        return self.k.var(f"staged_{stream}")

    def _pack(self, reg: int, j: str, t: str) -> list[str]:
        """Pack destination tile `reg` as tile t of output token j of this firing, on every
        output port."""
        lines = []
        for o in self.outs:
            if len(self.outs) > 1:
                lines.append(self.c("pack_reconfig_data_format", self.cb(o)))
            index = f"({self.staged(o)} + {j}) * {self.ntiles(o)}u + {t}"
            lines.append(self.c("pack_tile", reg, self.cb(o), index, template=("true",)))
        return lines

    def _tile_loop(self, tokens: int, body: list[str], pack_reg: int) -> list[str]:
        """For each output token j and tile t: acquire the destination, `body`, hand it to
        the packer, pack register `pack_reg`, release."""
        n = self.ntiles(self.outs[0])
        inner = ([self.c("tile_regs_acquire")] + body
                 + [self.c("tile_regs_commit"), self.c("tile_regs_wait")]
                 + self._pack(pack_reg, "j", "t") + [self.c("tile_regs_release")])
        return ([f"for (uint32_t j = 0; j < {tokens}u; ++j) {{",
                 f"    for (uint32_t t = 0; t < {n}u; ++t) {{"]
                + ["        " + x for x in inner] + ["    }", "}"])

    def _float(self, what: str) -> None:
        if self.dtype not in ("f32",) + NARROW:
            raise _refuse(self.st, f"{what} of {self.dtype}: Wormhole's matrix unit takes "
                                   f"floats only (an int32 product or reduction has no call)")

    def _zero_padded(self, stream: str) -> bool:
        """Whether the padding of a token of `stream` is zeros: a reader filled it from DRAM,
        directly or through relays that copy whole tokens."""
        p = self.plan.p
        st = p.stages[p.producer(stream).stage]
        if st._prod == "Load":
            return True
        relay = st._prod == "Scalar" and st.body._prod == "Arg"
        return relay and self._zero_padded(ins(st)[0].stream)

    def _whole_along(self, stream: str, axis: int, neutral_zero: bool) -> None:
        extent = rows_cols(self.plan.shapes[stream])[axis]
        if extent % TILE and not (neutral_zero and self._zero_padded(stream)):
            raise _refuse(self.st, f"it combines the {extent} elements of '{stream}' along an "
                                   f"axis that does not fill whole {TILE}-element tiles, and "
                                   f"the padding would enter the result")

    # -- the matrix unit -------------------------------------------------------------------

    def _matmul(self) -> list[str]:
        self._float("a product")
        a, b = self.ins
        self._whole_along(a, 1, True)
        self._whole_along(b, 0, True)
        (ha, ka), (_, wb) = grid(self.plan.shapes[a]), grid(self.plan.shapes[b])
        ca, cb_ = self.cb(a), self.cb(b)
        if getattr(self.st, "over", None) is not None:
            return self._summed_matmul(ca, cb_, ha, ka, wb)
        body = [f"for (uint32_t r = 0; r < {self.rates[0]}u; ++r)",
                f"    for (uint32_t k = 0; k < {ka}u; ++k)",
                "        " + self.c("matmul_tiles", ca, cb_,
                                    f"r * {ha * ka}u + (t / {wb}u) * {ka}u + k",
                                    f"r * {ka * wb}u + k * {wb}u + t % {wb}u", 0, 0)]
        return [self.c("mm_init", ca, cb_, self.cb(self.outs[0]), 0)] + self._tile_loop(1, body, 0)

    def _summed_matmul(self, ca: str, cb_: str, ha: int, ka: int, wb: int) -> list[str]:
        """A matmul accumulating over n firings, as tt-metal's simple bmm kernel does: the
        destination register holds the output's tiles from the first firing's acquire to the
        n-th firing's pack, each firing adding its K-block's products (so the output must
        fit the register, and no other fire of the kernel may take the register between)."""
        st, n = self.st, self.ntiles(self.outs[0])
        if n > DST_TILES:
            raise _refuse(st, f"it accumulates over {st.over} firings into an output of {n} "
                              f"tiles; the destination register holds {DST_TILES}, and a "
                              f"partials circular buffer is not written yet")
        others = {op.stage for op in flat_ops(self.k.s.ops) if op._prod == "Fire"} - {st.name}
        if others:
            raise _refuse(st, f"it holds the destination register across its firings, and "
                              f"{', '.join(sorted(others))} fires on its core in between")
        summed = self.k.var(f"summed_{st.name}")
        products, pack = [], [self.c("tile_regs_commit"), self.c("tile_regs_wait")]
        for t in range(n):  # output tile t in destination tile t
            products += [f"for (uint32_t r = 0; r < {self.rates[0]}u; ++r)",
                         f"    for (uint32_t k = 0; k < {ka}u; ++k)",
                         "        " + self.c("matmul_tiles", ca, cb_,
                                            f"r * {ha * ka}u + {t // wb * ka}u + k",
                                            f"r * {ka * wb}u + k * {wb}u + {t % wb}u", t, 0)]
            pack += self._pack(t, "0", str(t))
        pack.append(self.c("tile_regs_release"))
        return ([self.c("mm_init", ca, cb_, self.cb(self.outs[0]), 0),
                 f"if ({summed} == 0u) {{", "    " + self.c("tile_regs_acquire"), "}"]
                + products
                + [f"if (++{summed} == {st.over}u) {{", f"    {summed} = 0;"]
                + ["    " + x for x in pack] + ["}"])

    def _reduce(self) -> list[str]:
        st = self.st
        self._float(f"a {st.op}")
        (x,) = self.ins
        shape = self.plan.shapes[x]
        axis = st.axis if len(shape) == 2 else 1  # a token of one dimension is one row
        self._whole_along(x, axis, st.op == "sum")
        ht, wt = grid(shape)
        template = (f"PoolType::{st.op.upper()}",
                    "ReduceDim::REDUCE_ROW" if axis == 1 else "ReduceDim::REDUCE_COL")
        cx, scaler = self.cb(x), self.k.scaler()
        if axis == 1:  # each row of tiles to its column 0
            steps, index = wt, "r * {T}u + t * {wt}u + w"
        else:  # each column of tiles to its row 0
            steps, index = ht, "r * {T}u + w * {wt}u + t"
        body = [f"for (uint32_t r = 0; r < {self.rates[0]}u; ++r)",
                f"    for (uint32_t w = 0; w < {steps}u; ++w)",
                "        " + self.c("reduce_tile", cx, scaler,
                                    index.format(T=ht * wt, wt=wt), 0, 0, template=template)]
        return ([self.c("reduce_init", cx, scaler, self.cb(self.outs[0]), template=template)]
                + self._tile_loop(1, body, 0) + [self.c("reduce_uninit")])

    def _transpose(self) -> list[str]:
        """Output tile (i, j) of a token is input tile (j, i), each tile transposed as the
        unpacker moves it into the destination (its padding lands in the output's)."""
        (x,) = self.ins
        ht, wt = grid(self.plan.shapes[x])
        cx = self.cb(x)
        body = [self.c("transpose_wh_tile", cx, f"j * {ht * wt}u + (t % {ht}u) * {wt}u + t / {ht}u",
                       0)]
        return ([self.c("transpose_wh_init", cx, self.cb(self.outs[0]))]
                + self._tile_loop(self.rates[0], body, 0))

    def _bcast(self, i: int):
        """How input i stretches over the output: None, 'COL', 'ROW' or 'SCALAR'."""
        r, c = rows_cols(self.plan.shapes[self.ins[i]])
        ro, co = rows_cols(self.plan.shapes[self.outs[0]])
        return BCAST[(r == 1 and ro > 1, c == 1 and co > 1)]

    def _on_fpu(self, tree) -> bool:
        return (self.dtype in NARROW and tree[0] == "bin" and tree[1] in FPU_BINARY
                and tree[2] == ("arg", 0) and tree[3] == ("arg", 1) and len(self.ins) == 2
                and self._bcast(0) is None and self._bcast(1) is None)

    def _fpu_binary(self, tree) -> list[str]:
        name = FPU_BINARY[tree[1]]
        a, b = self.cb(self.ins[0]), self.cb(self.ins[1])
        ta, tb = self.ntiles(self.ins[0]), self.ntiles(self.ins[1])
        body = [self.c(f"{name}_tiles", a, b, f"j * {ta}u + t", f"j * {tb}u + t", 0)]
        return ([self.c("binary_op_init_common", a, b, self.cb(self.outs[0])),
                 self.c(f"{name}_tiles_init", a, b)]
                + self._tile_loop(min(self.rates), body, 0))

    # -- the vector unit -------------------------------------------------------------------

    def _sfpu(self, tree) -> list[str]:
        self.free: list[int] = list(range(DST_TILES))
        self.body: list[str] = []
        reg = self._value(tree)
        first = self.cb(self.ins[0])
        second = self.cb(self.ins[1]) if len(self.ins) > 1 else first
        return ([self.c("reconfig_data_format", first, second),
                 self.c("pack_reconfig_data_format", self.cb(self.outs[0]))]
                + self._tile_loop(min(self.rates), self.body, reg))

    def _alloc(self) -> int:
        if not self.free:
            raise _refuse(self.st, f"its expression needs more than the {DST_TILES} tiles "
                                   f"the destination register holds")
        return self.free.pop(0)

    def _value(self, e) -> int:
        """Emit the computation of `e` into a destination tile and return its index."""
        kind, integer = e[0], self.dtype == "i32"
        w = self.body.append
        if kind == "arg":
            r, s = self._alloc(), self.ins[e[1]]
            bcast, n = self._bcast(e[1]), self.ntiles(s)
            wo = grid(self.plan.shapes[self.outs[0]])[1]
            if bcast is None:
                w(self.c("copy_tile_init", self.cb(s)))
                w(self.c("copy_tile", self.cb(s), f"j * {n}u + t", r))
            else:
                index = {"COL": f"j * {n}u + t / {wo}u", "ROW": f"j * {n}u + t % {wo}u",
                         "SCALAR": f"j * {n}u"}[bcast]
                template = (f"BroadcastType::{bcast}",)
                w(self.c("unary_bcast_init", self.cb(s), self.cb(self.outs[0]),
                         template=template))
                w(self.c("unary_bcast", self.cb(s), index, r, template=template))
            return r
        if kind == "num":
            if integer:
                raise _refuse(self.st, "an int32 constant has no call")
            r = self._alloc()
            w(self.c("fill_tile_init"))
            w(self.c("fill_tile", r, _float_literal(e[1])))
            return r
        if kind == "un":
            if integer:
                raise _refuse(self.st, f"int32 '{e[1]}' has no call")
            r = self._value(e[2])
            name = SFPU_UNARY[e[1]]
            w(self.c(f"{name}_tile_init"))
            w(self.c(f"{name}_tile", r))
            return r
        op, a, b = e[1], e[2], e[3]
        if integer:
            if op not in ("+", "-"):
                raise _refuse(self.st, f"int32 '{op}' has no call (only sums and differences)")
            ra, rb = self._value(a), self._value(b)
            name = "add" if op == "+" else "sub"
            w(self.c(f"{name}_int_tile_init"))
            w(self.c(f"{name}_int32_tile", ra, rb))  # into ra
            self.free.insert(0, rb)
            return ra
        if op in SCALAR_OPS and (a[0] == "num") != (b[0] == "num"):
            value, other = (a[1], b) if a[0] == "num" else (b[1], a)
            r = self._value(other)
            w(self.c("binop_with_scalar_tile_init"))
            w(self.c(f"{SCALAR_OPS[op]}_unary_tile", r, _bits(value)))
            return r
        ra, rb = self._value(a), self._value(b)
        name = SFPU_BINARY[op]
        w(self.c(f"{name}_tile_init"))
        w(self.c(f"{name}_tile", ra, rb, ra))
        self.free.insert(0, rb)
        return ra


def _bits(value) -> str:
    """An f32's bits as a uint32_t literal, as binop_with_scalar takes its scalar."""
    return f"0x{struct.unpack('<I', struct.pack('<f', float(value)))[0]:08x}u"


def _float_literal(value) -> str:
    v = float(value)
    if v != v or v in (float("inf"), float("-inf")):
        return {"inf": "INFINITY", "-inf": "-INFINITY"}.get(repr(v), "NAN")
    return f"{v!r}f"
