"""The balance equations (nano_vx/spatial/balance.py): repetition vectors of chains, diamonds
and multi-rate graphs (the smallest positive integer solution, per connected part), their
scaling by the loop count of a tiled access, the tokens each stream carries, and the RateError
of a graph whose equations have no solution or whose accesses disagree with them."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest

from nano_vx.spatial.balance import RateError, port_tokens, repetitions
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.program import Program
from nano_vx.spatial.validate import validate


def _program(body: str, language: str = "Sdataflow") -> Program:
    graph = parse_spatial(f"spatial g: {language} {{\n{body}}}\n")
    assert validate(graph) == []  # each graph here is well formed: only its rates are tested
    return Program(graph)


CHAIN = """\
    tensor X: i32[4, 4] input
    tensor Y: i32[1, 4] output
    stream a: i32
    stream s: i32
    load ld X -> a
    compute c1 sum axis 0 (a x2) -> s
    store st s -> Y
"""

# Both paths from ld halve the rate, so they meet at ad in step.
DIAMOND = """\
    tensor X: i32[4, 4] input
    tensor Y: i32[1, 4] output
    stream a: i32
    stream b: i32
    stream p: i32
    stream q: i32
    stream r: i32
    load ld X -> a, b
    compute f1 sum axis 0 (a x2) -> p
    compute f2 max axis 0 (b x2) -> q
    compute ad add(p, q) -> r
    store st r -> Y
"""

# u puts 4 and w takes 6 per firing: 3 firings of u feed 2 of w (not 6 and 4).
MULTI_RATE = """\
    tensor X: i32[4, 4] input
    tensor Y: i32[4, 4] output
    stream a: i32
    stream b: i32
    stream c: i32
    load ld X -> a
    scalar u(v: a x4) = v + 1 -> b x4
    scalar w(v: b x6) = v * 2 -> c x6
    store st c -> Y
"""


def test_a_chain():
    assert repetitions(_program(CHAIN)) == {"ld": 2, "c1": 1, "st": 1}


def test_a_diamond():
    assert repetitions(_program(DIAMOND)) == {"ld": 2, "f1": 1, "f2": 1, "ad": 1, "st": 1}


def test_a_multi_rate_graph_has_the_smallest_integer_solution():
    p = _program(MULTI_RATE)
    reps = repetitions(p)
    assert reps == {"ld": 12, "u": 3, "w": 2, "st": 12}
    for stream in p.streams:
        prod, cons = p.producer(stream), p.consumer(stream)
        assert reps[prod.stage] * prod.rate == reps[cons.stage] * cons.rate


def test_tokens_per_stream():
    p = _program(MULTI_RATE)
    assert port_tokens(p, repetitions(p)) == {"a": 12, "b": 12, "c": 12}


def test_each_connected_part_is_solved_on_its_own():
    other = """\
    tensor Z: i32[2, 2] input
    tensor W: i32[2, 2] output
    stream z: i32
    load ldz Z -> z
    store stw z -> W
"""
    assert repetitions(_program(CHAIN + other)) == {"ld": 2, "c1": 1, "st": 1, "ldz": 1,
                                                    "stw": 1}


def test_a_tiled_access_scales_its_part_by_its_loop_count():
    p = _program("""\
    tensor X: i32[8, 4] input
    tensor Y: i32[4, 4] output
    stream a: i32
    stream s: i32
    load ld X[i, 0] tile [1, 4] for i in 0..8 -> a
    compute c1 sum axis 0 (a x2) -> s
    store st s -> Y[i, 0] tile [1, 4] for i in 0..4
""", "Stiled")
    assert repetitions(p) == {"ld": 8, "c1": 4, "st": 4}


def test_the_scale_comes_from_the_whole_nest_not_the_index():
    # k is not in the store's index: each output tile is written twice, the last one stays.
    p = _program("""\
    tensor X: i32[4, 4] input
    tensor Y: i32[4, 4] output
    stream a: i32
    load ld X[i, 0] tile [2, 4] for i in 0..2, k in 0..3 -> a
    store st a -> Y[i, 0] tile [2, 4] for i in 0..2, k in 0..3
""", "Stiled")
    assert repetitions(p) == {"ld": 6, "st": 6}


def test_each_part_is_scaled_by_its_own_accesses():
    p = _program("""\
    tensor X: i32[8, 4] input
    tensor Y: i32[4, 4] output
    tensor Z: i32[2, 2] input
    tensor W: i32[2, 2] output
    stream a: i32
    stream s: i32
    stream z: i32
    load ld X[i, 0] tile [1, 4] for i in 0..8 -> a
    compute c1 sum axis 0 (a x2) -> s
    store st s -> Y[i, 0] tile [1, 4] for i in 0..4
    load ldz Z[0, 0] tile [2, 2] -> z
    store stw z -> W[0, 0] tile [2, 2]
""", "Stiled")
    assert repetitions(p) == {"ld": 8, "c1": 4, "st": 4, "ldz": 1, "stw": 1}


# -- refusals ------------------------------------------------------------------------------


def test_an_inconsistent_diamond_names_the_stream_and_both_ratios():
    p = _program(DIAMOND.replace("(b x2)", "(b x3)"))
    with pytest.raises(RateError) as caught:
        repetitions(p)
    assert str(caught.value) == (
        "the rates are inconsistent at stream 'p': 'f1' puts 1 and 'ad' takes 1 per firing, "
        "which needs 'f1' to fire 1 times as often as 'ad' along one path and 3/2 along "
        "another")


MESSAGE = re.compile(
    r"the rates are inconsistent at stream '(\w+)': '(\w+)' puts (\d+) and '(\w+)' takes "
    r"(\d+) per firing, which needs '(\w+)' to fire (\S+) times as often as '(\w+)' along "
    r"one path and (\S+) along another\Z")


@pytest.mark.parametrize("order", list(itertools.permutations(range(5)))[::7])
def test_the_message_is_right_whichever_way_the_search_meets_the_conflict(order):
    """The search may meet the conflict going downstream (at the producer) or upstream (at
    the consumer), at any stream of the cycle; the message names the stream's two ends, the
    ratio along the stream, and a different one along the rest of the cycle, whose product
    (1/2 x 1 x 1 x 3) is 3/2 where a consistent graph has 1."""
    lines = DIAMOND.replace("(b x2)", "(b x3)").splitlines(keepends=True)
    stages = lines[7:]
    p = _program("".join(lines[:7] + [stages[i] for i in order]))
    with pytest.raises(RateError) as caught:
        repetitions(p)
    found = MESSAGE.match(str(caught.value))
    assert found, str(caught.value)
    stream, putter, put, taker, take, there, along, here, other = found.groups()
    prod, cons = p.producer(stream), p.consumer(stream)
    assert (putter, int(put), taker, int(take)) == (prod.stage, prod.rate, cons.stage, cons.rate)
    assert {there, here} == {prod.stage, cons.stage}
    direct = Fraction(prod.rate, cons.rate) if there == cons.stage else Fraction(cons.rate,
                                                                                prod.rate)
    assert Fraction(along) == direct
    assert Fraction(along) / Fraction(other) in (Fraction(3, 2), Fraction(2, 3))


def test_a_tiled_access_whose_tile_count_is_not_a_multiple():
    p = _program("""\
    tensor X: i32[3, 4] input
    tensor Y: i32[1, 4] output
    stream a: i32
    stream s: i32
    load ld X[i, 0] tile [1, 4] for i in 0..3 -> a
    compute c1 sum axis 0 (a x2) -> s
    store st s -> Y[0, 0] tile [1, 4]
""", "Stiled")
    with pytest.raises(RateError) as caught:
        repetitions(p)
    assert str(caught.value) == ("load 'ld' walks 3 tiles of 'X', but the balance equations "
                                 "make it fire a multiple of 2 times")


def test_two_accesses_that_ask_for_different_scales():
    p = _program(CHAIN.replace("load ld X -> a", "load ld X[i, 0] tile [1, 4] for i in 0..4 -> a")
                 .replace("store st s -> Y", "store st s -> Y[0, 0] tile [1, 4] for i in 0..3"),
                 "Stiled")
    with pytest.raises(RateError) as caught:
        repetitions(p)
    assert str(caught.value) == ("store 'st' walks 3 tiles of 'Y', but the balance equations "
                                 "make it fire 2 times to match 'ld'")
