"""hoist-lets-of-chosen-closures: a scalar variable a closure given later to a launched
`let mut` reads is bound to its zero before that variable, where the launch may run after
its `let`; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.check_native_subset import check_native_subset
from nano_vx.passes.choose_closures_in_kernels import choose_closures_in_kernels
from nano_vx.passes.hoist_lets_of_chosen_closures import hoist_lets_of_chosen_closures
from front import (assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_cli, run_front)

CASES = Path(__file__).parent / "cases" / "hoist_lets_of_chosen_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))
REFUSED = CASES / "e5010_tensor_read_by_a_closure_a_launched_variable_is_given_later.vx"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", hoist_lets_of_chosen_closures)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", hoist_lets_of_chosen_closures)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_launch_in_a_closure_given_back_is_given_the_closure_bound_later():
    """`m` is bound to 0 before `f`, assigned 5 where it was bound: the kernel is given both
    closures `f` may hold."""
    case = CASES / "launched_by_a_closure_named_in_a_closure_another_gives_back.vx"
    text = to_text(run_front(case, choose_closures_in_kernels).after)
    assert text.index("let mut m: ~i32 = 0;") < text.index("let mut f: ~_ = f_0;")
    assert "    m = 5;" in text
    assert "launch main$kernel0 on(Topology::CPU)(f_which, y, f_0, f_1)" in text


def test_a_tensor_read_later_stays_and_the_interpreter_runs_it_saying_why():
    assert_refused_then_repaired(REFUSED, check_native_subset, "E5010",
                                 "a closure passed to a function")
    ran = run_front(REFUSED, hoist_lets_of_chosen_closures)
    assert ran.after == ran.before
    native = run_cli(REFUSED)
    assert native[:2] == (0, "3\n5\n15\n") and "a closure passed to a function" in native[2]


# Hand-written Lpinned: `run` is called by a closure `mk` gives back, after the `let` of `m`
# that the closure `f` is given reads (hoisted), and of `n` that no closure given to `f`
# reads (kept where it is).
HANDWRITTEN = """
    // IL: Lpinned
    fn main() {
        let mut f: ~_ = |x: i32| {
            x + 1
        };
        let run: ~_ = |y: i32| {
            launch main$kernel0 on(Topology::CPU)(f, y)
        };
        let mk: ~_ = |y#1: i32| {
            || {
                run(y#1)
            }
        };
        let early: ~_ = mk(1);
        let n: i64 = 7;
        let m: i32 = 5;
        f = |x#1: i32| {
            x#1 * m
        };
        @print(early());
        @print(n);
    }

    fn main$kernel0(f: _, y: i32) on Topology::CPU {
        f(y)
    }
"""


def test_handwritten_only_what_a_later_closure_reads_is_hoisted(run_pass, snapshot_txt):
    ran = run_pass("hoist-lets-of-chosen-closures", HANDWRITTEN)
    assert ran.codes == []
    assert ran.dump.index("let mut m: i32 = 0;") < ran.dump.index("let mut f")
    assert "    m = 5;" in ran.dump and "let n: i64 = 7;" in ran.dump
    assert ran.dump == snapshot_txt
