"""The work model (nano_vx/spatial/work.py) and the roofs (nano_vx/spatial/roofs.py): routes
and multicast trees; the work of every reference program, counted from its schedules and
checked against what its stages and tensors say independently; every rate with its
citation; the roofline of a run, and the clock's period never below it."""

from __future__ import annotations

from fractions import Fraction
from math import prod

import numpy as np
import pytest

from nano_vx.spatial.clock import clock
from nano_vx.spatial.cost import OpCycles
from nano_vx.spatial.program import flat_ops
from nano_vx.spatial.ops import NUMPY_DTYPES, loop_count
from nano_vx.spatial.roofs import bounds, roofline, roofs
from nano_vx.spatial.target import known_targets, load_target
from nano_vx.spatial.work import route, tree, work
from spatial_reference import CASES, IDS, steps


def test_a_route_runs_along_the_row_then_the_column():
    assert route((1, 1), (3, 0)) == (((1, 1), (1, 0)), ((1, 0), (2, 0)), ((2, 0), (3, 0)))
    assert route((2, 2), (2, 2)) == ()


def test_a_multicast_tree_shares_the_links_its_routes_share():
    assert tree((0, 0), [(0, 2), (1, 2)]) == (((0, 0), (0, 1)), ((0, 1), (0, 2)),
                                              ((0, 2), (1, 2)))


def _tile_bytes(graph, stage) -> int:
    dtype = next(t.dtype for t in graph.tensors if t.name == stage.tensor)
    return prod(stage.tile) * np.dtype(NUMPY_DTYPES[dtype]).itemsize


@pytest.mark.parametrize("program,target", CASES, ids=IDS)
def test_dram_bytes_are_what_the_stages_move(program, target):
    graph = steps(program, target)["schedule"][1]
    w = work(graph)
    # A load read into a group reads a tile once a firing; one with several out ports and no
    # group (fuse-readers gave it up) reads it once for each.
    grouped = {g.stage for g in graph.groups}
    loads = {s.name: loop_count(s.loops) * _tile_bytes(graph, s)
             * (1 if s.name in grouped else len(s.outs))
             for s in graph.stages if s._prod == "Load"}
    stores = {s.name: loop_count(s.loops) * _tile_bytes(graph, s)
              for s in graph.stages if s._prod == "Store"}
    assert (w.dram_read, w.dram_write) == (loads, stores)
    # Every output element is written once.
    assert sum(stores.values()) == sum(
        prod(t.shape) * np.dtype(NUMPY_DTYPES[t.dtype]).itemsize
        for t in graph.tensors if t.role == "output")


# Element operations of each program, whatever its tiling: a multiply-accumulate per
# (row, inner, column) of a matmul, an element per sum or max input, a scalar body's
# operations per element (softmax: exp(v - top) is two, v / total one).
OPS = {
    "gemm": {("matmul_acc", "i32"): 64 * 64 * 64},
    "gemv": {("matmul_acc", "f32"): 512 * 256},
    "row_sums": {("sum", "i32"): 64 * 256},
    "softmax": {("max", "f32"): 16 * 256, ("sum", "f32"): 16 * 256,
                ("scalar", "f32"): 3 * 16 * 256},
    # The keys are transposed once for each of the four blocks of rows (tile repeats them).
    "attention": {("transpose", "bf16"): 4 * 32 * 32, ("matmul_acc", "bf16"): 2 * 32 ** 3,
                  **{(op, "bf16"): 32 * 32 for op in ("scale", "max", "sub", "exp", "sum",
                                                      "div")}},
    # GELU's body is 8 operations: /, +, exp, three * of the cube, * and + around it.
    "mlp": {("matmul_acc", "bf16"): 32 * 64 * 64, ("add", "bf16"): 32 * 64,
            ("scalar", "bf16"): 8 * 32 * 64},
}


@pytest.mark.parametrize("program,target", CASES, ids=IDS)
def test_element_operations_are_the_programs(program, target):
    w = work(steps(program, target)["schedule"][1])
    totals: dict = {}
    for (_, kind, dtype), n in w.ops.items():
        totals[kind, dtype] = totals.get((kind, dtype), 0) + n
    assert totals == OPS[program]


def test_a_multicast_crosses_each_link_of_its_tree_once():
    w = work(steps("gemv", "wormhole")["schedule"][1])
    # x, two [1, 256] f32 tiles, from site (0, 0) to the eight sites of row 0 and from site
    # (1, 0) to those of row 1 (the 16 blocks of the output are two rows of the mesh):
    # seven links each.
    assert w.multicast == {"load_x_0_group": (2 * 1024, 7), "load_x_8_group": (2 * 1024, 7)}
    assert w.links[(0, 6), (0, 7)] == 2 * 1024
    assert w.sent == {}


@pytest.mark.parametrize("name", known_targets())
def test_every_rate_cites_its_target_files_source(name):
    t = load_target(name)
    r = roofs(t)
    for rate in r.all():
        field, _, dtype = rate.key.partition(".")
        value = t.rates[dtype] if dtype else getattr(t, field)
        assert (rate.value, rate.source) == (value, t.sources[rate.key])
    assert sorted(r.compute) == sorted(t.rates)


def test_a_rate_is_exactly_the_figure_the_file_writes():
    assert roofs(load_target("gpu-sm")).dram.exact == Fraction(16919, 10)


def test_the_roofline_of_a_gemv_is_its_dram():
    w = work(steps("gemv", "wormhole")["schedule"][1])
    # W (512 x 256 f32) once, x (512 f32) as two tiles of 1 KiB for each of the two rows of
    # sites, y (256 f32) once.
    assert w.dram_bytes == 512 * 256 * 4 + 2 * 2 * 1024 + 256 * 4
    top = roofline(w, roofs(load_target("wormhole")))
    assert (top.resource, top.cycles) == ("dram", Fraction(w.dram_bytes, 288))
    assert [b.resource for b in bounds(w, roofs(load_target("wormhole")))] == \
        ["dram", "link", "compute", "sram"]


@pytest.mark.slow
@pytest.mark.parametrize("program,target", CASES, ids=IDS)
def test_no_period_is_below_the_roofline(program, target):
    graph = steps(program, target)["schedule"][1]
    t = load_target(target)
    period = clock(graph, t).period
    assert all(period >= b.cycles for b in bounds(work(graph), roofs(t)))


def test_the_cycles_of_the_ops_of_a_gemv_on_wormhole():
    graph = steps("gemv", "wormhole")["schedule"][1]
    cycles = OpCycles(graph, load_target("wormhole"))
    reader = next(s for s in graph.schedules if s.site == (0, 0) and s.engine == "reader")
    x_loop, w_loop, relay_loop = reader.ops
    of = {op._prod + (" " + op.stage if op._prod == "Read" else ""):
          cycles.of((0, 0), "reader", op) for op in (*x_loop.body, *w_loop.body)}
    # Reader (0, 0) moves 34,816 of the run's 529,408 DRAM bytes, so its share of the 288
    # B/cycle is 18.9; a tile also crosses a 32 B/cycle link into the site, faster here:
    # x's 1 KiB tile 270 + 54.1 cycles, W's 16 KiB tile 270 + 865.1, rounded up.
    assert (of["Read load_x_0"], of["Read load_w_0"]) == (325, 1136)
    # The multicast of 1 KiB: 32 cycles on a link, 7 hops of 9 cycles to site (0, 7).
    assert of["Multicast"] == 95
    # A signal to site (0, 7): one cycle and 7 hops; a barrier, a reserve, a push: one.
    signals = [cycles.of((0, 0), "reader", op) for op in x_loop.body if op._prod == "Signal"]
    assert signals == [1 + 9 * k for k in range(8)]
    assert (of["Barrier"], of["Reserve"], of["Push"]) == (1, 1, 1)
    # The matmul accumulates over its two K-blocks: a firing is one [1, 256] x [256, 16]
    # product, 4,096 multiply-accumulates at 32 a cycle (its SRAM bytes at 256 a cycle take
    # less).
    compute = next(s for s in graph.schedules if s.site == (0, 0) and s.engine == "compute")
    fire = next(op for op in flat_ops(compute.ops) if op._prod == "Fire")
    assert cycles.of((0, 0), "compute", fire) == 128
    # The relay of x into the compute engine's fifo copies a 1 KiB tile within SRAM: 2 KiB
    # read and written at 256 bytes a cycle.
    relay = next(op for op in relay_loop.body if op._prod == "Fire")
    assert cycles.of((0, 0), "reader", relay) == 8


def test_the_cycles_of_each_stage_of_a_run():
    graph = steps("gemv", "wormhole")["schedule"][1]
    stages = OpCycles(graph, load_target("wormhole")).stages()
    # Two W tiles, each read (1,136) and pushed (1); two firings of the matmul, one K-block
    # each, and the push of its sum; one write of y's 64 bytes, 270 cycles of latency and
    # 64 bytes at an equal share of the DRAM among the 32 engines using it (9 bytes a cycle,
    # slower than the link): 7.1, rounded up with the rest; x read and multicast twice.
    assert (stages["load_w_0"], stages["mv_0"]) == (2 * 1137, 2 * 128 + 1)
    assert stages["store_y_0"] == 270 + 8
    assert stages["load_x_0"] == 2 * (325 + 95)
