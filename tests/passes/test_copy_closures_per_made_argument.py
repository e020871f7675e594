"""copy-closures-per-made-argument: a closure given a variable bound to what a call of a local
returns, calling its parameter only, is called through a copy reading the variable, so that
the variable is only called, where capture-environments lowers it."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.copy_closures_per_made_argument import copy_closures_per_made_argument
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_cli, \
    run_front

CASES = Path(__file__).parent / "cases" / "copy_closures_per_made_argument"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010"))
REFUSED = {"e5010_made_closure_handed_on": "a closure used as a value that captures 'k', a "
           "variable of the closure around it"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_closures_per_made_argument)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES + [f"{c}_repaired" for c in REFUSED])
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_closures_per_made_argument)


@pytest.mark.parametrize("case", REFUSED)
def test_what_native_code_does_not_lower_runs_in_the_interpreter_saying_why(case):
    status, printed, err = run_cli(CASES / f"{case}.vx")
    assert f"does not lower {REFUSED[case]}" in " ".join(err.split())
    assert (status, printed) == run_cli(CASES / f"{case}.vx", "--action", "interpret")[:2]


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_it_as_the_interpreter_does(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _callees(case: str) -> list:
    ran = run_front(CASES / f"{case}.vx", copy_closures_per_made_argument)
    return [n.callee.name for n in descendants(ran.after)
            if n._prod == "Call" and n.callee._prod == "Local"]


def test_each_call_calls_a_copy_bound_in_the_block_around_it_and_the_closure_goes():
    text = to_text(run_front(CASES / "given_in_a_loop_and_in_an_arm.vx",
                             copy_closures_per_made_argument).after)
    assert "let both:" not in text
    assert "for i in 0..3 {\n        let both_by3_by5: ~_ = |x#2: i32| {\n" \
        "            by5(by3(x#2)) - by3(x#2)\n" in text
    assert "let by7: ~_ = scale(7);\n        let both_by7_by3:" in text
    assert "};\n    @print(both_by5_by3(2) + both_by3_by3(4));" in text


def test_a_closure_handing_its_parameter_on_is_left_as_it_is():
    ran = run_front(CASES / "e5010_made_closure_handed_on.vx", copy_closures_per_made_argument)
    assert ran.after is ran.before
    assert "apply_n" in _callees("e5010_made_closure_handed_on")


HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let mk: ~_ = |k: i32| {
            |x: i32| {
                x * k
            }
        };
        let made: ~_ = mk(3);
        let plain: ~_ = |y: i32| {
            y + 1
        };
        let run: ~_ = |f, z: i32| {
            f(z) + 1
        };
        @print(run(made, 2));
        @print(run(plain, 2));
    }
"""


def test_handwritten_only_the_call_given_a_made_value_calls_a_copy(run_pass, snapshot_txt):
    ran = run_pass("copy-closures-per-made-argument", HANDWRITTEN)
    assert ran.codes == []
    assert "let run_made: ~_ = |z#1: i32| {\n        made(z#1) + 1\n" in ran.dump
    assert "@print(run_made(2));" in ran.dump and "@print(run(plain, 2));" in ran.dump
    assert "let run: ~_ = |f, z: i32|" in ran.dump  # a call still gives it a value
    assert _printed(ran.before) == _printed(ran.tree) == "7\n4\n"
    assert ran.dump == snapshot_txt


def test_a_copy_calls_the_copies_its_closures_calls_call():
    assert _callees("given_in_the_body_of_a_closure_given_one") == \
        ["make_adder", "make_adder", "add5", "apply_add5#1", "add2", "both_add2"]
