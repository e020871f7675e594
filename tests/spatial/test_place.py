"""place: its output on tile's output for every reference program and shipped target
(snapshots, and the oracle accepts it), broken copies caught with the right divergence, its
cut on 1x1, 2x2 and 3x5 meshes with the engines it picks, the loops it must not cut, and a
property test where tile then place keep the outputs of random graphs on random targets."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given
from test_tile import (CASES, RATED, SETTINGS, dataflow_graphs, points, small_targets, stage,
                       tile_or_refuse, tiled)

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.oracle.equivalence import OutputDiffers, corpus
from nano_vx.oracle.rewrites import IllFormed, check_rewrite
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial.cost import split_counts
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.target import load_target, small_target
from nano_vx.spatial_passes.place import place
from nano_vx.spatial_passes.tile import tile

ENGINES = {"Load": "reader", "Store": "writer", "Compute": "compute", "Scalar": "compute"}


@lru_cache(maxsize=None)
def placed(name: str, target: str):
    return place(tiled(name, target), SpatialContext(load_target(target)))


def run_place(text: str, target):
    before = parse_spatial(text)
    return before, place(before, SpatialContext(target))


def sites(graph) -> dict[str, tuple[tuple[int, int], str]]:
    return {pl.stage: (pl.site, pl.engine) for pl in graph.places}


def ranges(access) -> dict[str, tuple[int, int]]:
    return {lp.var: (lp.start, lp.stop) for lp in access.loops}


# -- the reference programs ------------------------------------------------------------------

@pytest.mark.parametrize("name, target", CASES)
def test_snapshot(name, target, snapshot_txt, snapshot_dot):
    # The biggest of these (row_sums on fabric, 768 stages) is about 90 KB in either form.
    out = placed(name, target)
    assert to_text(out) == snapshot_txt
    assert to_dot(out, title=f"place: {name} on {target}") == snapshot_dot


@pytest.mark.parametrize("name, target", CASES)
def test_the_oracle_accepts_the_output(name, target):
    assert check_rewrite(tiled(name, target), placed(name, target), load_target(target)) is None


@pytest.mark.parametrize("name, target", CASES)
def test_every_copy_has_a_site_of_its_own(name, target):
    whole = [s.name for s in tiled(name, target).stages]
    out = placed(name, target)
    copies: dict = {}
    for pl in out.places:
        base = next(b for b in whole if pl.stage == b or pl.stage.startswith(b + "_"))
        copies.setdefault(pl.stage[len(base):], {})[base] = pl.site
    assert all(sorted(c) == sorted(whole) and len(set(c.values())) == 1
               for c in copies.values())
    assert len({next(iter(c.values())) for c in copies.values()}) == len(copies)


# -- broken copies of the output -------------------------------------------------------------

def test_a_copy_whose_block_overlaps_its_neighbours_is_caught_where_a_tile_is_never_written():
    before, out = tiled("gemm", "wormhole"), placed("gemm", "wormhole")
    mine = [s for s in out.stages if s.name.endswith("_0_1")]
    assert ranges(stage(out, "store_c_0_1"))["j"] == (1, 2), "the case needs j cut into 1s"
    # Copy (0, 1) walks j in 0..1 like copy (0, 0): C tile (0, 0) is written twice (with the
    # same values) and tile (0, 1) never.
    shifted = {s.name: s.replace(loops=tuple(
        lp.replace(start=0, stop=1) if lp.var == "j" else lp for lp in s.loops))
        for s in mine if hasattr(s, "loops")}
    broken = out.replace(stages=tuple(shifted.get(s.name, s) for s in out.stages))
    inputs = corpus(before)
    found = check_rewrite(before, broken, load_target("wormhole"), inputs=inputs)

    right = inputs[0]["A"] @ inputs[0]["B"]
    m, n = stage(out, "store_c_0_1").tile
    never = np.zeros(right.shape, dtype=bool)
    never[0:m, n:2 * n] = True
    first = tuple(int(x) for x in np.argwhere(never & (right != 0))[0])
    assert found == OutputDiffers(0, "C", first, right[first].item(), 0)


def test_a_stage_placed_off_the_mesh_is_ill_formed():
    out = placed("gemv", "wormhole")
    victim = out.places[3]
    broken = out.replace(places=(*out.places[:3], victim.replace(site=(9, 0)),
                                 *out.places[4:]))
    found = check_rewrite(tiled("gemv", "wormhole"), broken, load_target("wormhole"))
    assert found == IllFormed((f"stage '{victim.stage}' is placed on site (9, 0), outside the "
                               f"9 x 8 mesh of wormhole",))


# -- the cut ---------------------------------------------------------------------------------

GRID = """\
spatial grid: Stiled {
    tensor X: i32[8, 12] input
    tensor Y: i32[8, 12] output
    stream x: i32
    stream y: i32
    load ld X[i, j] tile [2, 2] for i in 0..4, j in 0..6 -> x
    compute sc scale 2 (x) -> y
    store st y -> Y[i, j] tile [2, 2] for i in 0..4, j in 0..6
}
"""


def test_split_counts_fill_the_most_sites_cutting_the_first_dimension_first():
    assert split_counts([4, 6], 1) == (1, 1)
    assert split_counts([4, 6], 4) == (4, 1)    # 4 x 1 and 2 x 2 both fill 4: i first
    assert split_counts([4, 6], 15) == (4, 3)   # 12 sites; 2 x 6 also, but i first
    assert split_counts([7], 4) == (1,)          # 7 has no divisor from 2 to 4
    assert split_counts([], 9) == ()


def placed_grid(rows: int, cols: int):
    target = small_target(rows, cols)
    before, out = run_place(GRID, target)
    assert check_rewrite(before, out, target) is None
    return out


def test_a_one_site_mesh_keeps_the_graph_whole_on_site_0_0():
    out = placed_grid(1, 1)
    assert out.stages == parse_spatial(GRID).stages
    assert sites(out) == {"ld": ((0, 0), "reader"), "sc": ((0, 0), "compute"),
                          "st": ((0, 0), "writer")}


def test_a_2x2_mesh_cuts_the_rows_into_four_blocks():
    out = placed_grid(2, 2)
    want = {}
    for a in range(4):
        site = divmod(a, 2)
        want |= {f"ld_{a}_0": (site, "reader"), f"sc_{a}_0": (site, "compute"),
                 f"st_{a}_0": (site, "writer")}
        for name in (f"ld_{a}_0", f"st_{a}_0"):
            assert ranges(stage(out, name)) == {"i": (a, a + 1), "j": (0, 6)}
    assert sites(out) == want
    assert [s.name for s in out.streams] == [f"{s}_{a}_0" for a in range(4) for s in "xy"]
    assert stage(out, "sc_2_0").ins[0].stream == "x_2_0"


def test_a_3x5_mesh_cuts_rows_and_columns_into_twelve_blocks_row_major():
    out = placed_grid(3, 5)
    assert len(out.stages) == 12 * 3
    for a in range(4):
        for b in range(3):
            site = divmod(a * 3 + b, 5)
            for name, engine in (("ld", "reader"), ("sc", "compute"), ("st", "writer")):
                assert sites(out)[f"{name}_{a}_{b}"] == (site, engine)
            for name in (f"ld_{a}_{b}", f"st_{a}_{b}"):
                assert ranges(stage(out, name)) == {"i": (a, a + 1), "j": (2 * b, 2 * b + 2)}
    assert max(pl.site for pl in out.places) == (2, 1)


def test_a_stepped_loop_is_cut_into_blocks_of_its_points():
    text = GRID.replace("i in 0..4", "i in 0..4 step 2")
    target = small_target(1, 2)
    before, out = run_place(text, target)
    assert check_rewrite(before, out, target) is None
    assert {lp.var: (lp.start, lp.stop, lp.step) for lp in stage(out, "st_1_0").loops} == {
        "i": (2, 4, 2), "j": (0, 6, 1)}


def test_scalar_stages_run_on_the_compute_engine():
    out = placed("softmax", "wormhole")
    kinds = {s.name: s._prod for s in out.stages}
    assert {kinds[pl.stage] for pl in out.places if pl.engine == "compute"} == {
        "Compute", "Scalar"}
    assert all(pl.engine == ENGINES[kinds[pl.stage]] for pl in out.places)


def test_a_program_with_nothing_to_cut_runs_whole_on_site_0_0():
    target = small_target(2, 2)
    before = tile(parse_spatial(RATED), SpatialContext(target))
    out = place(before, SpatialContext(target))
    assert out.stages == before.stages
    assert sites(out) == {"ld": ((0, 0), "reader"), "total": ((0, 0), "compute"),
                          "st": ((0, 0), "writer")}
    assert check_rewrite(before, out, target) is None


# Loops place must not cut: each would hand one copy's loads the tiles another copy's store
# writes, or have two copies write one tile.
NOT_CUT = {
    "another order": GRID.replace("store st y -> Y[i, j] tile [2, 2] for i in 0..4, j in 0..6",
                                  "store st y -> Y[i, j] tile [2, 2] for j in 0..6, i in 0..4"),
    "inside a repeat": """\
spatial twice: Stiled {
    tensor X: i32[4, 4] input
    tensor Y: i32[2, 4] output
    stream a: i32
    stream s: i32
    load ld X[i, 0] tile [2, 4] for k in 0..2, i in 0..2 -> a
    compute total sum axis 0 (a x2) -> s
    store st s -> Y[i, 0] tile [1, 4] for i in 0..2
}
""",
    "not indexed by every store": """\
spatial last: Stiled {
    tensor X: i32[4, 4] input
    tensor Y: i32[4, 4] output
    tensor Z: i32[2, 4] output
    stream a: i32
    stream b: i32
    load ld X[i, 0] tile [2, 4] for i in 0..2 -> a, b
    store st_y a -> Y[i, 0] tile [2, 4] for i in 0..2
    store st_z b -> Z[0, 0] tile [2, 4] for i in 0..2
}
""",
}


@pytest.mark.parametrize("why", NOT_CUT)
def test_a_loop_that_is_not_a_common_outer_output_loop_is_not_cut(why):
    target = small_target(2, 2)
    before, out = run_place(NOT_CUT[why], target)
    assert out.stages == before.stages
    assert {site for site, _ in sites(out).values()} == {(0, 0)}
    assert check_rewrite(before, out, target) is None


def test_a_cut_loop_leaves_the_inner_loops_of_each_access_whole():
    out = placed("gemm", "fabric")
    load = stage(out, "load_a_2_5")
    assert ranges(load) == {"i": (2, 3), "j": (5, 6), "k": (0, 4)}
    assert points(load) == 4


# -- random graphs ---------------------------------------------------------------------------

@SETTINGS
@given(dataflow_graphs(), small_targets())
def test_tile_then_place_keep_the_outputs_of_random_graphs(text, target):
    tiled_graph = tile_or_refuse(text, target)
    if tiled_graph is None:
        return
    out = place(tiled_graph, SpatialContext(target))
    assert check_rewrite(tiled_graph, out, target) is None, to_text(tiled_graph)
    assert all(0 <= pl.site[0] < target.rows and 0 <= pl.site[1] < target.cols
               for pl in out.places)
