"""fuse-readers on hand-written Ssized programs: which loads become one load and a group, on
which targets, and that the output means what the input meant (`check_rewrite`)."""

from __future__ import annotations

import pytest

import spatial_reference as reference
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.oracle.equivalence import OutputDiffers
from nano_vx.spatial import cost
from nano_vx.oracle.rewrites import check_rewrite
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.program import Program
from nano_vx.spatial.target import load_target, small_target
from nano_vx.spatial_passes.fuse_readers import fuse_readers

A_TILE_BYTES = 16 * 16 * 4  # one i32 tile [16, 16] of A

# In these programs two sites hold loads, so each has half the DRAM bandwidth. DRAM at 8
# B/cycle against links at 32: fetching the A tile twice costs max(2 x 1024 / 4, 1024 / 32) +
# 100 = 612 cycles a tile and loses to one fetch and a one-hop multicast, max(1024 / 4,
# 1024 / 32) + 100 + 2 x 2 = 360.
SLOW_DRAM = small_target(2, 2, dram_bytes_per_cycle=8)
SLOW_DRAM_NO_MULTICAST = small_target(2, 2, dram_bytes_per_cycle=8, multicast=False)


def row(ld_a1: str = "load ldA1 A[i, k] tile [16, 16] for i in 0..2, j in 1..2, k in 0..4",
        site1: str = "(0, 1)", ld_a1_place: str = "(0, 1) reader") -> str:
    """Two column blocks of C = A @ B, one per site: both sites read the same A tiles (their
    loops differ only in j, which A's index does not use) and different B tiles."""
    return f"""\
spatial row: Ssized {{
    tensor A: i32[32, 64] input
    tensor A2: i32[32, 64] input
    tensor B: i32[64, 32] input
    tensor C: i32[32, 32] output
    stream a0: i32
    stream b0: i32
    stream c0: i32
    stream a1: i32
    stream b1: i32
    stream c1: i32
    load ldA0 A[i, k] tile [16, 16] for i in 0..2, j in 0..1, k in 0..4 -> a0
    load ldB0 B[k, j] tile [16, 16] for i in 0..2, j in 0..1, k in 0..4 -> b0
    compute mm0 matmul_acc(a0 x4, b0 x4) -> c0
    store stC0 c0 -> C[i, j] tile [16, 16] for i in 0..2, j in 0..1
    {ld_a1} -> a1
    load ldB1 B[k, j] tile [16, 16] for i in 0..2, j in 1..2, k in 0..4 -> b1
    compute mm1 matmul_acc(a1 x4, b1 x4) -> c1
    store stC1 c1 -> C[i, j] tile [16, 16] for i in 0..2, j in 1..2
    place ldA0 (0, 0) reader
    place ldB0 (0, 0) reader
    place mm0 (0, 0) compute
    place stC0 (0, 0) writer
    place ldA1 {ld_a1_place}
    place ldB1 {site1} reader
    place mm1 {site1} compute
    place stC1 {site1} writer
    buffer a0 (0, 0) depth 8 bytes 8192
    buffer b0 (0, 0) depth 8 bytes 8192
    buffer c0 (0, 0) depth 2 bytes 2048
    buffer a1 {site1} depth 8 bytes 8192
    buffer b1 {site1} depth 8 bytes 8192
    buffer c1 {site1} depth 2 bytes 2048
}}
"""


def fused(graph, target):
    return fuse_readers(graph, SpatialContext(target))


def loads(graph) -> dict[str, tuple[str, ...]]:
    return {st.name: tuple(port.stream for port in st.outs)
            for st in graph.stages if st._prod == "Load"}


def groups(graph) -> list[tuple]:
    return [(g.name, g.stage, g.streams) for g in graph.groups]


def test_two_sites_reading_the_same_a_tiles_share_one_load_and_a_multicast():
    before = parse_spatial(row())
    after = fused(before, SLOW_DRAM)
    assert loads(after) == {"ldA0": ("a0", "a1"), "ldB0": ("b0",), "ldB1": ("b1",)}
    assert groups(after) == [("ldA0_group", "ldA0", ("a0", "a1"))]
    assert [pl.stage for pl in after.places if pl.stage.startswith("ld")] == \
        ["ldA0", "ldB0", "ldB1"]
    assert Program(after).places["ldA0"] == ((0, 0), "reader")
    assert after.buffers == before.buffers
    assert check_rewrite(before, after, SLOW_DRAM) is None


def test_without_multicast_every_reader_keeps_its_own_copy():
    before = parse_spatial(row())
    after = fused(before, SLOW_DRAM_NO_MULTICAST)
    assert after.stages == before.stages
    assert after.places == before.places
    assert after.groups == ()
    assert check_rewrite(before, after, SLOW_DRAM_NO_MULTICAST) is None


# DRAM at 1024 B/cycle against links at 4: the link's serialisation of the tile, 1024 / 4 =
# 256 cycles, bounds both ways; two fetches cost max(2 x 1024 / 512, 256) + 100 = 356 cycles,
# one fetch and a one-hop multicast max(1024 / 512, 256) + 100 + 2 x 2 = 360. Multicasting is
# possible but slower, so the loads stay apart.
FAST_DRAM_SLOW_NETWORK = small_target(2, 2, dram_bytes_per_cycle=1024, link_bytes_per_cycle=4)
FAST_DRAM_SLOW_NETWORK_NO_MULTICAST = small_target(
    2, 2, dram_bytes_per_cycle=1024, link_bytes_per_cycle=4, multicast=False)


def test_the_cost_model_decides_when_the_target_can_multicast():
    t = FAST_DRAM_SLOW_NETWORK
    assert t.multicast
    assert cost.read_cycles(t, A_TILE_BYTES, copies=2, sharing=2) == 356
    assert cost.multicast_cycles(t, A_TILE_BYTES, (0, 0), [(0, 0), (0, 1)], sharing=2) == 360
    before = parse_spatial(row())
    after = fused(before, t)
    assert loads(after) == loads(before)
    assert after.groups == ()


# With 70 cycles a hop (DRAM 8 B/cycle shared by two sites, links 32) a multicast saves
# 2 x 1024 / 4 - 1024 / 4 = 256 cycles of DRAM a tile and pays 2 x 70 per hop to the farthest
# receiver (there and the credit back): one hop pays (140 < 256), two do not (280 > 256).
@pytest.mark.parametrize("site1, fuses", [("(0, 1)", True), ("(1, 1)", False)])
def test_the_receivers_site_is_its_buffers_not_its_loads(site1, fuses):
    # Both A loads sit on (0, 0); only the buffer of a1 (with mm1) moves away.
    t = small_target(2, 2, dram_bytes_per_cycle=8, hop_cycles=70)
    before = parse_spatial(row(site1=site1, ld_a1_place="(0, 0) reader"))
    after = fused(before, t)
    assert ("ldA1" not in loads(after)) is fuses
    assert check_rewrite(before, after, t) is None


# A multicast must beat the copies, not tie. Two copies cost 612 cycles a tile; one fetch and
# a one-hop multicast 256 + 100 + 2 x hop_cycles: 610 with 127 cycles a hop, 612 (a tie) with
# 128.
@pytest.mark.parametrize("hop_cycles, fuses", [(127, True), (128, False)])
def test_a_multicast_that_only_ties_with_the_copies_is_not_made(hop_cycles, fuses):
    t = small_target(2, 2, dram_bytes_per_cycle=8, hop_cycles=hop_cycles)
    before = parse_spatial(row())
    assert ("ldA1" not in loads(fused(before, t))) is fuses


@pytest.mark.parametrize("ld_a1, place", [
    # the A tiles in another order: k outermost
    ("load ldA1 A[i, k] tile [16, 16] for j in 1..2, k in 0..4, i in 0..2", "(0, 1) reader"),
    # the same coordinates of a tensor with the same shape
    ("load ldA1 A2[i, k] tile [16, 16] for i in 0..2, j in 1..2, k in 0..4", "(0, 1) reader"),
    # the same coordinates in tiles of another shape: other elements
    ("load ldA1 A[i, k] tile [8, 16] for i in 0..2, j in 1..2, k in 0..4", "(0, 1) reader"),
    # the same tiles, but not read by a reader engine
    ("load ldA1 A[i, k] tile [16, 16] for i in 0..2, j in 1..2, k in 0..4", "(0, 1) compute"),
])
def test_loads_that_are_not_readers_of_one_tile_stay_apart(ld_a1, place):
    before = parse_spatial(row(ld_a1=ld_a1, ld_a1_place=place))
    after = fused(before, SLOW_DRAM)
    assert after.stages == before.stages
    assert after.groups == ()


FAN_OUT = """\
spatial fan: Ssized {
    tensor X: i32[8, 8] input
    tensor Z: i32[8, 8] output
    stream x0: i32
    stream x1: i32
    stream y: i32
    stream z: i32
    load ldX X[i, 0] tile [4, 8] for i in 0..2 -> x0, x1
    compute sc scale 3 (x0) -> y
    compute ad add(y, x1) -> z
    store stZ z -> Z[i, 0] tile [4, 8] for i in 0..2
    place ldX (0, 0) reader
    place sc (0, 0) compute
    place ad (0, 0) compute
    place stZ (0, 0) writer
    buffer x0 (0, 0) depth 2 bytes 256
    buffer x1 (0, 0) depth 2 bytes 256
    buffer y (0, 0) depth 2 bytes 256
    buffer z (0, 0) depth 2 bytes 256
}
"""


def test_one_read_feeding_several_consumers_gets_a_group_on_any_target():
    before = parse_spatial(FAN_OUT)
    for t in (SLOW_DRAM_NO_MULTICAST, FAST_DRAM_SLOW_NETWORK):
        after = fused(before, t)
        assert after.stages == before.stages
        assert groups(after) == [("ldX_group", "ldX", ("x0", "x1"))]
        assert check_rewrite(before, after, t) is None


@pytest.mark.parametrize("semaphore_engines, buffers, grouped", [
    (None, 4, True),  # compute may wait on the group's semaphores: no relay
    (["reader", "writer"], 6, True),  # two relay buffers beside x0 and x1: six in all
    (["reader", "writer"], 5, False),  # no room for them: each consumer read its own copy
])
def test_a_group_whose_relays_a_site_cannot_hold_is_given_up(semaphore_engines, buffers,
                                                              grouped):
    extra = {} if semaphore_engines is None else {"semaphore_engines": semaphore_engines}
    t = small_target(1, 1, buffers=buffers, **extra)
    before = parse_spatial(FAN_OUT)
    after = fused(before, t)
    assert groups(after) == ([("ldX_group", "ldX", ("x0", "x1"))] if grouped else [])
    assert check_rewrite(before, after, t) is None


def test_two_reads_of_one_tile_for_their_own_site_are_one_read_on_any_target():
    # Two loads of X for consumers on their own site: one read serves both, with no network.
    before = parse_spatial(FAN_OUT.replace(
        "load ldX X[i, 0] tile [4, 8] for i in 0..2 -> x0, x1",
        "load ldX X[i, 0] tile [4, 8] for i in 0..2 -> x0\n"
        "    load ldX1 X[i, 0] tile [4, 8] for i in 0..2 -> x1").replace(
        "place sc", "place ldX1 (0, 0) reader\n    place sc"))
    after = fused(before, FAST_DRAM_SLOW_NETWORK_NO_MULTICAST)
    assert loads(after) == {"ldX": ("x0", "x1")}
    assert groups(after) == [("ldX_group", "ldX", ("x0", "x1"))]
    assert check_rewrite(before, after, FAST_DRAM_SLOW_NETWORK_NO_MULTICAST) is None


def test_a_receiver_left_out_of_the_multicast_computes_the_wrong_tiles():
    """The broken fusion forgets receiver a1: ldA0 puts only on a0 and the group lists only
    a0. Left with no producer at all, a1 makes the output ill-formed (a stream with no
    producer), which validate refuses before anything runs; so a1 keeps a producer by another
    means, the reader left on its site, ldB1. It cannot starve mm1 instead: the graph is
    acyclic, its rates balance and every buffer holds a firing of its consumer, so every
    stage gets its tokens and the run finishes. What breaks is the data: mm1 multiplies B
    tiles by B tiles, and the second column block of C differs."""
    before = parse_spatial(row())
    after = fused(before, SLOW_DRAM)
    broken = after.replace(
        stages=tuple(_broken_stage(st) for st in after.stages),
        groups=(after.groups[0].replace(streams=("a0",)),))
    found = check_rewrite(before, broken, SLOW_DRAM)
    assert isinstance(found, OutputDiffers)
    assert found.tensor == "C" and found.index[1] >= 16


def _broken_stage(st):
    if st.name == "ldA0":
        return st.replace(outs=st.outs[:1])
    if st.name == "ldB1":
        return st.replace(outs=st.outs + (st.outs[0].replace(stream="a1"),))
    return st


@pytest.mark.parametrize("semaphores, fuses", [(3, True), (2, False)])
def test_a_multicast_is_given_up_where_its_semaphores_do_not_fit(semaphores, fuses):
    """The fused A load on (0, 0) feeds a0 there and a1 on (0, 1): two credits and a0's data
    semaphore sit on (0, 0), three where the target may give two."""
    t = small_target(2, 2, dram_bytes_per_cycle=8, semaphores=semaphores)
    before = parse_spatial(row())
    after = fused(before, t)
    assert ("ldA1" not in loads(after)) is fuses
    assert check_rewrite(before, after, t) is None


# -- the reference programs on the shipped targets ---------------------------------------------


@pytest.mark.parametrize("program, target", reference.CASES, ids=reference.IDS)
def test_the_reference_programs(program, target, snapshot_txt, snapshot_dot):
    """The snapshot of the pass's output, and the oracle's verdict on the program's inputs."""
    before, after = reference.step(program, target, "fuse-readers")
    assert to_text(after) == snapshot_txt
    assert to_dot(after, title=f"fuse-readers: {program} on {target}") == snapshot_dot
    found = check_rewrite(before, after, load_target(target), inputs=[reference.inputs(program)])
    assert found is None, found.describe()


def four_readers() -> str:
    """Four sites of one row read the same tile of A, each storing it to its own B."""
    lines = ["spatial four: Ssized {", "    tensor A: i32[4, 4] input"]
    lines += [f"    tensor B{k}: i32[4, 4] output" for k in range(4)]
    lines += [f"    stream a{k}: i32" for k in range(4)]
    lines += [f"    load ld{k} A[0, 0] tile [4, 4] -> a{k}" for k in range(4)]
    lines += [f"    store st{k} a{k} -> B{k}[0, 0] tile [4, 4]" for k in range(4)]
    lines += [f"    place ld{k} (0, {k}) reader" for k in range(4)]
    lines += [f"    place st{k} (0, {k}) writer" for k in range(4)]
    lines += [f"    buffer a{k} (0, {k}) depth 1 bytes 64" for k in range(4)]
    return "\n".join(lines + ["}", ""])


@pytest.mark.parametrize("semaphores, groups", [
    (5, [["a0", "a1", "a2", "a3"]]),  # 4 credits and a0's data on (0, 0)
    (4, [["a0", "a1"], ["a2", "a3"]]),  # halves: 2 credits and one data on (0, 0) and (0, 2)
    (2, []),  # no group fits: every load reads its own copy
])
def test_a_group_whose_semaphores_do_not_fit_is_split_until_it_fits(semaphores, groups):
    t = small_target(1, 4, dram_bytes_per_cycle=1, semaphores=semaphores)
    before = parse_spatial(four_readers())
    after = fused(before, t)
    assert [list(g.streams) for g in after.groups] == groups
    assert check_rewrite(before, after, t) is None


def test_receivers_that_do_not_fill_a_rectangle_get_no_multicast():
    """Three of the four readers, on (0, 0), (0, 1) and (1, 1): a multicast to their bounding
    rectangle would reach (1, 0) too."""
    text = four_readers()
    for k, site in enumerate(["(0, 0)", "(0, 1)", "(1, 1)", "(1, 0)"]):
        text = text.replace(f"place ld{k} (0, {k}) reader", f"place ld{k} {site} reader")
        text = text.replace(f"place st{k} (0, {k}) writer", f"place st{k} {site} writer")
        text = text.replace(f"buffer a{k} (0, {k})", f"buffer a{k} {site}")
    t = small_target(2, 2, dram_bytes_per_cycle=1)
    three = parse_spatial(text)
    assert [list(g.streams) for g in fused(three, t).groups] == [["a0", "a1", "a2", "a3"]]
    drop = three.replace(stages=tuple(s for s in three.stages if s.name not in ("ld3", "st3")),
                         streams=tuple(s for s in three.streams if s.name != "a3"),
                         places=tuple(p for p in three.places if p.stage not in ("ld3", "st3")),
                         buffers=tuple(b for b in three.buffers if b.stream != "a3"),
                         tensors=tuple(x for x in three.tensors if x.name != "B3"))
    assert fused(drop, t).groups == ()
