"""The tt-metal compute API the `tenstorrent` backend's compute kernels call: each function's
header, its template and call parameters (name and kind) with how many call arguments are
required, and the unit of the Tensix core it drives. Written from the headers of
tenstorrent/tt-metal (`tt_metal/include/compute_kernel_api/...`, the paths below); a
parameter with a default in the header counts as optional. The writer of the compute kernels
(tt_compute.py) names only functions of this table, the census counts calls by their unit,
and tests/spatial/test_tt_compute_api.py holds every call of every emitted compute kernel
against it.

Kinds of arguments: `cb` a circular-buffer index (a `cb_*` or `scaler_*` constant of the
kernel), `ntiles` a positive count of tiles, `itile` a tile index in a circular buffer's
front (or its reserved back), `idst` a tile index in the destination register, `bits` the
bits of an f32 as a uint32_t, `float` a float literal, `flag` 0 or 1. Template parameters
are `bool`, `PoolType`, `ReduceDim` and `BroadcastType` values.

Units: `matrix` the FPU's math on source registers (a product, an element-wise sum or
product, a reduction); `vector` the SFPU, on tiles in the destination register; `move`
unpacking a tile into the destination and packing one out; `sync` the circular buffers and
the destination register's hand-over between math and pack; `init` configuration.
"""

from __future__ import annotations

from dataclasses import dataclass

API_ROOT = "tt_metal/include/compute_kernel_api/"
# The destination register holds 4 tiles with 32-bit accumulation in half-sync mode, the
# mode tt-metal runs compute kernels in (dst_full_sync_en false); reg_api.h, and Wormhole's
# `matrix.dst_tiles` in machines/spatial/wormhole.toml.
DST_TILES = 4


@dataclass(frozen=True)
class Signature:
    header: str  # under API_ROOT
    params: tuple[tuple[str, str], ...]  # (name, kind) of each call parameter
    required: int  # call parameters without a default
    unit: str
    template: tuple[tuple[str, str], ...] = ()  # (name, kind), all with defaults


def _sig(header, params, unit, required=None, template=()):
    return Signature(header, tuple(params), len(params) if required is None else required,
                     unit, tuple(template))


CB, NT, IT, DST = ("icb", "cb"), ("ntiles", "ntiles"), ("itile", "itile"), ("idst", "idst")
POOL = (("reduce_type", "PoolType"), ("reduce_dim", "ReduceDim"))
SFPU_BINARY = (("idst0", "idst"), ("idst1", "idst"), ("odst", "idst"))

API: dict[str, Signature] = {
    # cb_api.h
    "cb_wait_front": _sig("cb_api.h", [CB, NT], "sync"),
    "cb_pop_front": _sig("cb_api.h", [CB, NT], "sync"),
    "cb_reserve_back": _sig("cb_api.h", [CB, NT], "sync"),
    "cb_push_back": _sig("cb_api.h", [CB, NT], "sync"),
    # reg_api.h
    "tile_regs_acquire": _sig("reg_api.h", [], "sync"),
    "tile_regs_commit": _sig("reg_api.h", [], "sync"),
    "tile_regs_wait": _sig("reg_api.h", [], "sync"),
    "tile_regs_release": _sig("reg_api.h", [], "sync"),
    # compute_kernel_hw_startup.h
    "compute_kernel_hw_startup": _sig("compute_kernel_hw_startup.h",
                                      [("icb0", "cb"), ("icb1", "cb"), ("ocb", "cb")], "init"),
    # reconfig_data_format.h, pack.h
    "reconfig_data_format": _sig("reconfig_data_format.h",
                                 [("srca_new_operand", "cb"), ("srcb_new_operand", "cb")],
                                 "init"),
    "pack_reconfig_data_format": _sig("pack.h", [("new_operand", "cb")], "init"),
    "pack_tile": _sig("pack.h", [("ifrom_dst", "idst"), ("icb", "cb"),
                                 ("output_tile_index", "itile")], "move", required=2,
                      template=(("out_of_order_output", "bool"),)),
    # tile_move_copy.h
    "copy_tile_init": _sig("tile_move_copy.h", [("cbid", "cb")], "init"),
    "copy_tile": _sig("tile_move_copy.h", [CB, IT, DST], "move"),
    # transpose_wh.h: the unpacker transposes the tile on its way into the destination (an
    # int32 tile is transposed there, by the math thread)
    "transpose_wh_init": _sig("transpose_wh.h", [CB, ("ocb", "cb")], "init"),
    "transpose_wh_tile": _sig("transpose_wh.h", [CB, IT, DST], "move"),
    # bcast.h
    "unary_bcast_init": _sig("bcast.h", [CB, ("ocb", "cb")], "init",
                             template=(("bcast_type", "BroadcastType"),)),
    "unary_bcast": _sig("bcast.h", [CB, ("in_tile_index", "itile"), ("dst_tile_index", "idst")],
                        "move", template=(("bcast_type", "BroadcastType"),)),
    # matmul.h
    "mm_init": _sig("matmul.h", [("in0_cb_id", "cb"), ("in1_cb_id", "cb"), ("out_cb_id", "cb"),
                                 ("transpose", "flag")], "init", required=3),
    "matmul_tiles": _sig("matmul.h", [("in0_cb_id", "cb"), ("in1_cb_id", "cb"),
                                      ("in0_tile_index", "itile"), ("in1_tile_index", "itile"),
                                      DST, ("transpose", "flag")], "matrix"),
    # eltwise_binary.h
    "binary_op_init_common": _sig("eltwise_binary.h",
                                  [("icb0", "cb"), ("icb1", "cb"), ("ocb", "cb")], "init"),
    "add_tiles_init": _sig("eltwise_binary.h", [("icb0", "cb"), ("icb1", "cb"),
                                                ("acc_to_dest", "flag")], "init", required=2),
    "sub_tiles_init": _sig("eltwise_binary.h", [("icb0", "cb"), ("icb1", "cb"),
                                                ("acc_to_dest", "flag")], "init", required=2),
    "mul_tiles_init": _sig("eltwise_binary.h", [("icb0", "cb"), ("icb1", "cb")], "init"),
    **{name: _sig("eltwise_binary.h", [("icb0", "cb"), ("icb1", "cb"), ("itile0", "itile"),
                                       ("itile1", "itile"), DST], "matrix")
       for name in ("add_tiles", "sub_tiles", "mul_tiles")},
    # reduce.h
    "reduce_init": _sig("reduce.h", [CB, ("icb_scaler", "cb"), ("ocb", "cb")], "init",
                        template=POOL),
    "reduce_tile": _sig("reduce.h", [("icb0", "cb"), ("icb1", "cb"), ("itile0", "itile"),
                                     ("itile1", "itile"), DST], "matrix", template=POOL),
    "reduce_uninit": _sig("reduce.h", [], "init"),
    # eltwise_binary_sfpu.h, binary_max_min.h
    **{f"{op}_binary_tile": _sig("eltwise_binary_sfpu.h", SFPU_BINARY, "vector")
       for op in ("add", "sub", "mul", "div")},
    **{f"{op}_binary_tile_init": _sig("eltwise_binary_sfpu.h", [], "init")
       for op in ("add", "sub", "mul", "div")},
    **{f"binary_{op}_tile": _sig("binary_max_min.h", SFPU_BINARY, "vector")
       for op in ("max", "min")},
    **{f"binary_{op}_tile_init": _sig("binary_max_min.h", [], "init") for op in ("max", "min")},
    # add_int_sfpu.h, sub_int32_sfpu.h: the result overwrites the first operand
    "add_int32_tile": _sig("add_int_sfpu.h", [("idst0", "idst"), ("idst1", "idst")], "vector"),
    "add_int_tile_init": _sig("add_int_sfpu.h", [], "init"),
    "sub_int32_tile": _sig("sub_int32_sfpu.h", [("idst0", "idst"), ("idst1", "idst")],
                           "vector"),
    "sub_int_tile_init": _sig("sub_int32_sfpu.h", [], "init"),
    # eltwise_unary/*.h
    "exp_tile_init": _sig("eltwise_unary/exp.h", [], "init"),
    "exp_tile": _sig("eltwise_unary/exp.h", [DST], "vector"),
    "recip_tile_init": _sig("eltwise_unary/recip.h", [], "init"),
    "recip_tile": _sig("eltwise_unary/recip.h", [DST], "vector"),
    "negative_tile_init": _sig("eltwise_unary/negative.h", [], "init"),
    "negative_tile": _sig("eltwise_unary/negative.h", [DST], "vector"),
    "fill_tile_init": _sig("eltwise_unary/fill.h", [], "init"),
    "fill_tile": _sig("eltwise_unary/fill.h", [DST, ("param0", "float")], "vector"),
    "binop_with_scalar_tile_init": _sig("eltwise_unary/binop_with_scalar.h", [], "init"),
    **{f"{op}_unary_tile": _sig("eltwise_unary/binop_with_scalar.h",
                                [DST, ("param1", "bits")], "vector")
       for op in ("add", "sub", "mul", "div", "rsub")},
}

UNITS = ("matrix", "vector", "move", "sync", "init")
