"""simulate_engines: exact witnesses and stuck reports on hand-built graphs (a chain, a
diamond whose short path needs depth, depth 0), the errors it raises, and on random layered
graphs: the witness replays with integer counters, and a run resumed after deepening ends
where a fresh run ends."""

from __future__ import annotations

from math import gcd

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nano_vx.spatial.balance import repetitions
from nano_vx.spatial.firings import (Blocked, EngineRun, Firings, SimulationError, Stuck,
                                     WaitsForRoom, WaitsForTokens, simulate_engines,
                                     stage_order)
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.program import Program, ins, outs

# Slow (the whole suite's, not the inner loop's): the engines' simulation on random layered
# graphs.
pytestmark = pytest.mark.slow

SITE = (0, 0)

# ld fires 4 times; c1 takes 2 tokens of `a` per firing.
CHAIN = """\
spatial chain: Splaced {
    tensor X: i32[4, 4] input
    tensor Y: i32[1, 4] output
    stream a: i32
    stream s: i32
    load ld X[0, 0] tile [4, 4] for r in 0..4 -> a
    compute c1 sum axis 0 (a x2) -> s
    store st s -> Y[0, 0] tile [1, 4] for r in 0..2
    place ld (0, 0) reader
    place c1 (0, 0) compute
    place st (0, 0) writer
}
"""

# ld puts one token on a and on b per firing; k takes 4 of b per firing, so j's tokens of
# `a` wait in `a` until k has had four loads: the short path a needs depth 4, not 1.
DIAMOND = """\
spatial diamond: Splaced {
    tensor X: i32[4, 4] input
    tensor Y: i32[4, 4] output
    stream a: i32
    stream b: i32
    stream t: i32
    stream o: i32
    load ld X[0, 0] tile [4, 4] for r in 0..8 -> a, b
    compute k scale 2 (b x4) -> t x4
    compute j add(a, t) -> o
    store st o -> Y[0, 0] tile [4, 4] for r in 0..8
    place ld (0, 0) reader
    place k (0, 0) compute
    place j (0, 0) compute
    place st (0, 0) writer
}
"""

LIVE_MINIMUM = {"a": 1, "b": 4, "t": 4, "o": 1}  # p + c - gcd(p, c) per stream


def test_chain_witness_is_the_fixed_fair_order():
    got = simulate_engines(parse_spatial(CHAIN), {"a": 2, "s": 1})
    # Engines in (site, engine) order: compute, reader, writer; one firing each per round.
    assert got == Firings({(SITE, "compute"): ["c1", "c1"],
                           (SITE, "reader"): ["ld"] * 4,
                           (SITE, "writer"): ["st", "st"]})


def test_chain_with_a_buffer_shallower_than_its_consumer_rate_is_stuck():
    got = simulate_engines(parse_spatial(CHAIN), {"a": 1, "s": 1})
    assert got == Stuck((Blocked(SITE, "compute", "c1", WaitsForTokens("a", 1, 2)),
                         Blocked(SITE, "reader", "ld", WaitsForRoom("a", 1, 1, 1)),
                         Blocked(SITE, "writer", "st", WaitsForTokens("s", 0, 1))), fired=1)
    assert got.full() == [WaitsForRoom("a", 1, 1, 1)]
    assert "reader[0, 0] waits at 'ld' for room on output 'a'" in got.describe()


def test_diamond_short_path_needs_the_long_paths_batch():
    g = parse_spatial(DIAMOND)
    stuck = simulate_engines(g, LIVE_MINIMUM)
    assert isinstance(stuck, Stuck)
    assert stuck.full() == [WaitsForRoom("a", 1, 1, 1)]
    assert isinstance(simulate_engines(g, {**LIVE_MINIMUM, "a": 3}), Stuck)
    got = simulate_engines(g, {**LIVE_MINIMUM, "a": 4})
    # k and j share the compute engine: one firing per round, k first whenever it can.
    assert got.order[SITE, "compute"] == ["k", "j", "j", "j", "j"] * 2
    assert got.order[SITE, "reader"] == ["ld"] * 8


def test_depth_zero_stalls_every_producer_before_its_first_firing():
    got = simulate_engines(parse_spatial(DIAMOND), dict.fromkeys("abto", 0))
    assert got.fired == 0
    assert [b.stage for b in got.blocked] == ["k", "ld", "st"]
    assert got.blocked[1].why == WaitsForRoom("a", 0, 1, 0)


def test_depths_come_from_the_buffer_table_from_ssized_on():
    sized = DIAMOND.replace("Splaced", "Ssized").replace("}\n", "".join(
        f"    buffer {s} (0, 0) depth {d} bytes {d * 64}\n"
        for s, d in {**LIVE_MINIMUM, "a": 4}.items()) + "}\n")
    assert isinstance(simulate_engines(parse_spatial(sized)), Firings)


def test_missing_depths_and_places_are_named():
    g = parse_spatial(DIAMOND)
    with pytest.raises(SimulationError, match="stream 'a' has no buffer table"):
        simulate_engines(g)
    with pytest.raises(SimulationError, match="no depth given for stream 'o'"):
        simulate_engines(g, {"a": 4, "b": 4, "t": 4})
    unplaced = parse_spatial(DIAMOND.replace("    place j (0, 0) compute\n", ""))
    with pytest.raises(SimulationError, match=r"stage\(s\) j have no place"):
        simulate_engines(unplaced, LIVE_MINIMUM)
    run = EngineRun(g, LIVE_MINIMUM)
    with pytest.raises(SimulationError, match="deepen it, not make it 0"):
        run.deepen("b", 0)


def test_stage_order_puts_producers_first_and_keeps_graph_order_otherwise():
    text = DIAMOND.replace("    compute k scale 2 (b x4) -> t x4\n", "").replace(
        "    store st o", "    compute k scale 2 (b x4) -> t x4\n    store st o")
    assert [s.name for s in parse_spatial(text).stages] == ["ld", "j", "k", "st"]
    assert stage_order(Program(parse_spatial(text))) == ["ld", "k", "j", "st"]


# -- random layered graphs ------------------------------------------------------------


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, min(n, 4) + 1) if n % d == 0]


@st.composite
def layered_graphs(draw, sites=((0, 0),)):
    """Splaced text of a random layered DAG: loads firing n times (whole tensor per tile,
    one loop, index 0), layers of add / scale / sum stages with consistent random rates, a
    store for every stream left open; every stage on a random site and engine."""
    n = draw(st.sampled_from([2, 4, 6, 8, 12]))
    tensors, streams, stages = [], [], []
    open_: list[tuple[str, int, tuple]] = []  # stream, tokens per run, token shape

    def new_stream(tokens, shape):
        name = f"s{len(streams)}"
        streams.append(name)
        open_.append((name, tokens, shape))
        return name

    for k in range(draw(st.integers(1, 2))):
        tensors.append(f"    tensor X{k}: i32[2, 2] input")
        outs_ = [new_stream(n, (2, 2)) for _ in range(draw(st.integers(1, 2)))]
        stages.append((f"ld{k}", f"load ld{k} X{k}[0, 0] tile [2, 2] for r in 0..{n} -> "
                                 f"{', '.join(outs_)}"))
    for layer in range(draw(st.integers(1, 4))):
        ready = list(open_)
        for w in range(draw(st.integers(1, 2))):
            if not ready:
                break
            name = f"c{layer}_{w}"
            op = draw(st.sampled_from(["add", "add", "scale", "sum"]))
            first = draw(st.sampled_from(ready))
            pair = [s for s in ready if s[1] == first[1] and s is not first]
            taken = [first, draw(st.sampled_from(pair))] if op == "add" and pair else [first]
            op = op if op != "add" or len(taken) == 2 else "scale"
            for s in taken:
                ready.remove(s)
                open_.remove(s)
            tokens = first[1]
            rate = draw(st.sampled_from(_divisors(tokens)))
            shape = (2, 2) if any(s[2] == (2, 2) for s in taken) else (1, 2)
            out_rate, out_tokens = (1, tokens // rate) if op == "sum" else (rate, tokens)
            out_shape = (1, 2) if op == "sum" else shape
            outs_ = [new_stream(out_tokens, out_shape) for _ in range(draw(st.integers(1, 2)))]
            head = {"add": "add", "scale": "scale 2", "sum": "sum axis 0"}[op]
            stages.append((name, f"compute {name} {head}("
                                 f"{', '.join(_port(s[0], rate) for s in taken)}) -> "
                                 f"{', '.join(_port(s, out_rate) for s in outs_)}"))
    for k, (stream, tokens, shape) in enumerate(list(open_)):
        tensors.append(f"    tensor Y{k}: i32[{shape[0]}, {shape[1]}] output")
        stages.append((f"st{k}", f"store st{k} {stream} -> Y{k}[0, 0] tile "
                                 f"[{shape[0]}, {shape[1]}] for r in 0..{tokens}"))
    places = []
    for name, _ in stages:
        site = draw(st.sampled_from(sites))
        engine = draw(st.sampled_from(["reader", "compute", "writer"]))
        places.append(f"    place {name} ({site[0]}, {site[1]}) {engine}")
    return "\n".join(["spatial random: Splaced {", *tensors,
                      *(f"    stream {s}: i32" for s in streams),
                      *(f"    {line}" for _, line in stages), *places, "}", ""])


def _port(stream: str, rate: int) -> str:
    return stream if rate == 1 else f"{stream} x{rate}"


def live_minimum(g) -> dict[str, int]:
    p = Program(g)
    return {s: (a := p.producer(s).rate) + (b := p.consumer(s).rate) - gcd(a, b)
            for s in p.streams}


def _replays(g, order: dict, depths: dict[str, int]) -> bool:
    """Whether the engines' sequences run to their ends with counters only: any engine
    whose next firing is enabled fires it (an enabled firing stays enabled, so greedy
    decides)."""
    p = Program(g)
    tokens = dict.fromkeys(p.streams, 0)
    at = dict.fromkeys(order, 0)
    moved = True
    while moved:
        moved = False
        for e, seq in order.items():
            if at[e] == len(seq):
                continue
            stage = p.stages[seq[at[e]]]
            if all(tokens[q.stream] >= q.rate for q in ins(stage)) and all(
                    tokens[q.stream] + q.rate <= depths[q.stream] for q in outs(stage)):
                for q in ins(stage):
                    tokens[q.stream] -= q.rate
                for q in outs(stage):
                    tokens[q.stream] += q.rate
                at[e] += 1
                moved = True
    return all(at[e] == len(seq) for e, seq in order.items())


SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(layered_graphs(sites=((0, 0), (0, 1), (1, 0), (1, 1))))
def test_a_witness_replays_and_fires_every_stage_its_count(text):
    g = parse_spatial(text)
    depths = {s: 2 * (d + 4) for s, d in live_minimum(g).items()}
    got = simulate_engines(g, depths)
    assert isinstance(got, Firings)
    p = Program(g)
    for (site, engine), seq in got.order.items():
        assert all(p.places[name] == (site, engine) for name in seq)
    counted = {name: sum(seq.count(name) for seq in got.order.values()) for name in p.stages}
    assert counted == repetitions(p)
    assert _replays(g, got.order, depths)


@SETTINGS
@given(layered_graphs(), st.randoms(use_true_random=False))
def test_a_resumed_run_ends_where_a_fresh_run_ends(text, rng):
    g = parse_spatial(text)
    depths = {s: rng.choice([0, d]) for s, d in live_minimum(g).items()}
    run = EngineRun(g, depths)
    while isinstance(got := run.run(), Stuck):
        assert got == simulate_engines(g, depths)
        full = got.full()
        for w in rng.sample(full, rng.randint(1, len(full))):
            depths[w.stream] += w.rate
            run.deepen(w.stream, depths[w.stream])
    assert isinstance(simulate_engines(g, depths), Firings)
