"""dereference-constants: a constant holding a `&` to a scalar whose value names nothing that
may change holds the scalar, and each read of it borrows it. The program prints what it
printed (and stops where it stopped), and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.dereference_constants import dereference_constants
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "dereference_constants"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", dereference_constants)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", dereference_constants)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_an_element_of_a_tensor_stays_a_reference():
    text = to_text(run_front(CASES / "wide_and_chained.vx", dereference_constants).after)
    assert "const E: &i32 = &@T[0];" in text
    assert "const B: i64 = *(if *(&@A) > 0 {" in text
    assert "@print(*(&@E));" not in text


def test_a_reference_a_call_chooses_between_two_tensors_is_refused_then_repaired():
    # index-chosen-constant-elements indexes one tensor only
    assert_refused_then_repaired(CASES / "e5010_chosen_by_a_call_between_two_tensors.vx",
                                 dereference_constants, "E5010",
                                 "a constant holding a reference whose value calls")


# Hand-written Lconstparts: a reference constant borrowing a literal, one a function handing
# on the reference it is given computes, which is held too, one borrowing an element of a
# tensor, which stays, and a read of each.
KINDS = """
    // IL: Lconstparts
    fn at(r: &i32) -> &i32 {
        r
    }

    const T: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(4);

    const R: &i32 = &5;

    const Q: &i32 = @at(@R);

    const F: &i32 = &@T[0];

    fn main() {
        @print(*@R + *@Q + *@F);
    }
"""


def test_handwritten_a_borrowed_literal_is_held_and_an_element_left(run_pass):
    ran = run_pass("dereference-constants", KINDS)
    assert ran.codes == []
    assert "const R: i32 = *(&5);" in ran.dump
    assert "const Q: i32 = *@at(&@R);" in ran.dump
    assert "const F: &i32 = &@T[0];" in ran.dump
    assert "@print(*(&@R) + *(&@Q) + *@F);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "14\n"


# Hand-written Lconstparts: a reference constant a function borrowing an element of the
# tensor it is lent computes stays a reference, which no global keeps.
RETURNED = """
    // IL: Lconstparts
    fn first(t: &Tensor<i32, [2]>) -> &i32 {
        &t[0]
    }

    const T: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(4);

    const F: &i32 = @first(&@T);

    fn main() {
        @print(*@F);
    }
"""


def test_handwritten_a_returned_element_is_refused(run_pass):
    assert run_pass("dereference-constants", RETURNED).codes == ["E5010"]


# Hand-written Lconstparts: a reference to an element of a tensor the value makes, through a
# `let` of a borrow of it, is held (no name outside the value holds the tensor); one of a
# tensor made by ::uninit() stays a reference, as does one of a tensor a `let mut` binds.
MADE = """
    // IL: Lconstparts
    const M: &i32 = if true {
        let k: &Tensor<i32, [2]> = &Tensor<i32, [2]>::fill(4);
        &k[1]
    } else {
        &Tensor<i32, [2]>([5, 6])[0]
    };

    const U: &i32 = &Tensor<i32, [2]>::uninit()[0];

    const V: &i32 = if true {
        let mut k: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(7);
        &k[0]
    } else {
        &8
    };

    fn main() {
        @print(*@M);
    }
"""


def test_handwritten_an_element_of_a_tensor_the_value_makes_is_held(run_pass):
    ran = run_pass("dereference-constants", MADE)
    assert ran.codes == []
    assert "const M: i32 = *(if true {" in ran.dump
    assert "const U: &i32 = &Tensor<i32, [2]>::uninit()[0];" in ran.dump
    assert "const V: &i32 = if true {" in ran.dump
    assert "@print(*(&@M));" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "4\n"
