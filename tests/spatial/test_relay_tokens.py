"""relay-tokens on hand-written Sfused programs: which ends of which buffers get a relay, on
which targets, the names it picks, the refusal of a site that cannot hold the relay buffers,
and that the output means what the input meant (`check_rewrite`)."""

from __future__ import annotations

import pytest

import spatial_reference as reference
from choreographies import MULTICAST
from nano_vx.dump.text import to_text
from nano_vx.oracle.rewrites import check_rewrite
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.program import Program
from nano_vx.spatial.reject import SpatialReject
from nano_vx.spatial.target import load_target, small_target

from nano_vx.spatial_passes.relay_tokens import relay_tokens

# Compute engines kept off semaphores, as on every shipped target; and one that allows them.
KEPT_OFF = small_target(2, 2, semaphore_engines=["reader", "writer"])
ALLOWED = small_target(2, 2)

# MULTICAST before handshakes and schedules: a load on (0, 0) multicasts to the compute
# engines of (0, 1) and (1, 0).
CAST = MULTICAST.split("    handshake x0")[0].replace("Schoreographed", "Sfused") + "}\n"

# A compute stage on (0, 0) feeds one on (0, 1): the stream u crosses sites from compute to
# compute, so both of its ends would touch its semaphore pair.
CHAIN = """\
spatial chain: Sfused {
    tensor X: i32[4, 8] input
    tensor Y: i32[4, 8] output
    stream x: i32
    stream u: i32
    stream y: i32
    load ldX X[i, 0] tile [1, 8] for i in 0..4 -> x
    compute two scale 2 (x) -> u
    compute three scale 3 (u) -> y
    store stY y -> Y[i, 0] tile [1, 8] for i in 0..4
    place ldX (0, 0) reader
    place two (0, 0) compute
    place three (0, 1) compute
    place stY (0, 1) writer
    buffer x (0, 0) depth 2 bytes 64
    buffer u (0, 1) depth 2 bytes 64
    buffer y (0, 1) depth 2 bytes 64
}
"""


def relayed(graph, target):
    return relay_tokens(graph, SpatialContext(target))


def placed(graph) -> dict[str, tuple]:
    return {pl.stage: (pl.site, pl.engine) for pl in graph.places}


def ports(graph) -> dict[str, tuple]:
    p = Program(graph)
    return {s: (p.producer(s).stage, p.consumer(s).stage) for s in p.streams}


def test_each_receiver_of_a_multicast_is_relayed_by_its_sites_reader():
    before = parse_spatial(CAST)
    after = relayed(before, KEPT_OFF)
    assert placed(after) == {
        "ldX": ((0, 0), "reader"),
        "relay_x0_in": ((0, 1), "reader"), "sc": ((0, 1), "compute"),
        "stY0": ((0, 1), "writer"),
        "relay_x1_in": ((1, 0), "reader"), "sm": ((1, 0), "compute"),
        "stY1": ((1, 0), "writer")}
    assert ports(after) == {
        "x0": ("ldX", "relay_x0_in"), "x0_in": ("relay_x0_in", "sc"),
        "x1": ("ldX", "relay_x1_in"), "x1_in": ("relay_x1_in", "sm"),
        "y0": ("sc", "stY0"), "y1": ("sm", "stY1")}
    # The new buffer is as deep as the one it relays, on the same site; the group is as it was.
    assert [(b.stream, b.site, b.depth, b.bytes) for b in after.buffers][:2] == [
        ("x0", (0, 1), 2, 128), ("x0_in", (0, 1), 2, 128)]
    assert after.groups == before.groups
    assert check_rewrite(before, after, KEPT_OFF) is None


def test_the_relay_is_the_identity_one_token_a_firing(snapshot_txt):
    after = relayed(parse_spatial(CAST), KEPT_OFF)
    assert to_text(after) == snapshot_txt


def test_a_target_that_lets_compute_touch_semaphores_gets_no_relay():
    before = parse_spatial(CAST)
    assert relayed(before, ALLOWED) is before


def test_a_buffer_between_two_compute_engines_is_relayed_at_both_ends():
    before = parse_spatial(CHAIN)
    after = relayed(before, KEPT_OFF)
    assert placed(after) == {
        "ldX": ((0, 0), "reader"), "two": ((0, 0), "compute"),
        "relay_u_out": ((0, 0), "writer"), "relay_u_in": ((0, 1), "reader"),
        "three": ((0, 1), "compute"), "stY": ((0, 1), "writer")}
    assert ports(after) == {
        "x": ("ldX", "two"), "u_out": ("two", "relay_u_out"), "u": ("relay_u_out", "relay_u_in"),
        "u_in": ("relay_u_in", "three"), "y": ("three", "stY")}
    # u_out waits on the producer's site, where its consumer (the writer's relay) is.
    assert {b.stream: b.site for b in after.buffers} == {
        "x": (0, 0), "u": (0, 1), "u_out": (0, 0), "u_in": (0, 1), "y": (0, 1)}
    assert check_rewrite(before, after, KEPT_OFF) is None


def test_a_buffer_within_one_site_needs_no_relay():
    one_site = CHAIN.replace("(0, 1)", "(0, 0)")
    before = parse_spatial(one_site)
    assert relayed(before, KEPT_OFF) is before


def test_a_relay_takes_a_name_no_stream_or_stage_has():
    before = parse_spatial(CAST.replace("y0", "x0_in"))
    after = relayed(before, KEPT_OFF)
    assert ports(after)["x0_in_2"] == ("relay_x0_in", "sc")
    assert ports(after)["x0_in"] == ("sc", "stY0")
    assert check_rewrite(before, after, KEPT_OFF) is None


def test_a_site_that_cannot_hold_the_relay_buffers_is_e7011():
    tight = small_target(2, 2, semaphore_engines=["reader", "writer"], sram_bytes=256,
                         granule=32)
    with pytest.raises(SpatialReject) as refused:
        relayed(parse_spatial(CAST), tight)
    assert (refused.value.code, refused.value.message) == (
        "E7011", "site (0, 1) needs 384 bytes of SRAM (in 32-byte granules) with the relay "
                 "buffers 'x0_in', but small-2x2 has 256 bytes per site")


def test_a_site_short_of_buffer_slots_for_the_relays_is_e7011():
    few = small_target(2, 2, semaphore_engines=["reader", "writer"], buffers=2)
    with pytest.raises(SpatialReject) as refused:
        relayed(parse_spatial(CAST), few)
    assert (refused.value.code, refused.value.message) == (
        "E7011", "site (0, 1) needs 3 buffers with the relay buffers 'x0_in', but small-2x2 "
                 "gives each site 2")


@pytest.mark.parametrize("program,target", reference.CASES, ids=reference.IDS)
def test_the_reference_programs(program, target, snapshot_txt):
    """The snapshot of the pass's output, and the oracle's verdict on the program's inputs."""
    before, after = reference.step(program, target, "relay-tokens")
    assert to_text(after) == snapshot_txt
    found = check_rewrite(before, after, load_target(target), inputs=[reference.inputs(program)])
    assert found is None, found.describe()
