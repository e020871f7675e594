"""size-buffers: the depths it chooses (live minimum, raised until the engines finish, then
full rate where SRAM allows), the bytes, its refusals (SRAM, buffer count, a cycle,
inconsistent rates), that its output validates and finishes, and that a zero-depth copy of
its output is caught as a deadlock. A property test over random layered graphs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_firings import DIAMOND, SETTINGS, layered_graphs

import spatial_reference as reference
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.oracle.dataflow import eval_dataflow
from nano_vx.oracle.equivalence import corpus, Deadlocks
from nano_vx.oracle.outcomes import Finished
from nano_vx.spatial.balance import port_tokens, repetitions
from nano_vx.oracle.rewrites import check_rewrite
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial.firings import simulate_engines, Firings
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.program import Program
from nano_vx.spatial.reject import SpatialReject
from nano_vx.spatial.target import load_target, small_target
from nano_vx.spatial_passes.size_buffers import size_buffers

TOKEN = 64  # an i32[4, 4] tile

# Rates 1 -> 2 on a, 2 -> 3 on b, 3 -> 1 on c: live minima 2, 4, 3; six tokens each per run.
CHAIN = """\
spatial chain: Splaced {
    tensor X: i32[4, 4] input
    tensor Y: i32[4, 4] output
    stream a: i32
    stream b: i32
    stream c: i32
    load ld X[0, 0] tile [4, 4] for r in 0..6 -> a
    compute c1 scale 2 (a x2) -> b x2
    compute c2 scale 3 (b x3) -> c x3
    store st c -> Y[0, 0] tile [4, 4] for r in 0..6
    place ld (0, 0) reader
    place c1 (0, 0) compute
    place c2 (0, 0) compute
    place st (0, 0) writer
}
"""


def sized(text: str, target=None):
    target = target or small_target(1, 1)
    before = parse_spatial(text)
    return before, size_buffers(before, SpatialContext(target)), target


def depths(graph) -> dict[str, int]:
    return {b.stream: b.depth for b in graph.buffers}


def test_chain_gets_full_rate_depths_capped_by_the_tokens_carried():
    # max(live minimum, p + c): a 3, b 5, c 4 (all below the 6 tokens a stream carries).
    _, out, _ = sized(CHAIN)
    assert depths(out) == {"a": 3, "b": 5, "c": 4}
    assert {b.stream: b.bytes for b in out.buffers} == {"a": 192, "b": 320, "c": 256}


def test_full_rate_never_exceeds_the_tokens_a_stream_carries():
    _, out, _ = sized(CHAIN.replace("0..6", "0..1").replace("x2", "x1").replace("x3", "x1"))
    assert depths(out) == {"a": 1, "b": 1, "c": 1}


def test_diamond_short_path_is_raised_to_the_long_paths_batch():
    # The live minimum (a 1, b 4, t 4, o 1) is stuck with ld blocked on a; a rises by ld's
    # rate to 4, then every buffer goes to min(p + c, T): b 5, t 5, o 2.
    before, out, target = sized(DIAMOND)
    assert depths(out) == {"a": 4, "b": 5, "t": 5, "o": 2}
    assert all(b.bytes == b.depth * TOKEN and b.site == (0, 0) for b in out.buffers)
    assert check_rewrite(before, out, target) is None
    assert isinstance(simulate_engines(out), Firings)


@pytest.mark.parametrize("sram, want", [
    (1024, {"a": 4, "b": 5, "t": 5, "o": 2}),   # everything fits
    (960, {"a": 4, "b": 4, "t": 5, "o": 2}),    # b (320 bytes at full rate, before t by name)
    (900, {"a": 4, "b": 4, "t": 4, "o": 2}),    # then t gives its raise back
    (832, {"a": 4, "b": 4, "t": 4, "o": 1}),    # down to the deadlock-free depths
])
def test_raises_that_do_not_fit_are_given_back_largest_first(sram, want):
    before, out, target = sized(DIAMOND, small_target(1, 1, sram_bytes=sram))
    assert depths(out) == want
    assert check_rewrite(before, out, target) is None


def test_deadlock_free_depths_that_do_not_fit_are_refused_with_the_site_and_bytes():
    with pytest.raises(SpatialReject) as caught:
        sized(DIAMOND, small_target(1, 1, sram_bytes=800))
    e = caught.value
    assert (e.code, e.pass_name, e.site, e.buffer) == ("E7011", "size-buffers", (0, 0), "a")
    assert e.message == (
        "site (0, 0) needs 832 bytes of SRAM (in 32-byte granules) for its 4 buffers at "
        "their deadlock-free depths, but small-1x1 has 800 bytes per site; the biggest: "
        "'a' (depth 4, 256 bytes), 'b' (depth 4, 256 bytes), 't' (depth 4, 256 bytes)")


def test_granules_round_each_buffer_up():
    # i32[1, 1] tokens: 4 bytes each; the chain's live minima 2, 4, 3 take 8, 16, 12 bytes,
    # each a whole 32-byte granule: 96 bytes, more than 95.
    text = CHAIN.replace("[4, 4]", "[1, 1]")
    with pytest.raises(SpatialReject, match="needs 96 bytes of SRAM .* has 95 bytes"):
        sized(text, small_target(1, 1, sram_bytes=95))


def test_each_site_counts_only_its_own_buffers():
    # j and st on (1, 1): a, t and o live there (576 bytes deadlock-free), b on (0, 0).
    text = DIAMOND.replace("place j (0, 0)", "place j (1, 1)").replace(
        "place st (0, 0)", "place st (1, 1)")
    before, out, target = sized(text, small_target(2, 2, sram_bytes=640))
    assert {b.stream: b.site for b in out.buffers} == {
        "a": (1, 1), "b": (0, 0), "t": (1, 1), "o": (1, 1)}
    assert depths(out) == {"a": 4, "b": 5, "t": 4, "o": 2}
    assert check_rewrite(before, out, target) is None
    with pytest.raises(SpatialReject, match=r"site \(1, 1\) needs 576 bytes") as caught:
        sized(text, small_target(2, 2, sram_bytes=500))
    assert caught.value.site == (1, 1)


def test_too_many_buffers_on_a_site_is_refused():
    with pytest.raises(SpatialReject) as caught:
        sized(DIAMOND, small_target(1, 1, buffers=3))
    e = caught.value
    assert (e.code, e.site, e.buffer) == ("E7011", (0, 0), "a")
    assert e.message.startswith("site (0, 0) needs 4 buffers but small-1x1 gives each site 3")


def test_a_cycle_is_stuck_whatever_the_depths():
    text = DIAMOND.replace("compute j add(a, t) -> o", "compute j add(a, t) -> o, w").replace(
        "compute k scale 2 (b x4) -> t x4", "compute k add(b x4, v x4) -> t x4").replace(
        "    stream o: i32\n", "    stream o: i32\n    stream w: i32\n    stream v: i32\n"
    ).replace("    store st", "    compute back scale 1 (w) -> v\n    store st").replace(
        "    place st", "    place back (0, 0) compute\n    place st")
    with pytest.raises(SpatialReject) as caught:
        sized(text)
    assert caught.value.code == "E7002"
    assert "stuck whatever the buffer depths" in caught.value.message


def test_inconsistent_rates_are_refused():
    with pytest.raises(SpatialReject) as caught:
        sized(CHAIN.replace("for r in 0..6\n", "for r in 0..5\n"))
    assert caught.value.code == "E7003"


def test_a_zero_depth_copy_of_the_output_deadlocks():
    before, out, target = sized(DIAMOND)
    broken = out.replace(buffers=tuple(b.replace(depth=0, bytes=0) for b in out.buffers))
    found = check_rewrite(before, broken, target)
    assert isinstance(found, Deadlocks) and found.side == "after"


@st.composite
def diamonds(draw):
    """A load feeding two chains of scale stages with random batch rates that an add joins:
    the short side usually needs more than its live minimum."""
    n = draw(st.sampled_from([4, 8, 12]))
    rates = st.sampled_from([d for d in (1, 2, 3, 4) if n % d == 0])
    lines, places, last = [], [], {}
    for side in "pq":
        last[side] = f"{side}0"
        for k in range(draw(st.integers(0, 2))):
            r = draw(rates)
            out = f"{side}{k + 1}"
            lines.append(f"    compute {side}c{k} scale 2 ({last[side]} x{r}) -> {out} x{r}")
            places.append(f"{side}c{k}")
            last[side] = out
    r = draw(rates)
    streams = ["p0", "q0", *(x.split()[-2] for x in lines), "o"]
    places += ["ld", "j", "st"]
    sites = [(0, 0), (0, 1), (1, 0), (1, 1)]
    return "\n".join([
        "spatial diamond: Splaced {", "    tensor X: i32[4, 4] input",
        "    tensor Y: i32[4, 4] output", *(f"    stream {s}: i32" for s in streams),
        f"    load ld X[0, 0] tile [4, 4] for r in 0..{n} -> p0, q0", *lines,
        f"    compute j add({last['p']} x{r}, {last['q']} x{r}) -> o x{r}",
        f"    store st o -> Y[0, 0] tile [4, 4] for r in 0..{n}",
        *(f"    place {name} {draw(st.sampled_from(sites))} "
          f"{draw(st.sampled_from(['reader', 'compute', 'writer']))}" for name in places),
        "}", ""])


@SETTINGS
@given(layered_graphs(sites=((0, 0),)) | layered_graphs(
    sites=((0, 0), (0, 1), (1, 0), (1, 1))) | diamonds(), st.booleans())
def test_sized_random_graphs_finish_and_mean_what_they_meant(text, tight):
    before = parse_spatial(text)
    rows = 2 if any(pl.site != (0, 0) for pl in before.places) else 1
    target = small_target(rows, rows, buffers=64)
    out = size_buffers(before, SpatialContext(target))
    if tight:  # SRAM for just the deadlock-free depths: the fit must give raises back
        used = {}
        for b in out.buffers:
            used[b.site] = used.get(b.site, 0) + target.granules(b.bytes) * target.granule
        target = small_target(rows, rows, buffers=64, sram_bytes=max(used.values()) - 1)
        try:
            out = size_buffers(before, SpatialContext(target))
        except SpatialReject as e:
            assert e.code == "E7011"
            return
    p = Program(out)
    carried = port_tokens(p, repetitions(p))
    for b in out.buffers:
        assert p.consumer(b.stream).rate <= b.depth <= carried[b.stream]
        assert b.site == p.places[p.consumer(b.stream).stage][0]
    assert isinstance(eval_dataflow(out, corpus(before, count=1)[0]), Finished)
    assert check_rewrite(before, out, target) is None


# -- the reference programs on the shipped targets ---------------------------------------------


@pytest.mark.parametrize("program, target", reference.CASES, ids=reference.IDS)
def test_the_reference_programs(program, target, snapshot_txt, snapshot_dot):
    """The snapshot of the pass's output, and the oracle's verdict on the program's inputs."""
    before, after = reference.step(program, target, "size-buffers")
    assert to_text(after) == snapshot_txt
    assert to_dot(after, title=f"size-buffers: {program} on {target}") == snapshot_dot
    found = check_rewrite(before, after, load_target(target), inputs=[reference.inputs(program)])
    assert found is None, found.describe()
