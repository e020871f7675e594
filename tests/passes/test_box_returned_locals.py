"""box-returned-locals: a local a function returns a reference to becomes a tensor of one
element, whose buffer outlives the call as the interpreter keeps the local's cell alive."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.box_returned_locals import box_returned_locals
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "box_returned_locals"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", box_returned_locals)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"box-returned-locals: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", box_returned_locals)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_it_as_the_interpreter_does(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_use_of_a_boxed_local_is_its_element_and_other_locals_stay():
    ran = run_front(CASES / "returned.vx", box_returned_locals)
    fns = {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}
    assert "let mut c: Tensor<i32, [1]> = Tensor<i32, [1]>([start]);" in fns["counter"]
    assert "c[0] += 2;" in fns["counter"] and "&mut c[0]" in fns["counter"]
    assert "let seen: ~&i32 = &c[0];" in fns["counter"]
    assert "let none: Tensor<i32, [1]> = Tensor<i32, [1]>([-1]);" in fns["first_over"]
    assert "return &sq[0];" in fns["first_over"]
    assert ran.after.items[-1] is ran.before.items[-1]  # main returns no reference


def test_closures_of_the_function_read_and_write_the_boxed_element():
    text = to_text(run_front(CASES / "read_by_a_closure.vx", box_returned_locals).after)
    assert "let mut m: Tensor<i32, [1]> = Tensor<i32, [1]>([if a > b {" in text
    assert "m[0] * 2" in text and "m[0] = m[0] + 1;" in text
    assert "&m[0]\n}" in text


# Hand-written Lsafe: a local returned by reference from one arm of an `if` value and read
# through a reference lent to a call, beside a parameter returned by reference.
RETURNED_OR_LENT = """
    // IL: Lsafe
    fn peek(r: &i32) -> i32 {
        *r
    }

    fn pick(flag: bool, p: &i32) -> &i32 {
        let m: i32 = 7;
        let seen: i32 = @peek(&m);
        if flag {
            &m
        } else {
            p
        }
    }

    fn main() {
        let x: i32 = 3;
        @print(*@pick(true, &x) + *@pick(false, &x));
    }
"""


def test_handwritten_a_local_returned_from_an_arm_of_an_if(run_pass, snapshot_txt):
    ran = run_pass("box-returned-locals", RETURNED_OR_LENT)
    assert ran.codes == []
    assert "let m: Tensor<i32, [1]> = Tensor<i32, [1]>([7]);" in ran.dump
    assert "@peek(&m[0])" in ran.dump and "&m[0]\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "10\n"
    assert ran.dump == snapshot_txt
