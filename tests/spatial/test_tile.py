"""tile: its output on every reference program and shipped target (snapshots, and the oracle
accepts it), broken copies of that output caught with the right divergence, its rules on small
hand-written programs (which dimensions are cut, whole tiles for rates other than 1, the cost
model's choice following the target, E7010), and a property test over random dataflow graphs
and random small targets."""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spatial_reference import NARROW
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.oracle.equivalence import OutputDiffers, corpus
from nano_vx.oracle.rewrites import IllFormed, check_rewrite
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.reject import SpatialReject
from nano_vx.spatial.target import load_target, small_target
from nano_vx.spatial_passes.tile import tile

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "spatial"
PROGRAMS = sorted(p.stem for p in EXAMPLES.glob("*.sdf"))
TARGETS = ("wormhole", "gpu-sm", "fabric")
CASES = [(name, target) for name in PROGRAMS for target in TARGETS
         if name not in NARROW or target == "wormhole"]
SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=None)
def reference(name: str):
    return parse_spatial((EXAMPLES / f"{name}.sdf").read_text(), f"{name}.sdf")


@lru_cache(maxsize=None)
def tiled(name: str, target: str):
    """tile's output for a reference program (test_place starts from it too)."""
    return tile(reference(name), SpatialContext(load_target(target)))


def run_tile(text: str, target):
    before = parse_spatial(text)
    return before, tile(before, SpatialContext(target))


def stage(graph, name: str):
    return next(s for s in graph.stages if s.name == name)


def accesses(graph) -> list[str]:
    """The load and store lines of a program's text: where its tiling shows."""
    return [line.strip() for line in to_text(graph).splitlines()
            if line.lstrip().startswith(("load ", "store ", "compute "))]


def points(access) -> int:
    return int(np.prod([len(range(lp.start, lp.stop, lp.step)) for lp in access.loops]))


# -- the reference programs ------------------------------------------------------------------

def test_every_reference_program_is_covered():
    assert PROGRAMS == ["attention", "gemm", "gemv", "mlp", "row_sums", "softmax"]


@pytest.mark.parametrize("name, target", CASES)
def test_snapshot(name, target, snapshot_txt, snapshot_dot):
    out = tiled(name, target)
    assert to_text(out) == snapshot_txt
    assert to_dot(out, title=f"tile: {name} on {target}") == snapshot_dot


@pytest.mark.parametrize("name, target", CASES)
def test_the_oracle_accepts_the_output(name, target):
    assert check_rewrite(reference(name), tiled(name, target), load_target(target)) is None


# -- broken copies of the output -------------------------------------------------------------

def tile_coords(access):
    """Per firing, the tile coordinates an access names (the last loop fastest): the meaning
    of Stiled written out again here, so the test does not take it from the oracle."""
    env_names = [lp.var for lp in access.loops]
    for point in itertools.product(*(range(lp.start, lp.stop, lp.step) for lp in access.loops)):
        env = dict(zip(env_names, point))
        yield tuple(0 if v == "0" else env[v] for v in access.index)


def block(array: np.ndarray, shape, coords) -> np.ndarray:
    return array[tuple(slice(c * t, (c + 1) * t) for c, t in zip(coords, shape))]


def test_a_load_walking_its_tiles_in_the_wrong_order_is_caught_at_the_first_wrong_element():
    # 1024 bytes of SRAM on one site: the GEMM is cut along i, j and k, and the matmul
    # accumulates over its K-blocks.
    target = small_target(1, 1, sram_bytes=1024)
    before, out = run_tile(GEMM, target)
    load_a = stage(out, "ld_a")
    assert [lp.var for lp in load_a.loops] == ["i", "j", "k"], "the case needs an i, j, k nest"
    i, j, k = load_a.loops
    broken = out.replace(stages=tuple(
        s.replace(loops=(j, i, k)) if s.name == "ld_a" else s for s in out.stages))
    inputs = corpus(before)
    found = check_rewrite(before, broken, target, inputs=inputs)

    # What the broken program computes: matmul firing f takes the f-th tile of A in the
    # swapped order and of B in the right one, and sums `over` firings into each tile of C,
    # which store firing n writes.
    A, B = inputs[0]["A"], inputs[0]["B"]
    load_b, mm, store = stage(broken, "ld_b"), stage(broken, "mm"), stage(broken, "st")
    a_tiles = [block(A, load_a.tile, c) for c in tile_coords(stage(broken, "ld_a"))]
    b_tiles = [block(B, load_b.tile, c) for c in tile_coords(load_b)]
    assert mm.ins[0].rate == 1 and mm.over > 1
    wrong = np.zeros_like(A @ B)
    for n, coords in enumerate(tile_coords(store)):
        block(wrong, store.tile, coords)[...] = sum(
            a_tiles[n * mm.over + t] @ b_tiles[n * mm.over + t] for t in range(mm.over))
    right = A @ B
    first = tuple(int(x) for x in np.argwhere(wrong != right)[0])
    assert found == OutputDiffers(0, "C", first, right[first].item(), wrong[first].item())


def test_a_matmul_rate_off_by_one_on_one_input_is_ill_formed():
    # validate's per-stage rule: a matmul takes as many tiles of A as of B in one firing,
    # so the output is refused before it is run.
    target = small_target(1, 1, sram_bytes=1024)
    before, out = run_tile(GEMM, target)
    mm = stage(out, "mm")
    a, b = mm.ins
    assert a.rate == b.rate == 1
    broken = out.replace(stages=tuple(
        s.replace(ins=(a.replace(rate=2), b)) if s.name == "mm" else s for s in out.stages))
    found = check_rewrite(before, broken, target)
    assert found == IllFormed((
        "compute 'mm' (matmul_acc) takes [1, 2] tokens on its inputs; every input of one "
        "firing has the same rate",))


def test_a_matmul_accumulating_over_one_firing_too_many_is_ill_formed():
    # Its K-blocks no longer divide into its sums: the balance equations make it put a sum
    # every `over + 1` tiles of A, and no run is defined.
    target = small_target(1, 1, sram_bytes=1024)
    before, out = run_tile(GEMM, target)
    broken = out.replace(stages=tuple(
        s.replace(over=s.over + 1) if s.name == "mm" else s for s in out.stages))
    found = check_rewrite(before, broken, target)
    assert isinstance(found, IllFormed)
    assert any("ld_a" in problem or "st" in problem for problem in found.problems)


def test_an_accumulating_sum_is_ill_formed():
    # Only a matmul sums over firings.
    target = small_target(2, 2, sram_bytes=160)
    before, out = run_tile(SUMS, target)
    broken = out.replace(stages=tuple(
        s.replace(over=2) if s.name == "total" else s for s in out.stages))
    found = check_rewrite(before, broken, target)
    assert isinstance(found, IllFormed)
    assert ("compute 'total' (sum) accumulates over 2 firings; only a matmul_acc sums its "
            "products across firings") in found.problems


def test_a_matmul_rate_off_by_one_on_both_inputs_is_ill_formed():
    # Three tiles of A and of B per firing: load_a's 64 firings are no multiple of 3, so the
    # balance equations have no solution; no run is defined, and the output must be refused.
    out = tiled("gemm", "wormhole")
    broken = out.replace(stages=tuple(
        s.replace(ins=tuple(p.replace(rate=3) for p in s.ins)) if s.name == "mm" else s
        for s in out.stages))
    found = check_rewrite(reference("gemm"), broken, load_target("wormhole"))
    assert isinstance(found, IllFormed)
    assert any("load_a" in problem for problem in found.problems)


# -- which dimensions are cut ----------------------------------------------------------------

# The row maximum is a computed stream broadcast back over the row: rows stay whole.
SHIFT = """\
spatial shift {
    tensor X: i32[8, 8] input
    tensor Y: i32[8, 8] output
    stream x1: i32
    stream x2: i32
    stream m: i32
    stream y: i32
    load ld X -> x1, x2
    compute top max axis 1 (x1) -> m
    compute minus add(x2, m) -> y
    store st y -> Y
}
"""

# The same reduction broadcast by nothing: its dimension may be cut.
SUMS = """\
spatial sums {
    tensor X: i32[8, 8] input
    tensor S: i32[8, 1] output
    stream a: i32
    stream s: i32
    load ld X -> a
    compute total sum axis 1 (a) -> s
    store st s -> S
}
"""

# The row dimension reduced by two stages.
TWO = """\
spatial two {
    tensor X: i32[8, 8] input
    tensor S: i32[8, 1] output
    tensor M: i32[8, 1] output
    stream a: i32
    stream b: i32
    stream s: i32
    stream m: i32
    load ld X -> a, b
    compute total sum axis 1 (a) -> s
    compute top max axis 1 (b) -> m
    store st_s s -> S
    store st_m m -> M
}
"""

# A loaded row broadcast over the rows of X.
BIAS = """\
spatial bias {
    tensor X: i32[8, 8] input
    tensor B: i32[1, 8] input
    tensor Y: i32[8, 8] output
    stream x: i32
    stream b: i32
    stream y: i32
    load ld_x X -> x
    load ld_b B -> b
    compute plus add(x, b) -> y
    store st y -> Y
}
"""

# One load on both sides of a matmul: X @ X.
SQUARE = """\
spatial square {
    tensor X: i32[8, 8] input
    tensor Y: i32[8, 8] output
    stream a: i32
    stream b: i32
    stream c: i32
    load ld X -> a, b
    compute sq matmul_acc(a, b) -> c
    store st c -> Y
}
"""

# The sum takes two whole-tensor tokens per firing.
RATED = """\
spatial rated {
    tensor X: i32[4, 4] input
    tensor Y: i32[1, 4] output
    stream a: i32
    stream s: i32
    load ld X -> a
    compute total sum axis 0 (a x2) -> s
    store st s -> Y
}
"""

GEMM = """\
spatial mm {
    tensor A: i32[16, 16] input
    tensor B: i32[16, 16] input
    tensor C: i32[16, 16] output
    stream a: i32
    stream b: i32
    stream c: i32
    load ld_a A -> a
    load ld_b B -> b
    compute mm matmul_acc(a, b) -> c
    store st c -> C
}
"""


def checked_tile(text: str, target):
    before, out = run_tile(text, target)
    assert check_rewrite(before, out, target) is None
    return out


@pytest.mark.parametrize("sram", [64 * 1024, 512, 256])
def test_a_reduced_dimension_a_computed_stream_is_broadcast_over_stays_whole(sram):
    out = checked_tile(SHIFT, small_target(2, 2, sram_bytes=sram))
    for name in ("ld", "st"):
        access = stage(out, name)
        assert access.tile[1] == 8 and access.index[1] == "0"
        assert access.index[0] == "i" and access.tile[0] < 8


def test_the_reference_softmax_cuts_only_its_rows():
    for target in TARGETS:
        out = tiled("softmax", target)
        for name in ("load_x", "store_y"):
            access = stage(out, name)
            assert access.tile[1] == 256 and access.index == ("i", "0"), (target, name)


def test_a_reduced_dimension_nothing_broadcasts_is_cut_when_sram_is_tight():
    # i32[2, 8] row tiles no longer fit two deep beside the sums; halving the rows into
    # [2, 4] tiles does, the sum taking both halves in one firing.
    assert accesses(checked_tile(SUMS, small_target(2, 2, sram_bytes=160))) == [
        "load ld X[i, j] tile [2, 4] for i in 0..4, j in 0..2 -> a",
        "compute total sum axis 1 (a x2) -> s",
        "store st s -> S[i, 0] tile [2, 1] for i in 0..4",
    ]


def test_a_dimension_two_stages_reduce_stays_whole():
    # At the SRAM where SUMS cuts its rows, TWO cannot: whole rows of 8 need 256 bytes.
    target = small_target(2, 2, sram_bytes=160)
    with pytest.raises(SpatialReject, match="needs 256 bytes and a site has 160"):
        run_tile(TWO, target)
    out = checked_tile(TWO, small_target(2, 2, sram_bytes=256))
    assert stage(out, "ld").tile == (1, 8) and stage(out, "ld").index == ("i", "0")


def test_a_loaded_stream_broadcast_over_a_cut_dimension_repeats_its_tiles():
    # A 4-byte granule lets small tiles pay: both dimensions are cut, and the row of B is
    # read again for every block of rows of X.
    assert accesses(checked_tile(BIAS, small_target(1, 1, sram_bytes=128, granule=4))) == [
        "load ld_x X[i, j] tile [4, 1] for i in 0..2, j in 0..8 -> x",
        "load ld_b B[0, j] tile [1, 1] for i in 0..2, j in 0..8 -> b",
        "compute plus add(x, b) -> y",
        "store st y -> Y[i, j] tile [4, 1] for i in 0..2, j in 0..8",
    ]


# X @ Yᵀ, Y loaded a row per column of the product and transposed on the mesh.
TRANSPOSED = """\
spatial xyt {
    tensor X: i32[16, 8] input
    tensor Y: i32[16, 8] input
    tensor C: i32[16, 16] output
    stream x: i32
    stream y: i32
    stream yt: i32
    stream c: i32
    load ld_x X -> x
    load ld_y Y -> y
    compute flip transpose(y) -> yt
    compute mm matmul_acc(x, yt) -> c
    store st c -> C
}
"""


def test_a_transpose_of_a_load_repeats_with_its_consumer_as_the_load_does():
    # Y's rows are C's columns: the tiles of Y are read and transposed again for every
    # block of rows of X, so the rows of C are cut too.
    out = checked_tile(TRANSPOSED, small_target(2, 2, sram_bytes=768, granule=4))
    assert accesses(out) == [
        "load ld_x X[i, k] tile [8, 4] for i in 0..2, j in 0..4, k in 0..2 -> x",
        "load ld_y Y[j, k] tile [4, 4] for i in 0..2, j in 0..4, k in 0..2 -> y",
        "compute flip transpose(y) -> yt",
        "compute mm matmul_acc(x, yt) over 2 -> c",
        "store st c -> C[i, j] tile [8, 4] for i in 0..2, j in 0..4",
    ]


def test_a_transpose_of_a_computed_stream_does_not_repeat():
    # Transposing Y + 0 instead: the computed stream is made once per tile of its own, so
    # the rows of C, which it does not carry, stay whole.
    text = TRANSPOSED.replace("stream yt: i32", "stream yt: i32\n    stream z: i32").replace(
        "load ld_y Y -> y", "load ld_y Y -> y\n    compute again scale 1 (y) -> z").replace(
        "transpose(y)", "transpose(z)")
    out = checked_tile(text, small_target(2, 2, sram_bytes=1024, granule=4))
    assert stage(out, "st").index[0] == "0" and stage(out, "st").tile[0] == 16


def test_a_matmul_of_one_load_by_itself_keeps_whole_tiles():
    # A, B and the inner dimension are one dimension here: a tile (t, u) with t != u has no
    # loop to name it.
    assert accesses(checked_tile(SQUARE, small_target(2, 2))) == [
        "load ld X[0, 0] tile [8, 8] -> a, b",
        "compute sq matmul_acc(a, b) -> c",
        "store st c -> Y[0, 0] tile [8, 8]",
    ]


def test_a_graph_with_a_rate_other_than_one_keeps_whole_tiles_with_a_loop_r():
    assert accesses(checked_tile(RATED, small_target(2, 2))) == [
        "load ld X[0, 0] tile [4, 4] for r in 0..2 -> a",
        "compute total sum axis 0 (a x2) -> s",
        "store st s -> Y[0, 0] tile [1, 4]",
    ]


# -- the cost model follows the target -------------------------------------------------------

def test_less_sram_gives_smaller_tiles():
    sizes = []
    for sram in (64 * 1024, 4096, 1024, 256):
        out = checked_tile(GEMM, small_target(1, 1, sram_bytes=sram))
        sizes.append([int(np.prod(stage(out, name).tile)) for name in ("ld_a", "ld_b", "st")])
    for bigger, smaller in zip(sizes, sizes[1:]):
        assert all(s <= b for b, s in zip(bigger, smaller)), sizes
    assert all(s < b for b, s in zip(sizes[0], sizes[-1])), sizes


def test_a_bigger_mesh_gives_more_output_tiles():
    tiles = [points(stage(checked_tile(GEMM, small_target(rows, cols)), "st"))
             for rows, cols in ((1, 1), (1, 2), (2, 2))]
    assert tiles[0] < tiles[1] < tiles[2], tiles


def test_the_grid_depends_on_the_shipped_target():
    grids = {target: tuple(lp.stop for lp in stage(tiled("gemm", target), "store_c").loops)
             for target in TARGETS}
    assert len(set(grids.values())) > 1, grids


# -- nothing fits ----------------------------------------------------------------------------

def test_nothing_fits_names_the_bytes_and_the_largest_stream():
    # The smallest working set cuts K in two: a [1, 8], b [8, 1] and c [1, 1] of i32, each
    # one 32-byte granule, two deep: 192 bytes. 192 fits; 128 does not.
    checked_tile(GEMM, small_target(1, 1, sram_bytes=192))
    with pytest.raises(SpatialReject) as caught:
        run_tile(GEMM, small_target(1, 1, sram_bytes=128))
    e = caught.value
    assert (e.code, e.pass_name, e.stage, e.buffer) == ("E7010", "tile", "ld_a", "a")
    assert e.message == (
        "no tiling of 'mm' fits one site of small-1x1: the smallest of them, every stream's "
        "tiles at least double-buffered, needs 192 bytes and a site has 128 (the largest "
        "stream is 'a', [16, 16] i32)")


def test_whole_tiles_that_do_not_fit_are_refused():
    # a: i32[4, 4], 64 bytes, and s: i32[1, 4] in one 32-byte granule, each two deep.
    with pytest.raises(SpatialReject) as caught:
        run_tile(RATED, small_target(1, 1, sram_bytes=160))
    e = caught.value
    assert (e.code, e.stage, e.buffer) == ("E7010", "ld", "a")
    assert e.message == (
        "'rated' keeps whole-tensor tiles (its rates are not all 1) and its streams, each at "
        "least double-buffered or as deep as its rates ask, need 192 bytes on one site; "
        "small-1x1 has 160 (the largest is 'a', [4, 4] i32)")


# -- random graphs ---------------------------------------------------------------------------

EXTENTS = (2, 4, 8)


@st.composite
def dataflow_graphs(draw):
    """Random Sdataflow text over i32: loads, then up to four of add, mul (of equal shapes
    or a row or column broadcast), scale, sum, max and matmul_acc, each new input a value
    already made or a new load; every value nobody takes is stored. A value taken twice is
    put on two out ports of its stage."""
    tensors: list[str] = []
    values: list[dict] = []
    streams = itertools.count()

    def value(head: str, shape) -> dict:
        values.append({"head": head, "shape": shape, "outs": []})
        return values[-1]

    def load(shape) -> dict:
        k = len(tensors)
        tensors.append(f"    tensor X{k}: i32[{shape[0]}, {shape[1]}] input")
        return value(f"load ld{k} X{k}", shape)

    def take(v: dict) -> str:
        v["outs"].append(f"s{next(streams)}")
        return v["outs"][-1]

    extent = st.sampled_from(EXTENTS)
    load((draw(extent), draw(extent)))
    for n in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["add", "mul", "scale", "sum", "max", "matmul_acc"]))
        x = draw(st.sampled_from(values))
        if op in ("add", "mul"):
            fits = [v for v in values
                    if all(a in (b, 1) for a, b in zip(v["shape"], x["shape"]))]
            y = draw(st.sampled_from([*fits, None])) or load(x["shape"])
            value(f"compute c{n} {op}({take(x)}, {take(y)})", x["shape"])
        elif op == "scale":
            value(f"compute c{n} scale {draw(st.integers(-2, 3))} ({take(x)})", x["shape"])
        elif op in ("sum", "max"):
            axis = draw(st.sampled_from([a for a in (0, 1) if x["shape"][a] > 1] or [0]))
            shape = tuple(1 if a == axis else e for a, e in enumerate(x["shape"]))
            value(f"compute c{n} {op} axis {axis} ({take(x)})", shape)
        else:
            fits = [v for v in values if v["shape"][0] == x["shape"][1]]
            y = draw(st.sampled_from([*fits, None])) or load((x["shape"][1], draw(extent)))
            value(f"compute c{n} matmul_acc({take(x)}, {take(y)})",
                  (x["shape"][0], y["shape"][1]))
    stores = []
    for v in values:
        if not v["outs"]:
            k = len(stores)
            tensors.append(f"    tensor Y{k}: i32[{v['shape'][0]}, {v['shape'][1]}] output")
            stores.append(f"    store st{k} {take(v)} -> Y{k}")
    return "\n".join([
        "spatial random {", *tensors,
        *(f"    stream {s}: i32" for v in values for s in v["outs"]),
        *(f"    {v['head']} -> {', '.join(v['outs'])}" for v in values), *stores, "}", ""])


@st.composite
def small_targets(draw):
    return small_target(draw(st.integers(1, 4)), draw(st.integers(1, 4)),
                        sram_bytes=draw(st.integers(256, 8192)))


def tile_or_refuse(text: str, target):
    """tile's output, checked by the oracle, or None when tile refuses with E7010 (whose
    message must show a need above the target's SRAM)."""
    before = parse_spatial(text)
    try:
        out = tile(before, SpatialContext(target))
    except SpatialReject as e:
        assert e.code == "E7010", e.message
        need = int(re.search(r"needs? ([\d,]+) bytes", e.message)[1].replace(",", ""))
        assert need > target.sram_bytes, e.message
        return None
    assert check_rewrite(before, out, target) is None, to_text(out)
    return out


@SETTINGS
@given(dataflow_graphs(), small_targets())
def test_tile_keeps_the_outputs_of_random_graphs_or_refuses(text, target):
    tile_or_refuse(text, target)
