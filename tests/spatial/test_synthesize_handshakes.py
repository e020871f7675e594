"""synthesize-handshakes on hand-written Sfused programs: the handshake of each buffer, the
semaphores and their sites and initial values, the refusal of a site short of semaphores, and
that the output means what the input meant (`check_rewrite`)."""

from __future__ import annotations

import pytest

import spatial_reference as reference
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.oracle.equivalence import Overflows
from nano_vx.oracle.rewrites import check_rewrite
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.reject import SpatialReject
from nano_vx.spatial.target import load_target, small_target
from nano_vx.spatial_passes.synthesize_handshakes import synthesize_handshakes

NOC = small_target(1, 2)
FABRIC = small_target(1, 2, links="fabric")

# Z[r] = sum of four rows of X + Y[r], on site (0, 1); only Y is read on (0, 0), so y is the
# one stream across sites. ad takes a y token only once sm has summed four x tokens: a
# producer of y that is given more credits than y has slots puts a second token into it.
LAG = """\
spatial lag: Sfused {
    tensor X: i32[8, 4] input
    tensor Y: i32[2, 4] input
    tensor Z: i32[2, 4] output
    stream y: i32
    stream x: i32
    stream s: i32
    stream z: i32
    load ldY Y[r, 0] tile [1, 4] for r in 0..2 -> y
    load ldX X[i, 0] tile [1, 4] for i in 0..8 -> x
    compute sm sum axis 0 (x x4) -> s
    compute ad add(s, y) -> z
    store stZ z -> Z[r, 0] tile [1, 4] for r in 0..2
    place ldY (0, 0) reader
    place ldX (0, 1) reader
    place sm (0, 1) compute
    place ad (0, 1) compute
    place stZ (0, 1) writer
    buffer y (0, 1) depth 1 bytes 16
    buffer x (0, 1) depth 4 bytes 64
    buffer s (0, 1) depth 1 bytes 16
    buffer z (0, 1) depth 1 bytes 16
}
"""

# One read of X multicast to a consumer on (0, 0) and one on (0, 1).
CAST = """\
spatial cast: Sfused {
    tensor X: i32[8, 8] input
    tensor Z0: i32[8, 8] output
    tensor Z1: i32[8, 8] output
    stream x0: i32
    stream x1: i32
    stream z0: i32
    stream z1: i32
    load ldX X[i, 0] tile [4, 8] for i in 0..2 -> x0, x1
    compute sc0 scale 2 (x0) -> z0
    compute sc1 scale 3 (x1) -> z1
    store st0 z0 -> Z0[i, 0] tile [4, 8] for i in 0..2
    store st1 z1 -> Z1[i, 0] tile [4, 8] for i in 0..2
    place ldX (0, 0) reader
    place sc0 (0, 0) compute
    place st0 (0, 0) writer
    place sc1 (0, 1) compute
    place st1 (0, 1) writer
    buffer x0 (0, 0) depth 2 bytes 256
    buffer x1 (0, 1) depth 3 bytes 384
    buffer z0 (0, 0) depth 1 bytes 128
    buffer z1 (0, 1) depth 1 bytes 128
    group ldX_group ldX -> x0, x1
}
"""


def handshaked(graph, target):
    return synthesize_handshakes(graph, SpatialContext(target))


def kinds(graph) -> dict[str, tuple]:
    return {h.buffer: (h.kind, h.credit, h.data) for h in graph.handshakes}


def semaphores(graph) -> dict[str, tuple]:
    return {s.name: (s.site, s.initial) for s in graph.semaphores}


def test_one_site_is_a_fifo_and_across_sites_a_semaphore_pair():
    before = parse_spatial(LAG)
    after = handshaked(before, NOC)
    assert kinds(after) == {
        "y": ("semaphore_pair", "y_credit", "y_data"),
        "x": ("fifo", None, None), "s": ("fifo", None, None), "z": ("fifo", None, None)}
    # The credit starts at y's depth on the producer's site, the data at 0 on the consumer's.
    assert semaphores(after) == {"y_credit": ((0, 0), 1), "y_data": ((0, 1), 0)}
    assert check_rewrite(before, after, NOC) is None


def test_the_receivers_of_a_multicast_are_barriers():
    before = parse_spatial(CAST)
    after = handshaked(before, NOC)
    assert kinds(after) == {
        "x0": ("barrier", "x0_credit", "x0_data"), "x1": ("barrier", "x1_credit", "x1_data"),
        "z0": ("fifo", None, None), "z1": ("fifo", None, None)}
    # Every credit waits on the load's site; each data semaphore is on its receiver's site.
    assert semaphores(after) == {
        "x0_credit": ((0, 0), 2), "x0_data": ((0, 0), 0),
        "x1_credit": ((0, 0), 3), "x1_data": ((0, 1), 0)}
    assert check_rewrite(before, after, NOC) is None


def test_a_fabric_streams_across_sites_with_valid_ready_and_still_multicasts_by_barrier():
    lag = handshaked(parse_spatial(LAG), FABRIC)
    assert kinds(lag)["y"] == ("valid_ready", None, None)
    assert lag.semaphores == ()
    assert check_rewrite(parse_spatial(LAG), lag, FABRIC) is None
    cast = handshaked(parse_spatial(CAST), FABRIC)
    assert {b: k[0] for b, k in kinds(cast).items()} == {
        "x0": "barrier", "x1": "barrier", "z0": "fifo", "z1": "fifo"}
    assert check_rewrite(parse_spatial(CAST), cast, FABRIC) is None


def test_a_site_gets_no_more_semaphores_than_the_target_gives():
    # Site (0, 0) holds both credits and x0's data semaphore: 3; site (0, 1) holds 1.
    cast = parse_spatial(CAST)
    assert len(handshaked(cast, small_target(1, 2, semaphores=3)).semaphores) == 4
    with pytest.raises(SpatialReject) as caught:
        handshaked(cast, small_target(1, 2, semaphores=2))
    error = caught.value
    assert (error.code, error.pass_name, error.site) == ("E7012", "synthesize-handshakes",
                                                         (0, 0))
    assert "site (0, 0) needs 3 semaphores" in error.message
    assert "gives each site 2" in error.message


def test_a_credit_beyond_the_depth_overflows_the_buffer():
    before = parse_spatial(LAG)
    after = handshaked(before, NOC)
    broken = after.replace(semaphores=tuple(
        s.replace(initial=s.initial + 1) if s.name == "y_credit" else s
        for s in after.semaphores))
    found = check_rewrite(before, broken, NOC)
    assert isinstance(found, Overflows)
    assert found.side == "after"
    assert (found.outcome.buffer, found.outcome.site) == ("y", (0, 1))


# -- the reference programs on the shipped targets ---------------------------------------------


@pytest.mark.parametrize("program, target", reference.CASES, ids=reference.IDS)
def test_the_reference_programs(program, target, snapshot_txt, snapshot_dot):
    """The snapshot of the pass's output, and the oracle's verdict on the program's inputs."""
    before, after = reference.step(program, target, "synthesize-handshakes")
    assert to_text(after) == snapshot_txt
    assert to_dot(after, title=f"synthesize-handshakes: {program} on {target}") == snapshot_dot
    found = check_rewrite(before, after, load_target(target), inputs=[reference.inputs(program)])
    assert found is None, found.describe()
