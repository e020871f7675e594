"""copy-closures-per-argument-kind: a closure a `let` binds, whose parameter named other than
as a callee its calls give a function at one and a closure at another, is called in a copy
of its own per kind, so that halt-closure-prints names each as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.copy_closures_per_argument_kind import copy_closures_per_argument_kind
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "copy_closures_per_argument_kind"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_closures_per_argument_kind)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_closures_per_argument_kind)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_it_as_the_interpreter_does(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_only_a_parameter_given_both_kinds_and_named_otherwise_makes_copies():
    def lets(case):
        ran = run_front(CASES / f"{case}.vx", copy_closures_per_argument_kind)
        return sorted(n.name for n in descendants(ran.after) if n._prod == "Let")
    assert "show_closure" in lets("function_given_first")  # the first call keeps `show`
    assert "same_closure_function" in lets("two_parameters_compared")
    assert "same_function_closure" in lets("two_parameters_compared")
    ran = run_front(CASES / "given_one_kind_or_only_called.vx", copy_closures_per_argument_kind)
    assert ran.after is ran.before


def test_a_parameter_every_call_gives_one_kind_tells_the_kind_it_gives():
    ran = run_front(CASES / "parameters_given_told_parameters.vx", copy_closures_per_argument_kind)
    calls = {n.callee.name for n in descendants(ran.after)
             if n._prod == "Call" and n.callee._prod == "Local"}
    assert {"show", "show_closure"} <= calls


def test_the_calls_in_copies_make_copies_of_what_they_call_in_turn():
    ran = run_front(CASES / "parameters_given_parameters_of_copies.vx",
                    copy_closures_per_argument_kind)
    lets = {n.name for n in descendants(ran.after) if n._prod == "Let"}
    assert {"outer_closure", "pass_closure", "show_closure"} <= lets


HANDWRITTEN = """
    // IL: Lpinned
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }

    fn main() {
        let n: ~i32 = 3;
        let m: ~_ = |a: i32, b: i32| {
            a * b
        };
        let pick: ~_ = |h, y: i32| {
            let z: ~i32 = h(y, n);
            if z > 100 {
                @print(h);
            }
            z
        };
        @print(pick(@add, 1));
        @print(pick(m, 2));
        @print(pick(@add, 5));
    }
"""


def test_handwritten_the_calls_given_a_closure_call_a_copy_with_fresh_names(run_pass,
                                                                          snapshot_txt):
    ran = run_pass("copy-closures-per-argument-kind", HANDWRITTEN)
    assert ran.codes == []
    assert "let pick_closure: ~_ = |h#1, y#1: i32| {" in ran.dump
    assert "let z#1: ~i32 = h#1(y#1, n);" in ran.dump
    assert "@print(pick(@add, 1));" in ran.dump and "@print(pick_closure(m, 2));" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "4\n6\n8\n"
    assert ran.dump == snapshot_txt
