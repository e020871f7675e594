"""The schedule pass (Shandshaked -> Schoreographed): the exact schedules of four hand-written
programs, one per handshake kind, and that they finish with the dataflow graph's outputs; the
broken variants the rewrite check catches; the compressor of firing sequences; and the
confluence of the token semantics on the pass's outputs, over random interleavings forked
from shared prefixes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from choreographies import FIFO_CHAIN, VALID_READY
import spatial_reference as reference
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.oracle.dataflow import eval_dataflow
from nano_vx.oracle.equivalence import corpus, Overflows
from nano_vx.oracle.outcomes import Finished, Overflow, Underflow
from nano_vx.oracle.fast import eval_choreography
from nano_vx.oracle.tokens import Machine, State
from nano_vx.oracle.rewrites import check_rewrite
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.reject import SpatialReject
from nano_vx.spatial.target import load_target, small_target
from nano_vx.spatial.text import to_spatial_text
from nano_vx.spatial_passes.schedule import compress, schedule, smallest_period, Loop

TARGET = small_target(2, 2)


# y is deeper than x, so that the consumer of x does not wait on y: a semaphore signalled too
# early then shows in the fixed order of eval_choreography.
SEMAPHORE_PAIR = """\
spatial pair: Shandshaked {
    tensor X: i32[16, 8] input
    tensor Y: i32[16, 8] output
    stream x: i32
    stream y: i32
    load ldX X[i, 0] tile [2, 8] for i in 0..8 -> x
    compute sc scale 3 (x) -> y
    store stY y -> Y[i, 0] tile [2, 8] for i in 0..8
    place ldX (0, 0) reader
    place sc (0, 1) compute
    place stY (0, 1) writer
    buffer x (0, 1) depth 2 bytes 128
    buffer y (0, 1) depth 4 bytes 256
    handshake x semaphore_pair credit x_credit data x_data
    handshake y fifo
    semaphore x_credit (0, 0) initial 2
    semaphore x_data (0, 1) initial 0
}
"""

MULTICAST = """\
spatial bcast: Shandshaked {
    tensor X: i32[8, 8] input
    tensor Y0: i32[8, 8] output
    tensor Y1: i32[8, 1] output
    stream x0: i32
    stream x1: i32
    stream y0: i32
    stream y1: i32
    load ldX X[i, 0] tile [2, 8] for i in 0..4 -> x0, x1
    compute sc scale 2 (x0) -> y0
    compute sm sum axis 1 (x1) -> y1
    store stY0 y0 -> Y0[i, 0] tile [2, 8] for i in 0..4
    store stY1 y1 -> Y1[i, 0] tile [2, 1] for i in 0..4
    place ldX (0, 0) reader
    place sc (0, 1) compute
    place stY0 (0, 1) writer
    place sm (1, 0) compute
    place stY1 (1, 0) writer
    buffer x0 (0, 1) depth 2 bytes 128
    buffer x1 (1, 0) depth 2 bytes 128
    buffer y0 (0, 1) depth 2 bytes 128
    buffer y1 (1, 0) depth 2 bytes 32
    group g ldX -> x0, x1
    handshake x0 barrier credit x0_credit data x0_data
    handshake x1 barrier credit x1_credit data x1_data
    handshake y0 fifo
    handshake y1 fifo
    semaphore x0_credit (0, 0) initial 2
    semaphore x0_data (0, 1) initial 0
    semaphore x1_credit (0, 0) initial 2
    semaphore x1_data (1, 0) initial 0
}
"""

PROGRAMS = {"fifo_chain": FIFO_CHAIN, "semaphore_pair": SEMAPHORE_PAIR,
            "multicast": MULTICAST, "valid_ready": VALID_READY}

EXPECTED = {
    "fifo_chain": """\
    schedule (0, 0) reader {
        repeat 4 {
            reserve x 1
            read ldX x
            push x 1
        }
    }
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
    schedule (0, 0) writer {
        repeat 2 {
            wait_front y 1
            write y stY
            pop y 1
        }
    }
""",
    "semaphore_pair": """\
    schedule (0, 0) reader {
        repeat 8 {
            wait x_credit 1
            read ldX x
            send x 1
            signal x_data 1
        }
    }
    schedule (0, 1) compute {
        repeat 8 {
            wait x_data 1
            reserve y 1
            fire sc
            push y 1
            pop x 1
            signal x_credit 1
        }
    }
    schedule (0, 1) writer {
        repeat 8 {
            wait_front y 1
            write y stY
            pop y 1
        }
    }
""",
    "multicast": """\
    schedule (0, 0) reader {
        repeat 4 {
            barrier g
            read ldX g
            multicast g 1
            signal x0_data 1
            signal x1_data 1
        }
    }
    schedule (0, 1) compute {
        repeat 4 {
            wait x0_data 1
            reserve y0 1
            fire sc
            push y0 1
            pop x0 1
            signal x0_credit 1
        }
    }
    schedule (0, 1) writer {
        repeat 4 {
            wait_front y0 1
            write y0 stY0
            pop y0 1
        }
    }
    schedule (1, 0) compute {
        repeat 4 {
            wait x1_data 1
            reserve y1 1
            fire sm
            push y1 1
            pop x1 1
            signal x1_credit 1
        }
    }
    schedule (1, 0) writer {
        repeat 4 {
            wait_front y1 1
            write y1 stY1
            pop y1 1
        }
    }
""",
    "valid_ready": """\
    schedule (0, 0) reader {
        repeat 2 {
            repeat 2 {
                reserve a 1
                read ldA a
                send a 1
            }
            repeat 2 {
                reserve b 1
                read ldB b
                send b 1
            }
        }
    }
    schedule (0, 1) compute {
        repeat 2 {
            wait_front a 2
            wait_front b 2
            reserve c 1
            fire mm
            push c 1
            pop a 2
            pop b 2
        }
    }
    schedule (0, 1) writer {
        repeat 2 {
            wait_front c 1
            write c stC
            pop c 1
        }
    }
""",
}


def _scheduled(text: str):
    before = parse_spatial(text)
    return before, schedule(before, SpatialContext(TARGET))


def _schedules_text(graph) -> str:
    """The schedule lines of a program's text (from the first schedule to the closing brace)."""
    text = to_spatial_text(graph)
    return text[text.index("    schedule"):text.rindex("}")]


# -- (a) the schedules of four programs ----------------------------------------------------


@pytest.mark.parametrize("name", PROGRAMS)
def test_schedule_is_exact(name):
    _, after = _scheduled(PROGRAMS[name])
    assert _schedules_text(after) == EXPECTED[name]


@pytest.mark.parametrize("name", PROGRAMS)
def test_schedule_finishes_with_the_dataflow_outputs(name):
    before, after = _scheduled(PROGRAMS[name])
    for inputs in corpus(before):
        want, got = eval_dataflow(before, inputs), eval_choreography(after, inputs)
        assert isinstance(want, Finished) and isinstance(got, Finished), got.describe()
        assert want.outputs.keys() == got.outputs.keys()
        for tensor, value in want.outputs.items():
            np.testing.assert_array_equal(got.outputs[tensor], value)


@pytest.mark.parametrize("name", PROGRAMS)
def test_schedule_passes_the_rewrite_check(name):
    before, after = _scheduled(PROGRAMS[name])
    assert check_rewrite(before, after, TARGET) is None


# -- (b) broken variants -------------------------------------------------------------------


def _move(text: str, line: str, *, before: str | None = None, after: str | None = None) -> str:
    """`text` with its one line `line` moved just before (or after) its one line `before`
    (`after`)."""
    lines = text.split("\n")
    moved = lines.pop(_only(lines, line))
    anchor = _only(lines, before if before is not None else after)
    lines.insert(anchor + (after is not None), moved)
    return "\n".join(lines)


def _only(lines: list[str], wanted: str) -> int:
    hits = [i for i, ln in enumerate(lines) if ln.strip() == wanted]
    assert len(hits) == 1, f"{wanted!r} is on {len(hits)} lines"
    return hits[0]


def _broken(text: str, line: str, **where):
    before, after = _scheduled(text)
    return before, parse_spatial(_move(to_spatial_text(after), line, **where))


@pytest.mark.parametrize("line, where, outcome, why", [
    # The consumer hands a credit back before it has popped: one slot too many is free, which
    # the signal itself shows, whatever the producer does next.
    ("signal x_credit 1", {"before": "wait x_data 1"}, Overflow, "more than the depth 2"),
    # The producer announces a token before sending it: the consumer would fire on nothing.
    ("signal x_data 1", {"before": "wait x_credit 1"}, Underflow, "but the buffer holds 0"),
], ids=["credit-signal-before-pop", "data-signal-before-send"])
def test_a_swapped_signal_is_caught(line, where, outcome, why):
    before, bad = _broken(SEMAPHORE_PAIR, line, **where)
    found = check_rewrite(before, bad, TARGET)
    assert isinstance(found, Overflows) and found.side == "after"
    assert isinstance(found.outcome, outcome) and found.outcome.buffer == "x"
    assert why in found.outcome.why


def test_a_push_before_its_reserve_is_caught():
    before, bad = _broken(FIFO_CHAIN, "reserve x 1", after="push x 1")
    found = check_rewrite(before, bad, TARGET)
    assert isinstance(found, Overflows) and isinstance(found.outcome, Overflow)
    assert found.outcome.buffer == "x" and "holds 0" in found.outcome.why


# -- (c) the compressor --------------------------------------------------------------------


@pytest.mark.parametrize("seq, items", [
    ("", ()),
    ("a", ("a",)),
    ("aaa", (Loop(3, ("a",)),)),
    ("abab", (Loop(2, ("a", "b")),)),
    ("abbbabbb", (Loop(2, ("a", Loop(3, ("b",)))),)),
    ("aabaabaab", (Loop(3, (Loop(2, ("a",)), "b")),)),
    ("abc", ("a", "b", "c")),
    # No period: only the runs are folded, the rest stays a list.
    ("aababbb", ("a", Loop(2, ("a", "b")), Loop(2, ("b",)))),
    # a pipeline's fill, its steady state, its drain: the longest repeated stretch wins
    ("a" + "ba" * 6 + "bb", (Loop(7, ("a", "b")), "b")),
    ("aa" + "bbaa" * 3 + "bbb", (Loop(4, (Loop(2, ("a",)), Loop(2, ("b",)))), "b")),
    ("c" + "ab" * 5 + "d", ("c", Loop(5, ("a", "b")), "d")),
    ("abaab", ("a", "b", Loop(2, ("a",)), "b")),
], ids=repr)
def test_compress(seq, items):
    assert compress(seq) == items


@pytest.mark.parametrize("seq, period", [
    ("", 0), ("a", 1), ("aaaa", 1), ("abab", 2), ("abcabcabc", 3), ("abaab", 5),
    ("aabaab", 3), ("abcab", 5),
])
def test_smallest_period(seq, period):
    assert smallest_period(seq) == period


def _expand(items) -> str:
    return "".join(_expand(i.body) * i.count if isinstance(i, Loop) else i for i in items)


def _loops(items):
    for i in items:
        if isinstance(i, Loop):
            yield i
            yield from _loops(i.body)


@given(st.text(alphabet="abc", max_size=40))
def test_compress_is_lossless_and_never_repeats_once(seq):
    items = compress(seq)
    assert _expand(items) == seq
    assert all(loop.count >= 2 and loop.body for loop in _loops(items))


# -- (d) confluence on the outputs ---------------------------------------------------------


def _walk(machine: Machine, state: State, rng, steps: int | None = None):
    """Random steps from `state`, each of an engine picked among the enabled ones: `steps`
    of them (the State reached), or to the end (the outcome)."""
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


def _forked_runs(program, inputs, seed: int, prefixes: int = 4, forks: int = 5) -> list:
    """prefixes x forks outcomes: each prefix a random walk of random length, continued
    `forks` ways from the one State it reached (states are persistent: a step leaves its
    state as it was)."""
    machine = Machine(program, inputs)
    first = eval_choreography(program, inputs)
    total = first.steps if isinstance(first, Finished) else first.step
    rng = np.random.default_rng(seed)
    outcomes = []
    for _ in range(prefixes):
        shared = _walk(machine, machine.initial(), rng, int(rng.integers(total)))
        if not isinstance(shared, State):  # the prefix itself ended: so does every fork
            outcomes += [shared] * forks
            continue
        outcomes += [_walk(machine, shared, rng) for _ in range(forks)]
    return outcomes


@pytest.mark.parametrize("name", PROGRAMS)
def test_every_fair_interleaving_finishes_alike(name):
    before, after = _scheduled(PROGRAMS[name])
    inputs = corpus(before)[0]
    first, *rest = outcomes = _forked_runs(after, inputs, seed=len(name))
    assert len(outcomes) == 20
    assert all(isinstance(o, Finished) for o in outcomes), [o.describe() for o in outcomes]
    for other in rest:
        assert other == first  # the same steps and ops per engine
        for tensor, value in first.outputs.items():
            np.testing.assert_array_equal(other.outputs[tensor], value)


def test_a_credit_signal_just_before_its_pop_overflows_in_every_order():
    """The fixed order runs the signal and the pop back to back, so a producer never gets to
    send into the slot in between; the signal is caught where it is made, by counting the
    buffer's slots, so every order reports it and one run decides."""
    before, bad = _broken(SEMAPHORE_PAIR, "signal x_credit 1", before="pop x 1")
    inputs = corpus(before)[0]
    fixed = eval_choreography(bad, inputs)
    assert isinstance(fixed, Overflow) and fixed.buffer == "x"
    outcomes = _forked_runs(bad, inputs, seed=1)
    assert outcomes and all(isinstance(o, Overflow) and o.buffer == "x" for o in outcomes)


# -- room from credits, and refusals --------------------------------------------------------

# The credit semaphores start below the depth: the producer has one slot of each buffer, so
# the reader must alternate its loads (two of ldA first, as the depth alone would allow, and
# it waits for a credit that only the add, waiting for b, can give back).
CREDITS_BELOW_DEPTH = """\
spatial credits: Shandshaked {
    tensor A: i32[8, 8] input
    tensor B: i32[8, 8] input
    tensor C: i32[8, 8] output
    stream a: i32
    stream b: i32
    stream c: i32
    load ldA A[i, 0] tile [2, 8] for i in 0..4 -> a
    load ldB B[i, 0] tile [2, 8] for i in 0..4 -> b
    compute ad add(a, b) -> c
    store stC c -> C[i, 0] tile [2, 8] for i in 0..4
    place ldA (0, 0) reader
    place ldB (0, 0) reader
    place ad (0, 1) compute
    place stC (0, 1) writer
    buffer a (0, 1) depth 2 bytes 128
    buffer b (0, 1) depth 2 bytes 128
    buffer c (0, 1) depth 2 bytes 128
    handshake a semaphore_pair credit a_credit data a_data
    handshake b semaphore_pair credit b_credit data b_data
    handshake c fifo
    semaphore a_credit (0, 0) initial 1
    semaphore a_data (0, 1) initial 0
    semaphore b_credit (0, 0) initial 1
    semaphore b_data (0, 1) initial 0
}
"""


def test_a_producer_runs_ahead_only_by_its_credits():
    before, after = _scheduled(CREDITS_BELOW_DEPTH)
    reader = _schedules_text(after).split("    schedule (0, 1)")[0]
    assert reader == """\
    schedule (0, 0) reader {
        repeat 4 {
            wait a_credit 1
            read ldA a
            send a 1
            signal a_data 1
            wait b_credit 1
            read ldB b
            send b 1
            signal b_data 1
        }
    }
"""
    assert check_rewrite(before, after, TARGET) is None


def test_no_order_that_finishes_is_refused():
    # `s` takes two tokens of t per firing, but t holds one.
    with pytest.raises(SpatialReject) as caught:
        _scheduled(FIFO_CHAIN.replace("buffer t (0, 0) depth 2", "buffer t (0, 0) depth 1"))
    reject = caught.value
    assert reject.code == "E7013" and reject.pass_name == "schedule" and reject.site == (0, 0)
    assert "compute[0, 0] waits at 'tw' for room on output 't' (it holds 1 of depth 1" \
        in reject.message
    assert "reader[0, 0] waits at 'ldX' for room on output 'x'" in reject.message
    assert "writer[0, 0] waits at 'stY' for input 'y' (0 of 1 tokens)" in reject.message


def test_a_token_handshake_is_refused():
    with pytest.raises(SpatialReject) as caught:
        _scheduled(FIFO_CHAIN.replace("handshake y fifo", "handshake y token"))
    assert caught.value.code == "E7002" and caught.value.buffer == "y"
    assert "buffer 'y' has a token handshake" in caught.value.message


def test_a_multicast_of_a_compute_output_is_refused():
    text = (MULTICAST
            .replace("load ldX X[i, 0] tile [2, 8] for i in 0..4 -> x0, x1",
                     "load ldX X[i, 0] tile [2, 8] for i in 0..4 -> x\n"
                     "    compute dup scale 1 (x) -> x0, x1")
            .replace("stream x0: i32", "stream x: i32\n    stream x0: i32")
            .replace("place ldX (0, 0) reader", "place ldX (0, 0) reader\n"
                     "    place dup (0, 0) compute")
            .replace("buffer x0 (0, 1)", "buffer x (0, 0) depth 2 bytes 128\n"
                     "    buffer x0 (0, 1)")
            .replace("group g ldX", "group g dup")
            .replace("handshake y0 fifo", "handshake y0 fifo\n    handshake x fifo"))
    with pytest.raises(SpatialReject) as caught:
        _scheduled(text)
    assert caught.value.code == "E7002" and caught.value.stage == "dup"
    assert "group 'g' multicasts the output of compute 'dup'" in caught.value.message


# -- the reference programs on the shipped targets ---------------------------------------------


@pytest.mark.parametrize("program, target", reference.CASES, ids=reference.IDS)
def test_the_reference_programs(program, target, snapshot_txt, snapshot_dot):
    """The snapshot of the pass's output, and the oracle's verdict on the program's inputs."""
    before, after = reference.step(program, target, "schedule")
    assert to_text(after) == snapshot_txt
    assert to_dot(after, title=f"schedule: {program} on {target}") == snapshot_dot
    found = check_rewrite(before, after, load_target(target), inputs=[reference.inputs(program)])
    assert found is None, found.describe()
