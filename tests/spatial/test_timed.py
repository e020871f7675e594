"""The timed oracle (nano_vx/oracle/timed.py): the cycles of each run of each engine of a
hand-written pipeline, worked out by hand; a deadlock; and the agreement with the clock.

The agreement is exact: every op's cycles are integers, so the clock's period is a rational
(Howard's iteration in Fractions) and the simulation's, D cycles over c runs, is one too; on
every reference program and every target the two are equal, for the program and for each
engine."""

from __future__ import annotations

import pytest

from choreographies import PIPE
from nano_vx.oracle.outcomes import Deadlock
from nano_vx.oracle.timed import run_timed
from nano_vx.spatial.clock import clock
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.target import load_target, small_target
from spatial_reference import CASES, IDS, steps

SMALL = small_target(1, 2)


def pipe(depth: int, credits: int | None = None):
    text = PIPE.replace("DEPTH", str(depth))
    if credits is not None:
        text = text.replace(f"x_credit (0, 0) initial {depth}", f"x_credit (0, 0) initial {credits}")
    return parse_spatial(text)


def test_the_runs_of_a_pipeline_by_hand():
    # Cycles per op (tests/spatial/test_clock.py): reader 1, 102, 4, 3 (110 a tile); compute
    # 1, 1, 2, 1, 1, 3 (9); writer 1, 102, 1 (104). Depth 2: the reader never waits, so its
    # runs follow each other every 8 x 110 = 880 cycles. The compute engine starts when the
    # first signal ends (110); the writer when the first push ends (110 + 1 + 1 + 2 + 1).
    t = run_timed(pipe(2), SMALL)
    assert t.runs["reader[0, 0]"][:3] == [(0, 880), (880, 1760), (1760, 2640)]
    assert t.runs["compute[0, 1]"][:3] == [(110, 889), (990, 1769), (1870, 2649)]
    assert t.runs["writer[0, 1]"][:3] == [(115, 989), (995, 1869), (1875, 2749)]
    assert (t.period, t.first_run, t.simulated) == (880, 989, 16)
    assert set(t.engines.values()) == {880}


def test_a_shallow_buffer_makes_the_reader_wait():
    # Depth 1: each tile but the first waits for the compute engine's credit, 110 + 9 a
    # tile; the reader's first run ends after 8 x 110 + 7 x 9 = 943 cycles, and every run
    # starts where the compute engine's last credit of the run before ends.
    t = run_timed(pipe(1), SMALL)
    assert t.runs["reader[0, 0]"][:3] == [(0, 943), (952, 1895), (1904, 2847)]
    assert t.period == 952


def test_a_program_that_deadlocks_is_a_deadlock():
    outcome = run_timed(pipe(2, credits=0), SMALL)
    assert isinstance(outcome, Deadlock)
    assert outcome.blocked == (("reader[0, 0]", "wait x_credit 1"),
                               ("compute[0, 1]", "wait x_data 1"),
                               ("writer[0, 1]", "wait_front y 1"))


@pytest.mark.slow
@pytest.mark.parametrize("program,target", CASES, ids=IDS)
def test_the_simulated_period_is_the_clocks(program, target):
    graph = steps(program, target)["schedule"][1]
    t = load_target(target)
    timed, predicted = run_timed(graph, t), clock(graph, t)
    assert timed.period == predicted.period
    assert timed.engines == predicted.engines
    # The first run is the program run once: simulating one run alone ends at the same cycle.
    assert run_timed(graph, t, runs=1, most=1).first_run == timed.first_run
    # Every engine starts a run only once its run before has ended.
    for spans in timed.runs.values():
        assert all(start < end for start, end in spans)
        assert all(spans[k][1] <= spans[k + 1][0] for k in range(len(spans) - 1))
