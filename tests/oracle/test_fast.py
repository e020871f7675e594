"""The compiled runner (nano_vx/oracle/fast.py) against the stepper it replaces
(`tokens.run`, `Machine.step`): the same outcome, field by field, the same outputs, and the
same final State (program counters, queues, reserved and staged slots, semaphores, cursors,
writes, op counts, claimed tokens, steps, fires). On every reference program on every
target; on the hand-written choreographies of test_tokens.py and test_schedule.py and every
mutant of them (an op deleted, duplicated, swapped with the next, a count, depth, initial
credit or loop bound moved by one), which between them deadlock, overflow and underflow in
every way the semantics knows; and on random graphs through the lane, mutated or not."""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import spatial_reference as reference
import test_schedule
import test_tokens
from test_lane import dataflow_programs, small_targets
from nano_vx.oracle.equivalence import corpus
from nano_vx.oracle.fast import MAX_LOOPS, FastMachine, TooDeep
from nano_vx.oracle.outcomes import Deadlock, Finished, Overflow, Underflow
from nano_vx.oracle.fast import eval_choreography
from nano_vx.oracle.tokens import Machine, State, run
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial_pipeline import SPATIAL_PIPELINE
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.reject import SpatialReject
from nano_vx.spatial.text import OP_WORDS, to_spatial_text
from nano_vx.spatial_passes.schedule import schedule

# Slow (the whole suite's, not the inner loop's): the compiled runner against the stepper, on
# every program and mutant.
pytestmark = pytest.mark.slow


# -- the comparison ------------------------------------------------------------------------


def _stepped(machine: Machine):
    """`tokens.run` from the initial state, keeping the State it stops in (or its fault)."""
    state = machine.initial()
    while True:
        progressed = False
        for e in range(len(machine.code)):
            while machine.enabled(state, e):
                state = machine.step(state, e)
                if not isinstance(state, State):
                    return state
                progressed = True
        if not progressed:
            return state


def _plain(state: State) -> tuple:
    return (tuple(state.pcs), tuple(len(q) for q in state.queues), tuple(state.reserved),
            tuple(len(s) for s in state.staged), tuple(state.sems), tuple(state.cursors),
            tuple((tensor, where) for tensor, where, _ in state.writes), tuple(state.counts),
            tuple(state.claimed), state.steps, state.fires)


def _tokens(state: State) -> list:
    return [*(t for q in (*state.queues, *state.staged) for t in q),
            *(tile for _, _, tile in state.writes)]


def _assert_same_arrays(got: list, want: list) -> None:
    assert len(got) == len(want)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


def _assert_same_outcome(got, want) -> None:
    assert got == want
    if isinstance(want, Finished):
        assert got.outputs.keys() == want.outputs.keys()
        _assert_same_arrays([got.outputs[k] for k in want.outputs],
                            list(want.outputs.values()))


def _assert_agree(graph, inputs, *, entry_points: bool = False):
    """The fast runner and the stepper agree on `graph`: the final State and the outcome
    (returned). With `entry_points`, `eval_choreography` and `tokens.run` themselves agree
    too."""
    machine = Machine(graph, inputs)
    want = _stepped(machine)
    fast = FastMachine(machine)
    got = fast.final()
    if isinstance(want, State):
        assert isinstance(got, State)
        assert _plain(got) == _plain(want)
        _assert_same_arrays(_tokens(got), _tokens(want))
        want = machine.outcome(want)
    else:
        assert got == want
    _assert_same_outcome(fast.run(), want)
    if entry_points:
        _assert_same_outcome(run(Machine(graph, inputs)), want)
        _assert_same_outcome(eval_choreography(graph, inputs), want)
    return want


# -- the reference programs ------------------------------------------------------------------


@pytest.mark.parametrize("program, target", reference.CASES, ids=reference.IDS)
def test_the_reference_programs(program, target):
    _, graph = reference.step(program, target, "schedule")
    outcome = _assert_agree(graph, reference.inputs(program), entry_points=True)
    assert isinstance(outcome, Finished) and outcome.steps > 0


# -- hand-written choreographies and their mutants -------------------------------------------


def _scheduled(text: str) -> tuple[str, dict]:
    before = parse_spatial(text)
    after = schedule(before, SpatialContext(test_schedule.TARGET))
    return to_spatial_text(after), corpus(before, 0, 1)[0]


# test_schedule.py's fifo chain and multicast schedule to test_tokens.py's choreographies.
CHOREOGRAPHIES = {
    **{f"tokens-{name}": (text, test_tokens.INPUTS[name])
       for name, text in test_tokens.PROGRAMS.items()},
    **{f"schedule-{name}": _scheduled(test_schedule.PROGRAMS[name])
       for name in ("semaphore_pair", "valid_ready")},
    "schedule-credits-below-depth": _scheduled(test_schedule.CREDITS_BELOW_DEPTH),
}

OP_LINE = re.compile(r"^\s+(" + "|".join(OP_WORDS.values()) + r") ")
COUNTED = re.compile(r"^(\s+(?:(?:" + "|".join(OP_WORDS.values()) + r") .* |repeat |"
                     r"buffer .* depth |semaphore .* initial ))(\d+)(.*)$")


def mutants(text: str) -> list[tuple[str, str]]:
    """(what changed, the text) for every one-line mutation of a choreography: each schedule
    op deleted, duplicated, or swapped with the op after it; each op count, repeat count,
    buffer depth and initial credit one more, and one less where that stays positive (an
    initial credit may drop to zero)."""
    lines = text.split("\n")
    out = []

    def put(label: str, new: list[str]) -> None:
        out.append((label, "\n".join(new)))

    for i, line in enumerate(lines):
        if OP_LINE.match(line):
            put(f"delete {line.strip()!r}", lines[:i] + lines[i + 1:])
            put(f"duplicate {line.strip()!r}", lines[:i + 1] + lines[i:])
            if OP_LINE.match(lines[i + 1]):
                put(f"swap {line.strip()!r} down",
                    lines[:i] + [lines[i + 1], line] + lines[i + 2:])
        counted = COUNTED.match(line)
        if counted:
            head, n, tail = counted.group(1), int(counted.group(2)), counted.group(3)
            lowest = 0 if "initial" in head else 1
            for m in (n - 1, n + 1):
                if m >= lowest:
                    put(f"{line.strip()!r} with {m}", lines[:i] + [f"{head}{m}{tail}"]
                        + lines[i + 1:])
    return out


@lru_cache(maxsize=None)
def _mutant_outcomes(name: str) -> tuple:
    """Each mutant of a choreography checked: its outcome (or the error both raise)."""
    text, inputs = CHOREOGRAPHIES[name]
    found = []
    for label, changed in [("as written", text), *mutants(text)]:
        try:
            found.append(_assert_agree(parse_spatial(changed), inputs,
                                       entry_points=label == "as written"))
        except AssertionError as failure:
            raise AssertionError(f"{name}, {label}: {failure}") from None
    return tuple(found)


@pytest.mark.parametrize("name", CHOREOGRAPHIES)
def test_a_choreography_and_every_mutant(name):
    outcomes = _mutant_outcomes(name)
    assert isinstance(outcomes[0], Finished), outcomes[0]
    assert len(outcomes) > 40


# Each outcome the stepper can report, by type and message: every one must be among the
# mutants', so that the comparison above has seen each check of Machine.step.
KINDS = {
    "finished": (Finished, ""), "deadlock": (Deadlock, ""),
    "put of values not staged": (Overflow, r"puts \d+ tokens but \d+ are staged"),
    "put into a slot not reserved": (Overflow, r"puts \d+ tokens into slots its producer"),
    "put into a full buffer": (Overflow, r"puts \d+ tokens into a buffer holding"),
    "multicast of values not staged": (Overflow, r"multicasts \d+ tokens but"),
    "credit beyond the depth": (Overflow, r"'\w+' is signalled to \d+ credits"),
    "data before its send": (Underflow, r"'\w+' announces \d+ tokens"),
    "fire without its tokens": (Underflow, r"'\w+' fires with \d+ of the"),
    "pop of tokens not there": (Underflow, r"pops \d+ tokens but"),
    "write from an empty buffer": (Underflow, r"writes a token to DRAM from an empty buffer"),
}


def test_the_mutants_run_into_every_outcome():
    outcomes = [o for name in CHOREOGRAPHIES for o in _mutant_outcomes(name)]
    seen = {kind for kind, (cls, why) in KINDS.items() for o in outcomes
            if type(o) is cls and re.match(why, getattr(o, "why", ""))}
    assert seen == set(KINDS), set(KINDS) - seen


def test_a_deadlock_names_the_ops_the_stepper_names():
    # test_tokens.py's: every engine ends up waiting on another, one of them in a loop.
    text = test_tokens._edit(test_tokens.FIFO, ("buffer t (0, 0) depth 2",
                                                "buffer t (0, 0) depth 1"))
    outcome = _assert_agree(parse_spatial(text), test_tokens.INPUTS["fifo"])
    assert outcome == Deadlock((("reader[0, 0]", "reserve x 1"),
                                ("compute[0, 0]", "reserve t 1"),
                                ("writer[0, 0]", "wait_front y 1")), 15)


def test_engines_of_one_shape_share_their_code():
    _, graph = reference.step("gemm", "wormhole", "schedule")
    machine = Machine(graph, reference.inputs("gemm"))
    fast = FastMachine(machine)
    shapes = {id(code) for code, _ in fast.engines}
    assert len(fast.engines) == len(machine.code) > 3 * len(shapes)


def _nested_reader(loops: int) -> str:
    """test_tokens.py's fifo chain with its reader's loop inside `loops` - 1 more."""
    reader = test_tokens.FIFO_READER.split("\n")
    body = reader[1:-2]
    for _ in range(loops - 1):
        body = ["        repeat 1 {", *("    " + line for line in body), "        }"]
    return test_tokens.FIFO.replace(test_tokens.FIFO_READER,
                                    "\n".join([reader[0], *body, *reader[-2:]]))


def test_a_schedule_nested_deeper_than_python_compiles_is_stepped():
    inputs = test_tokens.INPUTS["fifo"]
    deepest = parse_spatial(_nested_reader(MAX_LOOPS))
    assert isinstance(_assert_agree(deepest, inputs, entry_points=True), Finished)
    deeper = parse_spatial(_nested_reader(MAX_LOOPS + 1))
    with pytest.raises(TooDeep, match=r"reader\[0, 0\] nests more than 19 repeats"):
        FastMachine(Machine(deeper, inputs))
    _assert_same_outcome(eval_choreography(deeper, inputs), run(Machine(deeper, inputs)))


# -- random graphs through the lane ----------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=dataflow_programs(multirate=True), target=small_targets(), pick=st.data())
def test_random_choreographies_and_their_mutants(text, target, pick):
    graph = parse_spatial(text, "random.sdf")
    ctx = SpatialContext(target)
    try:
        for p in SPATIAL_PIPELINE:
            graph = p(graph, ctx)
    except SpatialReject:
        assume(False)
    inputs = corpus(graph, 0, 1)[0]
    assert isinstance(_assert_agree(graph, inputs), Finished)
    variants = mutants(to_spatial_text(graph))
    label, changed = pick.draw(st.sampled_from(variants), label="mutant")
    _assert_agree(parse_spatial(changed), inputs)
