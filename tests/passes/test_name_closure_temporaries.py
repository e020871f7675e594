"""name-closure-temporaries: a tensor of `?` extents no local names that a call gives a marked
closure's parameter, which its statement (or a block's value) computes first, is computed
into a `let` first with the arguments before it, as the call computed them (and the operands
computed before the call, held in `let`s first), so that make-all-set-flags makes its flags
all set beside the local; one right of `&&` is named in the arm of the `if`
branch-closure-operands made of it."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.name_closure_temporaries import name_closure_temporaries
from nano_vx.passes.track_uninit_elements import track_uninit_elements
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "name_closure_temporaries"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", name_closure_temporaries)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", name_closure_temporaries)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_value_computed_first_is_named_first_with_the_arguments_before_it():
    text = to_text(run_front(CASES / "e9005_given_values_no_local_names.vx",
                             name_closure_temporaries).after)
    assert "let argument: ~_ = @g(0);\n    let argument#1: Tensor<i32, [?], Memory::CPU_DRAM> = " \
           "@make(3);\n    let r: ~_ = at(argument, argument#1) + 5;" in text
    # an assignment of a local, a print, a closure's block value, a `return`
    assert "s += at(argument#2, argument#3);" in text
    assert "@print(-at(1, argument#4));" in text
    assert "= @make(4);\n        at(0, argument#5) * 10\n    };" in text
    assert "= @make(1);\n        return at(0, argument#6);" in text
    # a function's body's value: after its statements
    assert "    let argument#7: ~_ = @g(1);\n" in text
    assert "at(argument#7, argument#8) + at(1, t)\n}" in text


def test_a_value_computed_after_operands_is_named_once_they_are_held_in_lets():
    case = CASES.parent / "track_uninit_elements" / \
        "closure_given_a_value_of_unknown_extents_after_another.vx"
    text = to_text(run_front(case, name_closure_temporaries).after)
    assert "= @make(3);\n    let operand: ~_ = at(argument, 1);\n" \
           "    let argument#1: Tensor<i32, [?], Memory::CPU_DRAM> = @make(4);\n" \
           "    @print(operand + at(argument#1, 2));" in text
    assert run_front(case, track_uninit_elements).diagnostics.codes() == []


def test_a_value_right_of_and_is_named_in_the_arm_branch_closure_operands_made():
    case = CASES.parent / "track_uninit_elements" / \
        "closure_given_a_value_of_unknown_extents_right_of_and.vx"
    text = to_text(run_front(case, name_closure_temporaries).after)
    assert "let operand: ~bool = if ok {\n        let argument: Tensor<i32, [?], " \
           "Memory::CPU_DRAM> = @make(3);\n        at(argument, 1) > 2\n    } else {\n" \
           "        false\n    };\n    @print(operand);" in text
    assert run_front(case, track_uninit_elements).diagnostics.codes() == []


# Hand-written Lcopied: a marked closure given a tensor made by ::uninit() at one call and, at
# another, a call's result of `?` extents after an argument computing something.
TEMPORARY = """
    // IL: Lcopied
    fn make(n: i32) -> Tensor<i32, [?], Memory::CPU_DRAM> {
        return Tensor<i32, [?]>::fill([n], n);
    }

    fn main() {
        let mut t: Tensor<i32, [?], Memory::CPU_DRAM> = Tensor<i32, [?]>::uninit([2]);
        t[1] = 7;
        let at: ~_ = |i: i32, x: Tensor<i32, [?], Memory::CPU_DRAM>| {
            written copy (x);
            x[i]
        };
        @print(at(1 + 1, @make(3)) + at(1, t));
    }
"""


def test_handwritten_the_arguments_up_to_the_value_are_named_first(run_pass, snapshot_txt):
    ran = run_pass("name-closure-temporaries", TEMPORARY)
    assert ran.codes == []
    assert "let argument: ~_ = 1 + 1;\n    let argument#1: Tensor<i32, [?], Memory::CPU_DRAM> = " \
           "@make(3);\n    @print(at(argument, argument#1) + at(1, t));" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "10\n"
    assert ran.dump == snapshot_txt
