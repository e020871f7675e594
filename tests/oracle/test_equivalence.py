"""`equivalent_under` and its corpus (nano_vx/oracle/equivalence.py): the corpus is the same
for a seed and fits each element type; each Divergence (OutputDiffers, ShapeDiffers, Deadlocks,
Overflows) with its fields and its sentence; floats agree within the tolerance that tiling's
reassociated sums need and no further; and `reference` and `seen`, which let a chain of
rewrites evaluate each program once."""

from __future__ import annotations

import numpy as np
import pytest

from nano_vx.oracle.dataflow import eval_dataflow
from nano_vx.oracle.equivalence import (ATOL, RTOL, Deadlocks, OutputDiffers, Overflows,
                                        ShapeDiffers, compare_outputs, corpus,
                                        equivalent_under, evaluate)
from nano_vx.oracle.outcomes import Deadlock, Finished, Overflow, Underflow
from nano_vx.oracle.fast import eval_choreography
from nano_vx.spatial.parse import parse_spatial

# Y[j] is the sum of rows 3j..3j+2 of X: the tiled graph, then the same on two sites, with a
# buffer of depth DEPTH whose producer starts with CREDITS credits, then its choreography.
TILED = """\
spatial triples: Stiled {
    tensor X: i32[6, 4] input
    tensor Y: i32[2, 4] output
    stream x: i32
    stream y: i32
    load ld X[i, 0] tile [1, 4] for i in 0..6 -> x
    compute s sum axis 0 (x x3) -> y
    store st y -> Y[i, 0] tile [1, 4] for i in 0..2
}
"""
SIDE_TABLES = """\
    place ld (0, 0) reader
    place s (0, 1) compute
    place st (0, 1) writer
    buffer x (0, 1) depth DEPTH bytes 64
    buffer y (0, 1) depth 1 bytes 16
    handshake x semaphore_pair credit x_credit data x_data
    handshake y fifo
    semaphore x_credit (0, 0) initial CREDITS
    semaphore x_data (0, 1) initial 0
"""
SCHEDULES = """\
    schedule (0, 0) reader {
        repeat 6 {
            wait x_credit 1
            read ld x
            send x 1
            signal x_data 1
        }
    }
    schedule (0, 1) compute {
        repeat 2 {
            wait x_data 3
            reserve y 1
            fire s
            push y 1
            pop x 3
            signal x_credit 3
        }
    }
    schedule (0, 1) writer {
        repeat 2 {
            wait_front y 1
            write y st
            pop y 1
        }
    }
"""


def _tiled():
    return parse_spatial(TILED)


def _handshaked(depth: int = 3, credits: int = 3):
    text = TILED.replace("Stiled", "Shandshaked").replace("}\n", SIDE_TABLES + "}\n")
    return parse_spatial(text.replace("DEPTH", str(depth)).replace("CREDITS", str(credits)))


def _choreographed(*edits):
    text = TILED.replace("Stiled", "Schoreographed").replace("}\n", SIDE_TABLES + SCHEDULES
                                                             + "}\n")
    text = text.replace("DEPTH", "3").replace("CREDITS", "3")
    for old, new in edits:
        assert text.count(old) == 1
        text = text.replace(old, new)
    return parse_spatial(text)


def _scaled(factor: str, dtype: str = "i32"):
    """Y = factor * X on a 4 x 4 tensor, untiled."""
    return parse_spatial(f"""\
spatial scaled {{
    tensor X: {dtype}[4, 4] input
    tensor Y: {dtype}[4, 4] output
    stream x: {dtype}
    stream y: {dtype}
    load ld X -> x
    compute k scale {factor} (x) -> y
    store st y -> Y
}}
""")


# -- the corpus ------------------------------------------------------------------------------


def _same_corpus(a: list, b: list) -> bool:
    return len(a) == len(b) and all(
        x.keys() == y.keys() and all(np.array_equal(x[n], y[n]) and x[n].dtype == y[n].dtype
                                     for n in x)
        for x, y in zip(a, b))


def test_the_corpus_is_the_same_for_a_seed_and_differs_across_seeds():
    graph = _tiled()
    assert _same_corpus(corpus(graph, seed=3), corpus(graph, seed=3))
    assert not _same_corpus(corpus(graph, seed=3), corpus(graph, seed=4))
    first, second = corpus(graph, seed=3)
    assert not np.array_equal(first["X"], second["X"])


def test_the_kth_input_does_not_depend_on_the_count():
    graph = _tiled()
    assert _same_corpus(corpus(graph, seed=1, count=2), corpus(graph, seed=1, count=5)[:2])
    assert len(corpus(graph, count=5)) == 5


def test_the_corpus_has_every_input_tensor_and_no_output():
    inputs = corpus(parse_spatial(TILED.replace(
        "tensor Y: i32[2, 4] output", "tensor Y: i32[2, 4] output\n    tensor Z: f64[3] input")))
    for given in inputs:
        assert given.keys() == {"X", "Z"}
        assert given["X"].shape == (6, 4) and given["Z"].shape == (3,)


@pytest.mark.parametrize("dtype, numpy_type", [("i32", np.int32), ("i64", np.int64)])
def test_integer_inputs_are_small_integers(dtype, numpy_type):
    values = np.concatenate([g["X"].ravel() for g in corpus(_scaled("2", dtype), count=20)])
    assert values.dtype == numpy_type
    assert values.min() == -4 and values.max() == 4  # small, so sums stay exact


@pytest.mark.parametrize("dtype, numpy_type", [("f32", np.float32), ("f64", np.float64)])
def test_float_inputs_lie_in_minus_one_to_one(dtype, numpy_type):
    values = np.concatenate([g["X"].ravel() for g in corpus(_scaled("2", dtype), count=20)])
    assert values.dtype == numpy_type
    assert values.min() >= -1 and values.max() < 1
    assert len(np.unique(values)) == len(values)  # not integers in disguise


# -- agreement -------------------------------------------------------------------------------


def test_programs_of_three_ils_that_agree():
    inputs = corpus(_tiled())
    assert equivalent_under(_tiled(), _handshaked(), inputs) is None
    assert equivalent_under(_handshaked(), _choreographed(), inputs) is None


def test_evaluate_runs_a_choreography_with_the_token_semantics():
    given = corpus(_tiled())[0]
    outcome = evaluate(_choreographed(), given)
    assert outcome == eval_choreography(_choreographed(), given)
    assert outcome.ops == {"reader[0, 0]": 24, "compute[0, 1]": 12, "writer[0, 1]": 6}
    assert evaluate(_tiled(), given) == eval_dataflow(_tiled(), given)


# -- divergences -----------------------------------------------------------------------------


def test_output_differs_names_the_input_tensor_index_and_both_values():
    inputs = [{"X": np.zeros((4, 4), np.int32)},
              {"X": np.arange(16, dtype=np.int32).reshape(4, 4)}]
    found = equivalent_under(_scaled("2"), _scaled("3"), inputs)
    assert found == OutputDiffers(1, "Y", (0, 1), 2, 3)
    assert type(found.before) is int and type(found.after) is int
    assert found.describe() == "on input 1, tensor 'Y' differs first at [0, 1]: 2 before, 3 after"


def test_a_different_shape():
    # Both sums go to the one row of Y, the second over the first.
    q = parse_spatial(TILED.replace("tensor Y: i32[2, 4]", "tensor Y: i32[1, 4]")
                      .replace("-> Y[i, 0]", "-> Y[0, 0]"))
    found = equivalent_under(_tiled(), q, corpus(_tiled()))
    assert found == ShapeDiffers(0, "Y", (2, 4), (1, 4))
    assert found.describe() == "on input 0, tensor 'Y' has shape [2, 4] before and [1, 4] after"


def test_a_missing_output_is_a_shape_difference():
    q = parse_spatial(TILED.replace("tensor Y:", "tensor Z:").replace("-> Y[", "-> Z["))
    found = equivalent_under(_tiled(), q, corpus(_tiled()))
    assert found == ShapeDiffers(0, "Y", (2, 4), ())


@pytest.mark.parametrize("side", ["before", "after"])
def test_a_deadlock_on_either_side(side):
    inputs = corpus(_tiled())
    stuck = _handshaked(depth=2, credits=2)  # a firing of s takes three tokens of x
    p, q = (stuck, _tiled()) if side == "before" else (_tiled(), stuck)
    found = equivalent_under(p, q, inputs)
    assert found == Deadlocks(side, 0, eval_dataflow(stuck, inputs[0]))
    assert isinstance(found.outcome, Deadlock)
    assert found.describe().startswith(f"on input 0, the program {side} deadlocks: deadlock "
                                       f"after 2 steps: ld waits at output 'x'")


@pytest.mark.parametrize("side", ["before", "after"])
def test_an_overflow_on_either_side(side):
    inputs = corpus(_tiled())
    loose = _handshaked(depth=2, credits=3)
    p, q = (loose, _tiled()) if side == "before" else (_tiled(), loose)
    found = equivalent_under(p, q, inputs)
    assert found == Overflows(side, 0, Overflow("x", (0, 1), 3, "'ld' put a token into a full "
                                                                "buffer of depth 2"))
    assert found.describe() == (f"on input 0, the program {side} fails: overflow of buffer 'x' "
                                f"on site (0, 1) at step 3: 'ld' put a token into a full "
                                f"buffer of depth 2")


def test_an_underflow_is_reported_as_the_program_failing():
    early = _choreographed(("            send x 1\n            signal x_data 1",
                            "            signal x_data 1\n            send x 1"))
    found = equivalent_under(_tiled(), early, corpus(_tiled()))
    assert isinstance(found, Overflows) and found.side == "after" and found.input == 0
    assert isinstance(found.outcome, Underflow) and found.outcome.buffer == "x"


# -- float tolerance -------------------------------------------------------------------------

ROW_SUMS = """\
spatial rows: LANG {
    tensor X: f32[4, 64] input
    tensor R: f32[4, 1] output
    stream x: f32
    stream r: f32
    stream q: f32
    load ld X ACCESS -> x
    compute s sum axis 1 (x RATE) -> r
    compute k scale FACTOR (r) -> q
    store st q -> R STORE
}
"""


def _row_sums(tiles: int, factor: str = "1"):
    """The row sums of X, read in `tiles` tiles per row (1: the whole tensor, untiled)."""
    if tiles == 1:
        fill = {"LANG": "Sdataflow", "ACCESS": "", "RATE": "", "STORE": ""}
    else:
        fill = {"LANG": "Stiled", "RATE": f"x{tiles}",
                "ACCESS": f"[0, k] tile [4, {64 // tiles}] for k in 0..{tiles}",
                "STORE": "[0, 0] tile [4, 1]"}
    text = ROW_SUMS.replace("FACTOR", factor)
    for key, value in fill.items():
        text = text.replace(" " + key, " " + value if value else "")
    return parse_spatial(text)


def test_a_reassociated_float_sum_is_equal_within_the_tolerance():
    inputs = corpus(_row_sums(1), count=4)
    whole = [evaluate(_row_sums(1), given).outputs["R"] for given in inputs]
    for tiles in (2, 8, 64):
        assert equivalent_under(_row_sums(1), _row_sums(tiles), inputs) is None
        cut = [evaluate(_row_sums(tiles), given).outputs["R"] for given in inputs]
        # The tolerance is what makes them equal: the sums differ in their last bits.
        assert not all(np.array_equal(a, b) for a, b in zip(whole, cut))


def test_a_real_float_difference_is_not():
    inputs = corpus(_row_sums(1))
    found = equivalent_under(_row_sums(1), _row_sums(8, "1.01"), inputs)
    assert isinstance(found, OutputDiffers) and found.input == 0 and found.tensor == "R"
    assert found.after == pytest.approx(1.01 * found.before, rel=1e-5)


def _finished(**outputs) -> Finished:
    return Finished({n: np.asarray(v) for n, v in outputs.items()}, steps=1)


@pytest.mark.parametrize("after, same", [
    (1.0 + 0.5e-4, True),        # within the relative tolerance of 1e-4
    (1.0 + 2e-4, False),
    (1.01, False),
])
def test_the_relative_tolerance(after, same):
    found = compare_outputs(0, _finished(R=np.float32([1.0])), _finished(R=np.float32([after])))
    assert (found is None) == same
    assert RTOL == 1e-4


def test_the_absolute_tolerance_near_zero():
    assert compare_outputs(0, _finished(R=[0.0]), _finished(R=[0.5 * ATOL])) is None
    assert compare_outputs(0, _finished(R=[0.0]), _finished(R=[3 * ATOL])) is not None


def test_integers_must_be_equal():
    found = compare_outputs(2, _finished(Y=np.int32([[7, 100000]])),
                            _finished(Y=np.int32([[7, 100001]])))
    assert found == OutputDiffers(2, "Y", (0, 1), 100000, 100001)


def test_a_nan_on_both_sides_is_equal():
    assert compare_outputs(0, _finished(R=[np.nan, 1.0]), _finished(R=[np.nan, 1.0])) is None


# -- reference and seen ----------------------------------------------------------------------


def test_seen_collects_the_rewritten_programs_outcomes():
    inputs = corpus(_tiled(), count=3)
    seen: list = []
    assert equivalent_under(_tiled(), _handshaked(), inputs, seen=seen) is None
    assert len(seen) == 3
    for outcome, given in zip(seen, inputs):
        assert outcome == eval_dataflow(_handshaked(), given)
        np.testing.assert_array_equal(outcome.outputs["Y"],
                                      given["X"].reshape(2, 3, 4).sum(axis=1))


def test_a_chain_of_rewrites_evaluates_each_program_once():
    """The outcomes `seen` for one rewrite are the `reference` of the next: the program they
    came from is not run again (here it is not even a program)."""
    inputs = corpus(_tiled())
    seen: list = []
    assert equivalent_under(_tiled(), _handshaked(), inputs, seen=seen) is None
    after: list = []
    assert equivalent_under(None, _choreographed(), inputs, reference=seen, seen=after) is None
    assert len(after) == 2 and all(isinstance(o, Finished) for o in after)


def test_a_reference_stands_for_the_original_program():
    inputs = corpus(_tiled())
    zeros = [_finished(Y=np.zeros((2, 4), np.int32)) for _ in inputs]
    found = equivalent_under(None, _tiled(), inputs, reference=zeros)
    want = eval_dataflow(_tiled(), inputs[0]).outputs["Y"]
    index = tuple(int(i) for i in np.argwhere(want != 0)[0])
    assert found == OutputDiffers(0, "Y", index, 0, want[index].item())


def test_seen_stops_at_the_first_divergence():
    inputs = [{"X": np.ones((4, 4), np.int32)}, {"X": np.zeros((4, 4), np.int32)}]
    seen: list = []
    found = equivalent_under(_scaled("2"), _scaled("3"), inputs, seen=seen)
    assert isinstance(found, OutputDiffers) and found.input == 0
    assert len(seen) == 1
