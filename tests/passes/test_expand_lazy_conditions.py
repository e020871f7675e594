"""expand-lazy-conditions: a short circuit whose right computes what name-temporaries names
with a `let` is the `if` it means, and a loop whose condition does computes it at the top of
its body; the program prints what it printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.expand_lazy_conditions import expand_lazy_conditions
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "expand_lazy_conditions"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", expand_lazy_conditions)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", expand_lazy_conditions)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_short_circuit_needing_a_let_is_the_if_it_means_and_a_loop_tests_in_its_body():
    text = to_text(run_front(CASES / "short_circuits.vx", expand_lazy_conditions).after)
    assert "let b: ~bool = if k > 0 {\n        @make(k).x > 1\n    } else {\n        false" in text
    assert "let c: ~bool = if k == 0 {\n        true\n    } else {\n        @make(k + 1).x > 1" \
        in text
    assert "while true {\n        let cond: ~_ = @make(i).x < 3;\n        if !cond {\n" \
        "            break;\n        }\n        i += 1;" in text
    # a condition whose aggregate is only on the right of `&&` is the `if` it means
    assert "let cond#1: ~_ = if n < 10 {" in text


def test_a_print_right_of_and_is_the_if_it_means_an_ifs_condition_a_let():
    text = to_text(run_front(CASES / "units_compared_right_of_and.vx",
                             expand_lazy_conditions).after)
    assert "let u: ~bool = if c > 1 {\n        @print(1) == @print(2)\n    } else {" in text
    assert "let cond#1: ~_ = if c > 5 {" in text and "if cond#1 {" in text
    strings = to_text(run_front(CASES / "string_printed_right_of_and.vx",
                                expand_lazy_conditions).after)
    assert "let cond: ~_ = if i > 0 {\n            @seen(@print(@pick(i))) == 1" in strings


def test_a_print_right_of_and_inside_a_larger_expression_is_computed_by_a_let_in_its_arm():
    text = to_text(run_front(CASES / "units_compared_right_of_and_inside_expressions.vx",
                             expand_lazy_conditions).after)
    assert "@print(@f(@g(), if c < 1 {\n        let right: ~bool = @print(1) == @print(2);\n" \
        "        right\n    } else {\n        false\n    }));" in text
    # the right of another `&&` is an `if` that holds a statement: computed by a `let` too
    assert "let right#6: ~bool = if c > 0 {\n            let right#5: ~bool = @print(7) ==" \
        in text
    # where the `if` is the value of a statement, its right stays as it is
    stated = to_text(run_front(CASES / "units_compared_right_of_and.vx",
                               expand_lazy_conditions).after)
    assert "let right" not in stated


def test_other_conditions_keep_their_form():
    text = to_text(run_front(CASES / "other_conditions.vx", expand_lazy_conditions).after)
    assert "let b: ~bool = k > 0 && @id(k) > 1;" in text
    assert "while i < 3 && @id(i) < 5 {" in text
    # a struct literal in its declaration's order, and an aggregate in a closure's body
    assert "@print(k > 0 && P { x: @id(1) }.x > 0);" in text
    assert "@print(k > 5 || f(2) > 1);" in text


# Hand-written Lconstparts: an aggregate a call makes in a loop's condition, which runs once per
# turn: tested in the loop's body, it is computed once per turn there.
IN_A_CONDITION = """
    // IL: Lconstparts
    struct P {
        x: i32,
    }

    fn make(v: i32) -> P {
        P { x: v }
    }

    fn main() {
        let mut k: i32 = 0;
        while @make(k).x < 3 {
            k = k + 1;
        }
        @print(k);
    }
"""


def test_handwritten_an_aggregate_in_a_loop_condition_is_computed_in_the_body(run_pass):
    ran = run_pass("expand-lazy-conditions", IN_A_CONDITION)
    assert ran.codes == []
    assert "while true {\n        let cond: ~_ = @make(k).x < 3;\n        if !cond {" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "3\n"
