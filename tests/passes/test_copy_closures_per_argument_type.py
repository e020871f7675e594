"""copy-closures-per-argument-type: a closure a `let` binds and that is only called, whose
calls give a parameter of no written type values of different types (or a plain value and a
typed one), is called in a copy of its own per set of types, so that native code types each
copy's parameter as its calls give it, computing its body as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.copy_closures_per_argument_type import copy_closures_per_argument_type
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_cli, run_front)

CASES = Path(__file__).parent / "cases" / "copy_closures_per_argument_type"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010"))
REFUSED = {"e5010_given_closures_of_one_parameter_type_two_results": "a value of type f64 "
           "where i32 is expected"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_closures_per_argument_type)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES + [f"{c}_repaired" for c in REFUSED])
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_closures_per_argument_type)


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
    ran = run_front(CASES / f"{case}.vx", copy_closures_per_argument_type)
    return [n.callee.name for n in descendants(ran.after)
            if n._prod == "Call" and n.callee._prod == "Local"]


def test_each_set_of_types_calls_a_copy_of_its_own():
    # the first call's types keep the closure, each other set calls a copy named for them
    assert _callees("given_integers_of_two_widths_and_floats") == \
        ["twice", "twice_i64", "twice_f32", "twice_f64"]
    assert _callees("two_parameters_given_plain_values_and_i64s") == \
        ["h", "h_i64_i64", "h_i64_i32"]
    assert _callees("given_a_number_a_float_and_a_bool") == ["id", "id_f64", "id_bool"]
    # a closure given says its type by its parameters'
    assert _callees("given_closures_of_two_types") == \
        ["f", "f", "f#1", "f#1", "twice", "twice_fn_f64_f64"]


def test_a_closure_given_one_type_or_types_unsaid_is_left_as_it_is():
    ran = run_front(CASES / "given_one_type_or_of_types_unsaid.vx",
                    copy_closures_per_argument_type)
    assert ran.after is ran.before


HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let k: ~i32 = 9;
        let t: i64 = 7;
        let h: ~_ = |q| {
            let m: ~_ = q * 2;
            m * 1000000000
        };
        let y: i64 = h(k) as i64;
        let z: i64 = h(t);
        @print(y);
        @print(z);
    }
"""


def test_handwritten_the_call_given_an_i64_calls_a_copy_with_fresh_names(run_pass,
                                                                         snapshot_txt):
    ran = run_pass("copy-closures-per-argument-type", HANDWRITTEN)
    assert ran.codes == []
    assert "let h_i64: ~_ = |q#1| {" in ran.dump and "let m#1: ~_ = q#1 * 2;" in ran.dump
    assert "let y: i64 = h(k) as i64;" in ran.dump and "let z: i64 = h_i64(t);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "820130816\n14000000000\n"
    assert ran.dump == snapshot_txt
