"""The token semantics (nano_vx/oracle/tokens.py) on hand-written choreographies: one per
handshake (a fifo chain on one site, a semaphore pair across two, a multicast to three), which
between them run every schedule op; Finished with numpy's outputs and exact step, op and fire
counts; Deadlock naming each blocked engine and its op; each Overflow and Underflow; the
persistence of State; and confluence: random fair interleavings forked from shared prefixes
all reach the outcome of the fixed order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choreographies import MULTICAST
from nano_vx.oracle.outcomes import Deadlock, Finished, Overflow, Underflow
from nano_vx.oracle.fast import eval_choreography
from nano_vx.oracle.tokens import Machine, State, run
from nano_vx.spatial.balance import RateError
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.target import small_target
from nano_vx.spatial.validate import validate

TARGET = small_target(2, 2)
RNG = np.random.default_rng(5)
X = RNG.integers(-4, 5, size=(8, 8)).astype(np.int32)
A = RNG.integers(-4, 5, size=(8, 8)).astype(np.int32)
B = RNG.integers(-4, 5, size=(8, 4)).astype(np.int32)

# One site. Each firing of s takes two tokens of t, so the compute engine nests two firings of
# tw in each of s: reserve, read, push, wait_front, fire, pop, write and nested repeats.
FIFO_HEAD = """\
spatial chain: Schoreographed {
    tensor X: i32[8, 8] input
    tensor Y: i32[2, 8] output
    stream x: i32
    stream t: i32
    stream y: i32
    load ld X[i, 0] tile [2, 8] for i in 0..4 -> x
    scalar tw(v: x) = v * 2 + 1 -> t
    compute s sum axis 0 (t x2) -> y
    store st y -> Y[i, 0] tile [1, 8] for i in 0..2
    place ld (0, 0) reader
    place tw (0, 0) compute
    place s (0, 0) compute
    place st (0, 0) writer
    buffer x (0, 0) depth 2 bytes 128
    buffer t (0, 0) depth 2 bytes 128
    buffer y (0, 0) depth 1 bytes 32
    handshake x fifo
    handshake t fifo
    handshake y fifo
"""
FIFO_READER = """\
    schedule (0, 0) reader {
        repeat 4 {
            reserve x 1
            read ld x
            push x 1
        }
    }
"""
FIFO_COMPUTE = """\
    schedule (0, 0) compute {
        repeat 2 {
            repeat 2 {
                wait_front x 1
                reserve t 1
                fire tw
                push t 1
                pop x 1
            }
            wait_front t 2
            reserve y 1
            fire s
            push y 1
            pop t 2
        }
    }
"""
FIFO_WRITER = """\
    schedule (0, 0) writer {
        repeat 2 {
            wait_front y 1
            write y st
            pop y 1
        }
    }
"""
FIFO = FIFO_HEAD + FIFO_READER + FIFO_COMPUTE + FIFO_WRITER + "}\n"

# Two sites: the reader waits for credits and announces data (wait, send, signal); the compute
# engine takes two tokens of each input per matmul firing.
PAIR = """\
spatial pair: Schoreographed {
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
    place ldA (0, 0) reader
    place ldB (0, 0) reader
    place mm (0, 1) compute
    place stC (0, 1) writer
    buffer a (0, 1) depth 2 bytes 128
    buffer b (0, 1) depth 2 bytes 128
    buffer c (0, 1) depth 1 bytes 64
    handshake a semaphore_pair credit a_credit data a_data
    handshake b semaphore_pair credit b_credit data b_data
    handshake c fifo
    semaphore a_credit (0, 0) initial 2
    semaphore a_data (0, 1) initial 0
    semaphore b_credit (0, 0) initial 2
    semaphore b_data (0, 1) initial 0
    schedule (0, 0) reader {
        repeat 2 {
            repeat 2 {
                wait a_credit 1
                read ldA a
                send a 1
                signal a_data 1
            }
            repeat 2 {
                wait b_credit 1
                read ldB b
                send b 1
                signal b_data 1
            }
        }
    }
    schedule (0, 1) compute {
        repeat 2 {
            wait a_data 2
            wait b_data 2
            reserve c 1
            fire mm
            push c 1
            pop a 2
            pop b 2
            signal a_credit 2
            signal b_credit 2
        }
    }
    schedule (0, 1) writer {
        repeat 2 {
            wait_front c 1
            write c stC
            pop c 1
        }
    }
}
"""


INPUTS = {"fifo": {"X": X}, "pair": {"A": A, "B": B}, "multicast": {"X": X}}
PROGRAMS = {"fifo": FIFO, "pair": PAIR, "multicast": MULTICAST}
WANT = {
    "fifo": {"Y": np.stack([(2 * X[:4] + 1).sum(axis=0), (2 * X[4:] + 1).sum(axis=0)])},
    "pair": {"C": A @ B},
    "multicast": {"Y0": 2 * X, "Y1": X.sum(axis=1, keepdims=True)},
}
# Steps, ops per engine, fires: counted off the schedules above.
COUNTS = {
    "fifo": (48, {"reader[0, 0]": 12, "compute[0, 0]": 30, "writer[0, 0]": 6}, 6),
    "pair": (56, {"reader[0, 0]": 32, "compute[0, 1]": 18, "writer[0, 1]": 6}, 2),
    "multicast": (92, {"reader[0, 0]": 20, "compute[0, 1]": 24, "writer[0, 1]": 12,
                       "compute[1, 0]": 24, "writer[1, 0]": 12}, 8),
}


def _graph(text: str):
    graph = parse_spatial(text)
    assert validate(graph, TARGET) == []
    return graph


def _edit(text: str, *edits) -> str:
    for old, new in edits:
        assert text.count(old) == 1, f"{old!r} is in the text {text.count(old)} times"
        text = text.replace(old, new)
    return text


def _assert_outputs(outcome, want: dict) -> None:
    assert isinstance(outcome, Finished), outcome.describe()
    assert outcome.outputs.keys() == want.keys()
    for name, value in want.items():
        np.testing.assert_array_equal(outcome.outputs[name], value)


# -- Finished --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_choreography_finishes_with_numpys_outputs_and_its_counts(name):
    outcome = eval_choreography(_graph(PROGRAMS[name]), INPUTS[name])
    _assert_outputs(outcome, WANT[name])
    assert (outcome.steps, outcome.ops, outcome.fires) == COUNTS[name]


def test_finished_describes_its_data_movement_and_compute():
    outcome = eval_choreography(_graph(FIFO), INPUTS["fifo"])
    assert outcome.describe() == "finished in 48 steps (42 data movement, 6 tile compute)"


def test_a_choreography_of_an_inconsistent_graph_is_refused():
    bad = parse_spatial(_edit(PAIR, ("matmul_acc(a x2, b x2)", "matmul_acc(a x2, b x1)")))
    with pytest.raises(RateError):
        Machine(bad, INPUTS["pair"])


# -- Deadlock --------------------------------------------------------------------------------


@pytest.mark.parametrize("program, edit, blocked, steps", [
    # t holds one token but s waits for two: every engine ends up waiting on another.
    (FIFO, ("buffer t (0, 0) depth 2", "buffer t (0, 0) depth 1"),
     (("reader[0, 0]", "reserve x 1"), ("compute[0, 0]", "reserve t 1"),
      ("writer[0, 0]", "wait_front y 1")), 15),
    (PAIR, ("a_credit (0, 0) initial 2", "a_credit (0, 0) initial 0"),
     (("reader[0, 0]", "wait a_credit 1"), ("compute[0, 1]", "wait a_data 2"),
      ("writer[0, 1]", "wait_front c 1")), 0),
    (MULTICAST, ("x1_credit (0, 0) initial 2", "x1_credit (0, 0) initial 0"),
     (("reader[0, 0]", "barrier g"), ("compute[0, 1]", "wait x0_data 1"),
      ("writer[0, 1]", "wait_front y0 1"), ("compute[1, 0]", "wait x1_data 1"),
      ("writer[1, 0]", "wait_front y1 1")), 0),
], ids=["reserve", "wait", "barrier"])
def test_a_deadlock_names_each_blocked_engine_and_its_op(program, edit, blocked, steps):
    name = {FIFO: "fifo", PAIR: "pair", MULTICAST: "multicast"}[program]
    outcome = eval_choreography(_graph(_edit(program, edit)), INPUTS[name])
    assert outcome == Deadlock(blocked, steps)


def test_an_engine_that_finished_is_not_listed_as_blocked():
    # The writer writes one token and leaves it in y: s waits for room in y for its second.
    text = _edit(FIFO, (FIFO_WRITER, "    schedule (0, 0) writer {\n        wait_front y 1\n"
                                     "        write y st\n    }\n"))
    outcome = eval_choreography(_graph(text), INPUTS["fifo"])
    assert isinstance(outcome, Deadlock)
    assert outcome.blocked == (("compute[0, 0]", "reserve y 1"),)
    assert outcome.describe().endswith("compute[0, 0] waits at reserve y 1")


# -- Overflow and Underflow ------------------------------------------------------------------


@pytest.mark.parametrize("name, edits, want", [
    ("fifo", [("            reserve x 1\n", "")],
     Overflow("x", (0, 0), 2, "puts 1 tokens into slots its producer holds 0 of (depth 2)")),
    ("fifo", [("reserve x 1\n            read ld x\n            push x 1",
               "reserve x 2\n            read ld x\n            push x 2")],
     Overflow("x", (0, 0), 3, "puts 2 tokens but 1 are staged")),
    ("multicast", [("            barrier g\n", "")],
     Overflow("x0", (0, 1), 2, "puts 1 tokens into slots its producer holds 0 of (depth 2)")),
    ("multicast", [("multicast g 1", "multicast g 2")],
     Overflow("g", (), 3, "multicasts 2 tokens but 1 are staged")),
    # Three credits for two slots: the third token sent finds the buffer full.
    ("pair", [("a_credit (0, 0) initial 2", "a_credit (0, 0) initial 3")],
     Overflow("a", (0, 1), 19, "puts 1 tokens into a buffer holding 2 of depth 2")),
], ids=["push-without-reserve", "push-more-than-staged", "multicast-without-barrier",
        "multicast-more-than-staged", "credits-above-depth"])
def test_an_overflow(name, edits, want):
    assert eval_choreography(parse_spatial(_edit(PROGRAMS[name], *edits)), INPUTS[name]) == want


@pytest.mark.parametrize("name, edits, want", [
    # The compute engine runs first and fires without waiting for x.
    ("fifo", [(FIFO_READER + FIFO_COMPUTE,
               FIFO_COMPUTE.replace("                wait_front x 1\n", "") + FIFO_READER)],
     Underflow("x", (0, 0), 2, "'tw' fires with 0 of the 1 tokens it takes")),
    ("fifo", [("            write y st\n            pop y 1",
               "            write y st\n            pop y 2")],
     Underflow("y", (0, 0), 24, "pops 2 tokens but 1 are there")),
    # The writer runs first and writes without waiting for y.
    ("fifo", [(FIFO_READER + FIFO_COMPUTE + FIFO_WRITER,
               FIFO_WRITER.replace("            wait_front y 1\n", "") + FIFO_READER
               + FIFO_COMPUTE)],
     Underflow("y", (0, 0), 1, "writes a token to DRAM from an empty buffer")),
    ("pair", [("                send a 1\n                signal a_data 1",
               "                signal a_data 1\n                send a 1")],
     Underflow("a", (0, 1), 3, "'a_data' announces 1 tokens beyond the 0 already taken, but "
                               "the buffer holds 0")),
], ids=["fire-before-the-token", "pop-more-than-present", "write-from-empty",
        "data-before-send"])
def test_an_underflow(name, edits, want):
    assert eval_choreography(parse_spatial(_edit(PROGRAMS[name], *edits)), INPUTS[name]) == want


# -- persistence -----------------------------------------------------------------------------


def _snapshot(state: State) -> tuple:
    """Everything a State holds: its counters as plain values, and copies of its tokens."""
    plain = (tuple(state.pcs), tuple(len(q) for q in state.queues), tuple(state.reserved),
             tuple(len(s) for s in state.staged), tuple(state.sems), tuple(state.cursors),
             len(state.writes), tuple(state.counts), tuple(state.claimed), state.steps,
             state.fires)
    tokens = [t.copy() for q in (*state.queues, *state.staged) for t in q]
    return plain, tokens


def _same(a: tuple, b: tuple) -> bool:
    return a[0] == b[0] and len(a[1]) == len(b[1]) and all(
        np.array_equal(x, y) for x, y in zip(a[1], b[1]))


def _advance(machine: Machine, state: State, engines) -> State:
    for e in engines:
        assert machine.enabled(state, e)
        state = machine.step(state, e)
    return state


def test_a_step_leaves_the_state_it_started_from_as_it_was():
    machine = Machine(_graph(MULTICAST), INPUTS["multicast"])
    start = machine.initial()
    before = _snapshot(start)
    after = machine.step(start, 0)
    assert _same(_snapshot(start), before)
    assert after.steps == 1 and start.steps == 0
    assert machine.step(start, 0).pcs == after.pcs  # the same step again: the same state


def test_a_state_stepped_two_ways_has_two_independent_futures():
    machine = Machine(_graph(MULTICAST), INPUTS["multicast"])
    # The reader's first round: barrier, read, multicast, two signals; both receivers ready.
    shared = _advance(machine, machine.initial(), [0] * 5)
    kept = _snapshot(shared)
    left, right = machine.step(shared, 1), machine.step(shared, 3)
    assert left.pcs[1] != right.pcs[1] and left.pcs[3] != right.pcs[3]
    assert left.sems != right.sems  # each took its own receiver's data semaphore
    left_end, right_end = run(machine, left), run(machine, right)
    assert _same(_snapshot(shared), kept)
    for end in (left_end, right_end):
        _assert_outputs(end, WANT["multicast"])
    assert (left_end.steps, left_end.ops) == (right_end.steps, right_end.ops)
    # The shared state still runs to the same end on its own.
    _assert_outputs(run(machine, shared), WANT["multicast"])


# -- confluence ------------------------------------------------------------------------------


def _walk(machine: Machine, state: State, rng, steps: int | None = None):
    """Random steps, each of an engine drawn among the enabled ones: `steps` of them (the
    State reached) or to the end (the outcome)."""
    taken = 0
    while steps is None or taken < steps:
        ready = [e for e in range(len(machine.code)) if machine.enabled(state, e)]
        if not ready:
            return machine.outcome(state)
        state = machine.step(state, ready[rng.integers(len(ready))])
        if not isinstance(state, State):
            return state
        taken += 1
    return state


def _forked(machine: Machine, total: int, seed: int, prefixes: int = 2, forks: int = 3):
    """Outcomes of `forks` random continuations of each of `prefixes` random prefixes."""
    rng = np.random.default_rng(seed)
    outcomes = []
    for _ in range(prefixes):
        shared = _walk(machine, machine.initial(), rng, int(rng.integers(total)))
        if not isinstance(shared, State):
            outcomes.append(shared)
            continue
        outcomes += [_walk(machine, shared, rng) for _ in range(forks)]
    return outcomes


MACHINES = {name: Machine(parse_spatial(PROGRAMS[name]), INPUTS[name])
            for name in ("pair", "multicast")}


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(sorted(MACHINES)), seed=st.integers(0, 2**32 - 1))
def test_every_fair_interleaving_reaches_the_fixed_orders_outcome(name, seed):
    machine = MACHINES[name]
    steps, ops, fires = COUNTS[name]
    outcomes = _forked(machine, steps, seed)
    assert len(outcomes) == 6  # no prefix (shorter than a run) ends the run
    for outcome in outcomes:
        _assert_outputs(outcome, WANT[name])
        assert (outcome.steps, outcome.ops, outcome.fires) == (steps, ops, fires)


@pytest.mark.parametrize("before", ["pop a 2", "fire mm", "wait a_data 2"])
def test_a_credit_signalled_before_its_pop_overflows_at_the_signal_in_every_order(before):
    """Whatever the reader has done by then, the early signal counts a slot twice: the
    Overflow is raised by the signal itself, in the fixed order and in random ones."""
    moved = f"            signal a_credit 2\n            {before}\n"
    text = _edit(PAIR, ("            signal a_credit 2\n", ""), (f"            {before}\n", moved))
    graph = _graph(text)
    machine = Machine(graph, INPUTS["pair"])
    outcomes = [eval_choreography(graph, INPUTS["pair"])]
    outcomes += [o for seed in range(8) for o in _forked(machine, COUNTS["pair"][0], seed)]
    for outcome in outcomes:
        assert isinstance(outcome, Overflow) and outcome.buffer == "a", outcome
        assert outcome.why.startswith("'a_credit' is signalled to ")
