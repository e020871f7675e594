"""The clock (nano_vx/spatial/clock.py): the maximum cycle ratio by Howard's policy iteration
on hand-made graphs with known answers and against brute force on random ones; the
handshake graph of a hand-written choreography, whose period is worked out below by hand;
the programs it refuses; and the exact period of every reference program on every target."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from choreographies import PIPE
from nano_vx.spatial.clock import (ClockError, clock, handshake_graph, max_cycle_ratio,
                                   unroll)
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.target import load_target, small_target
from spatial_reference import CASES, IDS, steps

# Slow (the whole suite's, not the inner loop's): the clock against brute force and on every
# reference program.
pytestmark = pytest.mark.slow

# -- the algorithm on hand-made graphs ----------------------------------------------------


def test_a_self_loop_is_its_weight_over_its_tokens():
    r = max_cycle_ratio(1, [(0, 0, 5, 2)])
    assert (r.value, r.eta, r.cycle) == (Fraction(5, 2), [Fraction(5, 2)], [0])


def test_the_larger_of_two_cycles_and_what_each_node_reaches():
    # 0 <-> 1 weighs 3 + 4 over 1 token: 7; 2 -> 2 weighs 10 over 2 tokens: 5. Node 0 also
    # reaches 2, node 2 reaches only itself.
    edges = [(0, 1, 3, 0), (1, 0, 4, 1), (2, 2, 10, 2), (0, 2, 100, 5)]
    r = max_cycle_ratio(3, edges)
    assert r.value == 7
    assert r.eta == [7, 7, 5]
    assert sorted(r.cycle) == [0, 1] and sorted(r.cycle_edges) == [0, 1]


def test_a_ratio_that_is_not_a_whole_number_is_exact():
    # 0 -> 1 -> 2 -> 0 weighs 2 + 2 + 3 over 3 tokens; the self-loop on 1 weighs 2 over 1.
    edges = [(0, 1, 2, 1), (1, 2, 2, 1), (2, 0, 3, 1), (1, 1, 2, 1)]
    r = max_cycle_ratio(3, edges)
    assert r.value == Fraction(7, 3) and isinstance(r.value, Fraction)


def test_a_heavy_edge_off_the_best_cycle_does_not_mislead_it():
    # Howard starts from the heaviest edge out of each node (0 -> 2, weight 9) and must
    # leave it: 2 -> 0 closes a cycle of 10 over 4 tokens, 0 -> 1 -> 0 one of 6 over 1.
    edges = [(0, 2, 9, 2), (2, 0, 1, 2), (0, 1, 3, 0), (1, 0, 3, 1)]
    assert max_cycle_ratio(3, edges).value == 6


def test_a_node_without_an_edge_out_is_refused():
    with pytest.raises(ValueError, match="node 1 has no edge out"):
        max_cycle_ratio(2, [(0, 1, 1, 1)])


def test_a_cycle_without_tokens_is_refused():
    with pytest.raises(ValueError, match="a cycle with no tokens"):
        max_cycle_ratio(2, [(0, 1, 1, 0), (1, 0, 1, 0)])


def simple_cycles(n: int, edges) -> list[list[int]]:
    """Every simple cycle, as its edge indices, by depth-first search from its smallest
    node."""
    out = []

    def walk(start, node, seen, path):
        for i, (u, v, _, _) in enumerate(edges):
            if u != node:
                continue
            if v == start:
                out.append(path + [i])
            elif v > start and v not in seen:
                walk(start, v, seen | {v}, path + [i])

    for s in range(n):
        walk(s, s, {s}, [])
    return out


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 5))
    edges = [(u, draw(st.integers(0, n - 1)), draw(st.integers(0, 20)), draw(st.integers(0, 3)))
             for u in range(n) for _ in range(draw(st.integers(1, 3)))]
    return n, edges


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_howard_agrees_with_brute_force(graph):
    n, edges = graph
    cycles = simple_cycles(n, edges)
    assume(all(sum(edges[i][3] for i in c) > 0 for c in cycles))
    ratio = {tuple(c): Fraction(sum(edges[i][2] for i in c), sum(edges[i][3] for i in c))
             for c in cycles}
    r = max_cycle_ratio(n, edges)
    assert r.value == max(ratio.values())
    for v in range(n):
        reach, todo = {v}, [v]
        while todo:
            u = todo.pop()
            for a, b, _, _ in edges:
                if a == u and b not in reach:
                    reach.add(b)
                    todo.append(b)
        assert r.eta[v] == max(x for c, x in ratio.items() if edges[c[0]][0] in reach)
    # The cycle it names is one: its edges chain, and its ratio is the maximum.
    chain = r.cycle_edges
    assert all(edges[chain[k]][1] == edges[chain[(k + 1) % len(chain)]][0]
               for k in range(len(chain)))
    assert Fraction(sum(edges[i][2] for i in chain), sum(edges[i][3] for i in chain)) == r.value


# -- the handshake graph of a program -----------------------------------------------------

SMALL = small_target(1, 2)


def pipe(depth: int):
    return parse_spatial(PIPE.replace("DEPTH", str(depth)))


def test_the_graph_has_a_node_per_op_and_its_edges():
    g = handshake_graph(pipe(2), SMALL)
    assert g.engines == ["reader[0, 0]", "compute[0, 1]", "writer[0, 1]"]
    assert len(g.nodes) == 8 * (4 + 6 + 3)
    # On small_target(1, 2) (every figure 'test figure'): a read or write of a 64-byte tile
    # is 100 cycles of latency plus 64 bytes at 32 bytes a cycle (half of the 64-byte DRAM,
    # as the reader and the writer move the same bytes); a send 64 / 32 bytes plus a 2-cycle
    # hop; a signal to the other site 1 + 2; the scale 128 bytes of SRAM at 64 a cycle.
    reader = [n.cycles for n in g.nodes if n.engine == 0][:4]
    compute = [n.cycles for n in g.nodes if n.engine == 1][:6]
    writer = [n.cycles for n in g.nodes if n.engine == 2][:3]
    assert (reader, compute, writer) == ([1, 102, 4, 3], [1, 1, 2, 1, 1, 3], [1, 102, 1])
    # Program order: one edge per op, the first op of an engine waiting one run back.
    order = [e for e in g.edges if e.why.startswith("program order")]
    assert len(order) == len(g.nodes) and sum(e.tokens for e in order) == 3
    # The reader's first wait on x_credit (2 credits) waits for the compute engine's 7th
    # signal of the run before; its third for the first signal of its own run.
    waits = [v for v, n in enumerate(g.nodes) if n.op._prod == "Wait" and n.engine == 0]
    credit = {e.src: e for e in g.edges if e.why == "semaphore x_credit"}
    signals = [v for v, n in enumerate(g.nodes)
               if n.op._prod == "Signal" and n.op.sem == "x_credit"]
    assert (credit[waits[0]].dst, credit[waits[0]].tokens) == (signals[6], 1)
    assert (credit[waits[1]].dst, credit[waits[1]].tokens) == (signals[7], 1)
    assert (credit[waits[2]].dst, credit[waits[2]].tokens) == (signals[0], 0)


def test_the_period_of_a_pipeline_by_hand():
    # Depth 2: the reader never waits in the steady state; its run of eight tiles,
    # 8 x (1 + 102 + 4 + 3) = 880 cycles, is the period (the writer's is 8 x 104 = 832).
    two = clock(pipe(2), SMALL)
    assert two.period == 880
    assert set(two.engines.values()) == {880}
    assert {engine for engine, _ in two.critical} == {"reader[0, 0]"}
    # Depth 1: the reader's next tile waits for the compute engine to free the slot, so a
    # tile costs the reader's 110 cycles and the compute engine's 1 + 1 + 2 + 1 + 1 + 3 = 9:
    # 8 x 119 = 952 a run, through both engines.
    one = clock(pipe(1), SMALL)
    assert one.period == 952
    assert {engine for engine, _ in one.critical} == {"reader[0, 0]", "compute[0, 1]"}
    assert one.critical[0] == ("reader[0, 0]", "wait x_credit 1")


def test_a_semaphore_signalled_by_two_engines_has_no_clock():
    text = PIPE.replace("DEPTH", "2").replace(
        "            wait_front y 1\n", "            wait_front y 1\n            signal x_data 0\n")
    with pytest.raises(ClockError, match="semaphore 'x_data' is signalled by reader"):
        clock(parse_spatial(text), SMALL)


def test_a_run_that_leaves_a_token_behind_has_no_clock():
    # The writer takes seven of the eight tiles: each run leaves one more in y.
    text = PIPE.replace("DEPTH", "2").replace(
        "        repeat 8 {\n            wait_front y 1", "        repeat 7 {\n            wait_front y 1")
    with pytest.raises(ClockError, match="buffer 'y' receives 8 tokens a run but gives up 7"):
        clock(parse_spatial(text), SMALL)


def test_ops_waiting_on_each_other_within_a_run_are_a_deadlock():
    # No credit to start with: the reader waits for the compute engine to free a slot, the
    # compute engine for the reader's first tile.
    text = PIPE.replace("DEPTH", "2").replace("x_credit (0, 0) initial 2",
                                              "x_credit (0, 0) initial 0")
    with pytest.raises(ClockError, match="wait on each other in a cycle: the program deadlocks"):
        clock(parse_spatial(text), SMALL)


# -- the reference programs ----------------------------------------------------------------

PERIODS = {
    ("gemm", "wormhole"): 1298, ("gemm", "gpu-sm"): 1656, ("gemm", "fabric"): 5126,
    ("gemv", "wormhole"): 3664, ("gemv", "gpu-sm"): 1992, ("gemv", "fabric"): 33504,
    ("softmax", "wormhole"): 445, ("softmax", "gpu-sm"): 1457, ("softmax", "fabric"): 1935,
    ("row_sums", "wormhole"): 513, ("row_sums", "gpu-sm"): 744, ("row_sums", "fabric"): 3828,
    ("attention", "wormhole"): 960, ("mlp", "wormhole"): 1258,
}


@pytest.mark.parametrize("program,target", CASES, ids=IDS)
def test_the_period_of_every_reference_program(program, target):
    graph = steps(program, target)["schedule"][1]
    c = clock(graph, load_target(target))
    assert c.period == PERIODS[program, target]
    assert c.nodes == sum(1 for s in graph.schedules for _ in unroll(s.ops))
    assert max(c.engines.values()) == c.period
