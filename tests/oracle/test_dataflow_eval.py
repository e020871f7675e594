"""The dataflow evaluator (nano_vx/oracle/dataflow.py), the meaning of every spatial IL before
choreography: unbounded streams (Sdataflow, Stiled, Splaced) give numpy's outputs on small
programs, in any order of the stage lines; bounded ones (Ssized) deadlock when a buffer has no
room, naming each waiting stage and what it waits for; and a producer given more credits than
its buffer has slots (Shandshaked) overflows it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from nano_vx.oracle.dataflow import eval_dataflow
from nano_vx.oracle.outcomes import Deadlock, Finished, Overflow
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.target import small_target
from nano_vx.spatial.validate import validate

TARGET = small_target(2, 2)
RNG = np.random.default_rng(11)
A = RNG.integers(-4, 5, size=(8, 8)).astype(np.int32)
B = RNG.integers(-4, 5, size=(8, 4)).astype(np.int32)
X = RNG.uniform(-1, 1, size=(4, 8)).astype(np.float32)
XI = RNG.integers(-4, 5, size=(4, 8)).astype(np.int32)


def _graph(text: str):
    graph = parse_spatial(text)
    assert validate(graph, TARGET) == []
    return graph


def _finished(graph, inputs) -> Finished:
    outcome = eval_dataflow(graph, inputs)
    assert isinstance(outcome, Finished), outcome.describe()
    return outcome


GEMM_STAGES = """\
    tensor A: i32[8, 8] input
    tensor B: i32[8, 4] input
    tensor C: i32[8, 4] output
    stream a: i32
    stream b: i32
    stream c: i32
    load ldA A[i, k] tile [4, 4] for i in 0..2, k in 0..2 -> a
    load ldB B[k, 0] tile [4, 4] for i in 0..2, k in 0..2 -> b
    compute mm matmul_acc(a x2, b x2) -> c
    store stC c -> C[i, 0] tile [4, 4] for i in 0..2
"""
GEMM_PLACES = """\
    place ldA (0, 0) reader
    place ldB (0, 0) reader
    place mm (0, 1) compute
    place stC (0, 1) writer
"""
GEMM_BUFFERS = """\
    buffer a (0, 1) depth 2 bytes 128
    buffer b (0, 1) depth 2 bytes 128
    buffer c (0, 1) depth 1 bytes 64
"""


def _gemm(language: str, *parts: str) -> str:
    return f"spatial gemm: {language} {{\n" + GEMM_STAGES + "".join(parts) + "}\n"


# -- unbounded streams -----------------------------------------------------------------------


def test_an_untiled_reduction():
    graph = _graph("""\
spatial rows {
    tensor X: i32[4, 8] input
    tensor R: i32[4, 1] output
    stream x: i32
    stream r: i32
    load ld X -> x
    compute s sum axis 1 (x) -> r
    store st r -> R
}
""")
    done = _finished(graph, {"X": XI})
    np.testing.assert_array_equal(done.outputs["R"], XI.sum(axis=1, keepdims=True))
    assert (done.steps, done.ops, done.fires) == (3, {"ld": 1, "s": 1, "st": 1}, 0)


def test_an_untiled_load_reads_the_whole_tensor_at_every_firing():
    graph = _graph("""\
spatial twice {
    tensor X: i32[4, 8] input
    tensor R: i32[1, 8] output
    stream x: i32
    stream r: i32
    load ld X -> x
    compute s sum axis 0 (x x2) -> r
    store st r -> R
}
""")
    done = _finished(graph, {"X": XI})
    np.testing.assert_array_equal(done.outputs["R"], 2 * XI.sum(axis=0, keepdims=True))
    assert done.ops == {"ld": 2, "s": 1, "st": 1}


@pytest.mark.parametrize("language, parts", [("Stiled", ()), ("Splaced", (GEMM_PLACES,))])
def test_a_tiled_matmul(language, parts):
    done = _finished(_graph(_gemm(language, *parts)), {"A": A, "B": B})
    assert done.outputs.keys() == {"C"}
    np.testing.assert_array_equal(done.outputs["C"], A @ B)
    assert done.ops == {"ldA": 4, "ldB": 4, "mm": 2, "stC": 2}
    assert done.steps == 12


def test_a_reduction_across_tiles_of_a_row():
    graph = _graph("""\
spatial rows: Stiled {
    tensor X: i32[4, 8] input
    tensor R: i32[4, 1] output
    stream x: i32
    stream r: i32
    load ld X[i, k] tile [2, 4] for i in 0..2, k in 0..2 -> x
    compute s sum axis 1 (x x2) -> r
    store st r -> R[i, 0] tile [2, 1] for i in 0..2
}
""")
    done = _finished(graph, {"X": XI})
    np.testing.assert_array_equal(done.outputs["R"], XI.sum(axis=1, keepdims=True))


SOFTMAX_NUMERATOR = """\
spatial numerator: Stiled {
    tensor X: f32[4, 8] input
    tensor Y: f32[4, 8] output
    stream x1: f32
    stream x2: f32
    stream m: f32
    stream e: f32
    load ld X[i, 0] tile [2, 8] for i in 0..2 -> x1, x2
    compute mx max axis 1 (x1) -> m
    scalar ex(v: x2, w: m) = exp(v - w) -> e
    store st e -> Y[i, 0] tile [2, 8] for i in 0..2
}
"""


def test_a_scalar_stage_broadcasts_a_row_maximum():
    done = _finished(_graph(SOFTMAX_NUMERATOR), {"X": X})
    want = np.exp(X - X.max(axis=1, keepdims=True))
    assert done.outputs["Y"].dtype == np.float32
    np.testing.assert_allclose(done.outputs["Y"], want, rtol=1e-6)


def test_the_order_of_the_stage_lines_does_not_change_the_outcome():
    lines = SOFTMAX_NUMERATOR.splitlines(keepends=True)
    first = _finished(_graph(SOFTMAX_NUMERATOR), {"X": X})
    for order in itertools.permutations(lines[7:11]):
        other = _finished(_graph("".join(lines[:7] + list(order) + lines[11:])), {"X": X})
        assert (other.steps, other.ops) == (first.steps, first.ops)
        np.testing.assert_array_equal(other.outputs["Y"], first.outputs["Y"])


# -- bounded streams -------------------------------------------------------------------------


def test_buffers_deep_enough_finish_with_the_unbounded_outputs():
    done = _finished(_graph(_gemm("Ssized", GEMM_PLACES, GEMM_BUFFERS)), {"A": A, "B": B})
    np.testing.assert_array_equal(done.outputs["C"], A @ B)
    assert done.steps == 12


def test_a_buffer_of_depth_zero_deadlocks_naming_each_waiting_stage():
    buffers = GEMM_BUFFERS.replace("buffer a (0, 1) depth 2", "buffer a (0, 1) depth 0")
    graph = _graph(_gemm("Ssized", GEMM_PLACES, buffers))
    outcome = eval_dataflow(graph, {"A": A, "B": B})
    assert outcome == Deadlock((
        ("ldA", "output 'a' (room for 0, depth 0)"),
        ("ldB", "output 'b' (room for 0, depth 2)"),
        ("mm", "input 'a' (0 of 2 tokens)"),
        ("stC", "input 'c' (0 of 1 tokens)"),
    ), steps=2)
    assert outcome.describe() == (
        "deadlock after 2 steps: ldA waits at output 'a' (room for 0, depth 0); ldB waits at "
        "output 'b' (room for 0, depth 2); mm waits at input 'a' (0 of 2 tokens); stC waits at "
        "input 'c' (0 of 1 tokens)")


def test_a_buffer_shallower_than_a_firing_takes_deadlocks():
    buffers = GEMM_BUFFERS.replace("buffer b (0, 1) depth 2", "buffer b (0, 1) depth 1")
    graph = _graph(_gemm("Ssized", GEMM_PLACES, buffers))
    outcome = eval_dataflow(graph, {"A": A, "B": B})
    assert isinstance(outcome, Deadlock)
    assert dict(outcome.blocked) == {"ldA": "output 'a' (room for 0, depth 2)",
                                     "ldB": "output 'b' (room for 0, depth 1)",
                                     "mm": "input 'b' (1 of 2 tokens)",
                                     "stC": "input 'c' (0 of 1 tokens)"}


# The consumer takes three tokens per firing; the producer puts against x_credit's start.
CREDITS = """\
spatial credits: Shandshaked {
    tensor X: i32[6, 4] input
    tensor Y: i32[2, 4] output
    stream x: i32
    stream y: i32
    load ld X[i, 0] tile [1, 4] for i in 0..6 -> x
    compute s sum axis 0 (x x3) -> y
    store st y -> Y[i, 0] tile [1, 4] for i in 0..2
    place ld (0, 0) reader
    place s (0, 1) compute
    place st (0, 1) writer
    buffer x (0, 1) depth DEPTH bytes 64
    buffer y (0, 1) depth 1 bytes 16
    handshake x semaphore_pair credit x_credit data x_data
    handshake y fifo
    semaphore x_credit (0, 0) initial CREDITS
    semaphore x_data (0, 1) initial 0
}
"""
XC = RNG.integers(-4, 5, size=(6, 4)).astype(np.int32)


def _credits(depth: int, credits: int):
    return _graph(CREDITS.replace("DEPTH", str(depth)).replace("CREDITS", str(credits)))


def test_credits_above_the_depth_overflow_the_buffer():
    outcome = eval_dataflow(_credits(2, 3), {"X": XC})
    assert outcome == Overflow("x", (0, 1), 3, "'ld' put a token into a full buffer of depth 2")


def test_credits_equal_to_the_depth_run_within_it():
    done = _finished(_credits(3, 3), {"X": XC})
    want = np.stack([XC[:3].sum(axis=0), XC[3:].sum(axis=0)])
    np.testing.assert_array_equal(done.outputs["Y"], want)


def test_credits_below_what_a_firing_takes_deadlock():
    outcome = eval_dataflow(_credits(3, 2), {"X": XC})
    assert isinstance(outcome, Deadlock) and outcome.steps == 2
    assert outcome.blocked[:2] == (("ld", "output 'x' (room for 0, depth 3)"),
                                   ("s", "input 'x' (2 of 3 tokens)"))
